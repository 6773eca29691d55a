"""The built-in engine's evaluation: integers in hundredths of a man, per rule row.

Every term is a value per piece and square, so the evaluation of a position is a sum over its
pieces of one table entry each (the tables below), seen from the side to move, plus the tempo.
The C search (pdn/engine/_search.c) reads the same tables, so both twins evaluate alike.

Terms (hundredths of a man):

- ``MAN``: a man, 100.
- ``KING``: a king, by the variant's kind of king: a flying king that may land anywhere behind
  its victim (International, Russian, Brazilian, pool, Spanish, ...) 300; a flying king that must
  land directly behind (Thai) 250; a king that steps one square (English, Italian) 150.
- ``ADVANCE``: per row a man stands from its own first row, 3 (a man nearer crowning is worth
  more: the draughts "tempo count" of a side, weighted).
- ``CENTRE``: a man on one of the middle half of the files, 4 (it controls more squares and
  cannot be pinned on the edge).
- ``BACK_RANK``: a man still on its own first row, 6 (it guards the squares the other side
  crowns on).
- ``KING_CENTRE``: a king on one of the central squares (middle half of files and rows), 10.
- ``TEMPO``: the side to move, 2 (the move in hand).
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

from pdn.rules.geometry import BLACK, WHITE, Geometry, geometry
from pdn.rules.position import Position
from pdn.rules.variants import Variant

MAN = 100
FLYING_KING = 300
BEHIND_KING = 250  # a flying king that lands directly behind its victim (Thai)
SHORT_KING = 150
ADVANCE = 3
CENTRE = 4
BACK_RANK = 6
KING_CENTRE = 10
TEMPO = 2


def king_value(variant: Variant) -> int:
    """The value of a king in *variant*, hundredths of a man (see ``KING`` above)."""
    if not variant.flying_kings:
        return SHORT_KING
    return BEHIND_KING if variant.king_lands_behind else FLYING_KING


@dataclass(frozen=True, slots=True)
class Tables:
    """Per square (bit index, 0 off the board), the value of a man and of a king of each side
    (index WHITE, BLACK), and the tempo."""

    men: tuple[tuple[int, ...], tuple[int, ...]]
    kings: tuple[tuple[int, ...], tuple[int, ...]]
    tempo: int

    def as_kernel(self) -> tuple[object, ...]:
        """The tables as the C search reads them."""
        return (self.men[WHITE], self.men[BLACK], self.kings[WHITE], self.kings[BLACK], self.tempo)


def _central(index: int, length: int) -> bool:
    """Whether file or row *index* lies in the middle half of *length*."""
    return length // 4 <= index < length - length // 4


@cache
def tables(variant: Variant) -> Tables:
    """The evaluation tables of *variant*."""
    g: Geometry = geometry(variant)
    king = king_value(variant)
    men: list[list[int]] = [[0] * g.size, [0] * g.size]
    kings: list[list[int]] = [[0] * g.size, [0] * g.size]
    for s, (f, r) in g.coords.items():
        for color in (WHITE, BLACK):
            row = r if color == WHITE else g.height - 1 - r  # rows from its own first row
            value = MAN + ADVANCE * row
            if _central(f, g.width):
                value += CENTRE
            if row == variant.start_rank:
                value += BACK_RANK
            men[color][s] = value
            centre = _central(f, g.width) and _central(r, g.height)
            kings[color][s] = king + (KING_CENTRE if centre else 0)
    return Tables((tuple(men[0]), tuple(men[1])), (tuple(kings[0]), tuple(kings[1])), TEMPO)


def _sum(board: int, table: tuple[int, ...]) -> int:
    total = 0
    while board:
        low = board & -board
        total += table[low.bit_length() - 1]
        board ^= low
    return total


def evaluate(pos: Position) -> int:
    """The position's value for the side to move, hundredths of a man."""
    t = tables(pos.variant)
    white = _sum(pos.white_men, t.men[WHITE]) + _sum(pos.white_kings, t.kings[WHITE])
    black = _sum(pos.black_men, t.men[BLACK]) + _sum(pos.black_kings, t.kings[BLACK])
    return (white - black if pos.turn == WHITE else black - white) + t.tempo
