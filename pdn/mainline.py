"""A replayed main line as text and as the database stores it: each move's PDN 3.0 short form
(main_line), and what Replay.line_rows gives of it (LineRows)."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Protocol

from pdn.rules.geometry import Geometry
from pdn.rules.move import Counts, Move, Squares
from pdn.rules.position import Position, core

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pdn.rules.variants import Variant


class Played(Protocol):
    """What :func:`main_line` reads of a replay (pdn.replay.Replay, which imports this module)."""

    @property
    def moves(self) -> Sequence[Move]: ...

    @property
    def positions(self) -> Sequence[Position]: ...

    @property
    def variant(self) -> Variant: ...


@dataclass(frozen=True, slots=True)
class LineRows:
    """A replayed main line as the database stores it (Kernel.scan, Kernel.move_texts)."""

    texts: list[str]  # each move in its PDN 3.0 short form
    digests: list[int]  # of each position, the start first
    packed: bytes  # the positions' bitboards and sides to move (Kernel.scan)
    runs: list[tuple[int, int, Counts]]  # the runs of equal material: first, length, counts
    reached: Squares  # the squares each kind of piece stood on
    first: list[Position]  # the first positions, as many as asked


@cache
def square_labels(g: Geometry) -> tuple[str, ...]:
    """Each square's name as the variant writes it, by bit index (empty off the board)."""
    return tuple(g.label(s) if s in g.coords else "" for s in range(g.size))


def main_line(replay: Played) -> list[str]:
    """The replayed main line, each move in its PDN 3.0 short form (the long form only where
    another legal capture has the same start and end)."""
    if not replay.moves:
        return []
    labels = square_labels(replay.positions[0].geometry)
    return core().move_texts(replay.positions, replay.moves, labels, replay.variant.separator)
