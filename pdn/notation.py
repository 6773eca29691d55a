"""Moves written as text (spec/pdn.md §5): short, full and PDN 3.0 disambiguated forms, and the
legal moves a written move can mean."""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from enum import StrEnum

from pdn.rules.geometry import Geometry, SquareError
from pdn.rules.move import Duplicates, Move, pdn_path
from pdn.rules.position import Position
from pdn.rules.variants import Notation


class MoveForm(StrEnum):
    """How much of a capture's path to write."""

    SHORT = "short"  # PDN 3.0: short, long only where two legal moves share start and end
    FULL = "full"  # every landing square


def move_text(
    pos: Position,
    move: Move,
    form: MoveForm = MoveForm.SHORT,
    notation: Notation | None = None,
    separator: str | None = None,
    legal: list[Move] | None = None,
) -> str:
    """Write *move*, played in *pos*, in the form asked for."""
    g = pos.geometry
    v = pos.variant
    if not move.captured:
        return f"{g.label(move.start, notation)}-{g.label(move.end, notation)}"
    sep = separator or v.separator
    if form is MoveForm.FULL:
        squares = list(move.path)
    else:
        moves = legal if legal is not None else pos.legal_moves()
        rivals = [
            m for m in moves if m.start == move.start and m.end == move.end and m.key != move.key
        ]
        squares = pdn_path(g, move) if rivals else [move.start, move.end]
    return sep.join(g.label(s, notation) for s in squares)


# -- written text to moves -------------------------------------------------------------------


def written_moves(pos: Position, squares: Sequence[str]) -> list[Move]:
    """The legal moves of *pos* a move written with *squares* can mean, one per position they
    reach (empty when none fits); raises SquareError for a square the board does not have.

    - ``a-b`` or ``axb``: the moves from a to b (Position.moves_between);
    - Russian short ``ed4``: the moves from file e to d4;
    - squares written between the first and the last: a capture whose path lands on exactly those
      squares, in that order (whichever order the rules let the pieces be taken in); failing that,
      the PDN 3.0 forms: in order, squares directly behind a piece taken or landing squares;
      failing that, any squares the piece passes.

    Where several capture paths reach the same position, the one written in full is returned,
    else the first the generator finds (the one ``Duplicates.DROP`` keeps).
    """
    n = len(squares)
    if n != 2:
        return _written_path(pos, squares) if n > 2 else []
    first, last = squares
    g = pos.geometry
    if len(first) == 1 and first.isalpha():  # Russian short: origin file, destination square
        file = ord(first) - 97
        end = g.parse_square(last)
        legal = pos.legal_moves()
        return [m for m in legal if g.coords[m.path[0]][0] == file and m.path[-1] == end]
    return pos.moves_between(g.parse_square(first), g.parse_square(last))


def _written_path(pos: Position, squares: Sequence[str]) -> list[Move]:
    """written_moves() of a move written with squares between its first and last."""
    g = pos.geometry
    cells = tuple(g.parse_square(s) for s in squares)
    start, end = cells[0], cells[-1]
    captures = pos.captures(Duplicates.PATHS)
    pool = [m for m in captures if m.path[0] == start and m.path[-1] == end]
    if not captures or pos.variant.capture_optional:
        quiet = pos.quiet_move(start, end)
        if quiet is not None:
            pool.append(quiet)
    exact = [m for m in pool if m.path == cells]
    if exact:
        return exact
    middle = list(cells[1:-1])
    found = [m for m in pool if m.captured and _is_subsequence(middle, _key_squares(g, m)[:-1])]
    if not found:
        found = [m for m in pool if _is_subsequence(middle, _traversed(g, m)[:-1])]
    seen: set[tuple[int, int, int]] = set()
    unique = []
    for m in found:
        if m.key not in seen:
            seen.add(m.key)
            unique.append(m)
    return unique


def _key_squares(g: Geometry, move: Move) -> list[int]:
    """The squares a capture path may be written with: per jump, the square behind the piece
    taken (PDN 3.0 writes it when the direction does not change) and the landing square."""
    out: list[int] = []
    for i, (a, b) in enumerate(itertools.pairwise(move.path)):
        df, dr = g.direction_between(a, b)
        f, r = g.coords[move.captured[i]]
        out.append((r + dr) * g.stride + f + df)
        out.append(b)
    return out


