"""Stopping a command: Ctrl-C (SIGINT) or SIGTERM ends its worker processes at once, then
unwinds it as an interrupt (transactions rolled back, temporary files and databases removed) to
the one line ``pdn: stopped`` and exit code 128 + the signal's number (130 for Ctrl-C)."""

from __future__ import annotations

import logging
import signal
import sys
from types import FrameType

CAUGHT = (signal.SIGINT, signal.SIGTERM)
received: list[int] = []  # the signals that stopped the command


def catch_stops() -> None:
    """From now on, Ctrl-C and SIGTERM stop the command as this module says."""
    for signum in CAUGHT:
        signal.signal(signum, _stop)


def _stop(signum: int, _frame: FrameType | None) -> None:
    from pdn.archive.parallel import end_workers  # loaded when needed: `pdn --version` reads no PDN

    received.append(signum)
    if "distributed" in sys.modules:  # a Dask cluster: its scheduler tells of workers ended
        logging.getLogger("distributed").setLevel(logging.CRITICAL)
    if "pdn.archive.cluster" in sys.modules:
        from pdn.archive.cluster import stopping

        stopping()  # a local cluster's workers not started again once ended
    end_workers()
    raise KeyboardInterrupt


def exit_code() -> int:
    """The exit code of a stopped command."""
    return 128 + (received[0] if received else signal.SIGINT)
