"""The game database on SQLite and on PostgreSQL: import, idempotence, interrupted imports,
questions answered against numbers worked out by hand, refusals."""

from __future__ import annotations

import signal
import sqlite3
import subprocess
import sys
import time
from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pytest
from sqlalchemy import Engine, delete, func, select, update
from sqlalchemy.exc import OperationalError
from typer.testing import CliRunner

import pdn.db.store
import pdn.parallel
from conftest import (
    corpus_dir,
    corpus_files,
    postgres_database,
    postgres_reason,
    table_digests,
)
from pdn.cli.app import app
from pdn.db.questions import GameFilter, draw_stats, explore, find_games, opening_stats
from pdn.db.schema import GameRow, Occurrence, PlyRow, SourceFile, TagRow
from pdn.db.store import DatabaseRefused, ImportStats, import_paths, open_database
from pdn.reader import read_games

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def _backends() -> list[object]:
    why = postgres_reason()
    skip = [pytest.mark.skip(reason=why)] if why else []
    return ["sqlite", pytest.param("postgres", marks=skip)]


@pytest.fixture(params=_backends())
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "test.db")
        return
    with postgres_database() as url:
        yield url


def count(engine: Engine, model: type) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(model)).scalar() or 0)


# --- import -----------------------------------------------------------------------------------


def test_import_samples_then_again_adds_nothing(db: str) -> None:
    engine = open_database(db)
    stats = import_paths(engine, [SAMPLES])
    assert (stats.files, stats.games, stats.added, stats.duplicates) == (5, 50, 50, 0)
    assert (stats.invalid, stats.syntax_errors) == (0, 0)
    before = [count(engine, m) for m in (GameRow, TagRow, PlyRow, Occurrence, SourceFile)]
    again = import_paths(engine, [SAMPLES])
    assert (again.files, again.skipped_files, again.added) == (0, 5, 0)
    assert [count(engine, m) for m in (GameRow, TagRow, PlyRow, Occurrence, SourceFile)] == before
    # the first English sample game, stored whole: 44 plies, its text exactly as in the file
    with engine.connect() as conn:
        first = conn.execute(
            select(GameRow).where(GameRow.white == "Wyllie, J.").order_by(GameRow.place)
        ).first()
    assert first is not None and first.plies == 44 and first.valid
    assert first.pdn in (SAMPLES / "english-oca-first20.pdn").read_text(encoding="utf-8")
    assert first.moves.split()[:3] == ["11-15", "24-20", "8-11"]
    engine.dispose()


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
    assert stats.added + stats.duplicates == stats.games
    # files that are another encoding of a file read before them: every game a duplicate
    copies = {
        "international/wiegerw2017-FAIL-40Camp-latin1.pdn": 45,
        "international/wiegerw2017-nk2003-amsterdam-latin1.pdn": 33,
        "italian/wiegerw2017-Campionato_Assoluto_2005-latin1.pdn": 53,
        "russian/wiegerw2017-FAIL-abatsiev-cp1251.pdn": 56,
    }
    with engine.connect() as conn:
        for name, games in copies.items():
            dup = conn.execute(
                select(func.count())
                .select_from(Occurrence)
                .join(SourceFile, SourceFile.id == Occurrence.file_id)
                .where(SourceFile.path == str(corpus / name), Occurrence.duplicate)
            ).scalar()
            assert dup == games, name
    again = import_paths(engine, [corpus])
    assert again.added == 0 and again.skipped_files == 166


