"""Cluster speed: validate and import the OCA archive (22,621 games) on a local Dask cluster of
one and two workers into PostgreSQL, against one process; then the database's own write rate
(stored records written by one and by two writer processes), which says where adding workers
stops paying.

Usage: python benchmarks/cluster.py [POSTGRES_URL]
(default: $PDN_TEST_POSTGRES, else a throw-away server started by .ci/postgres)
"""

from __future__ import annotations

import os
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import contextmanager
from datetime import datetime
from functools import partial

from sqlalchemy import create_engine, insert, text

from _env import HERE, corpus_file, timed
from pdn.archive.cluster import connect
from pdn.archive.parallel import file_tasks
from pdn.archive.pipeline import Options
from pdn.archive.validate import validate_paths
from pdn.db.connection import open_database
from pdn.db.records import Record
from pdn.db.schema import SourceFile
from pdn.db.store import import_paths, span_records, write_batch

BATCH = 500


@contextmanager
def database(server: str) -> Iterator[str]:
    """A new PostgreSQL database on *server*, dropped afterwards."""
    name = f"pdn_bench_{uuid.uuid4().hex[:8]}"
    admin = create_engine(server, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield server.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def write_all(url: str, batches: list[list[tuple[int, Record]]]) -> float:
    """Seconds one writer process takes to write *batches* (runs in its own process)."""
    engine = create_engine(url)
    start = time.perf_counter()
    for b in batches:
        write_batch(engine, b)
    seconds = time.perf_counter() - start
    engine.dispose()
    return seconds


def write_rate(server: str, records: list[Record], writers: int) -> float:
    """Games per second the database takes from *writers* processes writing at once."""
    with database(server) as url:
        engine = open_database(url)
        with engine.begin() as conn:
            key = conn.execute(
                insert(SourceFile).values(path="oca", sha256="", size=0, encoding="utf-8",
                                          complete=False, games=0, imported_at=datetime.now())
            ).inserted_primary_key  # fmt: skip
            assert key is not None
            file_id = key[0]
        engine.dispose()
        rows = [(int(file_id), r) for r in records]
        batches = [rows[i : i + BATCH] for i in range(0, len(rows), BATCH)]
        shares = [batches[w::writers] for w in range(writers)]
        with ProcessPoolExecutor(writers) as pool:
            seconds = max(pool.map(partial(write_all, url), shares))
    return len(records) / seconds


def main() -> None:
    server = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("PDN_TEST_POSTGRES")
    if not server:
        started = subprocess.run(["bash", str(HERE.parent / ".ci" / "postgres")], check=True,
                                 capture_output=True, text=True)  # fmt: skip
        server = started.stdout.strip()
    oca = corpus_file("english/OCA_2.0.pdn")
    seconds, reports = timed(lambda: list(validate_paths([oca])))
    games = len(reports)
    print(f"OCA_2.0.pdn, {games} games; {os.cpu_count()} cores here")
    print(f"validate, one process:        {games / seconds:7,.0f} games/s")
    rates: dict[int, float] = {}
    for n in (1, 2):
        with connect(f"local:{n}") as runner:
            seconds, _ = timed(lambda r=runner: list(validate_paths([oca], workers=r)))
            print(f"validate, cluster local:{n}:    {games / seconds:7,.0f} games/s")
            with database(server) as url:
                engine = open_database(url)
                seconds, _ = timed(lambda e=engine, r=runner: import_paths(e, [oca], workers=r))
                engine.dispose()
            rates[n] = games / seconds
            print(f"import, cluster local:{n}:      {rates[n]:7,.0f} games/s (workers write)")
    print(f"scaling 1 -> 2 workers:        {rates[2] / rates[1]:7.2f}x")
    # what one worker's replay costs, and what the database takes in: the ceiling of a cluster
    seconds, parts = timed(
        lambda: [span_records(t, Options()) for t in file_tasks([oca], 1, lambda _: "english")]
    )
    records = [r for part in parts for r in part]
    for i, r in enumerate(records, 1):
        r.report.index = i
    replay = len(records) / seconds
    print(f"replay + rows, one worker:     {replay:7,.0f} games/s")
    for writers in (1, 2):
        rate = write_rate(server, records, writers)
        print(f"database writes, {writers} writer(s): {rate:7,.0f} games/s"
              f"  -> stops scaling near {rate / replay:.0f} workers")  # fmt: skip


if __name__ == "__main__":
    main()
