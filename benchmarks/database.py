"""Database speed: import games/s (one worker and two; as a command and in this process), what
one worker spends on each part of an import (replaying, building the rows, writing them), size
per game, and the time of `stats openings` and `explore` on a database of over 200,000 games.

Figures are wall-clock and, for one worker, CPU seconds of this process too (on a machine shared
with other work the CPU figure is the steadier one).

The large database is the OCA archive imported once, then its rows copied under new ids until
there are 200,000 games or more (duplicates would otherwise be recognised and not stored again).

Usage: python benchmarks/database.py [WORK_DIR]
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

import pandas as pd
from search import grow
from sqlalchemy import text

from _env import compiled_toolkit, corpus_file, timed
from pdn.archive.pipeline import replay_paths
from pdn.db.connection import open_database
from pdn.db.questions import GameFilter, draw_stats, explore, find_games, opening_stats
from pdn.db.records import Record, build_record
from pdn.db.store import BATCH, import_paths, made_after, write_batch
from pdn.game import Game
from pdn.replay import Replay

TARGET = 200_000
OCA_GAMES = 22_621  # games in OCA_2.0.pdn


def _pair(game: Game, replay: Replay | None) -> tuple[Game, Replay | None]:
    return game, replay


def parts(oca: Path, work: Path) -> int:
    """CPU seconds per game of one worker's import, part by part, as an import goes: each game
    read and replayed on the pipeline, its record built, and the records written a batch at a
    time (the indexes made at the end counted with the writing); returns the games."""
    clock = time.process_time
    db = work / "parts.db"
    db.unlink(missing_ok=True)
    engine = open_database(str(db))
    with engine.begin() as conn:
        file_id = conn.execute(text(
            "INSERT INTO source_files (path, sha256, size, encoding, complete, games, "
            "imported_at) VALUES ('oca', '', 0, 'utf-8', 0, 0, '2026-01-01') RETURNING id"
        )).scalar_one()  # fmt: skip
    spent = {"read and replay": 0.0, "build the rows": 0.0, "write into SQLite": 0.0}
    games = replay_paths([oca], _pair)
    pending: list[tuple[int, Record]] = []
    n = 0
    with made_after(engine):  # as an import into a new database writes
        while True:
            start = clock()
            item = next(games, None)
            replayed = clock()
            spent["read and replay"] += replayed - start
            if item is not None:
                record = build_record(*item)
                n += 1
                record.report.index = n
                pending.append((file_id, record))
                spent["build the rows"] += clock() - replayed
            if pending and (item is None or len(pending) >= BATCH):
                start = clock()
                write_batch(engine, pending)
                pending = []
                spent["write into SQLite"] += clock() - start
            if item is None:
                break
        start = clock()
    spent["write into SQLite"] += clock() - start  # the indexes, made at the end
    engine.dispose()
    for label, seconds in spent.items():
        print(f"  {label:18s} {1e3 * seconds / n:6.3f} ms/game  ({n / seconds:7,.0f} games/s)")
    return n


def command(oca: Path, work: Path, workers: int, runs: int = 3) -> None:
    """`pdn import` of OCA_2.0.pdn into a new SQLite file as a user runs it (its own process,
    start-up included), *runs* times: each run's wall seconds, and the best as games/s."""
    walls = []
    for _ in range(runs):
        db = work / f"command-{workers}.db"
        for leftover in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
            leftover.unlink(missing_ok=True)
        start = time.perf_counter()
        subprocess.run(
            [sys.executable, "-c", "from pdn.cli.app import main; main()", "import", str(oca),
             "--db", str(db), "--workers", str(workers)],
            capture_output=True, check=True,
        )  # fmt: skip
        walls.append(time.perf_counter() - start)
    shown = ", ".join(f"{w:.2f}" for w in walls)
    print(
        f"pdn import OCA_2.0.pdn --workers {workers} (command): {shown} s; best "
        f"{OCA_GAMES / min(walls):,.0f} games/s"
    )


def main() -> None:
    work = Path(sys.argv[1]) if len(sys.argv) > 1 else Path(tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    oca = corpus_file("english/OCA_2.0.pdn")
    compiled_toolkit()
    for workers in (1, 2):
        command(oca, work, workers)
    for workers in (1, 2):
        db = work / f"oca-{workers}.db"
        db.unlink(missing_ok=True)
        engine = open_database(str(db))
        cpu = time.process_time()
        seconds, stats = timed(lambda e=engine, w=workers: import_paths(e, [oca], workers=w))
        cpu = time.process_time() - cpu
        engine.dispose()
        size = db.stat().st_size
        mine = f", {stats.games / cpu:,.0f} games per CPU second" if workers == 1 else ""
        print(
            f"import OCA_2.0.pdn, {workers} worker(s): {stats.games} games in {seconds:.1f} s, "
            f"{stats.games / seconds:,.0f} games/s{mine}; {size / stats.added / 1024:.1f} KiB "
            "per game"
        )
    print("one worker, part by part (CPU):")
    parts(oca, work)
    engine = open_database(str(work / "oca-1.db"))
    total = grow(engine, TARGET)
    print(f"database of {total:,} games:")
    questions: list[tuple[str, Callable[[], pd.DataFrame]]] = [
        ("stats openings --plies 6", lambda: opening_stats(engine, "english", 6, 10)),
        ("stats openings --ballots", lambda: opening_stats(engine, ballots=True)),
        ("explore (start)", lambda: explore(engine, "english")),
        ("explore --moves '11-15 23-19'", lambda: explore(engine, "english", "11-15 23-19")),
        ("stats draws --by year", lambda: draw_stats(engine, "year")),
        ("query --player Tinsley", lambda: find_games(engine, GameFilter(player="Tinsley"))),
    ]
    for label, ask in questions:
        ask()  # warm the cache once, then time
        seconds, frame = timed(ask)
        print(f"  {label:32s} {seconds:6.3f} s  ({len(frame)} rows)")
    engine.dispose()


if __name__ == "__main__":
    main()
