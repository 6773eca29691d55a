"""The analysis board's server side: a position and the moves played from it, the legal moves
there (from the Python Board), the built-in engine thinking for a bounded time with its line
given as it deepens (one search per client at a time), and the line written as PDN. Nothing is
written to the database."""

from __future__ import annotations

import re
import threading
import time
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any

from pdn.board import Board, MoveTextError
from pdn.engine import BuiltinEngine, Limit
from pdn.notation import move_text
from pdn.rules.fen import to_fen
from pdn.rules.geometry import Color
from pdn.rules.position import Move, Position

MAX_SECONDS = 10.0  # the longest a search may think
MAX_SEARCHES = 4  # searches running at once, over all clients (the machine's cores are few)
MAX_MOVES = 400  # plies an analysis line may hold
CLIENT = re.compile(r"[A-Za-z0-9_-]{8,40}")
MAX_DEPTH = 40


class BoardError(ValueError):
    """A position, move or request the analysis board cannot take (one line for the page)."""


class Busy(RuntimeError):
    """Every search slot is taken by other clients."""


def played(variant: str, fen: str | None, moves: list[str]) -> Board:
    """The board after *moves* (as written) from *fen* (None: the start); BoardError when one
    is illegal."""
    if len(moves) > MAX_MOVES:
        raise BoardError(f"at most {MAX_MOVES} moves")
    board = Board(variant, fen)
    for i, text in enumerate(moves, 1):
        try:
            board.push(text)
        except MoveTextError as exc:
            raise BoardError(f"move {i}, {text}: {exc.reason}") from None
    return board


def _written(board: Board, move: Move) -> str:
    return move_text(board.position, move, legal=board.legal_moves)


def position(board: Board) -> dict[str, Any]:
    """The position of *board* for the page: its FEN, the side to move, its legal moves (each
    as written, with the squares it goes through and the FEN after it) and how the game ended
    if it did."""
    g = board.position.geometry
    moves = []
    for move in board.legal_moves:
        after = board.position.play(move)
        moves.append({"text": _written(board, move), "path": [g.label(s) for s in move.path],
                      "fen": to_fen(after)})  # fmt: skip
    ending = board.outcome()
    return {
        "variant": board.variant.name,
        "fen": board.fen(),
        "turn": Color(board.position.turn).name.lower(),
        "moves": moves,
        "ended": ending.label if ending else None,
    }


def pdn_text(variant: str, fen: str | None, moves: list[str], line: list[str],
             comment: str | None = None) -> str:  # fmt: skip
    """The moves played and the engine's *line* after them as a PDN game from *fen* (its FEN
    tag when it is not the start), the engine's words as a comment before its line; BoardError
    when a move is illegal."""
    board = played(variant, fen, [*moves, *line])
    start = board.positions()[0]
    v = board.variant
    tags = [("Event", "Analysis board"), ("Site", "?"),
            ("Date", datetime.now(UTC).strftime("%Y.%m.%d")), ("Round", "?"), ("White", "?"),
            ("Black", "?"), ("Result", "*"), ("GameType", str(v.gametype))]  # fmt: skip
    if start != Position.start(v):
        tags.append(("FEN", to_fen(start)))
    first = Color.WHITE if v.first == "W" else Color.BLACK
    offset = 0 if Color(start.turn) == first else 1
    words = []
    for i, text in enumerate([*moves, *line]):
        if i == len(moves) and line and comment:
            words.append("{" + comment.replace("}", ")") + "}")
        k = i + offset
        if k % 2 == 0:
            words.append(f"{k // 2 + 1}.")
        elif i == 0 or (i == len(moves) and line and comment):
            words.append(f"{k // 2 + 1}...")
        words.append(text)
    words.append("*")
    head = "".join(f'[{name} "{value}"]\n' for name, value in tags)
    return head + "\n" + _wrapped(words) + "\n"


def _wrapped(words: list[str], width: int = 79) -> str:
    lines, current = [], ""
    for word in words:
        if current and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current else word
    return "\n".join([*lines, current])


@dataclass(slots=True)
class Search:
    """One client's search: the lines found, deepest last, and whether it ended."""

    fen: str
    engine: BuiltinEngine
    lines: list[dict[str, Any]] = field(default_factory=list)
    done: bool = False
    started: float = field(default_factory=time.monotonic)
    stopped: threading.Event = field(default_factory=threading.Event)

    def status(self) -> dict[str, Any]:
        """The search as the page shows it."""
        return {"fen": self.fen, "lines": list(self.lines), "done": self.done,
                "seconds": round(time.monotonic() - self.started, 2)}  # fmt: skip


class Thinking:
    """The searches of the page's clients: one per client, at most MAX_SEARCHES at once."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._searches: dict[str, Search] = {}

    def start(self, client: str, board: Board, seconds: float) -> dict[str, Any]:
        """Start thinking on *board* for *client* for at most *seconds* (capped at
        MAX_SECONDS), its previous search stopped; Busy when every slot is taken."""
        if not CLIENT.fullmatch(client):
            raise BoardError("a client is 8 to 40 letters, digits, - or _")
        seconds = max(0.1, min(seconds, MAX_SECONDS))
        with self._lock:
            old = self._searches.pop(client, None)
            if old is not None:
                old.stopped.set()
                old.engine.stop()
            running = sum(not s.done for s in self._searches.values())
            if running >= MAX_SEARCHES:
                raise Busy(f"{running} searches are running: try again in a few seconds")
            search = Search(board.fen(), BuiltinEngine())
            self._searches[client] = search
        thread = threading.Thread(target=_deepen, args=(search, board.copy(), seconds),
                                  name="pdn-serve-think", daemon=True)  # fmt: skip
        thread.start()
        return search.status()

    def status(self, client: str) -> dict[str, Any]:
        """The client's search so far (BoardError when it has none)."""
        with self._lock:
            search = self._searches.get(client)
        if search is None:
            raise BoardError("no search for this client")
        return search.status()

    def stop(self, client: str) -> dict[str, Any]:
        """Stop the client's search; what it found."""
        with self._lock:
            search = self._searches.get(client)
        if search is None:
            raise BoardError("no search for this client")
        search.stopped.set()
        search.engine.stop()
        return search.status()


def _deepen(search: Search, board: Board, seconds: float) -> None:
    """Search one ply deeper at a time until *seconds* are spent or the engine is stopped,
    each depth's line added as it is found."""
    deadline = search.started + seconds
    try:
        if board.outcome() is not None:
            return
        for depth in range(1, MAX_DEPTH + 1):
            left = deadline - time.monotonic()
            if left <= 0 or search.stopped.is_set():
                return
            info = search.engine.analyse(board, Limit(depth=depth, time=left))[0]
            if search.stopped.is_set() or info.depth < depth:  # cut short: its line was shown
                return
            search.lines.append({
                "depth": info.depth, "eval": info.score.white().text(), "nodes": info.nodes,
                "line": list(_line(board, info.pv)),
            })  # fmt: skip
            if info.score.relative.is_win or info.score.relative.is_loss:
                return
    finally:
        search.done = True


def _line(board: Board, pv: tuple[Move, ...]) -> list[str]:
    replay = board.copy()
    texts = []
    for move in pv:
        texts.append(_written(replay, move))
        replay.push(move)
    return texts
