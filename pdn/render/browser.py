"""Stepping through a game as text: the main line and the variations inside it, and the screen
for one position (players, board, side to move, FEN, legend, the move list with the move
marked, comments)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field

from pdn.game import Game, MoveNode, Node
from pdn.render.textboard import legend, text_board
from pdn.replay import Replay, candidates
from pdn.rules.fen import to_fen
from pdn.rules.geometry import Color
from pdn.rules.position import Move, Position


def colours(game: Game, replay: Replay) -> str:
    """Who had which colour, and which colour moved first."""
    first = Color.of(replay.variant.first)
    return (
        f"White: {game.white or '?'}   Black: {game.black or '?'}   ({first} moves first in "
        f"{replay.variant.title})"
    )


def move_list(nodes: list[MoveNode], current: int, first_ply: int = 1, offset: int = 0) -> str:
    """The moves of a line, numbered, the *current* ply in brackets; *first_ply* is the ply of
    the first move, *offset* 1 when the second player makes the game's first move."""
    parts = []
    for i, node in enumerate(nodes):
        ply = first_ply + i
        k = ply - 1 + offset
        if k % 2 == 0:
            parts.append(f"{k // 2 + 1}.")
        elif i == 0:
            parts.append(f"{k // 2 + 1}...")
        text = node.text + node.strength
        parts.append(f"[{text}]" if ply == current else text)
    return " ".join(parts)


@dataclass(slots=True)
class Line:
    """A line of play: the main line or a variation, with the position before each move."""

    nodes: list[MoveNode]  # the written moves
    moves: list[Move]  # the moves replayed (fewer than nodes where the line stops early)
    positions: list[Position]  # before each replayed move, then after the last
    first_ply: int  # the ply of the first move
    stopped: str | None = None  # why it stops before its last written move
    branch: int = 0  # for a variation: which of its parent move's variations it is
    at_parent: int = 0  # for a variation: the parent's position index it branches from


def main_line(game: Game, replay: Replay) -> Line:
    """The main line as replayed, with every written move (those after an error unplayed)."""
    stopped = None
    if replay.errors and not replay.errors[0].variation:
        stopped = replay.errors[0].reason
    return Line(game.mainline(), list(replay.moves), list(replay.positions), 1, stopped)


def variation(before: Position, after: Position, nodes: list[Node], first_ply: int) -> Line:
    """A variation written after a move: an alternative to it, played from *before*, or else
    (when it does not replay from there but does from *after*) a continuation."""
    moves_ = [n for n in nodes if isinstance(n, MoveNode)]
    line = _play(before, moves_, first_ply)
    if line.stopped and not line.moves:
        later = _play(after, moves_, first_ply + 1)
        if not later.stopped or later.moves:
            return later
    return line


def _play(pos: Position, nodes: list[MoveNode], first_ply: int) -> Line:
    line = Line(nodes, [], [pos], first_ply)
    for node in nodes:
        try:
            found = candidates(pos, node.squares)
        except ValueError as exc:
            line.stopped = str(exc)
            break
        if not found:
            line.stopped = f"{node.text} is not legal here"
            break
        pos = pos.play(found[0])
        line.moves.append(found[0])
        line.positions.append(pos)
    return line


