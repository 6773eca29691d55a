"""Peak memory of every command that goes through a whole archive, on the million-game benchmark
archive (benchmarks/million.py) and its database: each command as a user runs it, in a process
of its own (its output written into a folder of work, or thrown away), its wall time, its peak
resident memory and its peak anonymous memory printed (read from /proc every 20 ms: resident
memory counts the pages of a database file SQLite maps, up to 1 GiB, which the system takes
back at will; anonymous memory is what the command holds); `pdn serve` started and asked a page
of games, their count, a player's games and the start position's moves. Single-game commands
(moves, perft, diagram, replay) hold one game.

The database is made by `pdn import` unless given (the million takes some 7 minutes with two
workers); `analyse` judges the first 100 games (every move of a million games with an engine
is days of work), which it reads and judges one at a time as it does any number.

Usage: python benchmarks/memory.py PDN [--db DATABASE] [--work DIR]
"""

from __future__ import annotations

import argparse
import os
import re
import sqlite3
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

from aims import fresh

from _env import compiled_toolkit
from pdn.rules.fen import to_fen
from pdn.rules.position import Position
from pdn.rules.variants import get_variant

START = to_fen(Position.start(get_variant("english")))
PDN = [sys.executable, "-c", "from pdn.cli.app import main; main()"]


@dataclass(frozen=True, slots=True)
class Peak:
    """A command's wall seconds and peak resident and anonymous memory (MiB)."""

    wall: float
    resident: float
    anonymous: float


def _kib(status: str, field: str) -> int:
    found = re.search(rf"{field}:\s+(\d+) kB", status)
    return int(found.group(1)) if found else 0


class Watched:
    """A process whose memory is read from /proc when asked: its peak resident memory (which
    the system keeps, VmHWM) and the most anonymous memory seen (RssAnon)."""

    def __init__(self, pid: int) -> None:
        self.pid, self.anonymous, self.resident = pid, 0, 0

    def look(self) -> None:
        """Read the process's memory now (nothing once it is gone)."""
        try:
            status = Path(f"/proc/{self.pid}/status").read_text()
        except OSError:
            return
        self.anonymous = max(self.anonymous, _kib(status, "RssAnon"))
        self.resident = max(self.resident, _kib(status, "VmHWM"))


def command(*args: str) -> Peak:
    """`pdn ARGS` in a process of its own, watched till it ends."""
    start = time.perf_counter()
    with tempfile.TemporaryFile() as said:
        proc = subprocess.Popen([*PDN, *args], stdout=subprocess.DEVNULL, stderr=said)
        watched = Watched(proc.pid)
        while True:
            watched.look()
            pid, status = os.waitpid(proc.pid, os.WNOHANG)
            if pid:
                break
            time.sleep(0.02)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode not in (0, 1):  # 1: invalid games found, duplicates, ...
            said.seek(0)
            sys.exit(f"pdn {' '.join(args)} failed: {said.read()[-2000:].decode()}")
    return Peak(time.perf_counter() - start, watched.resident / 1024, watched.anonymous / 1024)


def archive_commands(pdn: str, work: Path) -> list[list[str]]:
    """The commands over the PDN file, each writing into *work* where it writes a file."""
    return [
        ["list", pdn, "--json"],
        ["validate", pdn],
        ["players", pdn],
        ["filter", pdn, "--material", "W:3K1,B:1K", "--count"],
        ["duplicates", pdn],
        ["convert", pdn, "-o", str(work / "converted.pdn")],
        ["annotate", pdn, "-o", str(work / "annotated.pdn")],
        ["fix", pdn, "-o", str(work / "fixed.pdn")],
        ["report", pdn, "-o", str(work / "report-pdn.html")],
        ["analyse", str(first_games(pdn, work / "first-100.pdn", 100)), "-o",
         str(work / "analysed.pdn")],
    ]  # fmt: skip


def first_games(pdn: str, out: Path, n: int) -> Path:
    """The first *n* games of the file *pdn* (each begun by an Event tag) written to *out*."""
    kept: list[bytes] = []
    games = 0
    with open(pdn, "rb") as lines:
        for line in lines:
            games += line.startswith(b"[Event ")
            if games > n:
                break
            kept.append(line)
    out.write_bytes(b"".join(kept))
    return out


def database_commands(db: str, work: Path, player: str, event: str) -> list[list[str]]:
    """The commands over the database."""
    return [
        ["query", "--db", db, "--white", player],
        ["query", "--db", db, "--count"],
        ["query", "--db", db, "--material", "W:3K1,B:1K", "--count"],
        ["query", "--db", db, "--pattern", "WK5:BK28", "--count"],
        ["explore", "--db", db, "-v", "english"],
        ["stats", "openings", "--db", db, "--plies", "6"],
        ["stats", "draws", "--db", db, "--by", "year"],
        ["stats", "players", "--db", db],
        ["stats", "event", "--db", db, "--event", event],
        ["players", "--db", db],
        ["duplicates", db],
        ["report", db, "-o", str(work / "report-db.html")],
    ]


def served(db: str) -> Peak:
    """`pdn serve` asked what its page asks first, and its peak memory."""
    start = time.perf_counter()
    server = subprocess.Popen([*PDN, "serve", "--db", db, "--port", "0"], stdout=subprocess.PIPE,
                              text=True)  # fmt: skip
    try:
        assert server.stdout is not None
        found = re.search(r"at (http://\S+/) ", server.stdout.readline())
        if not found:
            sys.exit("pdn serve did not start")
        base = found.group(1)
        asked = ["api/games", "api/count", "api/games?" + urlencode({"player": "Long"}),
                 "api/explore?" + urlencode({"variant": "english", "fen": START})]  # fmt: skip
        watched = Watched(server.pid)
        for path in asked:
            with urlopen(base + path, timeout=600) as answer:
                answer.read()
            watched.look()
        return Peak(time.perf_counter() - start, watched.resident / 1024, watched.anonymous / 1024)
    finally:
        server.terminate()
        server.wait()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("pdn")
    parser.add_argument("--db", help="a database of the PDN made before (else imported)")
    parser.add_argument("--work", type=Path, default=None)
    args = parser.parse_args()
    work = args.work or Path(tempfile.mkdtemp(prefix="pdn-memory-"))
    work.mkdir(parents=True, exist_ok=True)
    compiled_toolkit()

    def run(*words: str) -> None:
        shown = " ".join(w if " " not in w else repr(w) for w in words)
        shown = shown.replace(args.pdn, Path(args.pdn).name).replace(str(work) + "/", "")
        shown = shown.replace(str(Path(args.db or "-").parent) + "/", "")
        printed(shown, command(*words))

    print(f"{Path(args.pdn).name}: command, wall time, peak resident and anonymous memory")
    for words in archive_commands(args.pdn, work):
        run(*words)
    db = args.db
    if db is None:
        db = str(fresh(work / "million.db"))
        run("import", args.pdn, "--db", db, "--workers", "2")
    with sqlite3.connect(f"file:{db}?mode=ro", uri=True) as conn:
        player, event = conn.execute("SELECT white, event FROM games LIMIT 1").fetchone()
    for words in database_commands(db, work, player.split(",")[0], event):
        run(*words)
    printed("serve (4 answers)", served(db))


def printed(shown: str, peak: Peak) -> None:
    print(f"  {shown:56s} {peak.wall:7.1f} s {peak.resident:6.0f} {peak.anonymous:6.0f} MiB",
          flush=True)  # fmt: skip


if __name__ == "__main__":
    main()
