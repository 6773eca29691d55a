"""Game → PDN text, following the PDN 3.0 writing grammar (spec/pdn.md §2.2)."""

from __future__ import annotations

from collections.abc import Iterable
from enum import StrEnum
from typing import TextIO

from pdn.game import CommentNode, Game, Node, SetupNode

LINE_WIDTH = 80


class Terminator(StrEnum):
    """What to write after the movetext."""

    KEEP = "keep"  # what the game was read with; "*" when it had none
    STAR = "star"  # always "*", the only game separator of the PDN 3.0 writing grammar
    RESULT = "result"  # the game's result when known, else "*"


def escape(value: str) -> str:
    """A tag value with backslashes and quotes escaped."""
    return value.replace("\\", "\\\\").replace('"', '\\"')


def _sides(game: Game) -> tuple[str, str]:
    """The variant's first player and the side to move at the start ("W" or "B")."""
    variant = game.declared_variant
    first = variant.first if variant else "W"
    fen = (game.fen or "").strip().lstrip('"').upper()
    return first, fen[0] if fen[:1] in ("W", "B") else first


class _Movetext:
    """Writes movetext tokens with move numbers derived from the side to move."""

    def __init__(self, first: str) -> None:
        self.first = first
        self.tokens: list[str] = []

    def body(self, nodes: list[Node], side: str, number: int) -> None:
        """Write *nodes* starting with *side* ("W"/"B") to move at move *number*."""
        need_number = True
        for node in nodes:
            if isinstance(node, CommentNode):
                self.comment(node.text)
                need_number = True
            elif isinstance(node, SetupNode):
                self.tokens.append(f'/FEN "{node.fen}"/')
                side = node.fen.strip()[:1].upper() or side
                side = side if side in "WB" else self.first
                need_number = True
            else:
                for c in node.comments_before:
                    self.comment(c)
                    need_number = True
                if side == self.first:
                    self.tokens.append(f"{number}.")
                elif need_number:
                    self.tokens.append(f"{number}...")
                self.tokens.append(node.text + node.strength)
                self.tokens.extend(f"${n}" for n in node.nags)
                for c in node.comments_after:
                    self.comment(c)
                for variation in node.variations:
                    self.tokens.append("(")
                    self.body(variation, side, number)
                    self.tokens.append(")")
                need_number = bool(node.comments_after or node.variations or node.nags)
                if side != self.first:
                    number += 1
                side = "B" if side == "W" else "W"

    def comment(self, text: str) -> None:
        """Add a comment: {text}, or a % line comment when the text holds braces."""
        if "{" in text or "}" in text:
            self.tokens.append("% " + text)
        else:
            self.tokens.append("{" + text + "}")


def _words(tokens: Iterable[str], width: int) -> list[str]:
    """Tokens with "(" glued to the next and ")" to the previous; long comments split."""
    words: list[str] = []
    glue = False
    for tok in tokens:
        if tok == ")" and words:
            words[-1] += ")"
            glue = False
            continue
        parts = tok.split(" ") if tok.startswith("{") and len(tok) > width else [tok]
        for part in parts:
            if glue:
                words[-1] += part
            else:
                words.append(part)
            glue = part == "("
    return words


def _wrap(tokens: Iterable[str], width: int) -> list[str]:
    """Lines of at most *width* characters (a single longer word stands alone)."""
    lines: list[str] = []
    line = ""
    for w in _words(tokens, width):
        if w.startswith("%"):  # a line comment runs to the end of its own line
            if line:
                lines.append(line)
            lines.append(w)
            line = ""
        elif line and len(line) + 1 + len(w) > width:
            lines.append(line)
            line = w
        else:
            line = f"{line} {w}" if line else w
    if line:
        lines.append(line)
    return lines


def movetext(nodes: list[Node], first: str, side: str | None = None, number: int = 1) -> str:
    """*nodes* as movetext on one line, *side* ("W"/"B", default *first*) to move at move
    *number*, where *first* is the variant's first player."""
    writer = _Movetext(first)
    writer.body(nodes, side or first, number)
    return " ".join(writer.tokens)


def write_game(
    game: Game, terminator: Terminator = Terminator.KEEP, width: int = LINE_WIDTH
) -> str:
    r"""The game as PDN text, ending with a newline.

    >>> from pdn.read.reader import read_string
    >>> [game] = read_string('[Event "Manchester 1841"]\n1. 11-15 24-20 2. 8-11   28-24 0-1\n')
    >>> print(write_game(game), end="")
    [Event "Manchester 1841"]
    <BLANKLINE>
    1. 11-15 24-20 2. 8-11 28-24 0-1
    """
    out = [f'[{name} "{escape(value)}"]' for name, value in game.tags.items()]
    first, start = _sides(game)
    writer = _Movetext(first)
    writer.body(game.body, start, 1)
    if terminator is Terminator.STAR:
        end = "*"
    elif terminator is Terminator.RESULT:
        result = game.result
        end = result if result and game.outcome.value != "unknown" else "*"
    else:
        end = game.terminator or "*"
    writer.tokens.append(end)
    if out:
        out.append("")
    out.extend(_wrap(writer.tokens, width))
    return "\n".join(out) + "\n"


def write_games(
    games: Iterable[Game], stream: TextIO, terminator: Terminator = Terminator.KEEP
) -> int:
    """Write games separated by blank lines; return how many were written."""
    n = 0
    for game in games:
        if n:
            stream.write("\n")
        stream.write(write_game(game, terminator))
        n += 1
    return n
