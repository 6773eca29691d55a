"""Opening a database made by an older schema for writing brings it up to this one: a database
of schema 5 to 15 written by the toolkit itself (tests/data/schema5.sqlite to
schema15.sqlite, see tests/data/README.md) ends as a new import of the same files does, every
question answered alike; so does one of PostgreSQL, written in the older layout here (the
layout checked against that file)."""

from __future__ import annotations

import shutil
import sqlite3
from collections.abc import Callable
from pathlib import Path

import pandas as pd
import pytest
from schema5 import as_schema_5
from schema6 import as_schema_6
from schema7 import as_schema_7
from schema8 import as_schema_8
from schema9 import as_schema_9
from schema10 import as_schema_10
from schema11 import as_schema_11
from schema12 import as_schema_12
from schema13 import as_schema_13
from schema14 import as_schema_14
from schema15 import as_schema_15
from sqlalchemy import Connection, Engine, func, insert, select

from conftest import (
    material_cut,
    postgres_database,
    postgres_reason,
    postings_cut,
    table_digests,
)
from pdn.archive.selection import parse_material, parse_pattern
from pdn.db.connection import DatabaseRefused, open_database
from pdn.db.material import staged
from pdn.db.postings import every_posting, staged_row
from pdn.db.questions import (
    GameFilter,
    draw_stats,
    explore,
    find_games,
    opening_stats,
    result_stats,
)
from pdn.db.schema import (
    MATERIAL_STAGED,
    SCHEMA_VERSION,
    STAGED,
    GameRow,
    PostingRow,
)
from pdn.db.store import import_paths

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "tests" / "data"
FILES = ["samples", "tests/data/hand-counted.pdn", "tests/data/no-moves.pdn"]  # from ROOT


ASKED: list[Callable[[Engine], pd.DataFrame]] = [
    lambda e: explore(e, "english"),
    lambda e: explore(e, "english", moves="11-15"),
    lambda e: opening_stats(e, plies=3),
    lambda e: opening_stats(e, plies=14),
    lambda e: opening_stats(e, ballots=True),
    lambda e: result_stats(e, "opening"),
    lambda e: result_stats(e, "player", result="draw"),
    lambda e: draw_stats(e, "year"),
    lambda e: find_games(e, GameFilter(variant="english", moves="11-15 23-19")),
    lambda e: find_games(e, GameFilter(variant="english", fen="W:W18,K27:B5")),
    lambda e: find_games(e, GameFilter(pattern=parse_pattern("WK46:BK1"))),
    lambda e: find_games(e, GameFilter(material=parse_material("W:3K1,B:1K"), material_plies=6)),
]


def imported_again(engine: Engine, tmp_path: Path) -> None:
    """Twenty games more imported into a migrated database (samples/english-oca-first20.pdn,
    each Event changed: new records) are numbered on from the highest number, in the order of
    their places, their positions naming them (on PostgreSQL: the sequence set past the
    numbers the migration gave, or the new numbers would meet the old ones)."""
    again = tmp_path / "again.pdn"
    text = (ROOT / "samples" / "english-oca-first20.pdn").read_text(encoding="utf-8")
    again.write_text(text.replace('[Event "', '[Event "again: '), encoding="utf-8")
    with engine.connect() as conn:
        top = conn.execute(select(func.max(GameRow.number))).scalar_one()
    assert import_paths(engine, [again]).added == 20
    with engine.connect() as conn:
        new = select(GameRow.number).where(GameRow.number > top).order_by(GameRow.place)
        numbers = list(conn.execute(new).scalars())
        named = {g for _, found in every_posting(conn) for g, *_ in found if g > top}
        assert len(named) == 20
    assert numbers == list(range(top + 1, top + 21))


OLD = {
    5: as_schema_5,
    6: as_schema_6,
    7: as_schema_7,
    8: as_schema_8,
    9: as_schema_9,
    10: as_schema_10,
    11: as_schema_11,
    12: as_schema_12,
    13: as_schema_13,
    14: as_schema_14,
    15: as_schema_15,
}  # each schema's layout written back


