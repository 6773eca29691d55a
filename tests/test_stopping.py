"""Stopping a command (issue 27): Ctrl-C with and without workers, a parent killed under its
workers, SIGTERM of `pdn serve FILES`. Signals go to the command's own process group; each test
checks the exit code and the one line, that no process is left and nothing is lost."""

from __future__ import annotations

import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest
from sqlalchemy import create_engine, text

from conftest import corpus_dir, postgres_database, postgres_reason
from pdn.archive.parallel import STOPS, Processes, stops_held
from pdn.read.reader import read_games

PDN = [sys.executable, "-m", "pdn.cli.app"]
INPUT_BYTES = 5 << 20  # over the 4 MB from which --workers pays


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, int]:
    """The first 5 MB of the OCA archive's games as a file, and how many games it holds."""
    games, size = [], 0
    for game in read_games(corpus_dir() / "english" / "OCA_2.0.pdn"):
        games.append(game.raw)
        size += len(game.raw.encode()) + 2
        if size >= INPUT_BYTES:
            break
    path = tmp_path_factory.mktemp("stopping") / "oca-5mb.pdn"
    path.write_text("\n\n".join(games), encoding="utf-8")
    return path, len(games)


def started(*args: str, env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    """`pdn ARGS` in a process group of its own (as a shell runs a job)."""
    return subprocess.Popen(
        [*PDN, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        start_new_session=True, env={**os.environ, **(env or {})},
    )  # fmt: skip


def _stat(pid: str) -> list[str] | None:
    try:
        text = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return None
    return text[text.rindex(")") + 2 :].split()  # state, ppid, pgrp, ...


def in_group(group: int) -> list[int]:
    """The live processes of a process group (zombies aside)."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        fields = _stat(pid)
        if fields and fields[0] != "Z" and int(fields[2]) == group:
            found.append(int(pid))
    return found


def children(parent: int) -> list[int]:
    """The live child processes of *parent*."""
    found = []
    for pid in filter(str.isdigit, os.listdir("/proc")):
        fields = _stat(pid)
        if fields and fields[0] != "Z" and int(fields[1]) == parent:
            found.append(int(pid))
    return found


def wait_for(what: object, seconds: float = 60) -> None:
    deadline = time.monotonic() + seconds
    while not what():  # type: ignore[operator]
        assert time.monotonic() < deadline, "timed out"
        time.sleep(0.05)


@pytest.fixture
def cleanup() -> Iterator[list[subprocess.Popen[str]]]:
    """Processes started by a test: their groups are killed if anything is left."""
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        for pid in in_group(proc.pid):
            os.kill(pid, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()
        proc.communicate()


def stored(db: Path) -> int:
    try:
        with sqlite3.connect(db, timeout=5) as conn:
            return int(conn.execute("SELECT count(*) FROM occurrences").fetchone()[0])
    except sqlite3.Error:
        return 0


def stopped_within(proc: subprocess.Popen[str], signum: int) -> tuple[float, str]:
    """Send *signum* to the process group; seconds until the command ended, and its stderr."""
    sent = time.monotonic()
    os.killpg(proc.pid, signum)
    _, err = proc.communicate(timeout=60)
    return time.monotonic() - sent, err


def test_an_interrupt_while_workers_are_forked_waits_for_them() -> None:
    caught: list[int] = []
    before = signal.signal(signal.SIGINT, lambda signum, _frame: caught.append(signum))
    try:
        with stops_held():  # as while the pool forks its workers
            signal.pthread_kill(threading.get_ident(), signal.SIGINT)
            assert caught == []  # taken in os.fork's hooks, it was lost (issue 27)
        assert caught == [signal.SIGINT]  # at once after
    finally:
        signal.signal(signal.SIGINT, before)


def _signal_state(_: int) -> tuple[bool, list[int]]:
    """In a worker: whether Ctrl-C is ignored, and which stops are held back."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, [])
    return signal.getsignal(signal.SIGINT) == signal.SIG_IGN, sorted(s for s in STOPS if s in held)


def test_workers_ignore_ctrl_c_and_hold_back_no_stop() -> None:
    results = dict(Processes(2).run(_signal_state, [0, 1, 2, 3]))  # forked with the stops held
    assert results == {i: (True, []) for i in range(4)}  # SIGTERM held, end_workers would wait


def _syscalls(pid: int) -> list[list[str]]:
    """What each thread of *pid* is in: the system call's number and arguments (Linux)."""
    found = []
    with contextlib.suppress(OSError):  # the process ended
        for tid in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                found.append(Path(f"/proc/{pid}/task/{tid}/syscall").read_text().split())
    return found


def _sending(pid: int) -> bool:
    """Whether *pid* is in write(2) of more than a pipe holds: a worker sending its result."""
    return any(call[0] == "1" and int(call[3], 16) > 65536 for call in _syscalls(pid))


def _working(pid: int) -> bool:
    """Whether worker *pid* is doing a task: past its start (0.3 s of CPU) and not waiting for
    a task (in read(2) of a message's 4-byte header)."""
    fields = _stat(str(pid))
    waiting = any(call[0] == "0" and int(call[3], 16) == 4 for call in _syscalls(pid))
    return fields is not None and int(fields[11]) + int(fields[12]) >= 30 and not waiting


def _reading_rest(pid: int) -> bool:
    """Whether a thread of *pid* is in read(2) of the rest of a message (more than its 4-byte
    header): the pool's thread, halfway through a worker's result."""
    return any(call[0] == "0" and int(call[3], 16) > 4 for call in _syscalls(pid))


def frozen_halfway(parent: int) -> None:
    """Stop a worker of *parent* (SIGSTOP) halfway through sending a result, the parent waiting
    for the rest: the phase Ctrl-C once hung in (the pool's thread waited for ever for the rest
    of a result whose worker had been killed, issue 27). The parent is stopped while a worker
    does a task, so that the worker's result cannot all go into the pipe before it is stopped."""
    while True:
        wait_for(lambda: any(_working(w) for w in children(parent)), 300)
        os.kill(parent, signal.SIGSTOP)
        if any(_working(w) for w in children(parent)):
            break
        os.kill(parent, signal.SIGCONT)  # the task done meanwhile: the next one
    # the task done, its result waits; or an idle worker took a queued task meanwhile and
    # sends first, holding the pipe's lock while the busy one waits for it: either is halfway
    wait_for(lambda: any(_sending(w) for w in children(parent)), 300)
    os.kill(next(w for w in children(parent) if _sending(w)), signal.SIGSTOP)
    os.kill(parent, signal.SIGCONT)
    wait_for(lambda: _reading_rest(parent), 60)


@pytest.mark.skipif(not Path("/proc/self/syscall").exists(), reason="Linux's /proc/PID/syscall")
def test_ctrl_c_with_workers_ends_them_and_frees_the_database(
    archive: tuple[Path, int], tmp_path: Path, cleanup: list[subprocess.Popen[str]]
) -> None:
    path, games = archive
    db = tmp_path / "w.db"
    proc = started("import", str(path), "--workers", "2", "--db", str(db))
    cleanup.append(proc)
    wait_for(lambda: len(children(proc.pid)) >= 2)
    frozen_halfway(proc.pid)
    took, err = stopped_within(proc, signal.SIGINT)
    assert proc.returncode == 130 and err == "pdn: stopped\n"
    assert took < 2.0, took  # 0.6 s measured on a loaded machine; the issue asks for a second
    assert in_group(proc.pid) == []  # no worker left, the one stopped too
    with sqlite3.connect(db, timeout=0) as conn:  # the database is free at once
        conn.execute("BEGIN IMMEDIATE")
        conn.rollback()
    done = subprocess.run([*PDN, "import", str(path), "--db", str(db)], capture_output=True)
    assert done.returncode == 0, done.stderr
    assert stored(db) == games  # nothing lost: the run again finishes the file


@pytest.mark.skipif(postgres_reason() is not None, reason=str(postgres_reason()))
def test_ctrl_c_with_workers_writing_postgresql(
    archive: tuple[Path, int], cleanup: list[subprocess.Popen[str]]
) -> None:
    path, games = archive
    with postgres_database() as url:
        engine = create_engine(url)
        name = url.rsplit("/", 1)[1]

        def count(sql: str) -> int:
            try:
                with engine.connect() as conn:
                    return int(conn.execute(text(sql), {"name": name}).scalar() or 0)
            except Exception:  # the tables are not made yet
                return 0

        proc = started("import", str(path), "--workers", "2", "--db", url)
        cleanup.append(proc)
        wait_for(lambda: count("SELECT count(*) FROM occurrences") > 0)
        took, err = stopped_within(proc, signal.SIGINT)
        assert proc.returncode == 130 and err == "pdn: stopped\n" and took < 2.0
        assert in_group(proc.pid) == []
        others = ("SELECT count(*) FROM pg_stat_activity "
                  "WHERE datname = :name AND pid <> pg_backend_pid()")  # fmt: skip
        wait_for(lambda: count(others) == 0, 1.0)  # the workers' connections gone
        done = subprocess.run([*PDN, "import", str(path), "--db", url], capture_output=True)
        assert done.returncode == 0, done.stderr
        assert count("SELECT count(*) FROM occurrences") == games
        engine.dispose()


def test_ctrl_c_on_a_local_cluster_ends_in_seconds_and_clean(
    archive: tuple[Path, int], tmp_path: Path, cleanup: list[subprocess.Popen[str]]
) -> None:
    path, games = archive
    db = tmp_path / "c.db"
    proc = started("import", str(path), "--cluster", "local:2", "--db", str(db))
    cleanup.append(proc)
    wait_for(lambda: stored(db) > 0)
    took, err = stopped_within(proc, signal.SIGINT)
    assert proc.returncode == 130 and err == "pdn: stopped\n"
    # 0.3-2.0 s measured on a loaded machine (3.7-6.0 s while the nannies started new workers
    # to end them); a generous bound, the figures are in docs/cluster.md
    assert took < 3.0, took
    # the cluster's worker processes too; multiprocessing's resource tracker ends as the
    # command's end closes its pipe
    wait_for(lambda: in_group(proc.pid) == [], 1.0)
    with sqlite3.connect(db, timeout=0) as conn:
        conn.execute("BEGIN IMMEDIATE")
        conn.rollback()
        assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    done = subprocess.run([*PDN, "import", str(path), "--db", str(db)], capture_output=True)
    assert done.returncode == 0, done.stderr
    assert stored(db) == games


def test_ctrl_c_without_workers_says_stopped(
    archive: tuple[Path, int], tmp_path: Path, cleanup: list[subprocess.Popen[str]]
) -> None:
    db = tmp_path / "one.db"
    proc = started("import", str(archive[0]), "--db", str(db))
    cleanup.append(proc)
    wait_for(lambda: stored(db) > 0)
    took, err = stopped_within(proc, signal.SIGINT)
    assert proc.returncode == 130 and err == "pdn: stopped\n" and took < 2.0


def test_workers_die_with_their_parent(
    archive: tuple[Path, int], tmp_path: Path, cleanup: list[subprocess.Popen[str]]
) -> None:
    proc = started("validate", str(archive[0]), "--workers", "2")
    cleanup.append(proc)
    wait_for(lambda: len(children(proc.pid)) >= 2)
    workers = children(proc.pid)
    os.kill(proc.pid, signal.SIGKILL)  # the parent only: its workers are told by the kernel
    proc.communicate(timeout=30)
    killed = time.monotonic()

    def alive(pid: int) -> bool:
        state = _stat(str(pid))
        return state is not None and state[0] != "Z"

    wait_for(lambda: not [w for w in workers if alive(w)], 5)
    assert time.monotonic() - killed < 1.0


def _answers(url: str) -> bool:
    try:
        with urllib.request.urlopen(url + "api/info", timeout=1):
            return True
    except OSError:
        return False


def test_sigterm_of_serve_files_removes_its_temporary_database(
    archive: tuple[Path, int], tmp_path: Path, cleanup: list[subprocess.Popen[str]]
) -> None:
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    proc = started("serve", str(archive[0]), "--port", "0", env={"TMPDIR": str(tmp)})
    cleanup.append(proc)
    wait_for(lambda: any(tmp.rglob("serve.db")))  # importing into it
    time.sleep(0.5)
    took, err = stopped_within(proc, signal.SIGTERM)
    assert proc.returncode == 128 + signal.SIGTERM and err == "pdn: stopped\n"
    assert list(tmp.iterdir()) == [] and in_group(proc.pid) == [] and took < 2.0
    samples = Path(__file__).resolve().parents[1] / "samples"
    proc = started("serve", str(samples), "--port", "0", env={"TMPDIR": str(tmp)})
    cleanup.append(proc)
    assert proc.stdout is not None
    line = proc.stdout.readline()
    address = line.split(" at ")[1].split()[0]
    with urllib.request.urlopen(address + "api/info", timeout=60) as answer:  # serving
        assert json.load(answer)["games"] > 0
    took, err = stopped_within(proc, signal.SIGTERM)
    assert proc.returncode == 0 and "Traceback" not in err
    assert list(tmp.iterdir()) == [] and in_group(proc.pid) == []
