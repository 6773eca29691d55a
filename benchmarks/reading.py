"""Reading speed, best of 5 runs in CPU time (steady on a shared machine): list(read_games) of
OCA_2.0.pdn and of the corpus's valid International games without a setup (written to one file,
as benchmarks/validate.py does), the same games one read_string at a time (what a program
reading a game per call pays), and validate_file of that file.

Usage: python benchmarks/reading.py
"""

from __future__ import annotations

import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from validate import international_games

from _env import corpus_file, cpu_timed
from pdn.archive.validate import validate_file
from pdn.read.reader import read_games, read_string

RUNS = 5


def best(fn: Callable[[], Any]) -> float:
    """The least CPU time of RUNS calls of fn()."""
    return min(cpu_timed(fn)[0] for _ in range(RUNS))


def main() -> None:
    texts = international_games()
    archive = Path(tempfile.gettempdir()) / "pdn-bench-international.pdn"
    archive.write_text("\n\n".join(texts), encoding="utf-8")
    oca = corpus_file("english/OCA_2.0.pdn")
    n = len(texts)

    def validate() -> object:
        return validate_file(archive, "international")

    rows = [
        ("read_games, OCA_2.0.pdn (22,621 games)", best(lambda: list(read_games(oca))), 22621),
        (f"read_games, {n} International games", best(lambda: list(read_games(archive))), n),
        ("read_string, one text at a time", best(lambda: [read_string(t) for t in texts]), n),
        ("validate_file, the International file", best(validate), n),
    ]
    print(f"CPU time, best of {RUNS} runs:")
    for label, seconds, games in rows:
        print(f"  {label:42s} {seconds:6.3f} s {games / seconds:9,.0f} games/s")


if __name__ == "__main__":
    main()
