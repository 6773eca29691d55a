"""A position drawn as text: the board with its square numbers (or names) and a legend (the
game browser that shows it with a move list is :mod:`pdn.render.browser`)."""

from __future__ import annotations

from pdn.rules.geometry import BLACK, WHITE
from pdn.rules.position import Position
from pdn.rules.variants import Notation

SYMBOLS = {(WHITE, False): "w", (WHITE, True): "W", (BLACK, False): "b", (BLACK, True): "B"}
CELL = 4  # characters per square


def text_board(pos: Position, flip: bool = False) -> str:
    """The board in a frame, White at the bottom (unless *flip*): men ``w``/``b``, kings
    ``W``/``B``, every empty playing square showing its number (or its name, where the variant
    writes squares algebraically), other squares blank."""
    g = pos.geometry
    ranks = range(g.height) if flip else range(g.height - 1, -1, -1)
    files = list(range(g.width - 1, -1, -1) if flip else range(g.width))
    rule = "─" * (CELL * g.width + 1)
    lines = [f"┌{rule}┐"]
    for r in ranks:
        cells = []
        for f in files:
            sq = r * g.stride + f
            if sq not in g.coords:
                cells.append(" " * CELL)
                continue
            text = g.label(sq)
            for color in (WHITE, BLACK):
                men, kings = pos.pieces(color)
                if (men | kings) >> sq & 1:
                    text = SYMBOLS[(color, bool(kings >> sq & 1))] + " "
            cells.append(text.rjust(CELL))
        lines.append("│" + "".join(cells) + " │")
    lines.append(f"└{rule}┘")
    return "\n".join(lines)


def legend(pos: Position) -> str:
    """What the board's signs mean."""
    squares = "names" if pos.variant.notation is Notation.ALGEBRAIC else "numbers"
    return f"w b men, W B kings; empty squares show their {squares}"
