"""Spreading work over processes: files cut into tasks of whole games, and runners that do the
tasks in local worker processes or on a Dask cluster (see :mod:`pdn.archive.cluster`).

A runner returns each result as soon as its task is done; :func:`run_tasks` hands them back in
task order, so whatever runs them, the caller sees the same sequence as from one process.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import os
import signal
import sys
import threading
import time
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Protocol, TypeVar

from pdn.read.reader import Span, game_spans, quick_spans, whole_span

if TYPE_CHECKING:
    from concurrent.futures import Future, ProcessPoolExecutor

SPAN_BYTES = 1 << 20  # files larger than this are cut into spans of about this size
AHEAD = 2  # tasks per worker started past the oldest one not done
PR_SET_PDEATHSIG = 1  # linux/prctl.h: the signal a process gets when its parent ends
WATCH_SECONDS = 0.5  # elsewhere: how often a worker looks whether its parent is there
STOPS = (signal.SIGINT, signal.SIGTERM)  # what stops a command (see pdn.cli.stopping)
POOLS: set[ProcessPoolExecutor] = set()  # the pools of local workers running now

A = TypeVar("A")
R = TypeVar("R")


@dataclass(frozen=True, slots=True)
class Task:
    """A file, or a span of one, to be read by a worker; *prefer* is the file's preference."""

    path: Path
    span: Span | None
    prefer: str | None
    size: int  # bytes to read (for progress)
    file_size: int | None = None  # the file's bytes that are read (None: as many as it has)

    @property
    def first(self) -> bool:
        """Whether the task starts its file."""
        return self.span is None or self.span.start == 0

    @property
    def last(self) -> bool:
        """Whether the task ends its file (as it was planned)."""
        end = self.path.stat().st_size if self.file_size is None else self.file_size
        return self.span is None or self.span.end == end


