"""Running tasks on a Dask cluster: ``local:N`` starts a cluster of N worker processes on this
machine, ``tcp://host:8786`` uses a running scheduler. Workers read the files themselves (they
must see them under the same paths) and only results travel back; a task whose worker dies is
run again on another worker by the scheduler.

Dask is an optional dependency (``pip install 'pdn-toolkit[cluster]'``).
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, TypeVar

from pdn.archive.parallel import start_limit

if TYPE_CHECKING:
    from distributed import Client, Future, LocalCluster

A = TypeVar("A")
R = TypeVar("R")

CONNECT_SECONDS = 30
LOCAL: list[LocalCluster] = []  # the local clusters this process runs now


class ClusterError(Exception):
    """A cluster that cannot be used: bad address, no Dask, scheduler unreachable."""


@dataclass(frozen=True, slots=True)
class DaskRunner:
    """Runs tasks on the workers of a Dask client (see :class:`pdn.archive.parallel.Runner`)."""

    client: Client

    @property
    def workers(self) -> int:
        """How many tasks run at once: the threads of every worker."""
        threads: dict[str, int] = self.client.nthreads()
        return max(1, sum(threads.values()))

    @property
    def elsewhere(self) -> bool:
        """Tasks run on the cluster's workers, never in this process."""
        return True

    def run(self, work: Callable[[A], R], items: list[A]) -> Iterator[tuple[int, R]]:
        """``(index, work(items[index]))`` for every item, as each is done on the cluster."""
        from distributed import as_completed

        live: dict[object, tuple[Future[R], int]] = {}  # started, not handed back: by key
        done = as_completed(with_results=True)
        following = 0  # the next item to start

        def start() -> None:  # as far as start_limit allows
            nonlocal following
            limit = min(len(items), start_limit((i for _, i in live.values()), following, self))
            while following < limit:
                future = self.client.submit(work, items[following], pure=False)
                live[future.key] = (future, following)
                done.add(future)
                following += 1

        try:
            start()
            for future, result in done:
                yield live.pop(future.key)[1], result
                start()
        finally:  # not once the client is closed (a stopped command closes it first)
            if self.client.status == "running":
                self.client.cancel([f for f, _ in live.values()])


def stopping() -> None:
    """Tell the nannies of the local clusters running that their workers are about to be ended
    (the command is stopped, see :mod:`pdn.cli.stopping`): they close with them instead of
    starting new ones. Restarted, the workers made Ctrl-C take 3.7-6.0 s: the cluster's close
    waited for new worker processes to start, to end them."""
    for cluster in LOCAL:
        for nanny in list(cluster.workers.values()):
            nanny.close_gracefully("pdn stopped")


@contextmanager
def connect(address: str, timeout: float = CONNECT_SECONDS) -> Iterator[DaskRunner]:
    """A runner on the cluster at *address*: ``local:N`` or a scheduler's ``tcp://host:port``
    (given *timeout* seconds to answer and to have a worker)."""
    try:
        from distributed import Client, LocalCluster
    except ImportError:
        raise ClusterError(
            "--cluster needs Dask distributed: pip install 'pdn-toolkit[cluster]'"
        ) from None
    if address.startswith("local:"):
        count = address.removeprefix("local:")
        if not count.isdigit() or int(count) < 1:
            raise ClusterError(f"--cluster local:N needs a number of workers, not {address!r}")
        cluster = LocalCluster(
            n_workers=int(count),
            threads_per_worker=1,  # the work is pure Python: one task per process
            processes=True,
            host="127.0.0.1",
            dashboard_address="127.0.0.1:0",  # its HTTP server on any free port, not 8787
            silence_logs=logging.ERROR,
        )
        client = Client(cluster)
        LOCAL.append(cluster)
        try:
            yield DaskRunner(client)
        finally:
            LOCAL.remove(cluster)
            client.close()
            cluster.close()
        return
    if "://" not in address:
        raise ClusterError(f"--cluster takes local:N or a scheduler address (tcp://host:8786), "
                           f"not {address!r}")  # fmt: skip
    try:
        client = Client(address, timeout=timeout)
    except (OSError, TimeoutError) as exc:
        raise ClusterError(f"cannot reach the Dask scheduler at {address}: {exc}") from None
    try:
        client.wait_for_workers(1, timeout=timeout)
    except TimeoutError:
        client.close()
        raise ClusterError(f"the Dask scheduler at {address} has no workers") from None
    try:
        yield DaskRunner(client)
    finally:
        client.close()
