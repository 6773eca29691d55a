"""Board diagrams as SVG: any variant's board, its numbering or coordinates, pieces, a move."""

from __future__ import annotations

from collections.abc import Collection, Sequence
from html import escape

from pdn.rules.geometry import BLACK, WHITE, Color
from pdn.rules.move import Move
from pdn.rules.placement import Placement
from pdn.rules.variants import Notation

CELL = 40
MARGIN = 20
LIGHT, DARK = "#f0d9b5", "#b58863"
PIECE = {WHITE: ("#fdfdfd", "#222"), BLACK: ("#222", "#ddd")}


def svg_diagram(
    pos: Placement,
    move: Move | None = None,
    flip: bool = False,
    hints: Sequence[Move] = (),
    marked: Collection[int] = (),
) -> str:
    """The position as a standalone SVG document (White at the bottom unless *flip*), with
    *move* drawn as an arrow, *hints* (moves to point out) as dashed arrows and the *marked*
    squares outlined."""
    g = pos.geometry
    w, h = g.width, g.height
    size_x, size_y = w * CELL + 2 * MARGIN, h * CELL + 2 * MARGIN

    def xy(square: int) -> tuple[float, float]:
        f, r = g.coords[square]
        if flip:
            f, r = w - 1 - f, h - 1 - r
        return MARGIN + f * CELL + CELL / 2, MARGIN + (h - 1 - r) * CELL + CELL / 2

    out = [
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {size_x} {size_y}" '
        f'width="{size_x}" height="{size_y}" class="pdn-board {escape(pos.variant.name)}">',
        "<defs><marker id='arrow' viewBox='0 0 10 10' refX='6' refY='5' markerWidth='4' "
        "markerHeight='4' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#2a7'/></marker>"
        "<marker id='hint' viewBox='0 0 10 10' refX='6' refY='5' markerWidth='4' "
        "markerHeight='4' orient='auto'><path d='M0,0 L10,5 L0,10 z' fill='#25c'/></marker>"
        "</defs>",
        f'<rect width="{size_x}" height="{size_y}" fill="#6b4a2b"/>',
    ]
    playing = set(g.coords)
    for r in range(h):
        for f in range(w):
            sq = r * g.stride + f
            x = MARGIN + (w - 1 - f if flip else f) * CELL
            y = MARGIN + (r if flip else h - 1 - r) * CELL
            dark = (f + r) % 2 == 0 if pos.variant.orthogonal else sq in playing
            fill = DARK if dark else LIGHT
            named = f' class="square" data-cell="{g.label(sq)}"' if sq in playing else ""
            out.append(
                f'<rect{named} x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}"/>'
            )
            if sq in playing and pos.variant.notation is Notation.NUMERIC:
                out.append(
                    f'<text x="{x + 3}" y="{y + 11}" font-size="9" fill="#eee" '
                    f'font-family="sans-serif">{g.number(sq)}</text>'
                )
    for f in range(w):  # file letters and rank numbers around the board
        lx = MARGIN + (w - 1 - f if flip else f) * CELL + CELL / 2
        out.append(_label(lx, size_y - 6, chr(97 + f)))
    for r in range(h):
        ly = MARGIN + (r if flip else h - 1 - r) * CELL + CELL / 2 + 4
        out.append(_label(MARGIN / 2, ly, str(r + 1)))
    for color in (WHITE, BLACK):
        men, kings = pos.pieces(color)
        fill, stroke = PIECE[color]
        name = Color(color).name.lower()
        for sq in g.squares:
            if not (men | kings) >> sq & 1:
                continue
            king = bool(kings >> sq & 1)
            cx, cy = xy(sq)
            label = g.label(sq)
            out.append(
                f'<circle class="piece {name} {"king" if king else "man"}" data-square="{label}" '
                f'cx="{cx}" cy="{cy}" r="{CELL * 0.38}" fill="{fill}" stroke="{stroke}" '
                f'stroke-width="2"/>'
            )
            if king:
                out.append(
                    f'<circle cx="{cx}" cy="{cy}" r="{CELL * 0.2}" fill="none" '
                    f'stroke="{stroke}" stroke-width="3"/>'
                )
    for sq in marked:
        mx, my = xy(sq)
        out.append(
            f'<rect class="marked" x="{mx - CELL / 2 + 2}" y="{my - CELL / 2 + 2}" '
            f'width="{CELL - 4}" height="{CELL - 4}" fill="none" stroke="#d22" stroke-width="4"/>'
        )
    for hint in hints:
        points = " ".join(f"{x},{y}" for x, y in (xy(s) for s in hint.path))
        out.append(
            f'<polyline class="hint" points="{points}" fill="none" stroke="#25c" '
            f'stroke-width="3" stroke-dasharray="6 4" stroke-opacity="0.85" '
            f'marker-end="url(#hint)"/>'
        )
    if move is not None:
        points = " ".join(f"{x},{y}" for x, y in (xy(s) for s in move.path))
        out.append(
            f'<polyline class="move" points="{points}" fill="none" stroke="#2a7" '
            f'stroke-width="5" stroke-opacity="0.8" marker-end="url(#arrow)"/>'
        )
    out.append("</svg>")
    return "\n".join(out) + "\n"


def _label(x: float, y: float, text: str) -> str:
    return (
        f'<text x="{x}" y="{y}" font-size="11" fill="#f5e6cc" text-anchor="middle" '
        f'font-family="sans-serif">{escape(text, quote=False)}</text>'
    )
