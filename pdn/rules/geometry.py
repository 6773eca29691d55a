"""Board geometry and square notation per variant (spec/pdn.md §6).

Squares are bits of a Python int laid out row by row from a1, with ghost columns on the right
so that a shift by a direction's offset never wraps onto a playing square.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import IntEnum
from functools import cache

from pdn.rules.variants import Notation, Numbering, Variant

Vector = tuple[int, int]

DIAGONALS: tuple[Vector, ...] = ((1, 1), (-1, 1), (1, -1), (-1, -1))
ORTHOGONALS: tuple[Vector, ...] = ((0, 1), (1, 0), (-1, 0), (0, -1))
FRISIAN_ORTHOGONALS: tuple[Vector, ...] = ((0, 2), (2, 0), (-2, 0), (0, -2))


class Color(IntEnum):
    """A side: White or Black (the integer a position's turn holds)."""

    WHITE = 0
    BLACK = 1

    @property
    def letter(self) -> str:
        """``W`` or ``B``, as FEN and the ``first`` of a variant write it."""
        return "W" if self is Color.WHITE else "B"

    @property
    def other(self) -> Color:
        """The opponent."""
        return Color.BLACK if self is Color.WHITE else Color.WHITE

    @classmethod
    def of(cls, side: int | str) -> Color:
        """The side of a turn (0 or 1) or a letter (``W``/``B``, any case)."""
        if isinstance(side, str):
            return cls.BLACK if side.upper() == "B" else cls.WHITE
        return cls(side)

    def __str__(self) -> str:
        return self.name.capitalize()


# A position's turn holds the plain integer of its Color (as the kernel and the digest read it).
WHITE = Color.WHITE.value
BLACK = Color.BLACK.value

_ALGEBRAIC_RE = re.compile(r"^([a-z])(\d{1,2})$")


class SquareError(ValueError):
    """A square written in a form the board does not know."""


@dataclass(frozen=True, slots=True)
class Direction:
    """One direction of travel with its table of next squares and rays."""

    vector: Vector
    reverse: Vector  # the opposite direction
    offset: int
    step: tuple[int, ...]  # next square from each bit index, or -1
    rays: tuple[tuple[int, ...], ...]  # every square along the direction from each bit index


class Geometry:
    """Squares, directions and notation of one variant's board."""

    __slots__ = (
        "_by_number",
        "_names",
        "_number",
        "coords",
        "crown_rows",
        "height",
        "king_capture_dirs",
        "king_dirs",
        "man_capture_dirs",
        "man_dirs",
        "man_jump_offsets",
        "man_step_offsets",
        "mask",
        "size",
        "squares",
        "stride",
        "variant",
        "width",
    )

    def __init__(self, variant: Variant) -> None:
        self.variant = variant
        w, h = variant.width, variant.height
        ghosts = 2 if variant.frisian_orthogonal_captures else 1
        self.width, self.height, self.stride = w, h, w + ghosts
        self.size = h * self.stride
        self.coords: dict[int, Vector] = {}
        for r in range(h):
            for f in range(w):
                if variant.orthogonal or (f + r) % 2 == int(variant.light_squares):
                    self.coords[r * self.stride + f] = (f, r)
        self.squares = tuple(sorted(self.coords))
        self.mask = sum(1 << s for s in self.squares)
        self.crown_rows = (
            sum(1 << s for s, (_, r) in self.coords.items() if r == h - 1),
            sum(1 << s for s, (_, r) in self.coords.items() if r == 0),
        )
        vectors = set(ORTHOGONALS if variant.orthogonal else DIAGONALS)
        if variant.frisian_orthogonal_captures:
            vectors |= set(FRISIAN_ORTHOGONALS)
        dirs = {v: self._direction(v) for v in sorted(vectors)}
        base = ORTHOGONALS if variant.orthogonal else DIAGONALS
        capture = base + (FRISIAN_ORTHOGONALS if variant.frisian_orthogonal_captures else ())
        self.king_dirs = tuple(dirs[v] for v in base)
        self.king_capture_dirs = tuple(dirs[v] for v in capture)
        self.man_dirs = (self._forward(dirs, base, 1), self._forward(dirs, base, -1))
        if variant.men_capture_backwards:
            self.man_capture_dirs = (self.king_capture_dirs, self.king_capture_dirs)
        else:
            self.man_capture_dirs = (
                self._forward(dirs, capture, 1),
                self._forward(dirs, capture, -1),
            )
        self.man_step_offsets = tuple(tuple(d.offset for d in ds) for ds in self.man_dirs)
        self.man_jump_offsets = tuple(tuple(d.offset for d in ds) for ds in self.man_capture_dirs)
        self._number, self._by_number = self._numbering()
        self._names: dict[str, int] = {str(n): s for n, s in self._by_number.items()}
        for s in self.squares:
            name = self.algebraic(s)
            self._names[name] = self._names[name.upper()] = s

    @staticmethod
    def _forward(
        dirs: dict[Vector, Direction], vectors: tuple[Vector, ...], sign: int
    ) -> tuple[Direction, ...]:
        """Directions that do not go backwards for the side whose forward is *sign*."""
        return tuple(dirs[v] for v in vectors if v[1] * sign >= 0)

    def _direction(self, vector: Vector) -> Direction:
        df, dr = vector
        step = [-1] * self.size
        rays: list[tuple[int, ...]] = [()] * self.size
        for s, (f, r) in self.coords.items():
            ray = []
            nf, nr = f + df, r + dr
            while 0 <= nf < self.width and 0 <= nr < self.height:
                ray.append(nr * self.stride + nf)
                nf, nr = nf + df, nr + dr
            rays[s] = tuple(ray)
            step[s] = ray[0] if ray else -1
        return Direction(vector, (-df, -dr), dr * self.stride + df, tuple(step), tuple(rays))

    def _numbering(self) -> tuple[dict[int, int], dict[int, int]]:
        """Map bit index to square number and back, for the variant's numbering."""
        v = self.variant
        half = self.width if v.orthogonal else self.width // 2
        numbering = Numbering.ROWS if v.orthogonal else v.numbering
        number: dict[int, int] = {}
        for n in range(1, len(self.squares) + 1):
            k = n - 1
            row, p = divmod(k, half)
            if numbering is Numbering.ROWS:
                f, rank = p, self.height - 1 - row
            elif numbering is Numbering.TOP_LEFT:
                rank = self.height - 1 - row  # 0-based
                f = 2 * p + (1 if (rank + 1) % 2 == 0 else 0)
            elif numbering is Numbering.ITALIAN:
                rank = self.height - 1 - row
                f = 2 * p + (1 if (rank + 1) % 2 == 1 else 0)
            elif numbering is Numbering.SPANISH:
                rank = row
                f = self.width - 1 - 2 * p - (1 if (rank + 1) % 2 == 0 else 0)
            else:  # THAI
                rank = row
                f = self.width - 1 - 2 * p - (1 if row % 2 == 0 else 0)
            number[rank * self.stride + f] = n
        return number, {n: s for s, n in number.items()}

    # -- notation -------------------------------------------------------------------------

    def number(self, square: int) -> int:
        """The square's number in the variant's numbering."""
        return self._number[square]

    def algebraic(self, square: int) -> str:
        """The square's chess-like name, a1 at White's bottom left."""
        f, r = self.coords[square]
        return f"{chr(97 + f)}{r + 1}"

    def label(self, square: int, notation: Notation | None = None) -> str:
        """The square as the variant writes it (or in the notation asked for)."""
        notation = notation or self.variant.notation
        if notation is Notation.ALGEBRAIC:
            return self.algebraic(square)
        return str(self._number[square])

    def parse_square(self, text: str) -> int:
        """The bit index of a square written as a number or an algebraic name."""
        found = self._names.get(text)
        if found is not None:
            return found
        t = text.strip().lower()
        if t.isdigit():
            n = int(t)
            if n not in self._by_number:
                raise SquareError(
                    f"square {text!r} is not on the {self.variant.name} board "
                    f"(1-{len(self.squares)})"
                )
            return self._by_number[n]
        m = _ALGEBRAIC_RE.match(t)
        if m:
            f, r = ord(m.group(1)) - 97, int(m.group(2)) - 1
            s = r * self.stride + f
            if 0 <= f < self.width and 0 <= r < self.height and s in self.coords:
                return s
            raise SquareError(f"square {text!r} is not a playing square of {self.variant.name}")
        raise SquareError(f"{text!r} is not a square")

    def direction_between(self, a: int, b: int) -> Vector:
        """The board's step vector from *a* towards *b* (on one line).

        Orthogonal steps on a diagonal board (Frisian) skip the light square between.
        """
        fa, ra = self.coords[a]
        fb, rb = self.coords[b]
        df, dr = fb - fa, rb - ra
        vec = ((df > 0) - (df < 0), (dr > 0) - (dr < 0))
        if not self.variant.orthogonal and 0 in vec:
            vec = (2 * vec[0], 2 * vec[1])
        return vec

    def between(self, a: int, b: int) -> list[int]:
        """The squares strictly between *a* and *b* on their common line."""
        vec = self.direction_between(a, b)
        fa, ra = self.coords[a]
        fb, rb = self.coords[b]
        out = []
        f, r = fa + vec[0], ra + vec[1]
        while (f, r) != (fb, rb) and 0 <= f < self.width and 0 <= r < self.height:
            s = r * self.stride + f
            if s in self.coords:
                out.append(s)
            f, r = f + vec[0], r + vec[1]
        return out


@cache
def geometry(variant: Variant) -> Geometry:
    """The (cached) geometry of a variant."""
    return Geometry(variant)
