"""Database speed: import games/s (one worker and two), size per game, and the time of
`stats openings` and `explore` on a database of over 200,000 games.

The large database is the OCA archive imported once, then its rows copied under new ids until
there are 200,000 games or more (duplicates would otherwise be recognised and not stored again).

Usage: python benchmarks/database.py [WORK_DIR]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from sqlalchemy import func, select, text

from _env import corpus_file, timed
from pdn.db.questions import GameFilter, draw_stats, explore, find_games, opening_stats
from pdn.db.schema import GameRow
from pdn.db.store import import_paths, open_database

TARGET = 200_000


def grow(db: str) -> int:
    """Copy the games (with their plies and tags) until there are TARGET or more."""
    engine = open_database(db)
    with engine.begin() as conn:
        base = conn.execute(select(func.max(GameRow.id))).scalar() or 0
        copies = -(-TARGET // base)
        for k in range(1, copies):
            off = k * base
            conn.execute(text(
                f"INSERT INTO games SELECT id + {off}, game_hash || '-{k}', file_id, file_index, "
                "line, event, site, date, year, round, white, black, result, outcome, variant, "
                "variant_source, rules, start_fen, termination, termination_ply, plies, valid, "
                f"errors, moves, opening_hash, final_hash, pdn FROM games WHERE id <= {base}"
            ))  # fmt: skip
            conn.execute(text(
                f"INSERT INTO plies SELECT game_id + {off}, ply, move, start, \"end\", path, "
                f"captured, crowns, before, after FROM plies WHERE game_id <= {base}"
            ))  # fmt: skip
            conn.execute(text(
                f"INSERT INTO tags SELECT game_id + {off}, position, name, value FROM tags "
                f"WHERE game_id <= {base}"
            ))  # fmt: skip
        total = conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0
    engine.dispose()
    return int(total)


def main() -> None:
    work = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    oca = corpus_file("english/OCA_2.0.pdn")
    for workers in (1, 2):
        db = work / f"oca-{workers}.db"
        db.unlink(missing_ok=True)
        engine = open_database(str(db))
        seconds, stats = timed(lambda e=engine, w=workers: import_paths(e, [oca], workers=w))
        engine.dispose()
        size = db.stat().st_size
        print(
            f"import OCA_2.0.pdn, {workers} worker(s): {stats.games} games in {seconds:.1f} s, "
            f"{stats.games / seconds:,.0f} games/s; {size / stats.added / 1024:.1f} KiB per game"
        )
    db = str(work / "oca-1.db")
    total = grow(db)
    engine = open_database(db)
    print(f"database of {total:,} games:")
    for label, ask in (
        ("stats openings --plies 6", lambda: opening_stats(engine, "english", 6, 10)),
        ("stats openings --ballots", lambda: opening_stats(engine, ballots=True)),
        ("explore (start)", lambda: explore(engine, "english")),
        ("explore --moves '11-15 23-19'", lambda: explore(engine, "english", "11-15 23-19")),
        ("stats draws --by year", lambda: draw_stats(engine, "year")),
        ("query --player Tinsley", lambda: find_games(engine, GameFilter(player="Tinsley"))),
    ):
        ask()  # warm the cache once, then time
        seconds, frame = timed(ask)
        print(f"  {label:32s} {seconds:6.3f} s  ({len(frame)} rows)")
    engine.dispose()


if __name__ == "__main__":
    main()
