"""Bitboard positions: men and kings of both sides and the side to move, their legal moves,
making a move, perft.

Two kernels do the work (pdn/rules/kernel.py: one protocol): the compiled C module
(pdn/rules/_kernel.c, built by ``pip install`` where a C compiler is present) and its pure-Python
twin (pdn/rules/pykernel.py), the reference. The C kernel runs when it was built;
``PDN_CORE=python`` in the environment, or use_core("python"), selects the twin. Tests hold them
to identical results.
"""

from __future__ import annotations

import os
from functools import cache

from pdn.rules import pykernel
from pdn.rules.geometry import BLACK, WHITE, Geometry
from pdn.rules.geometry import geometry as geometry_of
from pdn.rules.kernel import Kernel, compiled_tables
from pdn.rules.move import Counts, Duplicates, Move
from pdn.rules.variants import Variant

__all__ = ["CORES", "Counts", "Duplicates", "Move", "Position", "core", "perft", "use_core"]


class Position:
    """Men and kings of both sides, the side to move, and the variant (treated as immutable)."""

    __slots__ = (
        "black_kings",
        "black_men",
        "geometry",
        "turn",
        "variant",
        "white_kings",
        "white_men",
    )

    def __init__(
        self,
        variant: Variant,
        white_men: int,
        white_kings: int,
        black_men: int,
        black_kings: int,
        turn: int,
        geometry: Geometry | None = None,
    ) -> None:
        self.variant = variant
        self.white_men = white_men
        self.white_kings = white_kings
        self.black_men = black_men
        self.black_kings = black_kings
        self.turn = turn  # WHITE (0) or BLACK (1)
        self.geometry = geometry or geometry_of(variant)  # the board it stands on

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        same = self.variant is other.variant or self.variant == other.variant
        return same and self.hash_key() == other.hash_key()

    def __hash__(self) -> int:
        return hash(self.hash_key())

    def __repr__(self) -> str:
        return f"Position({self.variant.name}, {self.hash_key()})"

    def _repr_svg_(self) -> str:
        """The position as SVG, for notebooks."""
        from pdn.render.diagram import svg_diagram  # drawing is not the kernel's: loaded here

        return svg_diagram(self)

    @classmethod
    def start(cls, variant: Variant) -> Position:
        """The variant's initial position."""
        return _start_position(variant)

    @classmethod
    def _initial(cls, variant: Variant) -> Position:
        g = geometry_of(variant)
        lo, rows = variant.start_rank, variant.men_rows
        white = black = 0
        for s, (_, r) in g.coords.items():
            if lo <= r < lo + rows:
                white |= 1 << s
            elif g.height - lo - rows <= r < g.height - lo:
                black |= 1 << s
        return cls(variant, white, 0, black, 0, WHITE if variant.first == "W" else BLACK)

    @property
    def occupied(self) -> int:
        """Every occupied square."""
        return self.white_men | self.white_kings | self.black_men | self.black_kings

    def pieces(self, color: int) -> tuple[int, int]:
        """Men and kings of one side."""
        if color == WHITE:
            return self.white_men, self.white_kings
        return self.black_men, self.black_kings

    def counts(self) -> Counts:
        """White men, white kings, black men, black kings."""
        return (
            self.white_men.bit_count(),
            self.white_kings.bit_count(),
            self.black_men.bit_count(),
            self.black_kings.bit_count(),
        )

    def digest(self) -> int:
        """A stable signed 64-bit hash of variant, pieces and side to move (for databases)."""
        return _core.digest(self)

    def hash_key(self) -> tuple[int, int, int, int, int]:
        """Everything that identifies the position for repetition."""
        return (self.white_men, self.white_kings, self.black_men, self.black_kings, self.turn)

    def play(self, move: Move) -> Position:
        """The position after *move* (the receiver is unchanged: keep it to unmake)."""
        return _core.play(self, move)

    def legal_moves(self, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
        """Every legal move; captures with the same start and end counted as *duplicates* says."""
        return _core.generate(self, duplicates)

    def _sides(self) -> tuple[int, int, int, int]:
        """Men and kings of the side to move, then of the other side."""
        if self.turn == WHITE:
            return self.white_men, self.white_kings, self.black_men, self.black_kings
        return self.black_men, self.black_kings, self.white_men, self.white_kings

    def captures(self, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
        """The captures the rules allow (precedence applied); empty when there is none."""
        return _core.captures(self, duplicates)

    def has_captures(self) -> bool:
        """Whether the side to move can capture: exactly ``bool(self.captures())``, decided
        without building a move (precedence only chooses among captures, never removes them all).
        """
        return _core.has_captures(self)

    def quiet_move(self, start: int, end: int) -> Move | None:
        """The non-capturing move from *start* to *end*, if the piece there may make it.

        Whether a capture is compulsory instead is for the caller to check (see captures()).
        """
        return _core.quiet_move(self, start, end)

    def moves_between(self, start: int, end: int) -> list[Move]:
        """The legal moves from *start* to *end*: what a move written ``a-b`` or ``axb`` can
        mean. The captures from start to end the rules allow (one per captured set, in generation
        order), then the quiet move, where there is one and capturing is not compulsory.
        """
        return _core.moves_between(self, start, end)

    def has_moves(self) -> bool:
        """Whether the side to move has any legal move."""
        return _core.has_moves(self)

    def with_turn(self, turn: int) -> Position:
        """The same pieces with another side to move."""
        return Position(
            self.variant,
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
            turn,
            self.geometry,
        )


@cache
def _start_position(variant: Variant) -> Position:
    return Position._initial(variant)


def _compiled() -> Kernel[Position] | None:
    """The C kernel, set up for these classes, or None when it was not built."""
    try:
        from pdn.rules import _kernel
    except ImportError:
        return None
    _kernel.setup(Move, Position, Duplicates.KEEP, Duplicates.PATHS, compiled_tables)
    return _kernel


_C = _compiled()
CORES: dict[str, Kernel[Position]] = {k.name: k for k in (_C, pykernel) if k is not None}
_core: Kernel[Position] = (
    pykernel if os.environ.get("PDN_CORE", "").lower() == "python" else _C or pykernel
)


def core() -> Kernel[Position]:
    """The kernel in use."""
    return _core


def use_core(name: str) -> Kernel[Position]:
    """Select the kernel by name ("c" or "python") and return the one it replaces."""
    global _core
    if name not in CORES:
        raise ValueError(f"no {name!r} core here; available: {', '.join(CORES)}")
    previous, _core = _core, CORES[name]
    return previous


def generate(pos: Position, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
    """Legal moves of *pos* under its variant's rules."""
    return _core.generate(pos, duplicates)


def count_moves(pos: Position, duplicates: Duplicates = Duplicates.DROP) -> int:
    """len(pos.legal_moves()), counting quiet moves without building them."""
    return _core.count_moves(pos, duplicates)


def perft(pos: Position, depth: int, duplicates: Duplicates = Duplicates.DROP) -> int:
    """Number of move sequences of length *depth* from *pos* (draw rules ignored).

    >>> from pdn.rules.variants import get_variant
    >>> english = Position.start(get_variant("english"))
    >>> [perft(english, depth) for depth in (1, 2, 3)]  # spec/perft.md: 7, 49, 302
    [7, 49, 302]
    """
    return _core.perft(pos, depth, duplicates)
