"""Analysis stored with the games (pdn.db.analysis): `pdn analyse --db` writes a row per move
under its engine and limit, once; the criteria select the same games from an analysed file and
from its analysed database; the accuracy table sums what the report of the same run says; a
database of schema 4 is brought up to date when opened for writing."""

from __future__ import annotations

import json
import shutil
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import corpus_dir, table_digests
from pdn.cli.app import app
from pdn.db.analysis import Stored, player_accuracy
from pdn.db.connection import DatabaseRefused, open_database
from pdn.db.schema import SCHEMA_VERSION

SAMPLE = Path(__file__).parent.parent / "samples" / "english-oca-first20.pdn"
CRITERIA = [
    ["--blunders", "any"], ["--blunders", "white"], ["--blunders", "black"],
    ["--mistakes", "any"], ["--mistakes", "white"], ["--mistakes", "black"],
    ["--loss-min", "0.5"], ["--loss-min", "2"], ["--mistakes", "any", "--blunders", "any"],
]  # fmt: skip


def _run(*args: str) -> str:
    return _ran(*args)[0]


def _ran(*args: str) -> tuple[str, str]:
    """What a command printed, on standard output and on standard error."""
    result = CliRunner().invoke(app, list(args))
    assert result.exit_code == 0, result.output + result.stderr
    return result.stdout, result.stderr


@pytest.fixture(scope="module")
def analysed(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[Path, Path, list[dict[str, object]]]:
    """The sample analysed at depth 2 into a file, a report and an SQLite database (two
    workers)."""
    where = tmp_path_factory.mktemp("analysed")
    out, report, db = where / "out.pdn", where / "report.jsonl", where / "a.db"
    _run("analyse", str(SAMPLE), "--depth", "2", "-o", str(out), "--report", str(report),
         "--db", str(db), "-j", "2")  # fmt: skip
    rows = [json.loads(line) for line in report.read_text().splitlines()]
    return out, db, rows


def test_every_judged_move_is_a_row(analysed: tuple[Path, Path, list[dict[str, object]]]) -> None:
    """One row per move the report judged, with its loss and mark, under the engine's name and
    version and the limit."""
    _, db, report = analysed
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT engine, \"limit\", COUNT(*), COUNT(DISTINCT game_id), "
                            "SUM(mark = 'blunder'), SUM(mark = 'mistake') FROM analysis "
                            "GROUP BY 1, 2").fetchall()  # fmt: skip
    moves = [m for r in report for m in r["moves"]]  # type: ignore[attr-defined]
    marks = [m["mark"] for m in moves]
    assert len(report) == 20 and rows == [
        ("pdn builtin 0.1.0+search4", "depth=2", len(moves), 20, marks.count("blunder"),
         marks.count("mistake"))
    ]  # fmt: skip
    assert len(moves) == sum(r["plies"] for r in report) > 900  # type: ignore[misc]
    # games numbered from 1, as validate, list and query number them (from 0 before)
    assert [(r["index"], r["line"]) for r in report[:3]] == [(1, 1), (2, 13), (3, 26)]


def test_again_changes_nothing_and_another_limit_stands_beside(tmp_path: Path, db: str) -> None:
    """Re-running with the same engine and limit leaves every table as it was; depth 1 adds
    its rows beside depth 2's."""
    first = tmp_path / "first.pdn"
    first.write_text(_games(3))
    said = _ran("analyse", str(first), "--depth", "2", "--db", db, "-o", str(tmp_path / "o.pdn"))
    engine = open_database(db, create=False)
    before = table_digests(engine)
    rows = before["analysis"][0]
    assert said[1] == f"3 games analysed, 3 stored ({rows} moves)\n"  # counted on both drivers
    said = _ran("analyse", str(first), "--depth", "2", "--db", db, "-o", str(tmp_path / "o.pdn"))
    assert table_digests(engine) == before and said[1] == "3 games analysed, 0 stored (0 moves)\n"
    _run("analyse", str(first), "--depth", "1", "--db", db, "-o", str(tmp_path / "o.pdn"))
    after = table_digests(engine)
    assert after["analysis"][0] == 2 * before["analysis"][0] > 0
    assert {k: v for k, v in after.items() if k != "analysis"} == {
        k: v for k, v in before.items() if k != "analysis"
    }
    engine.dispose()


