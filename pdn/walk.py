"""A replayed game as a tree, and one walk over it for every reader of a replay.

Each written move is a :class:`Step`: the position before and after it, the move it means, its
:class:`Status` and the reason. A line (the main line or a variation) holds its steps with the
setups and comments between them; a step holds its variations, each read as an alternative to
it or else as a continuation after it (pdn.replay decides which, once). A capture written in
parts (``11x18 18x25``) is one step whose later parts are listed in :attr:`Step.parts`.

:func:`walk` visits a game in PDN order, as python-chess's ``GameNode.accept`` does: the tags,
then for each move its comments, the move, its NAGs, its comments after and its variations, and
the result. Convert, annotate, the writer and the web game tree are visitors; the terminal
browser steps through the lines. A game read but not replayed walks as :func:`unplayed` makes it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum, StrEnum
from typing import TYPE_CHECKING, Generic, TypeVar

from pdn.game import CommentNode, Game, MoveNode, Node, SetupNode

if TYPE_CHECKING:
    from pdn.rules.position import Move, Position


class Status(StrEnum):
    """What the replay made of a written move."""

    LEGAL = "legal"  # exactly one legal move fits
    RESOLVED = "resolved"  # several fit; the only one that lets the line go on was played
    AMBIGUOUS = "ambiguous"  # several fit and the line does not tell (an error; the first played)
    ILLEGAL = "illegal"  # no legal move fits, or a square is not on the board: the line stops
    UNPLAYED = "unplayed"  # not replayed: after a move that failed, or the game was not replayed

    @property
    def played(self) -> bool:
        """Whether a move was played for it."""
        return self in (Status.LEGAL, Status.RESOLVED, Status.AMBIGUOUS)


@dataclass(slots=True, eq=False)
class Step:
    """One written move as replayed."""

    written: MoveNode  # as written (its first part, for a capture written in parts)
    ply: int  # 1-based, counted from the start position
    status: Status = Status.UNPLAYED
    before: Position | None = None  # None when the move was not replayed
    move: Move | None = None  # the move played (None unless status.played)
    after: Position | None = None
    reason: str = ""  # why the move is illegal, ambiguous, or how it was resolved
    legal: Sequence[str] = ()  # the legal moves, where it is illegal
    parts: Sequence[MoveNode] = ()  # the later parts of a capture written in parts
    variations: Sequence[Line] = ()

    @property
    def nodes(self) -> list[MoveNode]:
        """The written move nodes: the move, then its later parts."""
        return [self.written, *self.parts]

    @property
    def text(self) -> str:
        """The move as written (its parts joined by spaces), with its strength mark."""
        w = self.written
        if not self.parts:
            return w.text + w.strength
        return " ".join(n.text + n.strength for n in self.nodes)

    def accept(self, visitor: Visitor[T]) -> None:
        """Visit the step in PDN order: its comments, the move, NAGs, comments after, variations."""
        written = self.written
        for c in written.comments_before:
            visitor.visit_comment(c, self)
        visitor.visit_move(self)
        for node in (written, *self.parts) if self.parts else (written,):
            if node is not written:
                for c in node.comments_before:
                    visitor.visit_comment(c, self)
            for nag in node.nags:
                visitor.visit_nag(nag)
            for c in node.comments_after:
                visitor.visit_comment(c, self)
        for line in self.variations:
            if visitor.begin_variation(line) is not SKIP:
                line.accept(visitor)
                visitor.end_variation(line)


Item = Step | SetupNode | CommentNode


@dataclass(slots=True, eq=False)
class Line:
    """A line of play: the main line, or a variation of a step."""

    items: list[Item]  # steps, setups and comments in the written order
    start: Position | None  # the position before its first move (None: not replayed)
    first_ply: int  # the ply of its first move
    continuation: bool = False  # a variation read as a continuation after its step

    @property
    def steps(self) -> list[Step]:
        """The steps of the line, in order."""
        return [i for i in self.items if i.__class__ is Step]

    def accept(self, visitor: Visitor[T]) -> None:
        """Visit the line's items in order."""
        for item in self.items:
            if item.__class__ is Step:
                item.accept(visitor)
            elif isinstance(item, SetupNode):
                visitor.visit_setup(item)
            else:
                visitor.visit_comment(item.text)


def unplayed(nodes: Sequence[Node], ply: int) -> Line:
    """*nodes* as a line of steps not replayed (variations as alternatives), from *ply*."""
    items: list[Item] = []
    line = Line(items, None, ply)
    for n in nodes:
        if n.__class__ is MoveNode:
            step = Step(n, ply)
            if n.variations:
                step.variations = [unplayed(v, ply) for v in n.variations]
            items.append(step)
            ply += 1
        else:
            items.append(n)  # type: ignore[arg-type]
    return line


class SkipType(Enum):
    """Returned by a visitor's begin_variation or begin_game to skip what it begins."""

    SKIP = None


SKIP = SkipType.SKIP
T = TypeVar("T")


class Visitor(Generic[T]):
    """Called by :func:`walk` in PDN order; override what you need, and result()."""

    def begin_game(self, game: Game) -> SkipType | None:
        """Called first; SKIP skips the whole game."""
        return None

    def visit_header(self, name: str, value: str) -> None:
        """Called for each tag, in file order."""

    def end_headers(self) -> None:
        """Called after the tags."""

    def visit_comment(self, text: str, step: Step | None = None) -> None:
        """Called for each comment: of the *step* it is written before or after, or (None) of
        the line, between its moves."""

    def visit_setup(self, setup: SetupNode) -> None:
        """Called for a ``/FEN "..."/`` setup in the movetext."""

    def visit_move(self, step: Step) -> None:
        """Called for each written move (a capture written in parts: once, for all parts)."""

    def visit_nag(self, nag: int) -> None:
        """Called for each NAG after a move."""

    def begin_variation(self, line: Line) -> SkipType | None:
        """Called before a variation of the move just visited; SKIP skips it (and its end)."""
        return None

    def end_variation(self, line: Line) -> None:
        """Called after a variation that was begun."""

    def visit_result(self, terminator: str | None) -> None:
        """Called after the movetext with what ended it (the result or ``*``; None: nothing)."""

    def end_game(self) -> None:
        """Called last."""

    def result(self) -> T:
        """What the visitor made."""
        raise NotImplementedError


def walk(game: Game, line: Line, visitor: Visitor[T]) -> T:
    """Visit *game*, whose movetext is *line*, in PDN order; the visitor's result."""
    if visitor.begin_game(game) is not SKIP:
        for name, value in game.tags.items():
            visitor.visit_header(name, value)
        visitor.end_headers()
        line.accept(visitor)
        visitor.visit_result(game.terminator)
    visitor.end_game()
    return visitor.result()
