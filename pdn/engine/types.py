"""The engine interface, shaped like python-chess's ``chess.engine``: limits, scores, analysis
results and the protocol every engine (the built-in search, a Hub engine) implements.

>>> Score.of_men(0.35).text(), Score.win(13).text(), (-Score.win(13)).text()
('0.35', '#7', '#-7')
>>> Score.of_men(-0.004).text()  # even, whatever the side ("-0.00" before)
'0.00'
>>> Score.win(3) > Score.win(5) > Score.of_men(9.0) > Score.of_men(-9.0) > Score.win(-4)
True
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from dataclasses import dataclass, field
from types import TracebackType
from typing import TYPE_CHECKING, Protocol, Self

from pdn.rules.geometry import Color

if TYPE_CHECKING:
    from pdn.board import Board
    from pdn.rules.position import Move


class EngineError(Exception):
    """An engine failed: it crashed, hung past the limit or wrote junk (one clear message)."""


@dataclass(frozen=True, slots=True)
class Limit:
    """When a search stops: at *depth* plies, after *nodes* nodes, after *time* seconds
    (whichever comes first; at least one must be set)."""

    depth: int | None = None
    nodes: int | None = None
    time: float | None = None

    def __post_init__(self) -> None:
        if self.depth is None and self.nodes is None and self.time is None:
            raise ValueError("a limit needs a depth, a number of nodes or a time")
        if self.depth is not None and self.depth < 1:
            raise ValueError(f"depth must be at least 1, not {self.depth}")
        if self.nodes is not None and self.nodes < 1:
            raise ValueError(f"nodes must be at least 1, not {self.nodes}")
        if self.time is not None and self.time < 0:
            raise ValueError(f"time must not be negative, not {self.time}")


def _key(men: float | None, plies: int | None, won: bool) -> tuple[int, float]:
    """The sort key: any win above any score in men above any loss; a shorter win and a
    longer loss better."""
    if men is not None:
        return (1, men)
    assert plies is not None
    if plies > 0 or won:
        return (2, -plies)
    return (0, -plies)


@dataclass(frozen=True, slots=True, order=True)
class Score:
    """A value for the side to move: *men* (a man is 1.0) or *plies*, a forced win in that
    many plies when > 0 (the winner's last move included), a loss in that many when < 0.

    ``plies == 0`` is a game over: the side to move has no legal move and has lost; its
    negation (the same position seen by the winner) has *won* set. Exactly one of *men* and
    *plies* is set. Scores compare by value: any win > any men > any loss, a shorter win and a
    longer loss better.
    """

    _order: tuple[int, float] = field(init=False, repr=False)
    men: float | None = field(default=None, compare=False)
    plies: int | None = field(default=None, compare=False)
    won: bool = field(default=False, compare=False)  # plies == 0 seen by the winner

    def __post_init__(self) -> None:
        if (self.men is None) == (self.plies is None):
            raise ValueError("a score has either men or plies")
        if self.won and self.plies != 0:
            raise ValueError("won is for a game over (plies == 0)")
        object.__setattr__(self, "_order", _key(self.men, self.plies, self.won))

    @classmethod
    def win(cls, plies: int) -> Score:
        """A forced win in *plies* plies (negative: a loss in -plies plies)."""
        return cls(plies=plies)

    @classmethod
    def of_men(cls, men: float) -> Score:
        """A value of *men* men."""
        return cls(men=men)

    def __neg__(self) -> Score:
        if self.men is not None:
            return Score(men=-self.men)
        assert self.plies is not None
        if self.plies == 0:
            return Score(plies=0, won=not self.won)
        return Score(plies=-self.plies)

    @property
    def is_win(self) -> bool:
        """Whether the side this score is seen by has a forced win (or has won)."""
        return self._order[0] == 2

    @property
    def is_loss(self) -> bool:
        """Whether the side this score is seen by loses by force (or has lost)."""
        return self._order[0] == 0

    def moves(self) -> int | None:
        """A win or loss counted in moves of the winner, as lichess and lidraughts count
        (a win in 1 ply is a win in 1 move, in 3 plies in 2; a loss in 2 plies a loss in 1);
        None for men."""
        if self.plies is None:
            return None
        moves = (abs(self.plies) + 1) // 2
        return moves if self.plies > 0 else -moves

    def text(self) -> str:
        """The ``[%eval]`` form: ``0.35`` in men (two decimals), ``#7`` for a win in 7 moves of
        the winner, ``#-7`` for a loss in 7 (lichess's and lidraughts's count: moves, not
        plies); ``#0`` has won, ``#-0`` has lost (the game is over)."""
        if self.men is not None:
            shown = f"{self.men:.2f}"
            return "0.00" if shown == "-0.00" else shown
        moves = self.moves()
        assert moves is not None and self.plies is not None
        if self.plies == 0:
            return "#0" if self.won else "#-0"
        return f"#{moves}"


@dataclass(frozen=True, slots=True)
class PovScore:
    """A score *relative* to the side to move (*turn*), seen from either side."""

    relative: Score
    turn: Color

    def pov(self, color: Color) -> Score:
        """The score seen by *color*."""
        return self.relative if color == self.turn else -self.relative

    def white(self) -> Score:
        """The score seen by White."""
        return self.pov(Color.WHITE)

    def black(self) -> Score:
        """The score seen by Black."""
        return self.pov(Color.BLACK)


@dataclass(frozen=True, slots=True)
class Info:
    """One line of an analysis: its score, principal variation (moves from the position
    analysed), the depth reached, nodes searched, nodes per second, seconds, and its rank
    (*multipv*: 1 is the best line)."""

    score: PovScore
    pv: tuple[Move, ...]
    depth: int
    nodes: int
    nps: int
    time: float
    multipv: int = 1


class Engine(Protocol):
    """What every engine offers: analysing a board, choosing a move, stopping, closing."""

    name: str
    version: str

    def analyse(self, board: Board, limit: Limit, multipv: int = 1) -> list[Info]:
        """The *multipv* best lines of *board*'s position (best first), searched to *limit*."""
        ...

    def play(self, board: Board, limit: Limit) -> Move:
        """The move the engine plays in *board*'s position, searched to *limit*."""
        ...

    def stop(self) -> None:
        """End a running analyse() or play() early (thread-safe); it returns the best so far."""
        ...

    def close(self) -> None:
        """Release the engine (end its process); a closed engine is not used again."""
        ...

    def __enter__(self) -> Engine: ...

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None: ...


class Closing(ABC):
    """An engine that a ``with`` block closes at its end."""

    __slots__ = ()

    @abstractmethod
    def close(self) -> None:
        """Release the engine; a closed engine is not used again."""

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()
