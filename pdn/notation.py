"""Moves written as text (spec/pdn.md §5): short, full and PDN 3.0 disambiguated forms."""

from __future__ import annotations

from enum import StrEnum

from pdn.board import Geometry
from pdn.position import Move, Position
from pdn.variants import Notation


class MoveForm(StrEnum):
    """How much of a capture's path to write."""

    SHORT = "short"  # PDN 3.0: short, long only where two legal moves share start and end
    FULL = "full"  # every landing square


def pdn_path(g: Geometry, move: Move) -> list[int]:
    """The squares PDN 3.0 writes for a capture: the turning squares, else the square behind."""
    path = move.path
    out = [path[0]]
    for i in range(1, len(path) - 1):
        here = g.direction_between(path[i - 1], path[i])
        nxt = g.direction_between(path[i], path[i + 1])
        if here == nxt:
            victim = move.captured[i - 1]
            fv, rv = g.coords[victim]
            behind = (rv + here[1]) * g.stride + fv + here[0]
            out.append(behind)
        else:
            out.append(path[i])
    out.append(path[-1])
    return out


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