def _traversed(g: Geometry, move: Move) -> list[int]:
    """Every square the moving piece passes over or lands on, in order (start excluded)."""
    out: list[int] = []
    for a, b in itertools.pairwise(move.path):
        out.extend(s for s in g.between(a, b) if s not in move.captured)
        out.append(b)
    return out


def _is_subsequence(needle: list[int], haystack: list[int]) -> bool:
    it = iter(haystack)
    return all(any(x == y for y in it) for x in needle)


def legal_texts(pos: Position, moves: list[Move], full: bool = False) -> list[str]:
    """*moves* written for a report, sorted: PDN 3.0 short forms, or with *full* every landing
    square (the list shown after a move that was written in full)."""
    if full:
        return sorted(move_text(pos, m, MoveForm.FULL) for m in moves)
    return sorted(move_text(pos, m, MoveForm.SHORT, legal=moves) for m in moves)


# -- moves that print as PDN -----------------------------------------------------------------


class NamedMove(Move):
    """A legal move of a board that prints as its PDN text: ``str(move)`` is ``9-13``,
    ``c3-d4`` in an algebraic variant, a capture short unless another legal capture shares its
    start and end (then the PDN 3.0 long form, as :func:`move_text` writes it).

    The kernel's :class:`Move` stays a plain tuple, made by the million in search and perft;
    only :attr:`pdn.board.Board.legal_moves` makes these, once per move handed to a user. A
    tuple subclass cannot have slots of its own, so each carries a small dict: its board's
    geometry (shared, which names the squares) and whether it needs the long form, decided
    from the other legal moves when it is made. It equals, hashes and plays as its Move."""

    def __str__(self) -> str:
        g: Geometry = self.__dict__["geometry"]
        if not self.captured:
            return f"{g.label(self.path[0])}-{g.label(self.path[-1])}"
        squares = pdn_path(g, self) if self.__dict__["long"] else [self.path[0], self.path[-1]]
        return g.variant.separator.join(g.label(s) for s in squares)


def named_moves(pos: Position, moves: list[Move]) -> list[Move]:
    """*moves*, legal in *pos*, as :class:`NamedMove` s."""
    ends: dict[tuple[int, int], set[int]] = {}
    for m in moves:
        if m.captured:
            ends.setdefault((m.path[0], m.path[-1]), set()).add(m.captured_mask)
    g = pos.geometry
    out: list[Move] = []
    for m in moves:
        named = tuple.__new__(NamedMove, m)  # the fields as they are, without NamedTuple's checks
        named.__dict__.update(geometry=g, long=m.captured and len(ends[m.path[0], m.path[-1]]) > 1)
        out.append(named)
    return out


def illegal_reason(pos: Position, squares: Sequence[str], moves: list[Move]) -> str:
    """Why no legal move fits a move written with *squares*, *moves* being
    the legal moves: a capture is compulsory (spec/rules.md §1, "capture obligation": in every
    variant), the start holds no piece of the side to move, the end is taken; else only
    "illegal move"."""
    g = pos.geometry
    if not squares:  # a word that names no square ("zzz", "--")
        return "illegal move: no square written"
    try:
        start, end = g.parse_square(squares[0]), g.parse_square(squares[-1])
    except SquareError:  # a short form (Russian "fe3" names a file): nothing more to say
        return "illegal move"
    men, kings = pos.pieces(pos.turn)
    if moves and all(m.captured for m in moves) and not any(m.start == start for m in moves):
        return "illegal move: a capture is compulsory"
    if not (men | kings) >> start & 1:
        side = "White" if pos.turn == 0 else "Black"
        return f"illegal move: no {side} piece on {g.label(start)}"
    taken = pos.white_men | pos.white_kings | pos.black_men | pos.black_kings
    if start != end and taken >> end & 1:
        return f"illegal move: {g.label(end)} is taken"
    return "illegal move"
