"""What the kernels, a board's record of its moves and the drawing read of a position: its men
and kings, the side to move, its variant and board. pdn.rules.position.Position is the one
class that has them; naming this protocol instead lets the modules it builds on (the kernels,
pdn.render.diagram) type a position without importing it."""

from __future__ import annotations

from typing import Protocol, TypeVar

from pdn.rules.geometry import Geometry
from pdn.rules.move import Counts, HashKey
from pdn.rules.variants import Variant


class Placement(Protocol):
    """Men and kings of both sides as bitboards, the side to move, the variant and its board."""

    variant: Variant
    white_men: int
    white_kings: int
    black_men: int
    black_kings: int
    turn: int  # WHITE (0) or BLACK (1)
    geometry: Geometry

    def __init__(
        self,
        variant: Variant,
        white_men: int,
        white_kings: int,
        black_men: int,
        black_kings: int,
        turn: int,
        geometry: Geometry | None = None,
        /,
    ) -> None:
        """A position of these pieces (the twin kernel makes one as ``type(pos)(...)``)."""

    def pieces(self, color: int) -> tuple[int, int]:
        """Men and kings of one side."""

    def counts(self) -> Counts:
        """White men, white kings, black men, black kings."""

    def hash_key(self) -> HashKey:
        """Everything that identifies the position for repetition."""

    def _sides(self) -> tuple[int, int, int, int]:
        """Men and kings of the side to move, then of the other side."""


P = TypeVar("P", bound=Placement)  # a position, kept of its own class (Position)
