"""The aims of issue 29 (a million games) with their figures from one run: validate and import
as commands (one worker and two, under /usr/bin/time -v for CPU time and peak memory), the
database's bytes per byte of PDN, and the time of the questions tests/test_questions.py asks,
on each file given (default OCA_2.0.pdn and, when made, benchmarks/out/million-100k.pdn:
``python benchmarks/million.py benchmarks/out/million-100k.pdn --games 100000``).

On a machine shared with other work wall times carry its load: the CPU figures (user + system
of the command and its workers) are the steadier ones, and ratios of CPU time are shown as well.

Usage: python benchmarks/aims.py [PDN ...] [--work DIR]
       python benchmarks/aims.py PDN --asked DB   (a database made of PDN already: the million)
"""

from __future__ import annotations

import argparse
import os
import re
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from _env import HERE, compiled_toolkit, corpus_file
from pdn.archive.selection import parse_material, parse_pattern
from pdn.db.connection import open_database
from pdn.db.questions import (
    GameFilter,
    count_games,
    draw_stats,
    explore,
    find_games,
    opening_stats,
    result_stats,
)

SLICE = HERE / "out" / "million-100k.pdn"
QUERY_AIM, PATTERN_AIM = 0.2, 2.0  # seconds on a million games


@dataclass(frozen=True, slots=True)
class Run:
    """One command's wall and CPU seconds and peak resident memory."""

    wall: float
    cpu: float
    rss_mib: float


def command(*args: str) -> Run:
    """`pdn ARGS` in a process of its own under /usr/bin/time -v."""
    pdn = [sys.executable, "-c", "from pdn.cli.app import main; main()", *args]
    start = time.perf_counter()
    done = subprocess.run(["/usr/bin/time", "-v", *pdn], capture_output=True, text=True)
    wall = time.perf_counter() - start
    if done.returncode not in (0, 1):  # 1: invalid games found, as validate reports them
        sys.exit(f"pdn {' '.join(args)} failed: {done.stderr[-2000:]}")

    def figure(name: str) -> float:
        found = re.search(rf"{name}: ([\d.]+)", done.stderr)
        return float(found.group(1)) if found else float("nan")

    cpu = figure(r"User time \(seconds\)") + figure(r"System time \(seconds\)")
    return Run(wall, cpu, figure(r"Maximum resident set size \(kbytes\)") / 1024)


def fresh(db: Path) -> Path:
    """*db* with no file of it left from before."""
    for leftover in (db, db.with_name(db.name + "-wal"), db.with_name(db.name + "-shm")):
        leftover.unlink(missing_ok=True)
    return db


def questions(where: GameFilter) -> list[tuple[str, Callable[[Any], object]]]:
    """The questions of tests/test_questions.py, as asked of a database (*where*: a player)."""
    return [
        ("explore (start)", lambda e: explore(e, "english")),
        ("explore --moves 11-15", lambda e: explore(e, "english", moves="11-15")),
        ("explore --result black", lambda e: explore(e, "english", result="black")),
        ("stats openings --plies 3", lambda e: opening_stats(e, plies=3)),
        ("stats openings --plies 6 --top 15", lambda e: opening_stats(e, plies=6, top=15)),
        ("stats openings --ballots", lambda e: opening_stats(e, ballots=True)),
        ("stats results --by variant", lambda e: result_stats(e, "variant")),
        ("stats results --by year", lambda e: result_stats(e, "year")),
        ("stats results --by opening", lambda e: result_stats(e, "opening")),
        ("stats results --by player", lambda e: result_stats(e, "player")),
        ("stats draws --by opening", lambda e: draw_stats(e, "opening")),
        ("query --white (a page)", lambda e: find_games(e, where)),
        ("query --distinct-moves (a page)",
         lambda e: find_games(e, GameFilter(distinct_moves=True))),
        ("query --moves '11-15 23-19' --count",
         lambda e: count_games(e, GameFilter(variant="english", moves="11-15 23-19"))),
        ("query --material W:12,B:12 --material-plies 2 --count",
         lambda e: count_games(e, GameFilter(material=parse_material("W:12,B:12"),
                                             material_plies=2))),
        ("query --material W:3K1,B:1K --count",
         lambda e: count_games(e, GameFilter(material=parse_material("W:3K1,B:1K")))),
        ("query --invalid (a page)", lambda e: find_games(e, GameFilter(valid=False))),
        ("pattern WK5:BK28 --count",
         lambda e: count_games(e, GameFilter(pattern=parse_pattern("WK5:BK28")))),
    ]  # fmt: skip


