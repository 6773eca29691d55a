"""The game database on SQLite and on PostgreSQL: import, idempotence, interrupted and
concurrent imports, faults (a silent server, a damaged file, a kill while the database is made,
a read-only folder), refusals."""

from __future__ import annotations

import json
import os
import shutil
import signal
import socket
import sqlite3
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from itertools import islice
from pathlib import Path

import pytest
from sqlalchemy import Connection, Engine, delete, func, select, update
from sqlalchemy.exc import IntegrityError, OperationalError
from typer.testing import CliRunner

import pdn.archive.parallel
import pdn.db.store
import pdn.replay
from conftest import (
    corpus_dir,
    corpus_files,
    material_cut,
    postgres_database,
    postgres_reason,
    postings_cut,
    table_digests,
)
from pdn.archive.parallel import Task
from pdn.archive.pipeline import Options
from pdn.archive.selection import parse_material
from pdn.cli.app import app
from pdn.cli.common import BarProgress
from pdn.db.connection import DatabaseRefused, open_database
from pdn.db.material import unpacked as unpacked_runs
from pdn.db.postings import every_posting
from pdn.db.questions import GameFilter, explore, find_games
from pdn.db.records import Record
from pdn.db.schema import (
    MOVE_TALLIES,
    OPENING_TALLIES,
    PLAYER_TALLIES,
    TALLIES,
    Base,
    GameRow,
    MaterialRow,
    Occurrence,
    PostingRow,
    SourceFile,
    TagRow,
)
from pdn.db.sources import source_files
from pdn.db.store import ImportStats, SpanCounts, import_paths, span_records
from pdn.db.tallies import tallies_from_games
from pdn.db.texts import unpack_moves
from pdn.game import Game
from pdn.read.reader import read_games

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def count(engine: Engine, model: type) -> int:
    """The rows of *model*'s table; of PostingRow, the postings (a position of a game each); of
    MaterialRow, the runs."""
    with engine.connect() as conn:
        if model is PostingRow:
            return sum(len(found) for _, found in every_posting(conn))
        if model is MaterialRow:
            return sum(
                len(unpacked_runs(d)) for d in conn.execute(select(MaterialRow.data)).scalars()
            )
        return int(conn.execute(select(func.count()).select_from(model)).scalar() or 0)


# --- import -----------------------------------------------------------------------------------


def test_import_samples_then_again_adds_nothing(db: str) -> None:
    engine = open_database(db)
    stats = import_paths(engine, [SAMPLES])
    assert (stats.files, stats.games, stats.added, stats.copies) == (5, 50, 50, 0)
    assert stats.same_moves == 0
    assert (stats.invalid, stats.syntax_errors) == (0, 0)
    before = [count(engine, m) for m in (GameRow, TagRow, PostingRow, Occurrence, SourceFile)]
    again = import_paths(engine, [SAMPLES])
    assert (again.files, again.skipped_files, again.added) == (0, 5, 0)
    assert [
        count(engine, m) for m in (GameRow, TagRow, PostingRow, Occurrence, SourceFile)
    ] == before
    if engine.dialect.name == "sqlite":  # made after the rows, when the database was new
        assert _staged(Path(db)) == (0, 0)
        with sqlite3.connect(db) as raw:  # vacuumed: the staged rows' pages given back
            assert raw.execute("PRAGMA freelist_count").fetchone() == (0,)
        raw.close()
    with engine.connect() as conn:  # a row per position of every game: the moves and the start
        positions = conn.execute(select(func.sum(GameRow.plies + 1))).scalar()
    assert (
        count(engine, PostingRow)
        == positions
        == 50 + sum(len(g.mainline()) for f in sorted(SAMPLES.glob("*.pdn")) for g in read_games(f))
    )
    # the first English sample game, stored whole: 44 plies, its text exactly as in the file
    with engine.connect() as conn:
        first = conn.execute(
            select(GameRow).where(GameRow.white == "Wyllie, J.").order_by(GameRow.place)
        ).first()
    assert first is not None and first.plies == 44 and first.valid
    assert first.pdn in (SAMPLES / "english-oca-first20.pdn").read_text(encoding="utf-8")
    assert unpack_moves(first.moves, first.pdn).split()[:3] == ["11-15", "24-20", "8-11"]
    engine.dispose()


