"""Reading speed: MB/s and games/s on the largest archive, next to pydraughts' PDNReader.

Usage: python benchmarks/read_pdn.py [FILE]   (default: ../shared/corpus/english/OCA_2.0.pdn)
"""

from __future__ import annotations

import itertools
import sys
import tempfile
from pathlib import Path

from _env import corpus_file, other_library, timed
from pdn.reader import read_games
from pdn.writer import write_games

# pydraughts holds the whole text and re-slices it per game: it is measured on a prefix
PREFIX_GAMES = 2000


def prefix(path: Path, games: int) -> Path:
    """A temporary file with the first *games* games of *path*."""
    out = Path(tempfile.gettempdir()) / f"{path.stem}-first{games}.pdn"
    with out.open("w", encoding="utf-8") as fh:
        write_games(itertools.islice(read_games(path), games), fh)
    return out


def measure(path: Path) -> list[tuple[str, float, int]]:
    """(label, seconds, games) for this toolkit, both ways, and for pydraughts."""

    def tags_and_syntax() -> int:
        return sum(1 for _ in read_games(path))

    def full_tree() -> int:
        return sum(len(g.body) >= 0 for g in read_games(path))

    rows = []
    for label, fn in (
        ("pdn read_games (tags, syntax checked)", tags_and_syntax),
        ("pdn read_games + move tree", full_tree),
    ):
        seconds, games = timed(fn)
        rows.append((label, seconds, games))
    return rows


def pydraughts(path: Path) -> tuple[str, float, int] | None:
    """pydraughts' PDNReader on the same file, in its own venv."""
    code = f"""
import json, time
from draughts.PDN import PDNReader
t = time.perf_counter()
games = len(PDNReader(filename={str(path)!r}).games)
print(json.dumps({{"seconds": time.perf_counter() - t, "games": games}}))
"""
    theirs = other_library("pydraughts", code)
    return ("pydraughts PDNReader", theirs["seconds"], theirs["games"]) if theirs else None


def report(path: Path, rows: list[tuple[str, float, int]]) -> None:
    mb = path.stat().st_size / 1e6
    print(f"{path.name}: {mb:.2f} MB")
    for label, seconds, games in rows:
        rate = f"{mb / seconds:6.2f} MB/s {games / seconds:8.0f} games/s"
        print(f"  {label:40s} {seconds:7.2f} s {rate}")


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else corpus_file("english/OCA_2.0.pdn")
    report(path, measure(path))
    small = prefix(path, PREFIX_GAMES)
    rows = measure(small)
    theirs = pydraughts(small)
    if theirs:
        rows.append(theirs)
    report(small, rows)
    if theirs:
        for label, seconds, _ in rows[:2]:
            print(f"  {label}: {theirs[1] / seconds:.1f}x the speed of pydraughts")


if __name__ == "__main__":
    main()