@dataclass(slots=True)
class Browser:
    """Where a reader is in a game: a line (the main line or a variation inside it) and how
    many of its moves are played. Steps by ply, to either end, into and out of variations."""

    lines: list[Line]  # the main line, then each variation entered, innermost last
    at: int = 0  # moves of the innermost line played
    note: str = ""  # what the last step could not do
    _parents: list[int] = field(default_factory=list)  # where each outer line was left

    @property
    def line(self) -> Line:
        """The line being read."""
        return self.lines[-1]

    @property
    def position(self) -> Position:
        """The position shown."""
        return self.line.positions[self.at]

    @property
    def ply(self) -> int:
        """The ply just played (0: none yet in the main line)."""
        return self.line.first_ply + self.at - 1

    @property
    def last_move(self) -> Move | None:
        """The move that led to the position shown."""
        return self.line.moves[self.at - 1] if self.at else None

    @property
    def node(self) -> MoveNode | None:
        """The written move that led to the position shown."""
        return self.line.nodes[self.at - 1] if self.at else None

    def forward(self) -> None:
        """One ply on."""
        self.note = ""
        if self.at < len(self.line.moves):
            self.at += 1
        elif self.line.stopped:
            self.note = f"the line stops here: {self.line.stopped}"

    def back(self) -> None:
        """One ply back (out of a variation before its first move)."""
        self.note = ""
        if self.at > 0:
            self.at -= 1
        elif len(self.lines) > 1:
            self.leave()

    def home(self) -> None:
        """To the start of the line."""
        self.note, self.at = "", 0

    def end(self) -> None:
        """To the last move of the line."""
        self.note, self.at = "", len(self.line.moves)

    def leave(self) -> None:
        """Out of the variation, back to where it branched off."""
        self.note = ""
        if len(self.lines) > 1:
            self.lines.pop()
            self.at = self._parents.pop()

    def variations(self) -> None:
        """Into the first variation of the move just played; in a variation, at its first move,
        to the next variation of the same move, and after the last back to the line."""
        self.note = ""
        line = self.line
        if len(self.lines) > 1 and self.at <= 1:
            parent, index = self.lines[-2], line.branch + 1
            self.leave()
            written = parent.nodes[self.at - 1].variations if self.at else []
            if index < len(written):
                self._enter(parent, index)
            return
        node = self.node
        if node is None or not node.variations or self.at > len(line.moves):
            self.note = "no variation at this move"
            return
        self._enter(line, 0)

    def _enter(self, parent: Line, index: int) -> None:
        k = self.at  # the parent move at index k - 1 has the variations
        node = parent.nodes[k - 1]
        before, after = parent.positions[k - 1], parent.positions[k]
        line = variation(before, after, node.variations[index], parent.first_ply + k - 1)
        line.branch, line.at_parent = index, k
        self._parents.append(self.at)
        self.lines.append(line)
        self.at = 1 if line.moves else 0

    def where(self) -> str:
        """Which line is shown, and the ply."""
        last = self.line.first_ply + len(self.line.moves) - 1
        if len(self.lines) == 1:
            return f"after ply {self.ply} of {last}"
        parent = self.lines[-2]
        count = len(parent.nodes[self.line.at_parent - 1].variations)
        depth = f", depth {len(self.lines) - 1}" if len(self.lines) > 2 else ""
        return (
            f"variation {self.line.branch + 1} of {count} at ply {self.line.first_ply}"
            f"{depth}: after ply {self.ply} of {last}"
        )


def view(
    game: Game, replay: Replay, browser: Browser, flip: bool, width: int, height: int | None = None
) -> list[str]:
    """The screen for the browser's position: players, board, side to move, FEN, legend, the
    move list with the move marked, the move's comments, and where the reader is. With a
    *height*, the move list is cut to the lines around the marked move so that all fits."""
    pos = browser.position
    g = game
    head = f"{g.white or '?'} - {g.black or '?'}"
    for extra in (g.event, g.date, g.result):
        if extra:
            head += f"   {extra}"
    named = [*_wrapped(head, width), *_wrapped(colours(g, replay), width)]
    top = [*named, *text_board(pos, flip).splitlines()]
    side = Color.of(pos.turn)
    top.append(f"{browser.where()}; {side} to move")
    top.append(f"FEN {to_fen(pos)}")
    top.append(legend(pos))
    offset = 0 if replay.positions[0].turn == Color.of(replay.variant.first) else 1
    line = browser.line
    text = move_list(line.nodes, browser.ply, line.first_ply, offset)
    moves = _wrapped(text, width)
    bottom: list[str] = []
    node = browser.node
    if node is not None:
        bottom.extend(f"{{{c}}}" for c in [*node.comments_before, *node.comments_after])
        if node.variations:
            n = len(node.variations)
            bottom.append(f"{n} variation{'s' if n > 1 else ''} at this move (v)")
    if browser.note:
        bottom.append(browser.note)
    if height is not None:
        rows = sum(-(-max(1, len(x)) // width) for x in top + bottom)
        room = max(1, height - rows)
        if len(moves) > room:
            mark = next((i for i, m in enumerate(moves) if "[" in m), 0)
            start = min(max(0, mark - room // 2), len(moves) - room)
            moves = moves[start : start + room]
    return top + moves + bottom


def _wrapped(text: str, width: int) -> list[str]:
    """*text* in lines of at most *width* columns, broken at spaces only."""
    return textwrap.wrap(text, width, break_on_hyphens=False, break_long_words=False) or [""]