def _games(n: int) -> str:
    """The first *n* games of the sample."""
    games = SAMPLE.read_text().split("\n[Event ")
    return "\n[Event ".join(games[:n]) + "\n"


@pytest.mark.parametrize("criteria", CRITERIA, ids=" ".join)
def test_criteria_select_the_same_games_in_file_and_database(
    analysed: tuple[Path, Path, list[dict[str, object]]], criteria: list[str]
) -> None:
    """`pdn filter` on the analysed file counts what `pdn query` counts in its database, and
    both what the report's marks and losses give."""
    out, db, report = analysed
    in_file = int(_run("filter", str(out), *criteria, "--count"))
    in_db = int(_run("query", "--db", str(db), *criteria, "--count"))
    assert in_file == in_db == sum(_meets(r, criteria) for r in report)


def _meets(report: dict[str, object], criteria: list[str]) -> bool:
    moves = report["moves"]
    assert isinstance(moves, list)
    pairs = dict(zip(criteria[::2], criteria[1::2], strict=True))
    for option, mark in (("--blunders", "blunder"), ("--mistakes", "mistake")):
        side = pairs.get(option)
        if side and not any(m["mark"] == mark and side in ("any", m["side"]) for m in moves):
            return False
    low = pairs.get("--loss-min")
    return low is None or any(m["loss"] >= float(low) for m in moves)


def test_blunders_are_found_at_all(analysed: tuple[Path, Path, list[dict[str, object]]]) -> None:
    """The sample at depth 2 holds a blunder and mistakes by both sides (else the criteria
    tests above would compare zeros)."""
    _, db, _ = analysed
    assert int(_run("query", "--db", str(db), "--blunders", "any", "--count")) >= 1
    for side in ("white", "black"):
        assert int(_run("query", "--db", str(db), "--mistakes", side, "--count")) >= 3


def test_accuracy_sums_the_report(analysed: tuple[Path, Path, list[dict[str, object]]]) -> None:
    """Per player and colour: the moves, losses and marks of the report's games (in English
    Black moves first: a Black player's moves are the odd plies)."""
    _, db, report = analysed
    engine = open_database(str(db), readonly=True)
    frame = player_accuracy(engine).set_index("player")
    engine.dispose()
    for name in ("Wyllie, J.", "Anderson, A."):
        for side in ("white", "black"):
            moves = [m for r in report if r[side] == name for m in r["moves"]  # type: ignore[attr-defined]
                     if m["side"] == side]  # fmt: skip
            row = frame.loc[name]
            assert row[f"moves_{side}"] == len(moves) > 0
            loss = sum(m["loss"] for m in moves) / len(moves)
            assert row[f"average_loss_{side}"] == pytest.approx(loss, abs=5e-4)
            for mark, plural in (("blunder", "blunders"), ("mistake", "mistakes")):
                assert row[f"{plural}_{side}"] == sum(m["mark"] == mark for m in moves)
    games = [r for r in report if "Anderson, A." in (r["white"], r["black"])]
    assert frame.loc["Anderson, A.", "games"] == len(games)
    first = report[0]
    assert sum(m["side"] == "black" for m in first["moves"]) == (first["plies"] + 1) // 2  # type: ignore[attr-defined,operator]


def test_schema_4_is_brought_up_to_date(tmp_path: Path) -> None:
    """A database of schema 4 (no analysis table) is refused read-only with what to do, and
    migrated, its games kept, when opened for writing; one of schema 3 (whose terminations
    meant something else) is refused."""
    db = tmp_path / "old.db"  # a database of schema 5 made by the toolkit, less its analysis
    shutil.copy(Path(__file__).parent / "data" / "schema5.sqlite", db)
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE analysis")
        conn.execute("UPDATE pdn_meta SET value = '4' WHERE key = 'schema_version'")
    with pytest.raises(DatabaseRefused, match=r"schema 4\).*open it once for writing"):
        open_database(str(db), readonly=True)
    open_database(str(db)).dispose()
    with sqlite3.connect(db) as conn:
        version = conn.execute("SELECT value FROM pdn_meta WHERE key = 'schema_version'").fetchone()
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type='table'")}
        games = conn.execute("SELECT COUNT(*) FROM games").fetchone()
    assert version == (str(SCHEMA_VERSION),) and "analysis" in tables and games == (61,)
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE pdn_meta SET value = '3' WHERE key = 'schema_version'")
    with pytest.raises(DatabaseRefused, match="older"):
        open_database(str(db)).dispose()


