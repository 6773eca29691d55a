"""Commands over one position: legal moves, perft, diagrams."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import Annotated

import typer

from pdn.cli.common import FenOpt, VariantOpt, check_output, fail, say, variant_named
from pdn.cli.output import written
from pdn.notation import MoveForm, move_text
from pdn.read.movetext import make_move
from pdn.render.diagram import svg_diagram
from pdn.replay import candidates
from pdn.rules.draw import Termination, ending_text
from pdn.rules.fen import FenError, parse_fen
from pdn.rules.geometry import WHITE, SquareError
from pdn.rules.position import Duplicates, Position, perft
from pdn.rules.variants import Variant

DupOpt = Annotated[
    Duplicates,
    typer.Option(
        "--duplicates",
        help="drop: capture paths with the same start, end and pieces taken count once; keep: "
        "once per order the pieces are taken in (published perft 'keep'); paths: every path.",
    ),
]


def position_of(variant: Variant, fen: str | None) -> Position:
    """The position of *fen* (the start position if None), or a one-line usage error."""
    if fen is None:
        return Position.start(variant)
    try:
        return parse_fen(fen, variant)
    except FenError as exc:
        fail(str(exc))


def moves(
    variant: VariantOpt,
    fen: FenOpt = None,
    duplicates: DupOpt = Duplicates.DROP,
) -> None:
    """The legal moves of a position, one per line, with every landing square, sorted."""
    pos = position_of(variant_named(variant), fen)
    legal = pos.legal_moves(duplicates)
    texts = sorted((move_text(pos, m, MoveForm.FULL) for m in legal), key=_square_order)
    for text in texts:
        say(text)
    if not texts:  # stdout stays empty for scripts (spec/rules.md: with no legal move, one loses)
        side = "White" if pos.turn == WHITE else "Black"
        say(f"pdn: {ending_text(Termination.WIN)} ({side} to move)", err=True)


def _square_order(text: str) -> list[tuple[int, str]]:
    """Sort key of a move's text: numbers by value, algebraic squares by name."""
    return [(int(s), "") if s.isdigit() else (0, s) for s in re.split(r"[-x:]", text)]


def perft_command(
    variant: VariantOpt,
    depth: Annotated[int, typer.Option("--depth", "-d", help="Depth in plies (1 or more).", min=1)],
    fen: FenOpt = None,
    duplicates: DupOpt = Duplicates.DROP,
) -> None:
    """Count move sequences to each depth: one line `D COUNT` per depth, then nodes per second."""
    v = variant_named(variant)
    pos = position_of(v, fen)
    nodes = 0
    start = time.perf_counter()
    for d in range(1, depth + 1):
        count = perft(pos, d, duplicates)
        nodes += count
        say(f"{d} {count}")
    seconds = time.perf_counter() - start
    say(f"{nodes / seconds if seconds else 0:,.0f} nodes/s")


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
    if output:
        check_output(output)
        if output.suffix and output.suffix.lower() != ".svg":  # (d.png held SVG text)
            fail(f"{output}: a diagram is SVG; name the file .svg")
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
    with written(output) as sink:
        sink.write(svg_diagram(pos, arrow, flip))
