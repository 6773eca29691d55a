"""`pdn serve` speed on a database of 200,000 games or more: each answer of the page's API timed
once read from the database (the library functions behind it, no cache), then over HTTP from a
running server (first and second time: answers about positions are cached by the server, which
explores the start position of each variant when it starts).

The database is the OCA archive imported, then grown by copies as benchmarks/search.py does
(give the path of one made before to skip that). The server runs as a user starts it
(`pdn serve --db DB --port 0`).

Usage: python benchmarks/serve.py [DATABASE]
"""

from __future__ import annotations

import json
import re
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from urllib.parse import urlencode
from urllib.request import urlopen

from search import grow
from sqlalchemy import func, select

from _env import compiled_toolkit, corpus_file, timed
from pdn.db.connection import open_database
from pdn.db.questions import GameFilter
from pdn.db.schema import GameRow
from pdn.db.store import import_paths
from pdn.read.movetext import make_move
from pdn.replay import candidates
from pdn.rules.fen import to_fen
from pdn.rules.position import Position
from pdn.rules.variants import get_variant
from pdn.web import api
from pdn.web.server import open_read_only

LINE = ["11-15", "23-19", "8-11", "22-17", "9-13", "17-14"]  # a common English opening


def database(argv: list[str]) -> str:
    """The database to serve: the one given, else the OCA archive grown to 200,000 games."""
    if len(argv) > 1:
        return argv[1]
    db = str(Path(tempfile.mkdtemp()) / "serve.db")
    engine = open_database(db)
    import_paths(engine, [corpus_file("english/OCA_2.0.pdn")])
    grow(engine)
    engine.dispose()
    return db


def ask(url: str) -> tuple[float, bytes]:
    """Seconds to the whole answer, and the answer."""
    start = time.perf_counter()
    with urlopen(url, timeout=600) as answer:
        body: bytes = answer.read()
    return time.perf_counter() - start, body


def positions() -> list[tuple[str, str]]:
    """The start position and those after each ply of LINE: (FEN, the move played from it)."""
    english = get_variant("english")
    pos = Position.start(english)
    out = []
    for text in LINE:
        (move,) = candidates(pos, make_move(text).squares)
        out.append((to_fen(pos), text))
        pos = pos.play(move)
    return [*out, (to_fen(pos), "")]


def library(db: str) -> None:
    """The functions behind each answer, read from the database every time."""
    engine = open_read_only(db)
    print("read from the database (the functions behind the answers), seconds:")
    for ply, (fen, _) in enumerate(positions()):
        seconds, frame = timed(lambda f=fen: api.moves(engine, "english", f))
        games = sum(m["games"] for m in frame["moves"])
        more, _ = timed(lambda f=fen: api.reached(engine, "english", f, api.Page()))
        print(f"  after {ply} plies ({games:>7,} games go on): explore {seconds:6.3f}, "
              f"games that reached it {more:6.3f}")  # fmt: skip
    for label, where in (("all", GameFilter()), ("player Tinsley", GameFilter(player="Tinsley"))):
        listed, _ = timed(
            lambda w=where: api.games(engine, w, api.Page(2001 if not w.player else 1))
        )
        counted, _ = timed(lambda w=where: api.count(engine, w))
        print(f"  games, {label:15s} a page {listed:6.3f}, the count {counted:6.3f}")
    engine.dispose()


def served(db: str) -> None:
    """Each answer over HTTP, asked twice."""
    server = subprocess.Popen(
        [sys.executable, "-m", "pdn.cli.app", "serve", "--db", db, "--port", "0"],
        stdout=subprocess.PIPE, text=True,
    )  # fmt: skip
    assert server.stdout is not None
    found = re.search(r"at (http://\S+/) ", server.stdout.readline())
    if not found:
        sys.exit("pdn serve did not start")
    base = found.group(1)

    def timed_get(label: str, path: str, **params: str | int) -> bytes:
        url = base + path + ("?" + urlencode(params) if params else "")
        first, body = ask(url)
        again, _ = ask(url)
        print(f"  {label:48s} {first:7.3f} {again:7.3f}")
        return body

    try:
        start = positions()[0][0]
        deadline = time.monotonic() + 120  # the server explores the start position first
        while ask(base + "api/explore?" + urlencode({"variant": "english", "fen": start}))[0] > 0.1:
            if time.monotonic() > deadline:
                break
        print("over HTTP from pdn serve (once warmed), seconds:")
        print(f"  {'question':48s} {'first':>7s} {'again':>7s}")
        timed_get("games, page 1", "api/games")
        timed_get("games, page 2,001", "api/games", page=2001)
        timed_get("count of all games", "api/count")
        timed_get("games, player Tinsley", "api/games", player="Tinsley")
        timed_get("count of the games of Tinsley", "api/count", player="Tinsley")
        timed_get("invalid games", "api/invalid")
        listed = json.loads(timed_get("games, event Edinburgh", "api/games", event="Edinburgh"))
        timed_get(
            "one game replayed (its tree and positions)", f"api/game/{listed['games'][0]['id']}"
        )
        for ply, (fen, move) in enumerate(positions()):
            timed_get(f"explore after {ply} plies", "api/explore", variant="english", fen=fen)
            timed_get("  games that reached it", "api/reached", variant="english", fen=fen)
            timed_get("  board", "api/board", variant="english", fen=fen)
            if move:
                timed_get(f"  play {move}", "api/play", variant="english", fen=fen, move=move)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(timeout=60)


def main() -> None:
    db = database(sys.argv)
    compiled_toolkit()
    engine = open_database(db, create=False)
    with engine.connect() as conn:
        total = conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0
    engine.dispose()
    print(f"pdn serve over {total:,} games ({db})")
    library(db)
    served(db)


if __name__ == "__main__":
    main()