def test_the_stored_games_judged_as_their_files_are(
    analysed: tuple[Path, Path, list[dict[str, object]]], tmp_path: Path
) -> None:
    """`pdn analyse --db DB` without files judges the games stored there (two workers) into
    the same rows as analysing their file with --db; run again, it has nothing left to do."""
    _, from_files, _ = analysed
    db = tmp_path / "stored.db"
    _run("import", str(SAMPLE), "--db", str(db))
    _run("analyse", "--db", str(db), "--depth", "2", "-j", "2", "-o", str(tmp_path / "o.pdn"))
    rows = 'SELECT * FROM analysis ORDER BY game_id, engine, "limit", ply'
    with sqlite3.connect(db) as a, sqlite3.connect(from_files) as b:
        assert a.execute(rows).fetchall() == b.execute(rows).fetchall()
    again = CliRunner().invoke(app, ["analyse", "--db", str(db), "--depth", "2"])
    assert again.exit_code == 0 and "0 games analysed" in again.stderr


def test_the_stored_games_of_no_database_are_refused(tmp_path: Path) -> None:
    """`pdn analyse --db DB` alone judges games already stored: a path that names no database,
    or an empty one, is one line and exit 2, and no database is made (a mistyped name made an
    empty one and reported 0 games analysed)."""
    missing, empty = tmp_path / "typo.db", tmp_path / "empty.db"
    empty.touch()
    for db, said in ((missing, "no such database"), (empty, "the database is empty")):
        done = CliRunner().invoke(app, ["analyse", "--db", str(db), "--depth", "1"])
        assert done.exit_code == 2, done.output
        assert done.stderr == f"pdn: {db}: {said} (import some games first)\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["empty.db"]


def test_a_game_without_a_ply_is_not_judged_again_and_again(tmp_path: Path) -> None:
    """A valid game without a move leaves no row: `analyse --db` judged it again on every run
    ("1 games analysed, 0 stored"); it is left out, and a second run has nothing to do (an
    invalid one is still judged, to tell where it stops: see the test above)."""
    source = tmp_path / "two.pdn"
    first = SAMPLE.read_text("utf-8").split("\n\n[")[0]  # the sample's first game
    source.write_text(f'[Event "none"]\n[GameType "21"]\n\n*\n\n{first}', encoding="utf-8")
    db = str(tmp_path / "t.db")
    _run("import", str(source), "--db", db)
    said = [_ran("analyse", "--db", db, "--depth", "1")[1] for _ in range(2)]
    assert said == [
        "1 game analysed, 1 stored (44 moves)\n",
        "0 games analysed, 0 stored (0 moves)\n",
    ]


def test_one_game_analysed_is_one() -> None:
    """(It said "1 games analysed".)"""
    assert str(Stored(1, 1, 44)) == "1 game analysed, 1 stored (44 moves)"
    assert str(Stored(2, 0, 1)) == "2 games analysed, 0 stored (1 move)"


def test_the_stored_games_problems_stand_at_their_lines_in_the_file(tmp_path: Path) -> None:
    """A stored game judged from the database names the line of its file where it stopped, as
    judging the file does (the stored text was read again from line 1: ":1:1:" before)."""
    pdn = corpus_dir() / "international" / "wiegerw-FAIL-Cat.C1.pdn"
    db = tmp_path / "c1.db"
    _run("import", str(pdn), "--db", str(db))
    args = ["--depth", "1", "-o", str(tmp_path / "o.pdn")]
    from_file = CliRunner().invoke(app, ["analyse", str(pdn), *args])
    from_db = CliRunner().invoke(app, ["analyse", "--db", str(db), *args])
    problem = f"{pdn}:611:1: analysed up to ply 0: 36x27: illegal move"
    assert from_file.exit_code == from_db.exit_code == 1  # a game not analysed to its end
    assert from_file.stderr.splitlines() == from_db.stderr.splitlines()[:1] == [problem]
