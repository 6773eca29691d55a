"""The built-in engine's evaluation: integers in hundredths of a man, per rule row.

Each side's value is a sum of named terms; the evaluation is the side to move's value less the
other side's, plus the tempo. Per-square terms live in tables built once per variant (below);
the C search (pdn/engine/_search.c: evaluate) reads the same tables and computes the same
integers, so both twins evaluate alike.

Terms (hundredths of a man):

- ``MAN``: a man, 100.
- a king (king_value), by the variant's kind of king: a flying king that may land anywhere
  behind its victim (International, Russian, Brazilian, pool, Spanish, ...) ``FLYING_KING``
  300; a flying king that must land directly behind (Thai) ``BEHIND_KING`` 250; a king that
  steps one square (English, Italian) ``SHORT_KING`` 150.
- ``ADVANCE_MID``, ``ADVANCE_END``: per row a man stands from its own first row, 2 while the
  board is full and 6 when it is empty, blended by the number of pieces left (the phase): men
  should hold back in the middle game and race to crown in the endgame.
- ``CENTRE``: a man on one of the middle half of the files, 4 (it controls more squares and
  cannot be pinned on the edge); middle game only.
- ``BACK_RANK``: a man still on its own first row, 6 (it guards the squares the other side
  crowns on); middle game only.
- ``BALANCE``: less 3 per man of difference between a side's men on the left and on the right
  half of the board (a side massed on one wing is outflanked on the other).
- a runaway man: a man no enemy piece can stop, while the enemy has no king: no enemy piece on
  the squares ahead of it within one file more than the rows ahead (its cone), at most
  ``RUNAWAY_ROWS`` rows from crowning: the king's surplus over a man, in fifths, by the rows
  left (one row left: four fifths).
- ``KING_CENTRE``: a king on one of the central squares (middle half of files and rows), 10.
- ``FLYING_MOBILITY``, ``SHORT_MOBILITY``: per empty square a king could move to, 1 for a
  flying king, 3 for a king that steps.
- ``DRAWISH``: a lead held by at most drawish_pieces() pieces (3 on boards of 10 files or
  more, 2 on smaller ones) against a side with a king is divided by 4 where kings fly and may
  land anywhere behind (not in Thai): far from enough to win, one king holds the long
  diagonal.
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
ADVANCE_MID = 2
ADVANCE_END = 6
CENTRE = 4
BACK_RANK = 6
BALANCE = 3
RUNAWAY_ROWS = 4
KING_CENTRE = 10
FLYING_MOBILITY = 1
SHORT_MOBILITY = 3
DRAWISH = 4
TEMPO = 2


def king_value(variant: Variant) -> int:
    """The value of a king in *variant*, hundredths of a man (see the king's term above)."""
    if not variant.flying_kings:
        return SHORT_KING
    return BEHIND_KING if variant.king_lands_behind else FLYING_KING


def drawish_pieces(variant: Variant) -> int:
    """At most how many pieces a lead against a king is drawish with (0: never)."""
    if not variant.flying_kings or variant.king_lands_behind:
        return 0
    return 3 if variant.width >= 10 else 2


@dataclass(frozen=True, slots=True)
class Tables:
    """The evaluation of one variant as data: per square (bit index, 0 off the board) and side
    (index WHITE, BLACK) a man's value in the middle game and in the endgame, a king's value,
    a runaway man's bonus and its cone; the two wings; the counts and weights."""

    men: tuple[tuple[int, ...], tuple[int, ...]]
    men_end: tuple[tuple[int, ...], tuple[int, ...]]
    kings: tuple[tuple[int, ...], tuple[int, ...]]
    runaway: tuple[tuple[int, ...], tuple[int, ...]]
    cones: tuple[tuple[int, ...], tuple[int, ...]]
    left: int
    right: int
    full: int  # pieces at the start: the phase runs from full to 0
    mobility: int
    drawish: int
    tempo: int

    def as_kernel(self) -> tuple[object, ...]:
        """The tables as the C search reads them."""
        return (
            *self.men,
            *self.men_end,
            *self.kings,
            *self.runaway,
            *self.cones,
            self.left,
            self.right,
            (self.full, BALANCE, self.mobility, self.drawish, DRAWISH, self.tempo),
        )


def _central(index: int, length: int) -> bool:
    """Whether file or row *index* lies in the middle half of *length*."""
    return length // 4 <= index < length - length // 4


def _cone(g: Geometry, f: int, r: int, color: int) -> int:
    """The squares ahead of a man of *color* on (f, r) within one file more than the rows."""
    forward = 1 if color == WHITE else -1
    return sum(
        1 << s
        for s, (f2, r2) in g.coords.items()
        if (r2 - r) * forward > 0 and abs(f2 - f) <= (r2 - r) * forward + 1
    )


@cache
def tables(variant: Variant) -> Tables:
    """The evaluation tables of *variant*."""
    g: Geometry = geometry(variant)
    king = king_value(variant)
    empty = [0] * g.size
    men, men_end, kings, runaway, cones = ([empty[:], empty[:]] for _ in range(5))
    for s, (f, r) in g.coords.items():
        for color in (WHITE, BLACK):
            row = r if color == WHITE else g.height - 1 - r  # rows from its own first row
            value = MAN + ADVANCE_MID * row
            if _central(f, g.width):
                value += CENTRE
            if row == variant.start_rank:
                value += BACK_RANK
            men[color][s] = value
            men_end[color][s] = MAN + ADVANCE_END * row
            left = g.height - 1 - row  # rows to crowning
            if 0 < left <= RUNAWAY_ROWS:
                runaway[color][s] = (king - MAN) * (RUNAWAY_ROWS + 1 - left) // (RUNAWAY_ROWS + 1)
                cones[color][s] = _cone(g, f, r, color)
            centre = _central(f, g.width) and _central(r, g.height)
            kings[color][s] = king + (KING_CENTRE if centre else 0)
    half = g.width // 2
    start = Position.start(variant)
    return Tables(
        (tuple(men[0]), tuple(men[1])),
        (tuple(men_end[0]), tuple(men_end[1])),
        (tuple(kings[0]), tuple(kings[1])),
        (tuple(runaway[0]), tuple(runaway[1])),
        (tuple(cones[0]), tuple(cones[1])),
        sum(1 << s for s, (f, _) in g.coords.items() if f < half),
        sum(1 << s for s, (f, _) in g.coords.items() if f >= g.width - half),
        start.occupied.bit_count(),
        FLYING_MOBILITY if variant.flying_kings else SHORT_MOBILITY,
        drawish_pieces(variant),
        TEMPO,
    )


def _mobility(g: Geometry, flying: bool, square: int, occupied: int) -> int:
    """The empty squares a king on *square* could move to."""
    n = 0
    for d in g.king_dirs:
        step = d.step
        t = step[square]
        while t >= 0 and not occupied >> t & 1:
            n += 1
            if not flying:
                break
            t = step[t]
    return n


def _side(pos: Position, t: Tables, color: int, enemy: int, enemy_kings: int, phase: int) -> int:
    """One side's value (*enemy*: every enemy piece; *phase*: the pieces left, at most full)."""
    men, kings = pos.pieces(color)
    mid = end = run = 0
    t_mid, t_end, t_run, t_cone = t.men[color], t.men_end[color], t.runaway[color], t.cones[color]
    board = men
    while board:
        low = board & -board
        s = low.bit_length() - 1
        board ^= low
        mid += t_mid[s]
        end += t_end[s]
        if t_run[s] and not enemy_kings and not t_cone[s] & enemy:
            run += t_run[s]
    value = (mid * phase + end * (t.full - phase)) // t.full + run
    value -= BALANCE * abs((men & t.left).bit_count() - (men & t.right).bit_count())
    occupied = pos.occupied
    flying = pos.variant.flying_kings
    t_king = t.kings[color]
    board = kings
    while board:
        low = board & -board
        s = low.bit_length() - 1
        board ^= low
        value += t_king[s] + t.mobility * _mobility(pos.geometry, flying, s, occupied)
    return value


def evaluate(pos: Position) -> int:
    """The position's value for the side to move, hundredths of a man."""
    t = tables(pos.variant)
    white_all = pos.white_men | pos.white_kings
    black_all = pos.black_men | pos.black_kings
    phase = min((white_all | black_all).bit_count(), t.full)
    diff = _side(pos, t, WHITE, black_all, pos.black_kings, phase) - _side(
        pos, t, BLACK, white_all, pos.white_kings, phase
    )
    if t.drawish:
        if diff > 0 and pos.black_kings and white_all.bit_count() <= t.drawish:
            diff //= DRAWISH
        elif diff < 0 and pos.white_kings and black_all.bit_count() <= t.drawish:
            diff = -(-diff // DRAWISH)
    return (diff if pos.turn == WHITE else -diff) + t.tempo
