"""Faults and hostile use, round two (issue 27): no secret on the page or in a message, output
onto what is not a plain file, a server that answers database errors in one line, refusals that
are one line with the README's exit code. Each test makes its own files in a temporary folder;
every server listens on 127.0.0.1 only."""

from __future__ import annotations

import io
import json
import os
import re
import resource
import select
import shutil
import signal
import sqlite3
import stat
import subprocess
import sys
import threading
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable, Sequence
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import create_engine, text

from conftest import postgres_database, postgres_reason
from pdn.archive.criteria import Criteria
from pdn.archive.filtering import filter_paths
from pdn.db.connection import masked, open_database, shown
from pdn.db.questions import GameFilter, count_games
from pdn.db.store import import_paths
from pdn.rules.fen import FenError, parse_fen
from pdn.rules.variants import get_variant

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
SAMPLE_GAMES = 50  # the games of samples/ (20 English, 17 Italian, 6 International, ...)
PDN = [sys.executable, "-m", "pdn.cli.app"]


def pdn(
    *args: str, cwd: Path | None = None, file_limit: int | None = None, prefix: Sequence[str] = ()
) -> subprocess.CompletedProcess[str]:
    """`pdn ARGS` run as a user runs it; *file_limit*: no file may grow past this many bytes
    (RLIMIT_FSIZE, a full disk without a device). Never a traceback."""

    def limited() -> None:
        if file_limit is not None:
            signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past it fails with EFBIG
            resource.setrlimit(resource.RLIMIT_FSIZE, (file_limit, file_limit))

    done = subprocess.run(
        [*prefix, *PDN, *args], cwd=cwd, capture_output=True, text=True, timeout=300,
        preexec_fn=limited,
    )  # fmt: skip
    assert "Traceback" not in done.stdout + done.stderr, done.stderr[-3000:]
    return done


@pytest.fixture(scope="module")
def samples_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """An SQLite database of samples/ (read by the tests, never written)."""
    path = tmp_path_factory.mktemp("faults") / "samples.db"
    engine = open_database(str(path))
    assert import_paths(engine, [SAMPLES]).games == SAMPLE_GAMES
    engine.dispose()
    with sqlite3.connect(path) as conn:  # one file, no write-ahead log beside it
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    return path