@pytest.mark.parametrize("version", [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
def test_an_old_database_ends_as_a_new_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    old = tmp_path / "old.db"
    shutil.copy(DATA / f"schema{version}.sqlite", old)
    refused = rf"schema {version}\); open it once for writing"
    with pytest.raises(DatabaseRefused, match=refused):
        open_database(str(old), readonly=True)
    migrated = open_database(str(old))
    fresh = open_database(str(tmp_path / "fresh.db"))
    monkeypatch.chdir(ROOT)  # the files named as when the old database was made
    assert import_paths(fresh, FILES).added == 61
    got, want = table_digests(migrated), table_digests(fresh)
    # the 3,131 moves of the games, and the start of each game but the one that did not parse
    # (hand-counted game 8); game 6 of hand-counted.pdn keeps three men and a king against a
    # king for its six plies
    assert got == want and want["postings"][0] == 3131 + 60
    raw = select(PostingRow.prefix, PostingRow.data).order_by(PostingRow.prefix)
    with migrated.connect() as a, fresh.connect() as b:  # a new import's bytes, where the
        # games kept their numbers and the moves their ids (the steps to 10 and 11 gave them
        # anew, in their own order)
        assert (a.execute(raw).all() == b.execute(raw).all()) is (version >= 11)
    for ask in ASKED:
        assert ask(migrated).equals(ask(fresh))
    assert len(ASKED[-1](migrated)) == 1
    imported_again(migrated, tmp_path)
    migrated.dispose()
    fresh.dispose()
    with sqlite3.connect(old) as conn:
        tables = {r[0] for r in conn.execute("SELECT name FROM sqlite_master")}
        version_now = conn.execute("SELECT value FROM pdn_meta WHERE key = 'schema_version'")
        assert version_now.fetchone()[0] == str(SCHEMA_VERSION) == "16"
        kinds = conn.execute("SELECT DISTINCT typeof(moves) FROM games").fetchall()
        words = conn.execute(
            "SELECT DISTINCT typeof(winner), typeof(termination), typeof(variant) FROM games "
            "WHERE variant IS NOT NULL"
        ).fetchall()
        columns = {r[1] for r in conn.execute("PRAGMA table_info(games)")}
        rowid = conn.execute("SELECT count(*) FROM pragma_index_list('occurrences')").fetchone()
    conn.close()
    assert "plies" not in tables and "ix_games_final_hash" not in tables
    assert "ix_material_signature" not in tables and "material_6" not in tables
    assert {"ix_games_variant_results", "ix_games_year_results"} <= tables
    assert "ix_games_variant" not in tables and "ix_games_year" not in tables
    assert {"postings", "positions_staged", "material", "material_staged"} <= tables
    assert "positions" not in tables and "material_13" not in tables
    assert {"tallies", "player_tallies", "squares", "ix_games_number", "move_texts"} <= tables
    assert not {"positions_9", "material_9", "positions_staged_9", "material_staged_9"} & tables
    assert not {"positions_10", "positions_staged_10"} & tables
    assert kinds == [("blob",)]  # the moves packed
    assert words == [("integer", "integer", "integer")] and "final_hash" not in columns
    assert rowid == (2,)  # the key is the table (without rowid) and the index on the game


SAME = {  # what each old layout is checked on against the file the toolkit wrote
    5: ["plies ORDER BY game_id, ply", "games ORDER BY id", "tags ORDER BY game_id, position"],
    6: ["positions ORDER BY digest, game_id, ply", "games ORDER BY id",
        "tags ORDER BY game_id, position", "material ORDER BY game_id, first",
        "boards ORDER BY game_id"],
    7: ["positions ORDER BY digest, game_id, ply", "games ORDER BY id",
        "tags ORDER BY game_id, position", "material ORDER BY signature, game_id, first",
        "boards ORDER BY game_id"],
    8: ["positions ORDER BY digest, game_id, ply", "games ORDER BY id",
        "tags ORDER BY game_id, position", "material ORDER BY signature, game_id, first",
        "boards ORDER BY game_id", "tallies ORDER BY 1, 2, 3, 4, 5, 6, 7",
        "player_tallies ORDER BY 1, 2, 3, 4, 5", "opening_tallies ORDER BY 1, 2, 3, 4, 5",
        "move_tallies ORDER BY 1, 2, 3"],
    9: ["positions ORDER BY digest, game_id, ply", "games ORDER BY id",
        "tags ORDER BY game_id, position", "material ORDER BY signature, game_id, first",
        "boards ORDER BY game_id", "squares ORDER BY game_id",
        "tallies ORDER BY 1, 2, 3, 4, 5, 6, 7", "player_tallies ORDER BY 1, 2, 3, 4, 5",
        "opening_tallies ORDER BY 1, 2, 3, 4, 5", "move_tallies ORDER BY 1, 2, 3"],
    10: ["positions ORDER BY digest, game, ply", "games ORDER BY id",
         "tags ORDER BY game_id, position", "material ORDER BY signature, game, first",
         "boards ORDER BY game_id", "squares ORDER BY game_id",
         "tallies ORDER BY 1, 2, 3, 4, 5, 6, 7", "player_tallies ORDER BY 1, 2, 3, 4, 5",
         "opening_tallies ORDER BY 1, 2, 3, 4, 5", "move_tallies ORDER BY 1, 2, 3"],
    11: ["positions ORDER BY digest, game, ply", "move_texts ORDER BY id", "games ORDER BY id",
         "boards ORDER BY game_id", "tags ORDER BY game_id, position"],
    12: ["positions ORDER BY digest, game, ply", "move_texts ORDER BY id", "games ORDER BY id",
         "boards ORDER BY game_id", "tags ORDER BY game_id, position",
         "material ORDER BY signature, game, first"],
    13: ["material ORDER BY signature, game, first", "move_texts ORDER BY id",
         "games ORDER BY id", "boards ORDER BY game_id", "postings ORDER BY prefix"],
    14: ["games ORDER BY id", "postings ORDER BY prefix", "material ORDER BY signature"],
    15: ["games ORDER BY id", "postings ORDER BY prefix", "material ORDER BY signature",
         "openings ORDER BY id"],
}  # fmt: skip


@pytest.mark.parametrize("version", [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
def test_an_old_schema_is_written_as_the_toolkit_wrote_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    made = open_database(str(tmp_path / "made.db"))
    monkeypatch.chdir(ROOT)
    import_paths(made, FILES)
    made.dispose()
    OLD[version](str(tmp_path / "made.db"))
    wrote = DATA / f"schema{version}.sqlite"
    with sqlite3.connect(tmp_path / "made.db") as a, sqlite3.connect(wrote) as b:
        for rows in SAME[version]:
            query = f"SELECT * FROM {rows}"
            assert a.execute(query).fetchall() == b.execute(query).fetchall()
        schema = "SELECT type, name FROM sqlite_master WHERE name NOT LIKE 'sqlite_%' ORDER BY 2"
        assert a.execute(schema).fetchall() == b.execute(schema).fetchall()
        for table in ("games", "material", "material_staged"):
            columns = f"SELECT name, type, pk FROM pragma_table_info('{table}')"
            assert a.execute(columns).fetchall() == b.execute(columns).fetchall()
    a.close()
    b.close()


@pytest.mark.skipif(postgres_reason() is not None, reason=str(postgres_reason()))
@pytest.mark.parametrize("version", [5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15])
def test_an_old_postgresql_database_ends_as_a_new_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    monkeypatch.chdir(ROOT)
    fresh = open_database(str(tmp_path / "fresh.db"))
    import_paths(fresh, FILES)
    with postgres_database() as url:
        old = open_database(url)
        import_paths(old, FILES)
        old.dispose()
        OLD[version](url)
        migrated = open_database(url)
        assert table_digests(migrated) == table_digests(fresh)
        with migrated.connect() as conn:  # named as a new database names them
            names = conn.exec_driver_sql(
                "SELECT conname FROM pg_constraint WHERE conrelid = 'material'::regclass"
            )
            assert sorted(n for (n,) in names) == ["material_pkey"]
        for ask in ASKED:
            assert ask(migrated).equals(ask(fresh))
        imported_again(migrated, tmp_path)
        migrated.dispose()
    fresh.dispose()


def staged_after(conn: Connection, number: int) -> None:
    """The positions and material runs of the games numbered over *number* put back where an
    import stages them, as one killed before it moved them in leaves them."""
    gone = set(conn.execute(select(GameRow.number).where(GameRow.number > number)).scalars())
    later = postings_cut(conn, gone)
    by_game: dict[int, list[tuple[int, int | None]]] = {}
    for d, g, _, m in sorted(later, key=lambda r: (r[1], r[2])):
        by_game.setdefault(g, []).append((d, m))
    names = ("game", "digests", "moves")
    rows = [
        staged_row(g, b"".join(d.to_bytes(8, "little", signed=True) for d, _ in ps),
                   [m + 1 for _, m in ps if m is not None])
        for g, ps in by_game.items()
    ]  # fmt: skip
    conn.execute(insert(STAGED), [dict(zip(names, r, strict=True)) for r in rows])
    runs: dict[int, list[tuple[int, int, int]]] = {}  # by game: signature, first, length
    for sig, g, first, length in material_cut(conn, gone):
        runs.setdefault(g, []).append((sig, first, length))
    conn.execute(insert(MATERIAL_STAGED), [{"game": g, "runs": staged(r)} for g, r in runs.items()])


@pytest.mark.parametrize("version", [9, 10, 12, 13, 14, 15])
def test_staged_rows_are_migrated(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, version: int
) -> None:
    """A database of schema 9, 10, 12, 13, 14 or 15 that an import killed before it moved its
    staged rows in left (the positions and runs of the games numbered over 30 staged) ends,
    opened for writing, as a new import: the staged rows migrated with the others, then moved
    in."""
    monkeypatch.chdir(ROOT)
    fresh = open_database(str(tmp_path / "fresh.db"))
    import_paths(fresh, FILES)
    old = open_database(db)
    import_paths(old, FILES)
    with old.begin() as conn:
        staged_after(conn, 30)
    with old.connect() as conn:
        staged = conn.execute(select(func.sum(func.length(STAGED.c.digests)) / 8)).scalar_one()
        runs = conn.execute(select(func.sum(func.length(MATERIAL_STAGED.c.runs)) / 12)).scalar_one()
    assert staged > 1000 and runs > 100
    old.dispose()
    OLD[version](db)
    migrated = open_database(db)
    assert table_digests(migrated) == table_digests(fresh)
    for ask in ASKED:
        assert ask(migrated).equals(ask(fresh))
    migrated.dispose()
    fresh.dispose()
