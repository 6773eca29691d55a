"""Commands over one position: legal moves, perft, diagrams."""

from __future__ import annotations

import re
import sys
import time
from pathlib import Path
from typing import Annotated

import typer

from pdn.board import SquareError
from pdn.cli.common import (
    DupOpt,
    FenOpt,
    VariantOpt,
    duplicates_mode,
    fail,
    out,
    position_of,
    variant_named,
)
from pdn.diagram import svg_diagram
from pdn.notation import MoveForm, move_text
from pdn.position import perft
from pdn.reader import make_move
from pdn.replay import candidates


def moves(
    variant: VariantOpt,
    fen: FenOpt = None,
    duplicates: DupOpt = "drop",
) -> None:
    """The legal moves of a position, one per line, with every landing square, sorted."""
    pos = position_of(variant_named(variant), fen)
    legal = pos.legal_moves(duplicates_mode(duplicates))
    texts = sorted((move_text(pos, m, MoveForm.FULL) for m in legal), key=_square_order)
    for text in texts:
        out.print(text, markup=False, highlight=False)


def _square_order(text: str) -> list[tuple[int, str]]:
    """Sort key of a move's text: numbers by value, algebraic squares by name."""
    return [(int(s), "") if s.isdigit() else (0, s) for s in re.split(r"[-x:]", text)]


def perft_command(
    variant: VariantOpt,
    depth: Annotated[int, typer.Option("--depth", "-d", help="Depth in plies (1 or more).")],
    fen: FenOpt = None,
    duplicates: DupOpt = "drop",
) -> None:
    """Count move sequences to each depth: one line `D COUNT` per depth, then nodes per second."""
    if depth < 1:
        fail(f"--depth must be 1 or more, not {depth}")
    v = variant_named(variant)
    pos = position_of(v, fen)
    mode = duplicates_mode(duplicates)
    nodes = 0
    start = time.perf_counter()
    for d in range(1, depth + 1):
        count = perft(pos, d, mode)
        nodes += count
        out.print(f"{d} {count}", markup=False, highlight=False)
    seconds = time.perf_counter() - start
    out.print(f"{nodes / seconds if seconds else 0:,.0f} nodes/s", markup=False, highlight=False)


def diagram(
    variant: VariantOpt,
    fen: FenOpt = None,
    move: Annotated[
        str | None, typer.Option("--move", help="Draw this move as an arrow (e.g. 32-28).")
    ] = None,
    flip: Annotated[bool, typer.Option("--flip", help="Black at the bottom.")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="SVG file.")] = None,
) -> None:
    """Draw a position as SVG, with the variant's numbering and an arrow for a move."""
    pos = position_of(variant_named(variant), fen)
    arrow = None
    if move:
        try:
            found = candidates(pos, make_move(move).squares)
        except SquareError as exc:
            fail(str(exc))
        if len(found) != 1:
            fail(f"move {move!r} is {'ambiguous' if found else 'not legal'} in this position")
        arrow = found[0]
    svg = svg_diagram(pos, arrow, flip)
    if output:
        output.write_text(svg, encoding="utf-8")
    else:
        sys.stdout.write(svg)