def start_server(*args: str, prefix: Sequence[str] = ()) -> tuple[subprocess.Popen[str], str]:
    """`pdn serve ARGS` on 127.0.0.1 and a free port: the process and its first line."""
    proc = subprocess.Popen(
        [*prefix, *PDN, "serve", *args, "--host", "127.0.0.1", "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
    )  # fmt: skip
    assert proc.stdout is not None
    ready, _, _ = select.select([proc.stdout], [], [], 120)
    line = proc.stdout.readline() if ready else ""
    if "Ctrl-C stops" not in line:
        proc.kill()
        raise AssertionError(f"pdn serve did not start: {line} {proc.communicate()[1]}")
    return proc, line


def address(line: str) -> str:
    found = re.search(r"at (http://127\.0\.0\.1:\d+/)", line)
    assert found, line
    return found.group(1)


def stop(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    """Ctrl-C to the server's process group: its exit code, stdout and stderr."""
    os.killpg(proc.pid, signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


def get(url: str) -> tuple[int, dict[str, object]]:
    """Status and JSON answer of a GET."""
    try:
        with urllib.request.urlopen(url, timeout=60) as answer:
            return answer.status, json.load(answer)
    except urllib.error.HTTPError as exc:
        return exc.code, json.load(exc)


# -- 1. a password never shown -----------------------------------------------------------------


def test_a_url_is_shown_with_its_password_hidden() -> None:
    assert (
        shown("postgresql://ann:s3cret@db.example/games") == "postgresql://ann:***@db.example/games"
    )
    assert shown("postgresql://ann:p%40ss@h/d") == "postgresql://ann:***@h/d"  # p@ss, quoted
    assert shown("postgresql://ann@h/d") == "postgresql://ann@h/d"
    assert shown("games.db") == "games.db"
    said = masked("FATAL: password p@ss refused", "postgresql://ann:p%40ss@h/d")
    assert said == "FATAL: password *** refused"


@pytest.mark.skipif(postgres_reason() is not None, reason=str(postgres_reason()))
def test_no_password_on_the_page_or_in_a_message() -> None:
    secret = "s3cret-Pw9"
    with postgres_database() as url:  # the test server trusts every login: any password works
        with_password = url.replace("postgres@", f"postgres:{secret}@", 1)
        assert secret in with_password
        done = pdn("import", str(SAMPLES), "--db", with_password)
        assert done.returncode == 0 and secret not in done.stdout + done.stderr
        proc, line = start_server("--db", with_password)
        try:
            assert secret not in line and "postgres:***@" in line
            status, info = get(address(line) + "api/info")
            assert status == 200 and info["games"] == SAMPLE_GAMES
            assert secret not in json.dumps(info) and "postgres:***@" in str(info["title"])
        finally:
            code, out, err = stop(proc)
        assert code == 0 and secret not in out + err and "Traceback" not in err
        missing = with_password.rsplit("/", 1)[0] + "/no_such_database"
        done = pdn("query", "--db", missing)
        assert done.returncode == 1 and secret not in done.stderr
        assert done.stderr.startswith("pdn: postgresql+psycopg://postgres:***@")


# -- 2. output onto a symlink, a FIFO, a full disk ---------------------------------------------


def read_fifo(fifo: Path, into: list[bytes]) -> threading.Thread:
    """A reader of *fifo* in a thread: what it reads is put in *into*."""

    def read() -> None:
        with fifo.open("rb") as fh:
            into.append(fh.read())

    reader = threading.Thread(target=read, daemon=True)
    reader.start()
    return reader


def test_output_onto_a_fifo_is_a_stream(samples_db: Path, tmp_path: Path) -> None:
    for fmt in ("parquet", "tsv"):
        fifo = tmp_path / f"out-{fmt}"
        os.mkfifo(fifo)
        got: list[bytes] = []
        reader = read_fifo(fifo, got)
        done = pdn("query", "--db", str(samples_db), "-f", fmt, "-o", str(fifo), "--limit", "0")
        reader.join(60)
        assert done.returncode == 0, done.stderr
        assert stat.S_ISFIFO(fifo.lstat().st_mode)  # still the FIFO, never a regular file
        if fmt == "parquet":
            assert len(pd.read_parquet(io.BytesIO(got[0]))) == SAMPLE_GAMES
        else:
            assert got[0].decode().count("\n") == SAMPLE_GAMES + 1  # and a header
        assert sorted(p.name for p in tmp_path.iterdir() if ".part" in p.name) == []


def test_output_onto_a_symlink_writes_its_target(samples_db: Path, tmp_path: Path) -> None:
    (tmp_path / "elsewhere").mkdir()
    for fmt in ("parquet", "tsv", "pdn"):
        target = tmp_path / "elsewhere" / f"games.{fmt}"
        target.write_text("old")
        target.chmod(0o640)
        link = tmp_path / f"link.{fmt}"
        link.symlink_to(target)
        done = pdn("query", "--db", str(samples_db), "-f", fmt, "-o", str(link), "--limit", "0")
        assert done.returncode == 0, done.stderr
        assert link.is_symlink() and os.readlink(link) == str(target)
        assert stat.S_IMODE(target.stat().st_mode) == 0o640  # its mode kept
        if fmt == "parquet":
            assert len(pd.read_parquet(target)) == SAMPLE_GAMES
        elif fmt == "tsv":
            assert target.read_text().count("\n") == SAMPLE_GAMES + 1
        else:
            assert target.read_text().count("[Event ") == SAMPLE_GAMES
    dangling = tmp_path / "to-be-made.tsv"
    dangling.symlink_to(tmp_path / "elsewhere" / "new.tsv")
    assert pdn("query", "--db", str(samples_db), "-o", str(dangling)).returncode == 0
    assert dangling.is_symlink() and (tmp_path / "elsewhere" / "new.tsv").stat().st_size > 0


def test_a_full_disk_is_one_line_with_the_path(samples_db: Path, tmp_path: Path) -> None:
    source = tmp_path / "rollback.db"  # no write-ahead log: a reader writes no file
    shutil.copy(samples_db, source)
    with sqlite3.connect(source) as conn:
        conn.execute("PRAGMA journal_mode=DELETE")
    (tmp_path / "out").mkdir()
    for fmt in ("tsv", "parquet", "pdn"):
        out = tmp_path / "out" / f"games.{fmt}"
        done = pdn("query", "--db", str(source), "-f", fmt, "-o", str(out), "--limit", "0",
                   file_limit=2000)  # fmt: skip
        assert done.returncode == 1
        said = done.stderr  # pyarrow says more: "Error writing bytes ... File too large"
        assert said.startswith(f"pdn: {out}: ") and said.endswith("File too large\n")
        assert said.count("\n") == 1
        assert list(out.parent.iterdir()) == []  # nothing half written, no temporary file left
    db = tmp_path / "full.db"  # room for the empty database (28 pages, 115 kB), not the games
    done = pdn("import", str(SAMPLES), "--db", str(db), file_limit=150_000)
    assert done.returncode == 1
    assert done.stderr.startswith(f"pdn: {db}: import stopped: ") and done.stderr.count("\n") == 1


# -- 4. the server and database errors ---------------------------------------------------------

EXPLORE = "api/explore?variant=english&fen=" + urllib.parse.quote(
    "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"
)


def served_errors(db: str, damage: object = None) -> list[tuple[int, str]]:
    """Status and error of /api/count, /api/games and /api/explore on `pdn serve --db DB`,
    after *damage* (called once the server runs); the server's stderr holds no traceback."""
    proc, line = start_server("--db", db)
    try:
        if callable(damage):
            damage()
        answers = [get(address(line) + p) for p in ("api/games", "api/count", EXPLORE)]
    finally:
        code, _, err = stop(proc)
    assert code == 0 and "Traceback" not in err and "Exception" not in err, err
    return [(status, str(answer.get("error"))) for status, answer in answers]


def test_a_damaged_database_is_one_line_on_the_page(samples_db: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.db"
    shutil.copy(samples_db, damaged)
    pages = damaged.stat().st_size // 4096
    conn = sqlite3.connect(damaged)  # the open check reads the schema's pages and pdn_meta's
    read = "SELECT pageno FROM dbstat WHERE name IN ('sqlite_schema', 'pdn_meta')"
    kept = {n for (n,) in conn.execute(read)}
    conn.close()
    with damaged.open("r+b") as fh:  # every page but those (a table on the first ten pages
        for n in range(2, pages + 1):  # answered 200 where the file's layout put it there)
            if n not in kept:
                fh.seek(4096 * (n - 1))
                fh.write(b"\xff" * 4096)
    for status, error in served_errors(str(damaged)):
        assert status == 503 and error.startswith("the database file is damaged (")


def test_a_missing_table_is_one_line_on_the_page(samples_db: Path, tmp_path: Path) -> None:
    broken = tmp_path / "no-move-tallies.db"
    shutil.copy(samples_db, broken)
    with sqlite3.connect(broken) as conn:
        conn.execute("DROP TABLE move_tallies")
    answers = served_errors(str(broken))
    # the explorer's, from the start position (pdn.db.tallies); the others need none
    assert answers[2] == (503, "no such table: move_tallies")
    assert [status for status, _ in answers[:2]] == [200, 200]


@pytest.mark.skipif(postgres_reason() is not None, reason=str(postgres_reason()))
def test_a_database_gone_while_served_is_one_line_on_the_page() -> None:
    with postgres_database() as url:
        engine = open_database(url)
        import_paths(engine, [SAMPLES])
        engine.dispose()
        admin = create_engine(url.rsplit("/", 1)[0] + "/postgres", isolation_level="AUTOCOMMIT")
        name = url.rsplit("/", 1)[1]

        def drop() -> None:
            with admin.connect() as conn:
                conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
            with admin.connect() as conn:  # the fixture drops it again: there it is, empty
                conn.execute(text(f'CREATE DATABASE "{name}"'))

        answers = served_errors(url, drop)
        admin.dispose()
    for status, error in answers:
        assert status == 503 and error and "SELECT" not in error and "\n" not in error


# -- 7, 8, 11. refusals: one line, the README's exit code -------------------------------------


def test_a_schema_version_that_is_no_number_is_one_line(samples_db: Path, tmp_path: Path) -> None:
    odd = tmp_path / "odd.db"
    shutil.copy(samples_db, odd)
    with sqlite3.connect(odd) as conn:
        conn.execute("UPDATE pdn_meta SET value = 'three' WHERE key = 'schema_version'")
    for args in (["query", "--db", str(odd)], ["import", str(SAMPLES), "--db", str(odd)]):
        done = pdn(*args)
        assert done.returncode == 2  # a database the toolkit will not use, as the README says
        assert done.stderr == (
            f"pdn: {odd}: its schema version ('three') is not a number; "
            "import the archives into a new database\n"
        )


def read_only(folder: Path) -> list[str]:
    """A command prefix under which *folder* is a read-only mount (its own mount namespace):
    files the user may read but not write, even as root."""
    prefix = ["unshare", "-m", "sh", "-c", f'mount --bind -o ro "{folder}" "{folder}" && exec "$@"',
              "sh"]  # fmt: skip
    probe = subprocess.run([*prefix, "touch", str(folder / "probe")], capture_output=True)
    if probe.returncode == 0 or shutil.which("unshare") is None:
        pytest.skip("no read-only bind mount here (unshare -m needs CAP_SYS_ADMIN)")
    return prefix


def test_serve_reads_a_database_it_may_not_write(samples_db: Path, tmp_path: Path) -> None:
    shutil.copy(samples_db, tmp_path / "ro.db")
    prefix = read_only(tmp_path)
    proc, line = start_server("--db", str(tmp_path / "ro.db"), prefix=prefix)
    try:
        status, info = get(address(line) + "api/info")
        assert status == 200 and info["games"] == SAMPLE_GAMES
        assert get(address(line) + EXPLORE)[0] == 200
    finally:
        code, _, err = stop(proc)
    assert code == 0 and "Traceback" not in err
    done = pdn("import", str(SAMPLES), "--db", str(tmp_path / "ro.db"), prefix=prefix)
    assert done.returncode == 2  # a read-only path: a usage error, nothing to run again
    assert done.stderr == f"pdn: {tmp_path / 'ro.db'}: cannot be written (read-only)\n"


def test_serve_on_a_damaged_database_exits_1(samples_db: Path, tmp_path: Path) -> None:
    damaged = tmp_path / "damaged.db"
    shutil.copy(samples_db, damaged)
    with damaged.open("r+b") as fh:  # the schema's page: the open check fails
        fh.seek(100)
        fh.write(b"\xff" * 3000)
    done = pdn("serve", "--db", str(damaged), "--host", "127.0.0.1", "--port", "0")
    assert done.returncode == 1  # README: a database whose file is damaged, exit code 1
    assert done.stderr.startswith(f"pdn: {damaged}: the database file is damaged (")
    assert done.stderr.count("\n") == 1


# -- 9. a NUL in a search value, a square given twice ------------------------------------------


def test_a_nul_in_a_search_value_matches_nothing(db: str) -> None:
    engine = open_database(db)
    import_paths(engine, [SAMPLES])
    for field in ("player", "white", "black", "event", "site"):
        for value in ("\x00", "Wyllie\x00", "*\x00*"):
            chosen = GameFilter(**{field: value})  # type: ignore[arg-type]
            assert count_games(engine, chosen) == 0, (field, value)
            found = filter_paths([SAMPLES], Criteria(**{field: value}))  # type: ignore[arg-type]
            assert sum(1 for _ in found) == 0  # as in files
    assert count_games(engine, GameFilter(player="Wyllie")) > 0
    engine.dispose()


def test_a_nul_in_a_search_value_on_the_page(samples_db: Path) -> None:
    proc, line = start_server("--db", str(samples_db))
    try:
        assert get(address(line) + "api/count?player=%00") == (200, {"total": 0})
        assert get(address(line) + "api/count?player=Wyllie%00") == (200, {"total": 0})
    finally:
        stop(proc)


def test_a_square_given_twice_in_a_fen_is_refused() -> None:
    english = get_variant("english")
    for fen in ("B:W1,1,1:B5", "B:W1:B1", "W:WK3,3:B5", "W:W1-4,2:B9", "B:W1:B5,K5"):
        with pytest.raises(FenError, match="a square holds two pieces"):
            parse_fen(fen, english)
    assert parse_fen("B:W1,2:B5", english).white_men.bit_count() == 2
    done = pdn("moves", "-v", "english", "--fen", "B:W1,1,1:B5")
    assert done.returncode == 2 and "a square holds two pieces" in done.stderr
    assert done.stderr.count("\n") == 1


# -- 5. a file that grows while it is imported -------------------------------------------------

HALF_WRITTEN = '\n[Event "later"]\n[White "A"]\n[Black "B"]\n[GameType "21"]\n1. 11-15 23-19 2. 8-'


def changed_during(monkeypatch: pytest.MonkeyPatch, change: Callable[[], object]) -> None:
    """*change* is made right after the import hashed its files, before it reads them."""
    import pdn.db.store
    from pdn.db.sources import source_files as hashed

    def then_changed(engine: object, paths: list[Path]) -> object:
        found = hashed(engine, paths)  # type: ignore[arg-type]
        change()
        return found

    monkeypatch.setattr(pdn.db.store, "source_files", then_changed)


def appended(path: Path, text: str) -> Callable[[], object]:
    def append() -> object:
        with path.open("a", encoding="utf-8") as fh:
            return fh.write(text)

    return append


@pytest.mark.parametrize("workers", [1, 2])
def test_a_file_that_grows_is_imported_as_it_was(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: int
) -> None:
    from conftest import corpus_dir
    from pdn.archive.parallel import SPAN_BYTES
    from pdn.db.sources import file_digest
    from pdn.read.reader import read_games

    if workers == 1:  # a small file: one task
        games = [g.raw for g in read_games(SAMPLES / "english-oca-first20.pdn")]
    else:  # larger than a span: cut for two workers
        games, size = [], 0
        for game in read_games(corpus_dir() / "english" / "OCA_2.0.pdn"):
            games.append(game.raw)
            size += len(game.raw) + 2
            if size > 3 * SPAN_BYTES:
                break
    path = tmp_path / "growing.pdn"
    path.write_text("\n\n".join(games) + "\n", encoding="utf-8")
    before, digest = path.stat().st_size, file_digest(path)
    changed_during(monkeypatch, appended(path, HALF_WRITTEN))
    engine = open_database(db)
    stats = import_paths(engine, [path], workers=workers)
    assert path.stat().st_size > before  # it did grow
    assert (stats.games, stats.added, stats.syntax_errors) == (len(games), len(games), 0)
    with engine.connect() as conn:
        rows = conn.execute(text("SELECT sha256, size, games, complete FROM source_files")).all()
        assert rows == [(digest, before, len(games), True)]  # the file as hashed
        assert conn.execute(text("SELECT count(*) FROM games")).scalar() == len(games)
    monkeypatch.undo()
    again = import_paths(engine, [path])  # the grown file: another file, its old games copies
    assert again.games == len(games) + 1 and again.syntax_errors == 1
    assert again.added == 1 and again.copies == len(games)
    engine.dispose()


def test_a_file_shortened_while_imported_is_not_marked_imported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = tmp_path / "shrinking.pdn"
    shutil.copy(SAMPLES / "english-oca-first20.pdn", path)
    size = path.stat().st_size
    changed_during(monkeypatch, lambda: os.truncate(path, size // 2))
    engine = open_database(str(tmp_path / "s.db"))
    stats = import_paths(engine, [path])
    assert stats.files == 0 and stats.warnings == [
        f"{path}: shortened while imported: not marked imported; import it again"
    ]
    with engine.connect() as conn:
        assert conn.execute(text("SELECT complete FROM source_files")).scalar() == 0
    engine.dispose()


# -- 10. many small files ------------------------------------------------------------------------


def test_many_one_game_files_are_written_in_few_transactions(tmp_path: Path) -> None:
    from sqlalchemy import event

    from pdn.read.reader import read_games

    folder = tmp_path / "one-game-files"
    folder.mkdir()
    for i, game in enumerate(read_games(SAMPLES / "english-oca-first20.pdn")):
        for copy in range(50):  # 1,000 files, each game under its own event
            raw = game.raw.replace('[Event "', f'[Event "{copy}: ', 1)
            (folder / f"g{i:02d}-{copy:02d}.pdn").write_text(raw + "\n", encoding="utf-8")
    engine = open_database(str(tmp_path / "many.db"))
    commits: list[int] = []
    event.listen(engine, "commit", lambda conn: commits.append(1))
    stats = import_paths(engine, [folder])
    assert stats.files == stats.games == stats.added == 1000
    # the file rows, one batch, the marks of the files (were 3 per file); the CPU time against
    # validation's is benchmarks/small_files.py's figure
    assert len(commits) <= 6
    engine.dispose()
