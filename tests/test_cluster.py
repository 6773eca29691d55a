"""Validation and import on a Dask cluster of two local worker processes (``--cluster local:2``):
the same reports and the same database as one process, with a worker killed mid-import too."""

from __future__ import annotations

import os
import signal
import threading
import time
from collections.abc import Iterator
from itertools import islice
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Engine, func, select
from typer.testing import CliRunner

from conftest import (
    corpus_dir,
    corpus_files,
    postgres_database,
    postgres_reason,
    table_digests,
)
from pdn.archive.cluster import ClusterError, DaskRunner, connect
from pdn.archive.parallel import AHEAD, Processes
from pdn.archive.validate import validate_paths
from pdn.cli.app import app
from pdn.db.connection import open_database
from pdn.db.schema import GameRow
from pdn.db.store import ImportStats, import_paths
from pdn.read.reader import read_games

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
needs_postgres = pytest.mark.skipif(postgres_reason() is not None, reason=str(postgres_reason()))
cli = CliRunner()


@pytest.fixture(scope="module")
def cluster() -> Iterator[DaskRunner]:
    """A Dask cluster of two worker processes on this machine."""
    with connect("local:2") as runner:
        yield runner


def _counts(stats: ImportStats) -> tuple[int, ...]:
    return (stats.files, stats.games, stats.added, stats.copies, stats.already,
            stats.invalid, stats.syntax_errors)  # fmt: skip


def _slow_first(x: int) -> int:
    time.sleep(1.0 if x == 0 else 0.01)
    return x * x


@pytest.mark.parametrize("kind", ["processes", "dask"])
def test_runners_start_few_tasks_past_the_oldest_not_done(
    kind: str, request: pytest.FixtureRequest
) -> None:
    # task 0 takes a second, the others 10 ms: only AHEAD per worker past it are started, so
    # at most 3 results come back (and wait to be handed on in order) before its own
    runner = Processes(2) if kind == "processes" else request.getfixturevalue("cluster")
    done = list(runner.run(_slow_first, list(range(20))))
    assert sorted(done) == [(i, i * i) for i in range(20)]
    assert [i for i, _ in done].index(0) <= AHEAD * 2 - 1


# --- validate ---------------------------------------------------------------------------------


def test_a_local_cluster_has_its_workers(cluster: DaskRunner) -> None:
    assert cluster.workers == 2
    pids = set(cluster.client.run(os.getpid).values())
    assert len(pids) == 2 and os.getpid() not in pids  # two processes of their own


@pytest.mark.slow
def test_validate_the_corpus_on_a_cluster(
    cluster: DaskRunner, corpus_reports: list[dict[str, Any]]
) -> None:
    reports = [r.as_dict() for r in validate_paths([corpus_dir()], workers=cluster)]
    assert len(reports) == sum(f.games for f in corpus_files())  # SOURCES.tsv, counted by hand
    assert reports == corpus_reports  # same games, same order, same errors


def test_validate_command_on_a_cluster_writes_the_same_report(tmp_path: Path) -> None:
    oca = corpus_dir() / "english" / "OCA_2.0.pdn"
    part = tmp_path / "oca-1500.pdn"  # about 1 MB: cut into spans for the two workers
    part.write_text("\n\n".join(g.raw for g in islice(read_games(oca), 1500)), encoding="utf-8")
    broken = corpus_dir() / "international" / "wiegerw-FAIL-Cat.C1.pdn"
    args = ["validate", str(SAMPLES), str(part), str(broken), "--report"]
    one = cli.invoke(app, [*args, str(tmp_path / "one.jsonl")])
    two = cli.invoke(app, [*args, str(tmp_path / "two.jsonl"), "--cluster", "local:2"])
    assert one.exit_code == two.exit_code == 1  # the broken file's errors
    assert one.stdout == two.stdout and "wiegerw-FAIL-Cat.C1.pdn" in one.stdout
    assert (tmp_path / "one.jsonl").read_bytes() == (tmp_path / "two.jsonl").read_bytes()


