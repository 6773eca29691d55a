"""Where one worker's import of a file spends its CPU time: reading and replaying, building the
rows, and writing them (see benchmarks/database.py, whose part by part measure this runs), the
writing split by table, and the indexes made at the end, per game.

Usage: python benchmarks/import_parts.py [PDN] [WORK_DIR]   (default OCA_2.0.pdn)
"""

from __future__ import annotations

import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import database

from _env import corpus_file
from pdn.db import store

SPENT: defaultdict[str, float] = defaultdict(float)


def clocked(label: Callable[..., str], fn: Callable[..., Any]) -> Callable[..., Any]:
    """*fn*, its CPU seconds added to SPENT under ``label(*args)``."""

    def run(*args: Any, **kwargs: Any) -> Any:
        start = time.process_time()
        try:
            return fn(*args, **kwargs)
        finally:
            SPENT[label(*args)] += time.process_time() - start

    return run


def main() -> None:
    pdn = Path(sys.argv[1]) if len(sys.argv) > 1 else corpus_file("english/OCA_2.0.pdn")
    work = Path(sys.argv[2]) if len(sys.argv) > 2 else Path(tempfile.mkdtemp())
    work.mkdir(parents=True, exist_ok=True)
    store._add_rows = clocked(lambda conn, table, *_: f"insert {table}", store._add_rows)
    store._through_driver = clocked(lambda *_: "upsert games", store._through_driver)
    made_after = store.made_after

    @contextmanager
    def timed_indexes(engine: Any, finishing: Any = None, vacuum: bool = True) -> Iterator[None]:
        with made_after(engine, finishing, vacuum):
            yield
            SPENT["(mark)"] = time.process_time()
        SPENT["positions in, indexes at the end"] += time.process_time() - SPENT.pop("(mark)")

    database.made_after = timed_indexes  # type: ignore[attr-defined]
    print(f"{pdn.name}, one worker, part by part (CPU):")
    games = database.parts(pdn, work)
    for label, seconds in sorted(SPENT.items(), key=lambda item: -item[1]):
        print(f"    {label:24s} {1e3 * seconds / games:6.3f} ms/game")


if __name__ == "__main__":
    main()
