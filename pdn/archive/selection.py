"""Material and pattern searches: the spec syntaxes, and matching them on positions.

Material (``--material``): men and kings per side, each count exact or a range::

    spec    := side ["," side]          W and B at most once each; a side not given: any material
    side    := ("W" | "B") ":" pieces
    pieces  := count                    men only, no king          "3"     3 men, no king
             | count "K" count          men, then kings            "3K1"   3 men and 1 king
             | "K" count | count "K"    kings only, no man         "K1", "1K"   1 king
    count   := N | N "-" M | N "+" | "*"    exactly N, N to M, N or more, any number

``W:3K1,B:1K``: White has 3 men and a king, Black a king alone. Letters are case-insensitive,
spaces are ignored. A game has the material when it stands in at least *plies* consecutive
positions of the main line (position 0 is the start, position i the one after ply i).

Pattern (``--pattern``): a FEN fragment, these squares hold these pieces, the others anything::

    pattern := [turn ":"] part (":" part)*
    turn    := "W" | "B" | "?"          the side to move (omitted or ?: either)
    part    := ("W" | "B" | "E") item ("," item)*     White's pieces, Black's, empty squares
    item    := ["K" | "*"] square ["-" square]        K: a king, *: man or king, else a man

``W:W28,K45:B12``: White to move, a white man on 28, a white king on 45, a black man on 12.
``E23-25`` asks for empty squares. Squares are written as the variant writes them (numbers, or
a1-style names), so a pattern means the squares of each game's own variant.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from functools import cache, lru_cache
from itertools import combinations

from pdn.rules.geometry import BLACK, WHITE, Geometry, SquareError, geometry
from pdn.rules.position import Counts, Position, core
from pdn.rules.variants import Variant


class SpecError(ValueError):
    """A material or pattern spec that cannot be read."""


# -- material --------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Count:
    """A number of pieces asked for: *low* to *high* (None: no upper bound)."""

    low: int = 0
    high: int | None = None

    def __contains__(self, n: object) -> bool:
        return isinstance(n, int) and self.low <= n and (self.high is None or n <= self.high)

    @property
    def any(self) -> bool:
        """Whether every number fits."""
        return self.low == 0 and self.high is None

    def __str__(self) -> str:
        if self.any:
            return "*"
        if self.high is None:
            return f"{self.low}+"
        return str(self.low) if self.low == self.high else f"{self.low}-{self.high}"


ANY = Count()
NONE = Count(0, 0)


@dataclass(frozen=True, slots=True)
class Material:
    """Men and kings asked for on each side."""

    white_men: Count = ANY
    white_kings: Count = ANY
    black_men: Count = ANY
    black_kings: Count = ANY

    def matches(self, counts: Counts) -> bool:
        """Whether a position with these counts has the material."""
        wm, wk, bm, bk = counts
        return (
            wm in self.white_men
            and wk in self.white_kings
            and bm in self.black_men
            and bk in self.black_kings
        )

    def check(self, variant: Variant) -> None:
        """Raise SpecError when a side is asked for more pieces than it has at the start of
        *variant* (a spec no game can meet is a usage error, not "no games")."""
        most = variant.men_rows * variant.width // (1 if variant.orthogonal else 2)
        for letter, men, kings in (
            ("W", self.white_men, self.white_kings),
            ("B", self.black_men, self.black_kings),
        ):
            if men.low + kings.low > most:
                raise SpecError(
                    f"the material {self}: {letter} would need {men.low + kings.low} pieces, "
                    f"and a side has {most} in {variant.name}"
                )

    @property
    def counts(self) -> tuple[Count, Count, Count, Count]:
        """The four counts in Counts order."""
        return (self.white_men, self.white_kings, self.black_men, self.black_kings)

    def __str__(self) -> str:
        def side(letter: str, men: Count, kings: Count) -> str:
            return f"{letter}:{men}K{kings}"

        return (
            f"{side('W', self.white_men, self.white_kings)},"
            f"{side('B', self.black_men, self.black_kings)}"
        )


_COUNT = r"\d+(?:-\d+|\+)?|\*"
_PIECES = re.compile(
    rf"(?P<men>{_COUNT})K(?P<kings>{_COUNT})|K(?P<k1>{_COUNT})|(?P<k2>{_COUNT})K|(?P<m1>{_COUNT})"
)


def _count(text: str) -> Count:
    if text == "*":
        return ANY
    if text.endswith("+"):
        return Count(int(text[:-1]))
    low, _, high = text.partition("-")
    count = Count(int(low), int(high or low))
    if count.high is not None and count.high < count.low:
        raise SpecError(f"the range {text} runs backwards")
    return count


def parse_material(text: str) -> Material:
    """Read a material spec (see the module docstring); raises SpecError."""
    spec = re.sub(r"\s+", "", text).upper()
    if not spec:
        raise SpecError("an empty material spec")
    sides: dict[str, tuple[Count, Count]] = {}
    for part in spec.split(","):
        letter, colon, pieces = part.partition(":")
        if not colon or letter not in ("W", "B"):
            raise SpecError(f"{part!r} in {text!r}: a side starts with W: or B:")
        if letter in sides:
            raise SpecError(f"{text!r} gives side {letter} twice")
        m = _PIECES.fullmatch(pieces)
        if m is None:
            raise SpecError(
                f"{part!r} in {text!r}: write men and kings as 3 (3 men), 3K1 (3 men and a "
                "king) or K1 (a king); counts as 2, 2-4, 2+ or *"
            )
        if m["men"] is not None:
            sides[letter] = (_count(m["men"]), _count(m["kings"]))
        elif m["m1"] is not None:
            sides[letter] = (_count(m["m1"]), NONE)
        else:
            sides[letter] = (NONE, _count(m["k1"] or m["k2"]))
    white = sides.get("W", (ANY, ANY))
    black = sides.get("B", (ANY, ANY))
    return Material(white[0], white[1], black[0], black[1])


@dataclass(frozen=True, slots=True)
class MaterialRun:
    """Consecutive positions of a game with the same material: positions *first* to
    *first* + *length* - 1 (position 0 is the start, position i the one after ply i)."""

    first: int
    length: int
    counts: Counts


def material_runs(positions: Sequence[Position]) -> list[MaterialRun]:
    """The positions of a game cut into runs of equal material, in order."""
    runs = core().scan(positions, 0, False)[2]
    return [MaterialRun(first, length, counts) for first, length, counts in runs]


def longest_stand(runs: Sequence[MaterialRun], material: Material) -> int:
    """The most consecutive positions in which the material stands."""
    best = current = 0
    for run in runs:
        current = current + run.length if material.matches(run.counts) else 0
        best = max(best, current)
    return best


def has_material(runs: Sequence[MaterialRun], material: Material, plies: int = 1) -> bool:
    """Whether the material stands in at least *plies* consecutive positions."""
    return longest_stand(runs, material) >= max(plies, 1)


# -- patterns --------------------------------------------------------------------------------------

_KINDS = {"": "men", "K": "kings", "*": "pieces"}


@dataclass(frozen=True, slots=True)
class Pattern:
    """A pattern as written: the side to move and (colour, kind, square) items."""

    text: str
    turn: int | None  # WHITE, BLACK or None (either)
    items: tuple[tuple[str, str, str], ...]  # colour W/B/E, kind men/kings/pieces, square

    def compile(self, variant: Variant) -> Masks | None:
        """The pattern on *variant*'s board (None when a square is not on it, or when it asks
        for two things on one square there: a number and a name may be one square, as 29 and
        a1 are on the English board; no position of that board fits it)."""
        try:
            return _compile(self, variant)
        except SpecError:
            return None

    def check(self, variant: Variant | None, variants: Iterable[Variant] = ()) -> None:
        """Raise SpecError for a square not on *variant*'s board or two things asked of one
        square there, or, without a variant, for a pattern that fits none of *variants*'
        boards (a usage error, not "no games")."""
        if variant is None:
            if any(self.compile(v) is not None for v in variants):
                return
            raise SpecError(f"the pattern {self.text!r} fits the board of no variant")
        off = _squares_on(self, geometry(variant))
        if off is not None:
            raise SpecError(f"the pattern {self.text!r}: square {off} is not on the "
                            f"{variant.name} board")  # fmt: skip
        _compile(self, variant)  # two things on one square: its SpecError


@dataclass(frozen=True, slots=True)
class Masks:
    """A pattern as bitboards: squares that must hold white men, white kings, white pieces of
    either kind, the same for black, and squares that must be empty."""

    white_men: int = 0
    white_kings: int = 0
    white_pieces: int = 0
    black_men: int = 0
    black_kings: int = 0
    black_pieces: int = 0
    empty: int = 0
    turn: int | None = None

    def matches(self, pos: Position) -> bool:
        """Whether *pos* fits the pattern."""
        return self.fits(pos.white_men, pos.white_kings, pos.black_men, pos.black_kings, pos.turn)

    def fits(self, wm: int, wk: int, bm: int, bk: int, turn: int) -> bool:
        """Whether pieces given as bitboards (in the masks' own layout) fit the pattern."""
        return (
            (self.turn is None or turn == self.turn)
            and wm & self.white_men == self.white_men
            and wk & self.white_kings == self.white_kings
            and (wm | wk) & self.white_pieces == self.white_pieces
            and bm & self.black_men == self.black_men
            and bk & self.black_kings == self.black_kings
            and (bm | bk) & self.black_pieces == self.black_pieces
            and not (wm | wk | bm | bk) & self.empty
        )


_ITEM = re.compile(r"(?P<kind>[K*]?)(?P<a>[A-L]?\d+)(?:-(?P<b>[A-L]?\d+))?")


def parse_pattern(text: str) -> Pattern:
    """Read a pattern (see the module docstring); raises SpecError. Squares are checked against
    a board only when the pattern is compiled for a variant."""
    spec = re.sub(r"\s+", "", text).upper().strip(".")
    parts = [p for p in spec.split(":")]
    turn: int | None = None
    if parts and parts[0] in ("W", "B", "?"):
        turn = {"W": WHITE, "B": BLACK, "?": None}[parts[0]]
        parts = parts[1:]
    items: list[tuple[str, str, str]] = []
    for part in parts:
        if not part:
            continue
        colour, body = part[0], part[1:]
        if colour not in "WBE" or not body:
            raise SpecError(
                f"{part!r} in {text!r}: each part is W, B or E followed by squares (W28,K45)"
            )
        for item in body.split(","):
            m = _ITEM.fullmatch(item)
            if m is None or (colour == "E" and m["kind"]):
                raise SpecError(f"{item!r} in {text!r} is not a square (28, K45, *12, 31-35)")
            kind = "empty" if colour == "E" else _KINDS[m["kind"]]
            first, last = m["a"].lower(), (m["b"] or m["a"]).lower()
            if first.isdigit() != last.isdigit():
                raise SpecError(f"{item!r} in {text!r} mixes numbers and names")
            if first.isdigit():
                if int(last) < int(first):
                    raise SpecError(f"the range {item} in {text!r} runs backwards")
                squares = [str(n) for n in range(int(first), int(last) + 1)]
            elif m["b"]:
                raise SpecError(f"{item!r} in {text!r}: ranges are for numbered squares")
            else:
                squares = [first]
            items.extend((colour, kind, s) for s in squares)
    if not items:
        raise SpecError(f"the pattern {text!r} names no square")
    return Pattern(text, turn, tuple(items))


@cache
def _squares_on(pattern: Pattern, g: Geometry) -> str | None:
    """The first square of *pattern* that board *g* does not have (None: it has them all)."""
    for _, _, square in pattern.items:
        try:
            g.parse_square(square)
        except SquareError:
            return square
    return None


@lru_cache(maxsize=256)
def _compile(pattern: Pattern, variant: Variant) -> Masks | None:
    g = geometry(variant)
    masks = dict.fromkeys(
        ("white_men", "white_kings", "white_pieces", "black_men", "black_kings", "black_pieces",
         "empty"), 0,
    )  # fmt: skip
    for colour, kind, square in pattern.items:
        try:
            bit = 1 << g.parse_square(square)
        except SquareError:
            return None
        key = "empty" if colour == "E" else f"{'white' if colour == 'W' else 'black'}_{kind}"
        masks[key] |= bit
    for (a, mask), (b, other) in combinations(masks.items(), 2):
        if mask & other and (a, b) not in _ONE_PIECE:
            raise SpecError(f"the pattern {pattern.text!r} asks for two things on one square")
    return Masks(**masks, turn=pattern.turn)


# what one piece can be at once: a man (or a king) of a side is a piece of that side
_ONE_PIECE = {("white_men", "white_pieces"), ("white_kings", "white_pieces"),
              ("black_men", "black_pieces"), ("black_kings", "black_pieces")}  # fmt: skip


def reaches_pattern(positions: Iterable[Position], pattern: Pattern) -> bool:
    """Whether some position fits the pattern (on its own variant's board)."""
    for pos in positions:
        masks = pattern.compile(pos.variant)
        if masks is None:
            return False
        if masks.matches(pos):
            return True
    return False
