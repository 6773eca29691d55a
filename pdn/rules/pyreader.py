"""The kernel's reader functions in pure Python, twins of the C kernel's (pdn/rules/_kernel.c):
the lexer's runs of plain moves (:func:`plain_run`) and the chunker's common lines
(:func:`plain_lines`). pdn.rules.pykernel serves them with the rest of the twin; the reader
takes the results a line of moves ends with from here (:func:`game_end`), which loads no
rules."""

from __future__ import annotations

import re

# The reader's PLAIN_RUN token (pdn/read/pdn.lark, in pdn.read.tokens.TOKEN_PATTERN as tests
# check), after the lexer's spaces: plain_run() finds it without the rest of the lexer
PLAIN_RUN = (
    "(?>(?:(?!1-1(?![\\d\\/.:-]))[1-9]\\d?+(?:[-x][1-9]\\d?+)++|\\d++\\.)(?:[ \t\r\n]++(?:(?!"
    "1-1(?![\\d\\/.:-]))[1-9]\\d?+(?:[-x][1-9]\\d?+)++|\\d++\\.))*+)(?![!?*(\\d.\\-xX:]|[ \t"
    "\r\n]*(?!(?:1\\/2-1\\/2|1\\/2:1\\/2|½-½|0\\.5-0\\.5|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|0:0)"
    "(?![\\d\\/.:-]))[0-9a-lA-L.\\-xX:])"
)
LEXER_SPACE = "[ \t\x0c\r\n\xa0\ufeff]"
_PLAIN_RUN = re.compile(f"(?>{LEXER_SPACE}*)({PLAIN_RUN})")


def plain_run(text: str, pos: int) -> tuple[int, int] | None:
    """Where the lexer's token at *pos* starts and ends when it is PLAIN_RUN: its spaces, then
    moves of numbers joined by "-" or "x" and move numbers between spaces, tabs and line ends,
    with nothing after them that RUN would read on. None otherwise: no earlier terminal takes a
    digit first, and a plain word is never a result, so where PLAIN_RUN matches it is the token."""
    if not 0 <= pos <= len(text):
        return None
    m = _PLAIN_RUN.match(text, pos)
    return None if m is None else m.span(1)


# The reader's chunker (pdn.read.chunks.game_chunks): a game's results as a line of movetext
# ends with them, and the lines it reads in the common way, which plain_lines() goes through
GAME_ENDS = (b"1/2-1/2", b"1-0", b"0-1", b"2-0", b"0-2", b"1-1", b"0-0", b"1:0", b"0:1", b"*")
BYTE_SPACES = b" \t\n\r\x0b\x0c"  # what bytes.strip() strips, and a bytes pattern's \s


def game_end(text: bytes, alone: bool = False) -> bool:
    """Whether *text* (stripped) ends with a result of GAME_ENDS after a space or at its start;
    *alone*: whether it is one."""
    if not text.endswith(GAME_ENDS):
        return False
    for end in GAME_ENDS:
        if text.endswith(end) and (
            len(text) == len(end) or (not alone and text[-len(end) - 1] in BYTE_SPACES)
        ):
            return True
    return False


def plain_lines(
    lines: list[bytes], odd: bytes | bytearray, i: int, movetext: bool, ended: bool, size: int,
    limit: int,
) -> tuple[int, bool, bool, int]:  # fmt: skip
    """How far, from line *i*, the chunker goes on adding lines to a chunk of a game as they
    are (the chunk begun, no comment, variation or lone "[" open, not over its *limit* of
    bytes): blank lines; a tag pair alone on its line, unless movetext came since the chunk's
    last tag (*movetext*: then it begins a game); a line of moves with no bracket and none of
    the characters *odd* marks its line for (braces, parentheses, ";", "%"), unless a game
    ended on the line before (*ended*) and it is not a result alone. Each line keeps the
    chunk's *size* (its lines' bytes, a line end each) within *limit*. Returns the first line
    not added (at most len(odd)), and movetext, ended and size after those added."""
    if i < 0:
        raise ValueError("plain_lines: i cannot be negative")
    end = min(len(odd), len(lines))
    while i < end:
        data = lines[i]
        if size + len(data) + 1 > limit:
            break
        text = data.strip()
        if text:
            if text[0] == 91:  # [
                if movetext or text[-1] != 93 or text.count(b"[") != 1:
                    break
                ended = False
            else:
                if odd[i] or text[-1] == 93 or 91 in text:
                    break
                if ended and not game_end(text, alone=True):
                    break
                movetext, ended = True, game_end(text)
        size += len(data) + 1
        i += 1
    return i, movetext, ended, size
