"""Many one-game files: the CPU time of importing 1,000 of them (each game of
samples/english-oca-first20.pdn 50 times, each copy under its own event) against validating the
same files, and the transactions the import commits.

Usage: python benchmarks/small_files.py [WORK_DIR]
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

from sqlalchemy import event

from _env import HERE, cpu_timed
from pdn.archive.validate import validate_paths
from pdn.db.connection import open_database
from pdn.db.store import import_paths
from pdn.read.reader import read_games

SAMPLE = HERE.parent / "samples" / "english-oca-first20.pdn"


def write_files(folder: Path) -> int:
    """Write the 1,000 one-game files into *folder*; their number."""
    folder.mkdir()
    n = 0
    for i, game in enumerate(read_games(SAMPLE)):
        for copy in range(50):
            raw = game.raw.replace('[Event "', f'[Event "{copy}: ', 1)
            (folder / f"g{i:02d}-{copy:02d}.pdn").write_text(raw + "\n", encoding="utf-8")
            n += 1
    return n


def main() -> None:
    with tempfile.TemporaryDirectory(dir=sys.argv[1] if len(sys.argv) > 1 else None) as work:
        folder = Path(work) / "one-game-files"
        n = write_files(folder)
        engine = open_database(str(Path(work) / "many.db"))
        commits: list[int] = []
        event.listen(engine, "commit", lambda conn: commits.append(1))
        imported, stats = cpu_timed(lambda: import_paths(engine, [folder]))
        engine.dispose()
        validated, checked = cpu_timed(lambda: sum(1 for _ in validate_paths([folder])))
        print(f"{n:,} one-game files: {stats.added:,} games imported in {imported:.2f} s of CPU, "
              f"{checked:,} validated in {validated:.2f} s: import {imported / validated:.1f}x "
              f"validation; {len(commits)} commits")  # fmt: skip


if __name__ == "__main__":
    main()
