"""Reading speed: MB/s and games/s on the largest archive, next to pydraughts' PDNReader.

Usage: python benchmarks/read_pdn.py [FILE]   (default: ../shared/corpus/english/OCA_2.0.pdn)

Prints, for the file: `pdn list --json` as a command (wall and CPU time, the interpreter and
the CLI's imports included) and its work in this process (rows counted without move trees, as
JSON); read_games with headers only, with the move trees built, and with the grammar's LALR
parser on each game (the twin the tests hold the reader to); then the same on the first 2,000
games beside pydraughts.
"""

from __future__ import annotations

import itertools
import json
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from _env import compiled_toolkit, corpus_file, other_library, timed
from pdn.archive.listing import ListedGame, list_games
from pdn.read.reader import read_games
from pdn.read.tokens import grammar
from pdn.writer import write_games

# pydraughts holds the whole text and re-slices it per game: it is measured on a prefix
PREFIX_GAMES = 2000


def prefix(path: Path, games: int) -> Path:
    """A temporary file with the first *games* games of *path*."""
    out = Path(tempfile.gettempdir()) / f"{path.stem}-first{games}.pdn"
    with out.open("w", encoding="utf-8") as fh:
        write_games(itertools.islice(read_games(path), games), fh)
    return out


def command(path: Path) -> tuple[str, float, float, int]:
    """`pdn list --json` in its own process: (label, wall s, CPU s, games)."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    start = time.perf_counter()
    done = subprocess.run(
        [sys.executable, "-c", "from pdn.cli.app import main; main()", "list", "--json",
         str(path)],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    wall = time.perf_counter() - start
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime
    return "pdn list --json (command)", wall, cpu, done.stdout.count("\n")


def measure(path: Path) -> list[tuple[str, float, int, float]]:
    """(label, seconds, games) for each way of reading in this process."""

    def rows_as_json() -> int:
        n = 0
        for row in list_games([path]):
            if isinstance(row, ListedGame):
                json.dumps(row.as_dict(), ensure_ascii=False)
                n += 1
        return n

    def headers() -> int:
        return sum(1 for _ in read_games(path, headers_only=True))

    def full_tree() -> int:
        return sum(len(g.body) >= 0 for g in read_games(path))

    def lalr() -> int:
        parser = grammar()
        n = 0
        for g in read_games(path, headers_only=True):
            parser.parse(g.raw)  # a tree always, or an exception
            n += 1
        return n

    rows = []
    for label, fn in (
        ("list rows as JSON (in process)", rows_as_json),
        ("read_games, headers only", headers),
        ("read_games + move trees", full_tree),
        ("each game parsed by Lark LALR too", lalr),
    ):
        cpu = time.process_time()
        seconds, games = timed(fn)
        rows.append((label, seconds, games, time.process_time() - cpu))
    return rows


def pydraughts(path: Path) -> tuple[str, float, int, float] | None:
    """pydraughts' PDNReader on the same file, in its own venv."""
    code = f"""
import json, time
from draughts.PDN import PDNReader
t = time.perf_counter()
games = len(PDNReader(filename={str(path)!r}).games)
print(json.dumps({{"seconds": time.perf_counter() - t, "games": games}}))
"""
    theirs = other_library("pydraughts", code)
    return ("pydraughts PDNReader", theirs["seconds"], theirs["games"], 0.0) if theirs else None


def report(path: Path, rows: list[tuple[str, float, int, float]]) -> None:
    """Wall time and rates; the rates on CPU time too (a busy machine stretches wall time)."""
    mb = path.stat().st_size / 1e6
    print(f"{path.name}: {mb:.2f} MB")
    for label, seconds, games, cpu in rows:
        rate = f"{mb / seconds:6.2f} MB/s {games / seconds:8.0f} games/s"
        on_cpu = f"(CPU {cpu:.2f} s: {mb / cpu:.2f} MB/s)" if cpu else ""
        print(f"  {label:36s} {seconds:7.2f} s {rate} {on_cpu}")


def main() -> None:
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else corpus_file("english/OCA_2.0.pdn")
    compiled_toolkit()
    label, wall, cpu, games = command(path)
    mb = path.stat().st_size / 1e6
    print(f"{label}: {games} games, {wall:.2f} s wall, {cpu:.2f} s CPU: {mb / cpu:.2f} MB/s")
    report(path, measure(path))
    small = prefix(path, PREFIX_GAMES)
    rows = measure(small)[1:3]
    theirs = pydraughts(small)
    if theirs:
        rows.append(theirs)
    report(small, rows)
    if theirs:
        for label, seconds, _, _ in rows[:2]:
            print(f"  {label}: {theirs[1] / seconds:.1f}x the speed of pydraughts")


if __name__ == "__main__":
    main()
