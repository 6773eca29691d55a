"""FEN in and out (spec/pdn.md §4): numeric with ranges, algebraic, and forms seen in practice."""

from __future__ import annotations

import re
from functools import cache, lru_cache

from pdn.rules.geometry import Color, Geometry, SquareError, geometry
from pdn.rules.position import Position
from pdn.rules.variants import Notation, Variant


class FenError(ValueError):
    """A FEN string that cannot be read; *column* is 1-based within the string."""

    def __init__(self, message: str, fen: str, column: int) -> None:
        super().__init__(f"{message} at column {column} of FEN {fen!r}")
        self.reason = message
        self.fen = fen
        self.column = column


_EXTRA_FIELD = re.compile(r"^(?:H\d+|F\d+|\+\d+\+\d+)$")  # lidraughts counters


def parse_fen(fen: str, variant: Variant) -> Position:
    """Read a FEN string into a position of *variant*.

    >>> from pdn.rules.position import Position
    >>> from pdn.rules.variants import get_variant
    >>> international = get_variant("international")
    >>> parse_fen("W:W31-50:B1-20", international) == Position.start(international)
    True
    >>> to_fen(parse_fen("W:WK47:B14,19,29,31,42", international))  # spec/perft.md
    'W:WK47:B14,19,29,31,42'
    """
    g = geometry(variant)
    text = fen.strip().strip('"').strip()
    if text.endswith("."):
        text = text[:-1].rstrip()
    if not text:
        raise FenError("empty FEN", fen, 1)
    side = text[0].upper()
    if side not in "WB?":
        raise FenError(f"side to move must be W, B or ?, not {text[0]!r}", fen, 1)
    turn = Color.of(variant.first if side == "?" else side).value
    men = [0, 0]
    kings = [0, 0]
    col = 2
    for field in text[1:].split(":")[1:] if ":" in text else []:
        start = col
        col += len(field) + 1
        f = field.strip()
        if not f or _EXTRA_FIELD.match(f):
            continue
        colour = f[0].upper()
        if colour not in "WB":
            raise FenError(f"a side must start with W or B, not {f[0]!r}", fen, start)
        c = Color.of(colour).value
        offset = start + 1
        for item in f[1:].split(","):
            _put(item, g, c, men, kings, fen, offset)
            offset += len(item) + 1
    if men[0] & men[1] or (men[0] | kings[0]) & (men[1] | kings[1]) or men[0] & kings[0]:
        raise FenError("a square holds two pieces", fen, 2)
    if text[1:2] not in (":", ""):
        raise FenError("expected ':' after the side to move", fen, 2)
    return Position(variant, men[0], kings[0], men[1], kings[1], turn)


def _put(
    item: str, g: Geometry, c: int, men: list[int], kings: list[int], fen: str, column: int
) -> None:
    """Add the pieces of one FEN item (``K12``, ``31-50``, ``a1``) to side *c*."""
    s = item.strip()
    if not s:
        return
    king = s[0] in "Kk"
    if king:
        s = s[1:].strip()
    try:
        if "-" in s:
            lo_text, hi_text = s.split("-", 1)
            lo, hi = int(lo_text), int(hi_text)
            squares = [g.parse_square(str(n)) for n in range(lo, hi + 1)]
        else:
            squares = [g.parse_square(s)]
    except SquareError as exc:
        raise FenError(str(exc), fen, column) from None
    except ValueError:
        raise FenError(f"bad square range {item!r}", fen, column) from None
    taken = men[0] | men[1] | kings[0] | kings[1]
    for sq in squares:
        if taken >> sq & 1:  # given twice (W1,1), as a square of both sides (W1:B1) is
            raise FenError("a square holds two pieces", fen, column)
        taken |= 1 << sq
        if king:
            kings[c] |= 1 << sq
        else:
            men[c] |= 1 << sq


@cache
def _sorted_labels(g: Geometry, notation: Notation) -> tuple[tuple[int | str, str], ...]:
    """Per square index, the key a FEN sorts its square by (its number, or its algebraic name)
    and its label in *notation* (no key and no label off the board)."""
    numeric = notation is Notation.NUMERIC
    return tuple(
        ((g.number(s) if numeric else g.algebraic(s)), g.label(s, notation))
        if s in g.coords
        else (0, "")
        for s in range(g.size)
    )


def to_fen(pos: Position, notation: Notation | None = None) -> str:
    """The position as PDN 3.0 FEN: side to move, White's pieces, Black's, ascending squares.

    >>> from pdn.rules.variants import get_variant
    >>> english = get_variant("english")  # spec/pdn.md §4.1's example, its squares sorted
    >>> to_fen(parse_fen("B:W18,24,27,28,K10,K15:B12,16,20,K22,K25,K29", english))
    'B:WK10,K15,18,24,27,28:B12,16,20,K22,K25,K29'
    """
    g, notation = pos.geometry, notation or pos.variant.notation
    white = _pieces(g, notation, pos.white_men, pos.white_kings)
    black = _pieces(g, notation, pos.black_men, pos.black_kings)
    return f"{_TURNS[pos.turn]}:W{white}:B{black}"


_TURNS = {c.value: c.letter for c in Color}  # the side to move as a FEN writes it


@lru_cache(maxsize=4096)  # one side's pieces stand while the other moves: half the calls hit
def _pieces(g: Geometry, notation: Notation, men: int, kings: int) -> str:
    """A side's men and kings as a FEN lists them: by square, kings marked K."""
    labels = _sorted_labels(g, notation)
    items = []
    pieces = men | kings
    while pieces:
        low = pieces & -pieces
        key, label = labels[low.bit_length() - 1]
        items.append((key, "K" + label if kings & low else label))
        pieces ^= low
    items.sort()  # (each square's key is its own)
    return ",".join(label for _, label in items)