def test_an_import_tells_what_it_does_once_the_games_are_written(tmp_path: Path) -> None:
    # minutes on a million games, where the progress bar stood still at its end
    engine = open_database(str(tmp_path / "told.db"))
    told: list[str] = []
    import_paths(engine, [SAMPLES / "english-oca-first20.pdn"], finishing=told.append)
    assert told == ["sorting the positions in", "vacuuming the new database"]
    told.clear()
    import_paths(engine, [SAMPLES / "pool-3-vs-1-king-theory.pdn"], finishing=told.append)
    assert told == ["sorting the positions in"]  # not new: the staged rows' pages given back
    engine.dispose()
    with sqlite3.connect(tmp_path / "told.db") as raw:
        assert raw.execute("PRAGMA auto_vacuum").fetchone() == (2,)  # incremental
        assert raw.execute("PRAGMA freelist_count").fetchone() == (0,)
    raw.close()
    told.clear()  # a database read once, then gone (pdn report FILES): not vacuumed
    import_paths(open_database(str(tmp_path / "once.db")), [SAMPLES], finishing=told.append,
                 vacuum=False)  # fmt: skip
    assert told == ["sorting the positions in"]
    bar: list[dict[str, object]] = []
    shown = BarProgress(lambda **changes: bar.append(changes), "importing")
    shown(3, 300)
    shown(2, 200)
    shown.phase("sorting the positions in")
    assert bar == [{"advance": 300, "games": 3}, {"advance": 200, "games": 5},
                   {"description": "importing: sorting the positions in"}]  # fmt: skip