def test_cluster_option_errors(tmp_path: Path) -> None:
    for args, message in (
        (["--cluster", "local:0"], "needs a number of workers"),
        (["--cluster", "somewhere"], "takes local:N or a scheduler address"),
        (["--cluster", "local:2", "--workers", "2"], "exclude each other"),
    ):
        result = cli.invoke(app, ["validate", str(SAMPLES), *args])
        assert result.exit_code == 2 and message in result.stderr, args
    unreachable = connect("tcp://127.0.0.1:9", timeout=2)
    with pytest.raises(ClusterError, match="cannot reach the Dask scheduler at tcp://127"):
        unreachable.__enter__()


# --- import -----------------------------------------------------------------------------------


def test_import_command_on_a_cluster_into_sqlite(tmp_path: Path) -> None:
    # SQLite keeps one writer: the workers replay, this process writes what they return
    one, two = tmp_path / "one.db", tmp_path / "two.db"
    assert cli.invoke(app, ["import", str(SAMPLES), "--db", str(one)]).exit_code == 0
    result = cli.invoke(app, ["import", str(SAMPLES), "--db", str(two), "--cluster", "local:2"])
    assert result.exit_code == 0 and "games added" in result.stdout
    a, b = open_database(str(one)), open_database(str(two))
    assert table_digests(a) == table_digests(b)
    a.dispose()
    b.dispose()


@pytest.mark.slow
@needs_postgres
def test_import_the_corpus_on_a_cluster_into_postgres(
    cluster: DaskRunner, corpus_db: tuple[Engine, ImportStats]
) -> None:
    single, single_stats = corpus_db
    with postgres_database() as url:
        engine = open_database(url)
        stats = import_paths(engine, [corpus_dir()], workers=cluster)  # the workers write
        assert _counts(stats) == _counts(single_stats)
        assert stats.per_file == single_stats.per_file
        assert table_digests(engine) == table_digests(single)
        again = import_paths(engine, [corpus_dir()], workers=cluster)
        assert (again.added, again.skipped_files) == (0, 166)
        engine.dispose()


@pytest.mark.slow
@needs_postgres
def test_a_worker_killed_mid_import_changes_nothing(tmp_path: Path) -> None:
    oca = corpus_dir() / "english" / "OCA_2.0.pdn"
    part = tmp_path / "oca-5000.pdn"  # about 3 MB, cut into eight spans
    part.write_text("\n\n".join(g.raw for g in islice(read_games(oca), 5000)), encoding="utf-8")
    sources = [part, corpus_dir() / "international" / "wiegerw-FAIL-Cat.C1.pdn"]
    single = open_database(str(tmp_path / "single.db"))
    single_stats = import_paths(single, sources)
    with postgres_database() as url, connect("local:2") as runner:
        engine = open_database(url)
        pids = list(runner.client.run(os.getpid).values())
        killed: list[int] = []

        def kill_one_when_some_games_are_in() -> None:
            deadline = time.monotonic() + 300
            while time.monotonic() < deadline:
                with engine.connect() as conn:
                    n = conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0
                if n >= 1500:
                    os.kill(pids[0], signal.SIGKILL)
                    killed.append(n)
                    return
                time.sleep(0.05)

        killer = threading.Thread(target=kill_one_when_some_games_are_in)
        killer.start()
        stats = import_paths(engine, sources, workers=runner)
        killer.join()
        assert killed and killed[0] < single_stats.added  # killed in the middle
        assert pids[0] not in runner.client.run(os.getpid).values()  # a new worker took over
        assert (stats.games, stats.added, stats.copies, stats.invalid) == (
            single_stats.games, single_stats.added, single_stats.copies, single_stats.invalid,
        )  # fmt: skip
        assert table_digests(engine) == table_digests(single)
        engine.dispose()
    single.dispose()
