"""Where local workers start to pay: validating the first 0.5, 1, 2, 4 and 8 MB of OCA_2.0.pdn
(cut at a game boundary) with one worker and with two; and how long `pdn --version`, `pdn --help`
and `pdn list` on a small file take to start.

Usage: python benchmarks/pipeline.py
"""

from __future__ import annotations

import subprocess
import sys
import tempfile
from pathlib import Path

from _env import compiled_toolkit, corpus_file, timed
from pdn.archive.validate import validate_paths
from pdn.read.reader import game_spans

SIZES_MB = (0.5, 1, 2, 4, 8, 11.5)
SMALL = Path(__file__).resolve().parents[1] / "samples" / "english-oca-first20.pdn"


def prefix(source: Path, megabytes: float, folder: Path) -> Path:
    """The games of *source* in its first *megabytes* (cut where a game starts)."""
    size = int(megabytes * (1 << 20))
    starts = [s.start for s in game_spans(source, max(1, source.stat().st_size // 20_000))]
    end = max(s for s in starts if s <= size)
    path = folder / f"oca-{megabytes}MB.pdn"
    with source.open("rb") as fh:
        path.write_bytes(fh.read(end))
    return path


def start_up(*args: str) -> float:
    """The best of five wall times of `pdn ARGS`."""
    best = float("inf")
    command = [sys.executable, "-m", "pdn.cli.app", *args]
    for _ in range(5):
        seconds, _ = timed(lambda: subprocess.run(command, capture_output=True, check=False))
        best = min(best, seconds)
    return best


def main() -> None:
    compiled_toolkit()
    for args in (("--version",), ("--help",), ("list", str(SMALL))):
        print(f"pdn {' '.join(args)[:40]:40} starts and ends in {start_up(*args):5.2f} s")
    oca = corpus_file("english/OCA_2.0.pdn")
    with tempfile.TemporaryDirectory() as tmp:
        for mb in SIZES_MB:
            path = prefix(oca, mb, Path(tmp))
            rates = []
            for workers in (1, 2):
                seconds, n = timed(
                    lambda w=workers, p=path: sum(1 for _ in validate_paths([p], workers=w))
                )
                rates.append(n / seconds)
            print(f"validate {mb:>4} MB ({n:5} games): one worker {rates[0]:6,.0f} games/s, "
                  f"two {rates[1]:6,.0f} games/s ({rates[1] / rates[0]:.2f}x)")  # fmt: skip


if __name__ == "__main__":
    main()
