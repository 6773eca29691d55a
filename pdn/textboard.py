"""A position drawn as text, and a game's move list with one move marked."""

from __future__ import annotations

import textwrap

from pdn.board import BLACK, WHITE
from pdn.game import Game, MoveNode
from pdn.position import Position

SYMBOLS = {(WHITE, False): "w", (WHITE, True): "W", (BLACK, False): "b", (BLACK, True): "B"}


def text_board(pos: Position, flip: bool = False) -> str:
    """The board with White at the bottom (unless *flip*), files and ranks around it.

    Men are ``w``/``b``, kings ``W``/``B``, empty playing squares ``.``, other squares blank.
    """
    g = pos.geometry
    ranks = range(g.height) if flip else range(g.height - 1, -1, -1)
    files = list(range(g.width - 1, -1, -1) if flip else range(g.width))
    lines = []
    for r in ranks:
        cells = []
        for f in files:
            sq = r * g.stride + f
            if sq not in g.coords:
                cells.append(" ")
                continue
            cell = "."
            for color in (WHITE, BLACK):
                men, kings = pos.pieces(color)
                if (men | kings) >> sq & 1:
                    cell = SYMBOLS[(color, bool(kings >> sq & 1))]
            cells.append(cell)
        lines.append(f"{r + 1:>2} " + " ".join(cells))
    lines.append("   " + " ".join(chr(97 + f) for f in files))
    return "\n".join(lines)


def move_list(game: Game, current: int, offset: int = 0) -> str:
    """The main line, numbered, the *current* ply (1-based) in brackets; *offset* is 1 when the
    second player makes the first move."""
    parts = []
    for i, node in enumerate(game.mainline(), 1):
        k = i - 1 + offset
        if k % 2 == 0:
            parts.append(f"{k // 2 + 1}.")
        elif i == 1:
            parts.append(f"{k // 2 + 1}...")
        text = node.text + node.strength
        parts.append(f"[{text}]" if i == current else text)
    return textwrap.fill(" ".join(parts), 78)


def comments_at(game: Game, ply: int) -> list[str]:
    """The comments written before and after the main-line move at *ply*."""
    moves: list[MoveNode] = game.mainline()
    if not 1 <= ply <= len(moves):
        return []
    node = moves[ply - 1]
    return [*node.comments_before, *node.comments_after]