def test_invalid_games_are_stored_with_their_errors(db: str, tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdn"
    bad.write_text(
        '[GameType "21"]\n1. 11-15 24-20 2. 12-17 *\n\n[Event "x"]\n1. 32-28 ) *\n',
        encoding="utf-8",
    )
    engine = open_database(db)
    stats = import_paths(engine, [bad])
    assert (stats.added, stats.invalid, stats.syntax_errors) == (2, 1, 1)
    frame = find_games(engine, GameFilter())
    assert frame["valid"].tolist() == [False, False]
    with engine.connect() as conn:
        errors = conn.execute(select(GameRow.errors).order_by(GameRow.place)).scalars().all()
    assert '"reason": "illegal move"' in errors[0] and "with no variation open" in errors[1]
    engine.dispose()


@pytest.mark.slow
def test_import_the_whole_corpus(corpus_db: tuple[Engine, ImportStats]) -> None:
    corpus = corpus_dir()
    engine, stats = corpus_db
    # the games of SOURCES.tsv (counted by hand), and the one file of a syntax error
    assert stats.games == sum(f.games for f in corpus_files()) and stats.syntax_errors == 1
    assert stats.added + stats.copies == stats.games and stats.already == 0
    assert count(engine, GameRow) == stats.added and count(engine, Occurrence) == stats.games
    # files that are a Latin-1 copy of a UTF-8 file read before them: every game a copy
    copies = {
        "international/wiegerw2017-FAIL-40Camp-latin1.pdn": 45,
        "international/wiegerw2017-nk2003-amsterdam-latin1.pdn": 33,
        "italian/wiegerw2017-Campionato_Assoluto_2005-latin1.pdn": 53,
    }
    assert {name: _copies(engine, corpus / name) for name in copies} == copies
    # a cp1251 copy of a UTF-8 file is read as cp1251 (its code page found from its text): its
    # 56 games are copies of the UTF-8 file's, and the file is recorded as read in cp1251
    cp1251 = corpus / "russian/wiegerw2017-FAIL-abatsiev-cp1251.pdn"
    assert _copies(engine, cp1251) == 56
    with engine.connect() as conn:
        page = conn.execute(
            select(SourceFile.encoding).where(SourceFile.path == str(cp1251))
        ).scalar()
    assert page == "cp1251"
    again = import_paths(engine, [corpus])
    assert again.added == 0 and again.skipped_files == 166


def _copies(engine: Engine, path: Path) -> int:
    """How many games read from *path* are copies of games stored from elsewhere."""
    with engine.connect() as conn:
        return int(
            conn.execute(
                select(func.count())
                .select_from(Occurrence)
                .join(SourceFile, SourceFile.id == Occurrence.file_id)
                .where(SourceFile.path == str(path), Occurrence.duplicate)
            ).scalar()
            or 0
        )


def stopped_after(conn: Connection, games: int) -> None:
    """Leave the database as an import of one file stopped after its first *games* games
    would: the later games' rows gone, the tallies counting the games left, the file not read
    whole."""
    late = select(GameRow.id).where(GameRow.file_index > games)
    numbers = select(GameRow.number).where(GameRow.file_index > games)
    for table in Base.metadata.sorted_tables:  # every table of a game's rows
        if "game_id" in table.c and table is not Occurrence.__table__:
            conn.execute(delete(table).where(table.c.game_id.in_(late)))
        if "game" in table.c:  # named by its number
            conn.execute(delete(table).where(table.c.game.in_(numbers)))
    conn.execute(delete(Occurrence).where(Occurrence.file_index > games))
    postings_cut(conn, set(conn.execute(numbers).scalars()))
    material_cut(conn, set(conn.execute(numbers).scalars()))
    conn.execute(delete(GameRow).where(GameRow.file_index > games))
    conn.execute(update(SourceFile).values(complete=False, games=0))
    for table in (TALLIES, PLAYER_TALLIES, OPENING_TALLIES, MOVE_TALLIES):
        conn.execute(delete(table))
    tallies_from_games(conn)


def test_workers_write_the_same_database(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 460 games cut into spans of about 10 kB; into PostgreSQL the two workers write them
    monkeypatch.setattr(pdn.archive.parallel, "SPAN_BYTES", 10_000)
    path = corpus_dir() / "russian" / "migo-World_Championship_1998.pdn"
    one = open_database(str(tmp_path / "one.db"))
    import_paths(one, [path])
    engine = open_database(db)
    stats = import_paths(engine, [path], workers=2)
    assert (stats.games, stats.added + stats.copies) == (460, 460)
    assert table_digests(engine) == table_digests(one)
    # as if stopped after game 200: the rest is imported again, and nothing else
    with engine.begin() as conn:
        stopped_after(conn, 200)
    again = import_paths(engine, [path], workers=2)
    assert (again.games, again.already, again.added + again.copies) == (460, 200, 260)
    assert table_digests(engine) == table_digests(one)
    engine.dispose()
    one.dispose()


def test_a_file_cut_into_spans_is_written_in_batches_of_the_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # the 460 games of the file (161 kB) in 23 spans (17 parts, the last two's bytes in
    # quarters): into SQLite, the parent writes batches of 200 games across spans (a batch per
    # span made a commit per span)
    monkeypatch.setattr(pdn.archive.parallel, "SPAN_BYTES", 10_000)
    written: list[int] = []
    write = pdn.db.store._write

    def counted(conn: Connection, batch: list[tuple[int, Record]], run: int) -> SpanCounts:
        written.append(len(batch))
        return write(conn, batch, run)

    monkeypatch.setattr(pdn.db.store, "_write", counted)
    path = corpus_dir() / "russian" / "migo-World_Championship_1998.pdn"
    engine = open_database(str(tmp_path / "x.db"))
    stats = import_paths(engine, [path], workers=2, batch=200)
    assert len(pdn.archive.parallel.file_tasks([path], 2, lambda _: None)) == 23
    assert written == [200, 200, 60]
    assert (stats.games, stats.added + stats.copies, stats.files) == (460, 460, 1)
    engine.dispose()


def test_a_commit_made_aside_that_fails_stops_the_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # one worker with a core to spare: a batch is committed in a thread while the next is made;
    # the second commit fails (a full disk): the import stops with it, the first batch whole
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    commits: list[object] = []
    commit = pdn.db.store._commit

    def failing(conn: Connection) -> None:
        commits.append(conn)
        if len(commits) == 2:
            conn.close()  # rolled back
            raise OperationalError("COMMIT", {}, sqlite3.OperationalError("disk full"))
        commit(conn)

    monkeypatch.setattr(pdn.db.store, "_commit", failing)
    path = corpus_dir() / "russian" / "migo-World_Championship_1998.pdn"
    engine = open_database(str(tmp_path / "aside.db"))
    with pytest.raises(OperationalError, match="disk full"):
        import_paths(engine, [path], batch=100)
    assert len(commits) == 2
    with engine.connect() as conn:
        places = conn.execute(select(Occurrence.file_index)).scalars().all()
        assert sorted(places) == list(range(1, 101))
    monkeypatch.setattr(pdn.db.store, "_commit", commit)
    again = import_paths(engine, [path], batch=100)
    assert (again.games, again.already) == (460, 100)
    monkeypatch.setattr(os, "cpu_count", lambda: 1)  # each batch committed where it is made
    clean = open_database(str(tmp_path / "clean.db"))
    import_paths(clean, [path], batch=100)
    assert table_digests(engine) == table_digests(clean)
    engine.dispose()
    clean.dispose()


@pytest.mark.parametrize("url", [":memory:", "sqlite:///{tmp}/same.db?check_same_thread=true"])
def test_an_import_whose_connection_keeps_to_its_thread_commits_where_it_writes(
    url: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a memory database's connection, or one asked to, may not leave its thread: no commit
    # aside, even with a core to spare, and the same tables as a file's
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    path = corpus_dir() / "russian" / "migo-World_Championship_1998.pdn"
    kept = open_database(url.format(tmp=tmp_path))
    stats = import_paths(kept, [path], batch=100)
    assert (stats.games, stats.added + stats.copies) == (460, 460)
    disk = open_database(str(tmp_path / "disk.db"))
    import_paths(disk, [path], batch=100)
    assert table_digests(kept) == table_digests(disk)
    kept.dispose()
    disk.dispose()


def test_an_interrupted_import_leaves_whole_games_and_completes(tmp_path: Path) -> None:
    # the first 4000 games of the OCA archive, imported in batches of 500 and killed mid-way
    oca = corpus_dir() / "english" / "OCA_2.0.pdn"
    path = tmp_path / "oca-4000.pdn"
    path.write_text("\n\n".join(g.raw for g in islice(read_games(oca), 4000)), encoding="utf-8")
    target = tmp_path / "killed.db"
    run = (
        "import sys; from pdn.db.connection import open_database; "
        "from pdn.db.store import import_paths; "
        "import_paths(open_database(sys.argv[2]), [sys.argv[1]], batch=500)"
    )
    cmd = [sys.executable, "-c", run, str(path), str(target)]
    proc = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:  # until some batches are in
        time.sleep(0.2)
        if target.exists() and _games(target) >= 1000:
            break
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    killed = _games(target)
    assert 0 < killed < 4000
    with sqlite3.connect(target) as conn:  # every stored game is whole
        torn = conn.execute(
            "SELECT count(*) FROM games g WHERE g.plies + 1 != "
            "(SELECT length(p.digests) / 8 FROM positions_staged p WHERE p.game = g.number) "
            "OR NOT EXISTS (SELECT 1 FROM material_staged m WHERE m.game = g.number) "
            "OR NOT EXISTS (SELECT 1 FROM boards b WHERE b.game_id = g.id) "
            "OR NOT EXISTS (SELECT 1 FROM occurrences o WHERE o.game_id = g.id)"
        ).fetchone()[0]
        assert torn == 0
        assert conn.execute("SELECT complete FROM source_files").fetchone()[0] == 0
    staged, runs = _staged(target)  # moved into their tables at the end
    assert staged > 0 and runs > 0
    reader = open_database(str(target), readonly=True)  # the staged positions are read: every
    asked = [
        explore(reader, "english"),
        explore(reader, "english", moves="11-15 23-19"),
        find_games(reader, GameFilter(variant="english", moves="11-15 23-19 8-11")),
        find_games(reader, EVEN_AFTER_TWO),
    ]
    assert asked[0]["games"].sum() == killed  # stored game reaches the start (none has a setup)
    reader.dispose()
    engine = open_database(str(target))
    assert _staged(target) == (0, 0)
    assert (count(engine, PostingRow), count(engine, MaterialRow)) == (staged, runs)
    again = [
        explore(engine, "english"),
        explore(engine, "english", moves="11-15 23-19"),
        find_games(engine, GameFilter(variant="english", moves="11-15 23-19 8-11")),
        find_games(engine, EVEN_AFTER_TWO),
    ]
    assert all(a.equals(b) for a, b in zip(asked, again, strict=True))
    assert not asked[2].empty and not asked[3].empty
    stats = import_paths(engine, [path])
    assert stats.already >= killed and stats.added + stats.copies + stats.already == 4000
    assert count(engine, Occurrence) == 4000
    clean = open_database(str(tmp_path / "clean.db"))
    import_paths(clean, [path])
    assert count(engine, GameRow) == count(clean, GameRow)
    assert table_digests(engine) == table_digests(clean)
    engine.dispose()
    clean.dispose()


EVEN_AFTER_TWO = GameFilter(material=parse_material("W:8,B:8"), material_plies=2)  # staged runs


def _staged(path: Path) -> tuple[int, int]:
    """What an import moves into their tables at its end: the positions (a row a game, 8 bytes
    a position's digest) and the material runs staged (a row a game, 12 bytes a run)."""
    with sqlite3.connect(path) as conn:
        counts = [
            conn.execute(query).fetchone()[0]
            for query in (
                "SELECT coalesce(sum(length(digests)) / 8, 0) FROM positions_staged",
                "SELECT coalesce(sum(length(runs)) / 12, 0) FROM material_staged",
            )
        ]
    conn.close()
    return counts[0], counts[1]


def _games(path: Path) -> int:
    try:
        with sqlite3.connect(path, timeout=5) as conn:
            return int(conn.execute("SELECT count(*) FROM games").fetchone()[0])
    except sqlite3.Error:
        return 0


def test_an_import_stopped_by_the_database_says_so(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def full_disk(*_: object) -> None:
        raise OperationalError("INSERT INTO games ...", {}, sqlite3.OperationalError("disk full"))

    monkeypatch.setattr(pdn.db.store, "_write", full_disk)
    result = CliRunner().invoke(app, ["import", str(SAMPLES), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 1
    assert "import stopped" in result.stderr and "disk full" in result.stderr
    assert "run it again" in result.stderr


# --- refusals -------------------------------------------------------------------------------


def test_refuses_a_database_that_is_not_ours(tmp_path: Path) -> None:
    other = tmp_path / "other.db"
    with sqlite3.connect(other) as conn:
        conn.execute("CREATE TABLE customers (id INTEGER)")
    with pytest.raises(DatabaseRefused, match="not a pdn-toolkit database"):
        open_database(str(other))
    junk = tmp_path / "junk.db"
    junk.write_text("this is not a database\n" * 100, encoding="utf-8")
    with pytest.raises(DatabaseRefused, match="cannot be used as a database"):
        open_database(str(junk))


def test_refuses_a_newer_or_older_schema(tmp_path: Path) -> None:
    path = tmp_path / "new.db"
    open_database(str(path)).dispose()
    with sqlite3.connect(path) as conn:
        conn.execute("UPDATE pdn_meta SET value = '99' WHERE key = 'schema_version'")
    with pytest.raises(DatabaseRefused, match="newer version"):
        open_database(str(path))
    with sqlite3.connect(path) as conn:  # schema 2 merged games with the same moves
        conn.execute("UPDATE pdn_meta SET value = '2' WHERE key = 'schema_version'")
    with pytest.raises(DatabaseRefused, match=r"older version .* import the archives into a new"):
        open_database(str(path))


def test_a_rerun_replays_only_what_is_missing(db: str, monkeypatch: pytest.MonkeyPatch) -> None:
    # the file cut into spans of about 3 kB: the stored games are found span by span
    monkeypatch.setattr(pdn.archive.parallel, "SPAN_BYTES", 3_000)
    path = SAMPLES / "english-oca-first20.pdn"
    engine = open_database(db)
    first = import_paths(engine, [path])
    assert (first.games, first.added) == (20, 20)
    with engine.begin() as conn:  # as if stopped after game 12
        stopped_after(conn, 12)
    replayed: list[int] = []
    replay = pdn.replay.replay_game

    def counted(game: Game, *args: object) -> object:
        replayed.append(game.source.index + 1)
        return replay(game, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pdn.replay, "replay_game", counted)
    again = import_paths(engine, [path])
    assert (again.games, again.already, again.added, again.copies) == (20, 12, 8, 0)
    # games 13 to 20, once each (game 1 may be replayed to learn the file's variant)
    assert sorted(i for i in replayed if i > 1) == list(range(13, 21))
    assert count(engine, GameRow) == 20 and count(engine, Occurrence) == 20
    engine.dispose()


def test_two_imports_at_once_each_count_what_they_did(tmp_path: Path) -> None:
    russian = corpus_dir() / "russian" / "migo-World_Championship_1998.pdn"  # 460 games
    english = SAMPLES / "english-oca-first20.pdn"
    target = tmp_path / "both.db"
    open_database(str(target)).dispose()
    script = (
        "import json, sys\n"
        "from pdn.db.connection import open_database\n"
        "from pdn.db.store import import_paths\n"
        "s = import_paths(open_database(sys.argv[1]), sys.argv[2:], batch=50)\n"
        "print(json.dumps([s.games, s.added, s.copies, s.already]))\n"
    )
    runs = [
        subprocess.Popen([sys.executable, "-c", script, str(target), str(russian), *more],
                         stdout=subprocess.PIPE, text=True)
        for more in ([], [str(english)])
    ]  # fmt: skip
    told = [json.loads(p.communicate(timeout=600)[0]) for p in runs]
    assert [p.returncode for p in runs] == [0, 0]
    for games, added, copies, already in told:
        assert games == added + copies + already
    # in batches of 50 the two overlap; a file one import finished whole before the other
    # looked at it is skipped by the other (files already imported), so one may read it alone
    first, second = (t[0] for t in told)
    assert first in (0, 460) and second in (20, 480) and first + second >= 480
    engine = open_database(str(target))
    assert sum(t[1] for t in told) == count(engine, GameRow) == 480
    assert count(engine, Occurrence) == 480  # each file read once, whoever stored its games
    engine.dispose()


@pytest.fixture
def silent_server() -> Iterator[int]:
    """A port on 127.0.0.1 that accepts connections and never answers."""
    server = socket.create_server(("127.0.0.1", 0))
    server.settimeout(0.2)
    accepted: list[socket.socket] = []
    stop = threading.Event()

    def serve() -> None:
        while not stop.is_set():
            try:
                accepted.append(server.accept()[0])
            except TimeoutError:
                continue

    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    yield server.getsockname()[1]
    stop.set()
    thread.join()
    for conn in accepted:
        conn.close()
    server.close()


def _pdn(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """`pdn ARGS` in a process of its own (a hang fails the test instead of stopping it)."""
    cmd = [sys.executable, "-m", "pdn.cli.app", *args]
    return subprocess.run(cmd, capture_output=True, text=True, timeout=timeout)


def test_a_server_that_never_answers_stops_the_command(silent_server: int) -> None:
    # each command waits out the connect timeout (10 s): both run at once
    url = f"postgresql://pdn:hunter2@127.0.0.1:{silent_server}/games"
    commands = (["query", "--db", url], ["import", str(SAMPLES), "--db", url])
    with ThreadPoolExecutor(len(commands)) as pool:
        runs = list(pool.map(lambda args: _pdn(*args), commands))
    for done in runs:
        assert done.returncode == 1, done.stderr
        assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
        assert done.stderr.startswith(f"pdn: postgresql://pdn:***@127.0.0.1:{silent_server}/")
        assert "cannot connect" in done.stderr and "hunter2" not in done.stdout + done.stderr


def test_urls_we_cannot_use_get_one_line_without_the_password(tmp_path: Path) -> None:
    closed = socket.create_server(("127.0.0.1", 0))
    port = closed.getsockname()[1]
    closed.close()  # nothing listens there now
    runner = CliRunner()
    cases = {
        f"postgresql://pdn:hunter2@127.0.0.1:{port}/games": (1, "cannot connect to the database"),
        "mysql://pdn:hunter2@localhost/games": (2, "mysql is not supported; use an SQLite file"),
        "postgresql://pdn:hunter2@host:port/games": (2, "not a database URL; use an SQLite file"),
        "sqlite://pdn:hunter2@host/games.db": (2, "not a database URL; use an SQLite file"),
        "://": (2, "not a database URL"),
    }
    for url, (code, message) in cases.items():
        for command in (["query"], ["stats", "draws"], ["import", str(SAMPLES)]):
            done = runner.invoke(app, [*command, "--db", url])
            assert done.exit_code == code, (url, command, done.output)
            assert message in done.stderr and done.stderr.count("\n") == 1, done.stderr
            assert "hunter2" not in done.stdout + done.stderr, (url, command)
            assert isinstance(done.exception, SystemExit), done.exception  # exit code, no crash


def test_postgresql_stores_what_sqlite_stores(tmp_path: Path) -> None:
    why = postgres_reason()
    if why:
        pytest.skip(why)
    path = tmp_path / "odd.pdn"
    long = " ".join(["Grand"] * 200)
    path.write_bytes(
        f'[Event "Cup\x00final"]\n[Site "{long}"]\n[{"Annotator" * 20} "x"]\n[GameType "21"]\n'
        "1. 11-15 23-19 *\n\n".encode()
    )
    lite = open_database(str(tmp_path / "odd.db"))
    stats = import_paths(lite, [path])
    assert stats.added == 1
    assert stats.warnings == [f"{path}:1: game 1: NUL bytes stored as \u2400"]
    with postgres_database() as url:
        server = open_database(url)
        assert import_paths(server, [path]).warnings == stats.warnings
        assert table_digests(server) == table_digests(lite)
        frame = find_games(server, GameFilter())
        assert frame["event"].tolist() == ["Cup\u2400final"]
        assert frame["site"].tolist() == [long]
        server.dispose()
    lite.dispose()


def test_a_kill_while_the_database_is_made_leaves_it_usable(db: str) -> None:
    # the process kills itself once the last table is made, before the database is marked ours
    script = (
        "import os, signal, sys\n"
        "from sqlalchemy import event\n"
        "from pdn.db.connection import open_database\n"
        "from pdn.db.schema import TagRow\n"
        "event.listen(TagRow.__table__, 'after_create',\n"
        "             lambda *a, **k: os.kill(os.getpid(), signal.SIGKILL))\n"
        "open_database(sys.argv[1])\n"
    )
    done = subprocess.run([sys.executable, "-c", script, db], timeout=120)
    assert done.returncode == -signal.SIGKILL
    engine = open_database(db)
    assert import_paths(engine, [SAMPLES / "english-oca-first20.pdn"]).added == 20
    engine.dispose()


def _damage(path: Path) -> None:
    """Overwrite the first page of the games and postings tables and their indexes with junk."""
    with sqlite3.connect(path) as conn:
        size = conn.execute("PRAGMA page_size").fetchone()[0]
        roots = [r[0] for r in conn.execute(
            "SELECT rootpage FROM sqlite_master WHERE tbl_name IN ('games', 'postings') "
            "AND rootpage > 1"
        )]  # fmt: skip
    conn.close()
    with path.open("r+b") as fh:
        for page in roots:
            fh.seek((page - 1) * size)
            fh.write(bytes(range(7, 250)) * (size // 243) + b"\xff" * (size % 243))


def test_a_damaged_file_is_named_as_such(tmp_path: Path) -> None:
    # (explore from a position past a capture: from the postings, not the move tallies)
    target = tmp_path / "damaged.db"
    engine = open_database(str(target))
    import_paths(engine, [SAMPLES])
    engine.dispose()
    _damage(target)
    runner = CliRunner()
    for args in (
        ["query", "--db", str(target), "-v", "english", "--moves", "11-15"],
        ["explore", "--db", str(target), "-v", "english", "--moves", "11-15 24-20 15-19 23x16"],
        ["report", str(target), "-o", str(tmp_path / "report.html")],
    ):
        done = runner.invoke(app, args)
        assert done.exit_code == 1, (args, done.output)
        assert done.stderr.startswith(f"pdn: {target}: the database file is damaged (")
        assert done.stderr.count("\n") == 1
    assert not (tmp_path / "report.html").exists()


def test_read_commands_work_in_a_read_only_folder(tmp_path: Path) -> None:
    folder = Path(tempfile.mkdtemp(prefix="pdn-read-only-"))
    target = folder / "games.db"
    engine = open_database(str(target))
    import_paths(engine, [SAMPLES])
    engine.dispose()
    assert sorted(p.name for p in folder.iterdir()) == ["games.db"]
    prefix: list[str] = []
    if os.geteuid() == 0:  # root writes anywhere: run without its capabilities
        if shutil.which("setpriv") is None:
            pytest.skip("running as root without setpriv to drop its capabilities")
        prefix = ["setpriv", "--bounding-set=-all", "--"]
    target.chmod(0o444)
    folder.chmod(0o555)
    report = tmp_path / "report.html"
    try:
        for args in (
            ["query", "--db", str(target), "-f", "csv", "--limit", "3"],
            ["explore", "--db", str(target), "-v", "english"],
            ["stats", "draws", "--db", str(target)],
            ["duplicates", str(target)],
            ["report", str(target), "-o", str(report)],
        ):
            cmd = [*prefix, sys.executable, "-m", "pdn.cli.app", *args]
            done = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
            assert done.returncode == 0, (args, done.stderr)
        assert report.stat().st_size > 1000
        denied = subprocess.run([*prefix, "touch", str(folder / "x")], capture_output=True)
        assert denied.returncode != 0  # the folder was read-only to those commands
    finally:
        folder.chmod(0o755)
        shutil.rmtree(folder)


class _Taken(Exception):
    """What the driver raises for a key a concurrent writer inserted meanwhile."""

    sqlstate = "23505"


def test_a_batch_that_meets_a_concurrent_writers_key_is_written_again(
    db: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    # ON CONFLICT (game_hash) settles that index only: two writers inserting one game at once
    # may meet first on the id's, and the batch is written again (seen in CI, on a cluster)
    path = SAMPLES / "english-oca-first20.pdn"
    task = Task(path, None, "english", path.stat().st_size)
    engine = open_database(db)
    file_id = source_files(engine, [path])[0].id
    batch = [(file_id, r) for r in span_records(task, Options()) if r is not None]
    for i, (_, r) in enumerate(batch, 1):
        r.report.index = i
    write = pdn.db.store._write
    calls: list[int] = []

    def taken_once(conn: Connection, rows: list[tuple[int, Record]], run: int) -> SpanCounts:
        calls.append(len(rows))
        if len(calls) == 1:
            write(conn, rows[:5], run)  # rolled back with the error
            raise IntegrityError("INSERT INTO games ...", {}, _Taken())
        return write(conn, rows, run)

    monkeypatch.setattr(pdn.db.store, "_write", taken_once)
    counts = pdn.db.store.write_batch(engine, batch, 3)
    assert calls == [20, 20] and (counts.added, counts.already, counts.copies) == (20, 0, 0)
    assert count(engine, GameRow) == 20 and count(engine, Occurrence) == 20
    engine.dispose()


def test_a_task_run_again_counts_the_games_its_first_attempt_wrote(db: str) -> None:
    # a worker wrote the first 12 games of its task and died; the task runs again elsewhere
    path = SAMPLES / "english-oca-first20.pdn"
    task = Task(path, None, "english", path.stat().st_size)
    engine = open_database(db)
    file_id = source_files(engine, [path])[0].id
    died = pdn.db.store._store(engine, file_id, 1, span_records(task, Options())[:12], 5, 7)
    assert (died.games, died.added) == (12, 12)
    again = pdn.db.store._store(engine, file_id, 1, span_records(task, Options()), 5, 7)
    assert (again.games, again.added, again.already, again.copies) == (20, 20, 0, 0)
    # the same places written by another import at once: stored by that one
    other = pdn.db.store._store(engine, file_id, 1, span_records(task, Options()), 5, 8)
    assert (other.games, other.added, other.already, other.copies) == (20, 0, 20, 0)
    assert count(engine, GameRow) == 20 and count(engine, Occurrence) == 20
    engine.dispose()


def test_postgresql_statements_have_a_time_limit() -> None:
    why = postgres_reason()
    if why:
        pytest.skip(why)
    with postgres_database() as url:
        for readonly in (False, True):
            engine = open_database(url, readonly=readonly)
            with engine.connect() as conn:
                limit = conn.exec_driver_sql("SHOW statement_timeout").scalar()
            assert limit == "10min"
            engine.dispose()
        # a limit given in the URL is the user's
        engine = open_database(url + "?options=-c%20statement_timeout%3D2s")
        with engine.connect() as conn:
            assert conn.exec_driver_sql("SHOW statement_timeout").scalar() == "2s"
        engine.dispose()
