"""The built-in engine as a Hub engine on standard input and output (``pdn engine``), so that any
Hub GUI, and :class:`pdn.engine.hub.HubEngine`, can use it.

It speaks Hub version 2 as Scan 3.1's protocol.txt gives it: ``hub`` is answered with ``id``,
a ``param`` for the variant (Hub's names: ``normal`` for International, this toolkit's names for
the others) and one for the draw rules, then ``wait``; ``init`` with ``ready``; ``pos`` (with
``moves`` for repetitions), ``level`` (depth, nodes, move-time, time/moves/inc, infinite) and
``go think|analyze|ponder`` start a search in a thread, so that ``stop``, ``ping`` and
``ponder-hit`` are answered while it runs; it ends with one ``info`` line (score in men, a win
in N plies as 100 - N/100 as Scan writes it, speed in MNPS) and ``done move=... ponder=...``.
``quit``, or the end of the input, ends it at once.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import TextIO, TypeVar

import pdn
from pdn.board import Board
from pdn.engine.builtin import BuiltinEngine
from pdn.engine.hub import (
    HUB_NAMES,
    hub_move,
    parse_line,
    quote,
    read_hub_move,
    read_hub_position,
    score_text,
)
from pdn.engine.types import Engine, Limit
from pdn.rules.draw import ALIASES, RULE_SETS
from pdn.rules.variants import VARIANTS, Variant

DEFAULT_LIMIT = Limit(time=1.0)  # before any "level"
INFINITE = 86_400.0  # seconds: "level infinite" searches until "stop"
MOVES_TO_GO = 30  # moves the remaining time is spread over when "level time=" tells no count

_BY_HUB_NAME = {HUB_NAMES.get(name, name): v for name, v in VARIANTS.items()}


def time_per_move(args: dict[str, str]) -> float:
    """The seconds to spend on a move under ``level [moves=N] time=T [inc=I]`` (the increment
    is added before every move, protocol.txt says)."""
    remaining = float(args["time"]) + float(args.get("inc", 0) or 0)
    moves = int(args.get("moves") or MOVES_TO_GO)
    return max(0.01, remaining / max(1, moves))


def read_level(args: dict[str, str]) -> Limit:
    """The limit a ``level`` line sets (ValueError if it sets none)."""
    if "infinite" in args:
        return Limit(time=INFINITE)
    if "time" in args:
        return Limit(time=time_per_move(args))
    depth, nodes, seconds = args.get("depth"), args.get("nodes"), args.get("move-time")
    return Limit(
        depth=_number(int, "depth", depth),
        nodes=_number(int, "nodes", nodes),
        time=_number(float, "move-time", seconds),
    )


N = TypeVar("N", int, float)


def _number(kind: Callable[[str], N], name: str, text: str | None) -> N | None:
    """A number of a ``level`` line (None where not given), or a ValueError that names it
    (Python's own, "invalid literal for int() with base 10", reached the GUI before)."""
    if not text:
        return None
    try:
        return kind(text)
    except ValueError:
        raise ValueError(f"{name}={text!r} is not a number") from None


@dataclass(slots=True)
class HubServer:
    """One Hub session: the variant and rules set, the position and limit of the next search,
    and the search running (if any)."""

    out: TextIO
    variant: Variant
    rules: str = "common"
    make_engine: Callable[[], Engine] = BuiltinEngine
    board: Board | None = None
    limit: Limit = DEFAULT_LIMIT
    engine: Engine | None = None
    searching: threading.Thread | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def say(self, line: str) -> None:
        """Write one line to the GUI."""
        with self.lock:
            self.out.write(line + "\n")
            self.out.flush()

    def handle(self, line: str) -> bool:
        """Act on one line from the GUI; False when the session ends."""
        command, args = parse_line(line)
        if command == "quit":
            return False
        try:
            self._handle(command, args)
        except (ValueError, KeyError) as exc:
            self.say(f"error message={quote(f'{command}: {exc}')}")
        return True

    def _handle(self, command: str, args: dict[str, str]) -> None:
        if command == "hub":
            self._introduce()
        elif command == "set-param":
            self._set(args["name"], args.get("value", ""))
        elif command == "init":
            self.engine = self.engine or self.make_engine()
            self.say("ready")
        elif command == "ping":
            self.say("pong")
        elif command == "new-game":
            self._fresh()
            self.engine = self.make_engine()
        elif command == "pos":
            self._wait()
            self.board = self._position(args)
        elif command == "level":
            self.limit = read_level(args)
        elif command == "go":
            self._go()
        elif command == "stop" and self.engine is not None:
            self.engine.stop()
        # "ponder-hit" and anything unknown: nothing to do (protocol.txt: ignore what is unknown)

    def _introduce(self) -> None:
        self.say(f"id name=pdn version={pdn.__version__} author=pdn-toolkit")
        names = " ".join(_BY_HUB_NAME)
        current = HUB_NAMES.get(self.variant.name, self.variant.name)
        self.say(f'param name=variant value={current} type=enum values="{names}"')
        self.say(f'param name=rules value={self.rules} type=enum values="{" ".join(RULE_SETS)}"')
        self.say("wait")

    def _set(self, name: str, value: str) -> None:
        if name == "variant":
            if value not in _BY_HUB_NAME:
                raise ValueError(f"no variant {value!r}")
            self.variant = _BY_HUB_NAME[value]
            self._fresh()
        elif name == "rules":
            if value not in RULE_SETS and value not in ALIASES:
                raise ValueError(f"no rules {value!r}")
            self.rules = value
            self._fresh()

    def _fresh(self) -> None:
        """Release the engine, its table with it (its keys hold neither variant nor rules):
        the next search makes a new one."""
        self._wait()
        if self.engine is not None:
            self.engine.close()
        self.engine = None

    def _position(self, args: dict[str, str]) -> Board:
        board = Board.from_position(read_hub_position(args["pos"], self.variant), self.rules)
        for text in args.get("moves", "").split():
            move = read_hub_move(board, text)
            if move is None:
                raise ValueError(f"{text} is no legal move in {board.fen()}")
            board.push(move)
        return board

    def _go(self) -> None:
        self._wait()
        board = self.board
        if board is None:
            raise ValueError("no position: send pos first")
        if not board.legal_moves:
            raise ValueError("the game is over: there is no move to search")
        self.engine = self.engine or self.make_engine()
        thread = threading.Thread(target=self._search, args=(self.engine, board, self.limit))
        thread.daemon = True
        self.searching = thread
        thread.start()

    def _search(self, engine: Engine, board: Board, limit: Limit) -> None:
        info = engine.analyse(board, limit)[0]
        pv, replay = [], board.copy()
        for move in info.pv:
            pv.append(hub_move(replay.position, move))
            replay.push(move)
        best = pv[0] if pv else hub_move(board.position, board.legal_moves[0])
        mnps = info.nps / 1e6
        self.say(f"info depth={info.depth} score={score_text(info.score.relative)} "
                 f"nodes={info.nodes} time={info.time:.3f} nps={mnps:.2f} "
                 f"pv={quote(' '.join(pv or [best]))}")  # fmt: skip
        ponder = f" ponder={pv[1]}" if len(pv) > 1 else ""
        self.say(f"done move={best}{ponder}")

    def _wait(self) -> None:
        """Let a search still running finish (a GUI sends stop before a new search)."""
        if self.searching is not None:
            self.searching.join()
            self.searching = None

    def close(self) -> None:
        """Stop a running search and release the engine."""
        if self.engine is not None:
            self.engine.stop()
        if self.searching is not None:
            self.searching.join(timeout=1.0)
        if self.engine is not None:
            self.engine.close()


def serve(
    stdin: TextIO,
    stdout: TextIO,
    variant: Variant,
    rules: str = "common",
    make_engine: Callable[[], Engine] = BuiltinEngine,
) -> None:
    """Answer Hub lines from *stdin* on *stdout* until ``quit`` or the end of the input."""
    server = HubServer(stdout, variant, rules, make_engine)
    try:
        for line in stdin:
            if line.strip() and not server.handle(line):
                break
    finally:
        server.close()