def file_tasks(
    files: Iterable[Path],
    workers: int,
    prefer: Callable[[Path], str | None],
    sizes: Mapping[Path, int] | None = None,
    exact: bool = True,
) -> list[Task]:
    """The work for *files*: whole files, and large ones cut into spans (at least four per
    worker, at most about SPAN_BYTES each; with workers, the last as many spans' bytes cut
    finer, so that they end together); *prefer* gives a file's variant preference.
    With *sizes*, a file is read up to that size only (what was hashed, though it grows). Spans
    know the index of their first game if *exact* (the file is read to count them), else they
    number their games from 0 and their ends are guessed (see :func:`quick_spans`)."""
    tasks: list[Task] = []
    for f in files:
        preference = prefer(f)
        size = f.stat().st_size if sizes is None else sizes[f]
        upto = None if sizes is None else size
        if size > SPAN_BYTES:
            parts = max(4 * workers if workers > 1 else 1, -(-size // SPAN_BYTES))
            finer = workers if workers > 1 else 0
            spans = (game_spans if exact else quick_spans)(f, parts, upto=upto, finer=finer)
            tasks.extend(Task(f, s, preference, s.end - s.start, upto) for s in spans)
        else:
            tasks.append(whole_task(f, preference, upto))
    return tasks


def whole_task(path: Path, prefer: str | None, upto: int | None = None) -> Task:
    """A whole file as a task; with *upto*, its first *upto* bytes only."""
    if upto is None:
        return Task(path, None, prefer, path.stat().st_size)
    return Task(path, whole_span(path, upto), prefer, upto, upto)


class Runner(Protocol):
    """Something that runs tasks: local processes, or a Dask cluster."""

    @property
    def workers(self) -> int:
        """How many tasks run at once."""
        ...

    @property
    def elsewhere(self) -> bool:
        """Whether tasks run in other processes than this one."""
        ...

    def run(self, work: Callable[[A], R], items: list[A]) -> Iterator[tuple[int, R]]:
        """``(index, work(items[index]))`` for every item, as each is done."""
        ...


@dataclass(frozen=True, slots=True)
class Processes:
    """Tasks run in this process (one worker) or in a pool of local worker processes."""

    count: int = 1

    @property
    def workers(self) -> int:
        """How many tasks run at once."""
        return self.count

    @property
    def elsewhere(self) -> bool:
        """Whether tasks run in other processes than this one."""
        return self.count > 1

    def run(self, work: Callable[[A], R], items: list[A]) -> Iterator[tuple[int, R]]:
        """``(index, work(items[index]))`` for every item, as each is done."""
        if self.count <= 1:
            for i, item in enumerate(items):
                yield i, work(item)
            return
        import multiprocessing
        from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

        # on Linux forked, children of this process (not of Python 3.14's fork server)
        fork = multiprocessing.get_context("fork") if sys.platform == "linux" else None
        pool = ProcessPoolExecutor(self.count, fork, worker_start, (os.getpid(),))
        POOLS.add(pool)
        try:
            pending: dict[Future[R], int] = {}
            following = 0  # the next item to start
            while True:
                limit = min(len(items), start_limit(pending.values(), following, self))
                with stops_held():  # the first submit starts the workers
                    while following < limit:
                        pending[pool.submit(work, items[following])] = following
                        following += 1
                if not pending:
                    return
                done, _ = wait(pending, return_when=FIRST_COMPLETED)
                for future in done:
                    yield pending.pop(future), future.result()
        except BaseException:  # stopped early (Ctrl-C, an error, a closed pipe)
            _abandon(pool)
            raise
        finally:
            POOLS.discard(pool)  # first: end_workers leaves a pool shut down alone
            pool.shutdown(wait=True, cancel_futures=True)


@contextmanager
def stops_held() -> Iterator[None]:
    """Ctrl-C and SIGTERM held back in this thread, and in the processes it forks meanwhile,
    until the block ends. Taken while a worker is forked, an interrupt was lost in os.fork's
    hooks ("Exception ignored in _releaseLock") and the pool broke with a traceback; or a worker
    forked but not yet noted was left running (issue 27)."""
    held = signal.pthread_sigmask(signal.SIG_BLOCK, STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, held)


def _abandon(pool: ProcessPoolExecutor) -> None:
    """End a pool whose results are no longer wanted: its workers killed, then this process's
    end of the pipe they send results on closed, so that the pool's thread, reading a result a
    killed worker had sent only part of, sees the pipe end instead of waiting for the rest for
    ever (Ctrl-C with two workers hung so, in the pool's shutdown or at exit: issue 27)."""
    workers = list((pool._processes or {}).values())  # None once the pool is shut down
    for worker in workers:
        worker.kill()
    for worker in workers:
        worker.join()
    pool._result_queue._writer.close()  # type: ignore[attr-defined]  # the workers' was theirs
    # (private names of CPython's executor, 3.11 to 3.14: tests/test_stopping.py's Ctrl-C test
    # hangs at the point this mends if they change)


def worker_start(parent: int) -> None:
    """Set up a local worker process: Ctrl-C is left to *parent* (which ends its workers, see
    :func:`end_workers`), and the worker dies with it, even killed (see :func:`die_with`). It
    was forked with the stops held (see :func:`stops_held`): a Ctrl-C meanwhile is dropped."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)  # not the parent's handler: it ends at once
    signal.pthread_sigmask(signal.SIG_UNBLOCK, STOPS)
    die_with(parent)


def die_with(parent: int) -> None:
    """End this process when its parent *parent* ends (at once if it has): on Linux the kernel
    sends it SIGKILL (``prctl(PR_SET_PDEATHSIG)``), elsewhere a thread watches the parent's pid."""
    if not (sys.platform.startswith("linux") and _death_signal(signal.SIGKILL)):
        threading.Thread(target=_watch, args=(parent,), name="pdn-orphan", daemon=True).start()
    if os.getppid() != parent:  # the parent ended before the signal was asked for
        os._exit(1)


def _death_signal(signum: int) -> bool:
    """Ask the kernel for *signum* when the parent ends; whether it agreed."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
        return int(libc.prctl(PR_SET_PDEATHSIG, signum, 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(WATCH_SECONDS)
    os._exit(1)


def end_workers(grace: float = 0.5) -> None:
    """End every worker process this process started, at once (the run is stopped): those of
    the pools running killed (see :func:`_abandon`), the others asked to terminate, killed if
    still there after *grace* seconds."""
    import multiprocessing

    for pool in list(POOLS):
        _abandon(pool)
    children = multiprocessing.active_children()
    for child in children:
        child.terminate()
    deadline = time.monotonic() + grace
    for child in children:
        child.join(max(0.0, deadline - time.monotonic()))
        if child.is_alive():
            child.kill()
            child.join(grace)


def start_limit(running: Iterable[int], following: int, runner: Runner) -> int:
    """Items up to this index (exclusive) may be started, *running* being under way and
    *following* the next one: AHEAD per worker past the oldest not done, so that the results
    waiting for it (to be handed back in order) stay few. Unbounded, a writer slower than its
    workers held every result of a 100 MB import (840 MB)."""
    return min(running, default=following) + AHEAD * runner.workers


def as_runner(workers: int | Runner) -> Runner:
    """A runner for a number of local processes, or the runner given."""
    return Processes(workers) if isinstance(workers, int) else workers


def run_tasks(
    work: Callable[[A], R],
    items: list[A],
    runner: Runner,
    on_done: Callable[[A, R], None] | None = None,
) -> Iterator[tuple[A, R]]:
    """Each item with the result of *work* on it, in item order; *on_done* is told of each item
    and its result as soon as it is done (in any order: progress over all workers)."""
    ready: dict[int, R] = {}
    following = 0
    for i, result in runner.run(work, items):
        if on_done:
            on_done(items[i], result)
        ready[i] = result
        while following in ready:
            yield items[following], ready.pop(following)
            following += 1