def test_workers_write_the_same_database(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 460 games cut into spans of about 10 kB; into PostgreSQL the two workers write them
    monkeypatch.setattr(pdn.parallel, "SPAN_BYTES", 10_000)
    path = corpus_dir() / "russian" / "migo-World_Championship_1998.pdn"
    one = open_database(str(tmp_path / "one.db"))
    import_paths(one, [path])
    engine = open_database(db)
    stats = import_paths(engine, [path], workers=2)
    assert (stats.games, stats.added + stats.duplicates) == (460, 460)
    assert table_digests(engine) == table_digests(one)
    # as if stopped after game 200: the rest is imported again, and nothing else
    with engine.begin() as conn:
        late = select(GameRow.id).where(GameRow.file_index > 200)
        for model in (TagRow, PlyRow):
            conn.execute(delete(model).where(model.game_id.in_(late)))
        conn.execute(delete(Occurrence).where(Occurrence.file_index > 200))
        conn.execute(delete(GameRow).where(GameRow.file_index > 200))
        conn.execute(update(SourceFile).values(complete=False, games=0))
    again = import_paths(engine, [path], workers=2)
    assert (again.games, again.already, again.added + again.duplicates) == (460, 200, 260)
    assert table_digests(engine) == table_digests(one)
    engine.dispose()
    one.dispose()


def test_an_interrupted_import_leaves_whole_games_and_completes(tmp_path: Path) -> None:
    # the first 4000 games of the OCA archive, imported in batches of 500 and killed mid-way
    oca = corpus_dir() / "english" / "OCA_2.0.pdn"
    path = tmp_path / "oca-4000.pdn"
    path.write_text("\n\n".join(g.raw for g in islice(read_games(oca), 4000)), encoding="utf-8")
    target = tmp_path / "killed.db"
    cmd = [sys.executable, "-m", "pdn.cli.app", "import", str(path), "--db", str(target)]
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
            "SELECT count(*) FROM games g WHERE g.plies != "
            "(SELECT count(*) FROM plies p WHERE p.game_id = g.id) "
            "OR NOT EXISTS (SELECT 1 FROM tags t WHERE t.game_id = g.id) "
            "OR NOT EXISTS (SELECT 1 FROM occurrences o WHERE o.game_id = g.id)"
        ).fetchone()[0]
        assert torn == 0
        assert conn.execute("SELECT complete FROM source_files").fetchone()[0] == 0
    engine = open_database(str(target))
    stats = import_paths(engine, [path])
    assert stats.already >= killed and stats.added + stats.duplicates + stats.already == 4000
    assert count(engine, Occurrence) == 4000
    clean = open_database(str(tmp_path / "clean.db"))
    import_paths(clean, [path])
    assert count(engine, GameRow) == count(clean, GameRow)
    assert count(engine, PlyRow) == count(clean, PlyRow)
    engine.dispose()
    clean.dispose()


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

    monkeypatch.setattr(pdn.db.store, "write_batch", full_disk)
    result = CliRunner().invoke(app, ["import", str(SAMPLES), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 1
    assert "import stopped" in result.stderr and "disk full" in result.stderr
    assert "run it again" in result.stderr


# --- questions, on games whose numbers are worked out by hand --------------------------------

SMALL = """
[GameType "21"] [Result "1-0"] [White "W1"] [Black "B1"]
1. 11-15 23-19 2. 8-11 *

[GameType "21"] [Result "1/2-1/2"] [White "W2"] [Black "B1"]
1. 11-15 23-19 2. 9-14 *

[GameType "21"] [Result "0-1"] [White "W1"] [Black "B2"]
1. 11-15 22-17 *

[GameType "21"] [Result "1-0"] [White "W2"] [Black "B2"] [Event "Ballot 1"]
1. 9-13 21-17 2. 5-9 *

[GameType "21"] [Result "1/2-1/2"] [White "O'Brien"] [Black "B1"] [Event "Ballot 1"]
1. 9-13 21-17 2. 5-9 17-14 *

[GameType "21"] [FEN "W:WK28:BK2"] [Result "1/2-1/2"]
28-32 2-7 32-28 7-2 28-32 2-7 32-28 7-2 *
"""


@pytest.fixture
def small(db: str, tmp_path: Path) -> Iterator[Engine]:
    path = tmp_path / "small.pdn"
    path.write_text(SMALL, encoding="utf-8")
    engine = open_database(db)
    import_paths(engine, [path])
    yield engine
    engine.dispose()


def test_explorer_from_the_start(small: Engine) -> None:
    frame = explore(small, "english")
    rows = frame.set_index("move").to_dict("index")
    # 11-15: won by the first player (Black) once, drawn once, lost once
    assert rows["11-15"] == {"games": 3, "first_wins": 1, "draws": 1, "second_wins": 1,
                             "score": 50.0, "draw_rate": 33.3}  # fmt: skip
    assert rows["9-13"] == {"games": 2, "first_wins": 1, "draws": 1, "second_wins": 0,
                            "score": 75.0, "draw_rate": 50.0}  # fmt: skip
    assert list(frame["move"]) == ["11-15", "9-13"]


def test_explorer_after_moves_and_position_search(small: Engine) -> None:
    rows = explore(small, "english", moves="11-15").set_index("move").to_dict("index")
    assert rows["23-19"]["games"] == 2 and rows["23-19"]["score"] == 75.0
    assert rows["22-17"]["second_wins"] == 1 and rows["22-17"]["score"] == 0.0
    found = find_games(small, GameFilter(variant="english", moves="1. 11-15 23-19"))
    assert sorted(found["white"]) == ["W1", "W2"]


def test_opening_statistics_by_ballot(small: Engine) -> None:
    frame = opening_stats(small, ballots=True)
    # games 4 and 5 play ballot 001; games 1 and 2 ballots 126 and 128; game 3 is too short
    assert frame.to_dict("records") == [
        {"ballot": "001 09-13 21-17 05-09", "opening": "9-13 21-17 5-9", "games": 2,
         "first_wins": 1, "draws": 1, "second_wins": 0, "score": 75.0, "draw_rate": 50.0},
        {"ballot": "126 11-15 23-19 08-11", "opening": "11-15 23-19 8-11", "games": 1,
         "first_wins": 1, "draws": 0, "second_wins": 0, "score": 100.0, "draw_rate": 0.0},
        {"ballot": "128 11-15 23-19 09-14", "opening": "11-15 23-19 9-14", "games": 1,
         "first_wins": 0, "draws": 1, "second_wins": 0, "score": 50.0, "draw_rate": 100.0},
    ]  # fmt: skip
    by_two = opening_stats(small, variant="english", plies=2, min_games=2)
    assert sorted(by_two["opening"]) == ["11-15 23-19", "9-13 21-17"]


def test_draw_statistics(small: Engine) -> None:
    by_variant = draw_stats(small, "variant").to_dict("records")
    assert by_variant == [
        {"variant": "english", "games": 6, "draws": 3, "draw_rate": 50.0, "by_moves_rule": 0,
         "by_repetition": 1, "by_agreement": 2},
    ]  # fmt: skip
    by_termination = draw_stats(small, "termination").set_index("termination")
    assert by_termination.loc["draw-repetition", "draws"] == 1
    assert by_termination.loc["undecided", "games"] == 5
    by_player = draw_stats(small, "player").set_index("player")
    assert by_player.loc["B1", "games"] == 3 and by_player.loc["B1", "draws"] == 2


def test_user_values_are_bound_parameters(small: Engine) -> None:
    assert find_games(small, GameFilter(player="O'Brien")).shape[0] == 1
    hostile = "x'; DROP TABLE games; --"
    assert find_games(small, GameFilter(player=hostile, event=hostile)).empty
    assert count(small, GameRow) == 6
    assert find_games(small, GameFilter(variant="russian")).empty


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
    with sqlite3.connect(path) as conn:  # schema 1 numbered games in import order
        conn.execute("UPDATE pdn_meta SET value = '1' WHERE key = 'schema_version'")
    with pytest.raises(DatabaseRefused, match=r"older version .* import the archives into a new"):
        open_database(str(path))
