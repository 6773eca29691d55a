"""Material and pattern search: import cost of the search tables, and the time of searches on a
database of over 200,000 games.

The large database is the OCA archive imported once, then every game copied (with its plies,
tags, material runs and boards) under new ids until there are 200,000 games or more (--games:
up to 64 times OCA's 22,621, 1,447,744).

Usage: python benchmarks/search.py [WORK_DIR] [--games N]   (an existing WORK_DIR/oca.db is
reused)
"""

from __future__ import annotations

import argparse
import tempfile
from pathlib import Path

import numpy as np
from sqlalchemy import Connection, Engine, func, select, text

from _env import corpus_file, timed
from pdn.archive.selection import parse_material, parse_pattern
from pdn.db.connection import open_database
from pdn.db.material import parts as material_parts
from pdn.db.material import unpacked as unpacked_runs
from pdn.db.postings import every_posting, parts, upsert
from pdn.db.questions import GameFilter, count_games, find_games
from pdn.db.schema import Base, BoardsRow, GameRow, MaterialRow
from pdn.db.store import import_paths

TARGET = 200_000
TOP = 1 << 57  # copy k's ids: k * TOP stays within 64 bits up to k = 63
FAR = 1 << 48


def grow(engine: Engine, target: int = TARGET) -> int:
    """Copy the games until there are *target* or more: copy k of a game gets the id
    -(id % 2**57) - k * 2**57 (no original id is negative), a place past every file's and
    the number k times the highest on."""
    moved = {
        "id": "-(id % {top}) - {k} * {top}",
        "game_id": "-(game_id % {top}) - {k} * {top}",
        "game_hash": "CAST(game_hash || '-{k}' AS BLOB)",
        "place": "place + {k} * {far}",
        "number": "number + {k} * {span}",
        "game": "game + {k} * {span}",
    }
    with engine.begin() as conn:
        base = conn.execute(select(func.count()).select_from(GameRow)).scalar() or 1
        span = conn.execute(select(func.max(GameRow.number))).scalar() or 0
        originals = "(SELECT id FROM games WHERE length(game_hash) = 16)"
        numbers = "(SELECT number FROM games WHERE length(game_hash) = 16)"
        for k in range(1, -(-target // base)):
            for table in Base.metadata.sorted_tables:
                names = [c.name for c in table.columns]
                if table.name == "games":
                    where = f"id IN {originals}"
                elif "game_id" in names and table.name != "occurrences":
                    where = f"game_id IN {originals}"
                elif "game" in names:
                    where = f"game IN {numbers}"
                else:
                    continue
                values = ", ".join(
                    moved.get(c, f'"{c}"').format(k=k, top=TOP, far=FAR, span=span) for c in names
                )
                columns = ", ".join(f'"{c}"' for c in names)
                conn.execute(text(
                    f"INSERT INTO {table.name} ({columns}) SELECT {values} FROM {table.name} "
                    f"WHERE {where}"
                ))  # fmt: skip
        _grow_postings(conn, span, -(-target // base))
        _grow_material(conn, span, -(-target // base))
        total = conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0
    return int(total)


def _grow_postings(conn: Connection, span: int, copies: int) -> None:
    """Copies 1 to *copies* - 1 of the original games' postings (numbers up to *span*), each
    game's number k times *span* on, a part added to each row per copy."""
    found = [(d, g, p, 0 if m is None else m + 1) for d, fs in every_posting(conn)
             for g, p, m in fs if g <= span]  # fmt: skip
    rows = np.array(found, dtype=np.int64).reshape(-1, 4)
    for k in range(1, copies):
        moved = rows + np.array([0, k * span, 0, 0])
        if len(moved):
            conn.exec_driver_sql(upsert(conn), parts(*moved.T))


def _grow_material(conn: Connection, span: int, copies: int) -> None:
    """Copies 1 to *copies* - 1 of the original games' material runs (numbers up to *span*),
    each game's number k times *span* on, a part added to each signature's row per copy."""
    query = select(MaterialRow.signature, MaterialRow.data)
    found = [(s, *r) for s, data in conn.execute(query) for r in unpacked_runs(data).tolist()
             if r[0] <= span]  # fmt: skip
    rows = np.array(sorted(found), dtype=np.int64).reshape(-1, 4)
    for k in range(1, copies):
        moved = rows + np.array([0, k * span, 0, 0])
        if len(moved):
            conn.exec_driver_sql(upsert(conn, "material", "signature"), material_parts(moved))


SEARCHES = [
    ("material W:K1,B:K1 (one king each)", GameFilter(material=parse_material("W:K1,B:K1"))),
    ("material W:3K1,B:1K", GameFilter(material=parse_material("W:3K1,B:1K"))),
    ("material W:K3,B:K1 for 10 plies",
     GameFilter(material=parse_material("W:K3,B:K1"), material_plies=10)),
    ("material W:4-6,B:4-6 (men only)", GameFilter(material=parse_material("W:4-6,B:4-6"))),
    ("material W:5+K1+ (open ranges)",
     GameFilter(material=parse_material("W:5+K1+"))),
    ("material B:K2+ with --variant english",
     GameFilter(material=parse_material("B:*K2+"), variant="english")),
    ("pattern WK5:BK28", GameFilter(pattern=parse_pattern("WK5:BK28"))),
    ("pattern B:W22:B15,11 (a common one)", GameFilter(pattern=parse_pattern("B:W22:B15,11"))),
    ("pattern with material W:K2,B:K1", GameFilter(material=parse_material("W:K2,B:K1"),
                                                   pattern=parse_pattern("WK1"))),
]  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("work", nargs="?", type=Path)
    parser.add_argument("--games", type=int, default=TARGET, help="grow to this many games")
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    db = work / "oca.db"
    if not db.exists():
        engine = open_database(str(db))
        oca = corpus_file("english/OCA_2.0.pdn")
        seconds, stats = timed(lambda: import_paths(engine, [oca]))
        print(f"import OCA_2.0.pdn (one worker): {stats.games:,} games in {seconds:.1f} s, "
              f"{stats.games / seconds:,.0f} games/s, {db.stat().st_size / stats.added / 1024:.1f} "
              "KiB per game")  # fmt: skip
        with engine.connect() as conn:
            rows = conn.execute(select(MaterialRow.data)).scalars()
            runs = sum(len(unpacked_runs(data)) for data in rows)
            packed = conn.execute(select(func.sum(func.length(BoardsRow.data)))).scalar() or 0
        print(f"  search tables: {runs / stats.added:.1f} material runs and "
              f"{packed / stats.added:,.0f} bytes of boards per game")  # fmt: skip
        seconds, total = timed(lambda: grow(engine, args.games))
        print(f"grown to {total:,} games in {seconds:.0f} s")
        engine.dispose()
    engine = open_database(str(db), create=False, readonly=True)
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0
    print(f"database of {total:,} games ({db.stat().st_size / (1 << 20):,.0f} MiB):")
    for label, where in SEARCHES:
        count_games(engine, where)  # warm the cache once, then time
        seconds, n = timed(lambda w=where: count_games(engine, w))
        first, frame = timed(lambda w=where: find_games(engine, w, limit=100))
        print(f"  {label:42s} count {seconds:6.2f} s ({n:,} games); first 100 {first:5.2f} s "
              f"({len(frame)})")  # fmt: skip
    engine.dispose()


if __name__ == "__main__":
    main()
