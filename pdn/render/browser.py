"""Stepping through a game as text: the main line and the variations inside it, and the screen
for one position (players, board, side to move, FEN, legend, the move list with the move
marked, comments)."""

from __future__ import annotations

import textwrap
from dataclasses import dataclass, field
from itertools import takewhile

from pdn.game import Game
from pdn.render.textboard import legend, text_board
from pdn.replay import Replay
from pdn.rules.fen import to_fen
from pdn.rules.geometry import Color
from pdn.rules.position import Move, Position
from pdn.walk import Line as TreeLine
from pdn.walk import Step


def colours(game: Game, replay: Replay) -> str:
    """Who had which colour, and which colour moved first."""
    first = Color.of(replay.variant.first)
    return (
        f"White: {game.white or '?'}   Black: {game.black or '?'}   ({first} moves first in "
        f"{replay.variant.title})"
    )


def move_list(steps: list[Step], current: int, first_ply: int = 1, offset: int = 0) -> str:
    """The moves of a line, numbered, the *current* ply in brackets; *first_ply* is the ply of
    the first move, *offset* 1 when the second player makes the game's first move."""
    parts = []
    for i, step in enumerate(steps):
        ply = first_ply + i
        k = ply - 1 + offset
        if k % 2 == 0:
            parts.append(f"{k // 2 + 1}.")
        elif i == 0:
            parts.append(f"{k // 2 + 1}...")
        text = step.text
        parts.append(f"[{text}]" if ply == current else text)
    return " ".join(parts)


@dataclass(slots=True)
class Line:
    """A line of play (the main line or a variation, a line of the replay's tree) with the
    position before each move played."""

    steps: list[Step]  # the written moves
    moves: list[Move]  # the moves replayed (fewer than steps where the line stops early)
    positions: list[Position]  # before each replayed move, then after the last
    first_ply: int  # the ply of the first move
    stopped: str | None = None  # why it stops before its last written move
    branch: int = 0  # for a variation: which of its parent move's variations it is
    at_parent: int = 0  # for a variation: the parent's position index it branches from


def _line(line: TreeLine, start: Position) -> Line:
    """The browser's line of a line of the replay's tree, from *start*."""
    steps = line.steps
    played = list(takewhile(lambda s: s.move is not None, steps))
    positions = [start, *(s.after for s in played if s.after is not None)]
    stopped = steps[len(played)].reason or "not replayed" if len(played) < len(steps) else None
    return Line(steps, [s.move for s in played if s.move], positions, line.first_ply, stopped)


def main_line(game: Game, replay: Replay) -> Line:
    """The main line as replayed, with every written move (those after an error unplayed)."""
    return _line(replay.tree, replay.positions[0])


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
    def step(self) -> Step | None:
        """The step (the written move, as replayed) that led to the position shown."""
        return self.line.steps[self.at - 1] if self.at else None

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
            written = parent.steps[self.at - 1].variations if self.at else []
            if index < len(written):
                self._enter(parent, index)
            return
        step = self.step
        if step is None or not step.variations or self.at > len(line.moves):
            self.note = "no variation at this move"
            return
        self._enter(line, 0)

    def _enter(self, parent: Line, index: int) -> None:
        k = self.at  # the parent move at index k - 1 has the variations
        tree = parent.steps[k - 1].variations[index]
        line = _line(tree, tree.start or parent.positions[k - 1])
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
        count = len(parent.steps[self.line.at_parent - 1].variations)
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
    text = move_list(line.steps, browser.ply, line.first_ply, offset)
    moves = _wrapped(text, width)
    bottom: list[str] = []
    step = browser.step
    if step is not None:
        for node in step.nodes:
            bottom.extend(f"{{{c}}}" for c in [*node.comments_before, *node.comments_after])
        if step.variations:
            n = len(step.variations)
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