def best(ask: Callable[[], object], runs: int = 3) -> float:
    """The least wall seconds of *runs* answers (after one that warms the cache)."""
    ask()
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        ask()
        times.append(time.perf_counter() - start)
    return min(times)


def measure(pdn: Path, work: Path) -> list[tuple[str, str, str]]:
    """The aims' rows (aim, figure, met?) for one file."""
    name = pdn.name
    validate = {w: command("validate", str(pdn), "--workers", str(w)) for w in (1, 2)}
    imports = {}
    for w in (1, 2):
        db = fresh(work / f"{pdn.stem}-{w}.db")
        imports[w] = command("import", str(pdn), "--db", str(db), "--workers", str(w))
    rows: list[tuple[str, str, str]] = []
    row = partial(_row, rows, name)

    ratio = imports[1].cpu / validate[1].cpu
    row("import within 2x validate (one worker)",
        f"import {imports[1].cpu:.1f} s CPU ({imports[1].wall:.1f} s wall), validate "
        f"{validate[1].cpu:.1f} s CPU ({validate[1].wall:.1f} s wall): {ratio:.2f}x CPU",
        ratio <= 2)  # fmt: skip
    for label, runs in (("validate", validate), ("import", imports)):
        gain = runs[1].wall / runs[2].wall
        row(f"two workers at least 1.7x one ({label}, wall)",
            f"{runs[1].wall:.1f} s / {runs[2].wall:.1f} s = {gain:.2f}x", gain >= 1.7)  # fmt: skip
    peak = max(r.rss_mib for r in [*validate.values(), *imports.values()])
    row("memory bounded (peak RSS of validate and import, 1 and 2 workers)",
        ", ".join(f"{label} {w}: {r.rss_mib:.0f} MiB" for label, runs in
                  (("validate", validate), ("import", imports)) for w, r in runs.items()),
        None if peak < 1024 else False)  # fmt: skip
    return rows + asked(work / f"{pdn.stem}-1.db", pdn)


def _row(rows: list[tuple[str, str, str]], name: str, aim: str, figure: str, met: bool | None
         ) -> None:  # fmt: skip
    rows.append((f"{name}: {aim}", figure, "-" if met is None else "yes" if met else "no"))


def asked(db: Path, pdn: Path) -> list[tuple[str, str, str]]:
    """The aims' rows of the database *db* made of *pdn*: its bytes, its questions' times."""
    rows: list[tuple[str, str, str]] = []
    row = partial(_row, rows, pdn.name)
    stored, size = db.stat().st_size, pdn.stat().st_size
    row("database at most 3x the PDN's bytes",
        f"{stored / 2**20:,.1f} MiB for {size / 2**20:,.1f} MiB: {stored / size:.2f}x",
        stored / size <= 3)  # fmt: skip
    engine = open_database(str(db), create=False, readonly=True)
    player = find_games(engine, GameFilter(), limit=1)["white"].iloc[0]
    for label, ask in questions(GameFilter(white=str(player))):
        seconds = best(partial(ask, engine))
        aim = PATTERN_AIM if label.startswith("pattern") else QUERY_AIM
        row(f"{label} under {aim} s", f"{seconds:.3f} s", seconds < aim)
    engine.dispose()
    return rows


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdn", nargs="*", type=Path)
    parser.add_argument("--work", type=Path)
    parser.add_argument(
        "--asked",
        type=Path,
        metavar="DB",
        help="only the bytes and questions of DB, made of the one PDN given",
    )
    args = parser.parse_args()
    if args.asked:
        rows = asked(args.asked, args.pdn[0])
        print("| aim | figure | met? |\n|---|---|---|")
        for aim, figure, met in rows:
            print(f"| {aim} | {figure} | {met} |")
        return
    files = args.pdn or [corpus_file("english/OCA_2.0.pdn"), *([SLICE] if SLICE.exists() else [])]
    compiled_toolkit()
    work = args.work or Path(tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    print(f"load average at the start: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")
    rows = [r for pdn in files for r in measure(pdn, work)]
    print("| aim | figure | met? |\n|---|---|---|")
    for aim, figure, met in rows:
        print(f"| {aim} | {figure} | {met} |")
    print("| validation at least 2x dame-rs, 20x py-draughts | not run here: "
          "`python benchmarks/cores.py` | - |")  # fmt: skip
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
