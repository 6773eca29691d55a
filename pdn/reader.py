"""Read PDN: bytes → lines → game chunks → tokens → Game, with every problem located in the file.

One reading loop serves every use: a full read, ``headers_only`` (the movetext is not kept) and
``select`` (games whose tags it rejects are not yielded) are options over the same loop, so the
games, their indexes, lines and offsets never differ between them.

- Lines (pdn/lines.py) are read in blocks; a line over the size limit is passed over unread.
- A line scanner cuts the lines into chunks of whole games: a tag line after movetext, a line
  that ends a game with its result, or a comment left open that runs into a blank line and a
  tag line starts a new chunk. A broken game never costs the games after it, and a chunk larger
  than the size limit is reported as one game too large and passed over.
- Each chunk is decoded on its own: UTF-8, or, line by line where it is not, cp1252 with a
  warning on the game (pdn/lines.py reads UTF-16).
- Its tokens (pdn/tokens.py) are cut into games: a game starts at a tag pair written
  ``[Name "value"]``, or at a move from a square that begins a line (or follows the previous
  game's end); it ends at its result or "*", at the next tag section or at the end of its chunk.
  Text that is neither a tag pair nor a move (prose, a stray character, a lone result) is never
  a game: it is skipped with a warning on the nearest game of its chunk.
- A game's movetext tree is built from its tokens only when first asked for (:attr:`Game.body`).
"""

from __future__ import annotations

import codecs
import io
import os
import re
import sys
from bisect import bisect_right
from collections.abc import Callable, Generator, Iterable, Iterator, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from itertools import accumulate, pairwise, repeat
from operator import add
from pathlib import Path
from typing import BinaryIO, TextIO

from pdn.files import STDIN, FileProblem, pdn_files, shown_name
from pdn.game import (
    CommentNode,
    Game,
    GameWarning,
    MoveNode,
    Node,
    PdnSyntaxError,
    SetupNode,
    Source,
    Tags,
    located,
)
from pdn.lines import BLOCK, Batch, binary_lines, sniff, string_lines, text_lines
from pdn.tokens import (
    COMMENT,
    ERROR,
    JUNK,
    LINE_COMMENT,
    LPAR,
    NAG,
    PAREN_COMMENT,
    PLAIN_RUN,
    RESULT,
    RPAR,
    RUN,
    SETUP,
    STAR,
    TAGS,
    token_re,
)

Selector = Callable[[Tags], bool]
PdnSource = str | os.PathLike[str] | BinaryIO | TextIO

MAX_GAME_BYTES = 4 << 20  # a game or run of text larger than this is reported and passed over
LIMIT_VARIABLE = "PDN_MAX_GAME_BYTES"  # the environment variable that changes it
MAX_DEPTH = 50  # variations nested deeper are a syntax error of their game (the corpus: 4)

# -- decoding ------------------------------------------------------------------------------------


def _latin1_rest(exc: UnicodeError) -> tuple[str, int]:
    """The five bytes cp1252 leaves undefined, read as Latin-1."""
    assert isinstance(exc, UnicodeDecodeError)
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


codecs.register_error("pdn-latin1", _latin1_rest)


def _decode(lines: list[bytes]) -> tuple[str, list[tuple[int, int]]]:
    """The text of a chunk's lines, and the (row, first bad byte) of each line that is not UTF-8:
    such a line is read as cp1252 (the lines are decoded one by one only then)."""
    data = b"\n".join(lines)
    try:
        return data.decode("utf-8"), []
    except UnicodeDecodeError:
        pass
    texts, bad = [], []
    for row, line in enumerate(lines):
        try:
            texts.append(line.decode("utf-8"))
        except UnicodeDecodeError as exc:
            texts.append(line.decode("cp1252", "pdn-latin1"))
            bad.append((row, line[exc.start]))
    return "\n".join(texts), bad


def detect_encoding(fh: BinaryIO) -> str:
    """What a seekable binary stream holds from where it stands: 'utf-16-le' or 'utf-16-be'
    (BOM), 'utf-8-sig', 'utf-8', or 'cp1252' when some of it is not UTF-8 (read per game)."""
    start = fh.tell()
    head = fh.read(BLOCK)
    family = sniff(head)
    if family.startswith("utf-16"):
        fh.seek(start)
        return family
    bom = head.startswith(codecs.BOM_UTF8)
    decoder = codecs.getincrementaldecoder("utf-8")()
    data = head
    try:
        while data:
            decoder.decode(data)
            data = fh.read(BLOCK)
        decoder.decode(b"", final=True)
        encoding = "utf-8-sig" if bom else "utf-8"
    except UnicodeDecodeError:
        encoding = "cp1252"
    fh.seek(start)
    return encoding


# -- chunks --------------------------------------------------------------------------------------

_TAG_RE = re.compile(
    r'\[[ \t]*[^\s"\[\]]+(?:[ \t]+[^\s"\[\]]+)*'
    r'(?:[ \t]*(?:"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|"[^"\]\n]*|[^\]"\n]*))?[ \t]*\]'
)
_TAG_BYTES = re.compile(_TAG_RE.pattern.encode())
_TAG_PAIR_LINE = re.compile(rb'\[[ \t]*[A-Za-z_][^\s"\[\]]*[ \t]*"')  # [Name "...
_MISSING_BRACKET = re.compile(rb'^[A-Za-z][\w ]*\s"[^"]*"\]$')
_JUNK_AFTER_TAGS = re.compile(rb"^(?:\s|\\[rn])*$")
_SPECIAL = re.compile(rb"[{}();%]")
_GAME_END = re.compile(rb"(?:^|\s)(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|\*)$")
_GAME_ENDS = (b"1-0", b"0-1", b"1/2", b"2-0", b"0-2", b"1-1", b"0-0", b"1:0", b"0:1", b"*")
_COMMENT_STARTS = frozenset(b"%;{")
_LONE_END = re.compile(rb"(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|\*)")
_KEEP_TAGS = 1 << 16  # of a chunk too large, this much of its tag section is kept


@dataclass(slots=True)
class Chunk:
    """Consecutive lines holding whole games (or a run of text that holds none)."""

    lines: list[bytes]
    line: int  # 1-based number of the first line
    offsets: list[int]  # byte offset of each line in the file
    warnings: list[tuple[int, str]] = field(default_factory=list)  # (line, warning)
    tag_start: bool = False  # the first line starts with a tag pair: a span may start here
    too_large: int = 0  # when over the size limit: its size (the lines are its tag section)


def _scan(line: bytes, in_comment: bool, depth: int) -> tuple[bool, int, bytes]:
    """After *line*: whether a { comment is open, the variation depth, and the line's last code
    outside comments (before a ; or % line comment), stripped."""
    last = b""
    start = -1 if in_comment else 0  # where the code being passed over began
    for m in _SPECIAL.finditer(line):
        ch = m.group()
        if in_comment:
            if ch == b"}":
                in_comment, start = False, m.end()
            continue
        if ch == b"{" or ch == b";" or ch == b"%":
            code = line[start : m.start()].strip()
            last = code or last
            if ch != b"{":
                return in_comment, depth, last
            in_comment, start = True, -1
        elif ch == b"(":
            depth += 1
        elif ch == b")":
            depth = max(0, depth - 1)
    if not in_comment:
        last = line[start:].strip() or last
    return in_comment, depth, last


def _odd_lines(lines: list[bytes]) -> bytearray:
    """1 for each line holding a brace, parenthesis, ";" or "%" (a comment or a variation may
    open or close on it), 0 for the others: found over the lines at once."""
    text = b"\n".join(lines)
    starts = list(accumulate(map(add, map(len, lines), repeat(1)), initial=0))
    odd = bytearray(len(lines))
    for char in b"{}();%":
        pos = text.find(char)
        while pos >= 0:
            row = bisect_right(starts, pos) - 1
            odd[row] = 1
            pos = text.find(char, starts[row + 1])
    return odd


def _chunks(batches: Iterable[Batch], first_line: int, limit: int) -> Iterator[Chunk]:
    """Lines cut into chunks of whole games (see the module's docstring)."""
    buf: list[bytes] = []
    offsets: list[int] = []
    warnings: list[tuple[int, str]] = []
    start = first_line
    size = 0
    over = False  # the chunk is over the limit: its lines are counted, not kept
    movetext = False  # movetext since the chunk's last tag line: a tag line starts a new chunk
    ended = False  # the last code ended a game: any line but a comment starts a new chunk
    in_comment = False
    blank = False  # a blank line since, inside an open comment
    depth = 0
    bracket_line = 0  # a lone "[" waiting for its tag
    tag_start = False

    def chunk() -> Chunk:
        return Chunk(buf, start, offsets, warnings, tag_start, size if over else 0)

    number = first_line - 1
    for starts, lines, too_long in batches:
        if too_long:  # a line over the limit: passed over unread
            number += 1
            if ended and (buf or over):  # after a game's end: a chunk of its own
                yield chunk()
                buf, offsets, warnings, size, over = [], [], [], 0, False
            if not buf and not over:
                start, tag_start, offsets = number, False, [starts[0]]
            if not over:
                over = True
                _overflow(buf, offsets)
            size += too_long + 1
            movetext, ended, in_comment, depth = True, False, False, 0
            continue
        for offset, data, odd in zip(starts, lines, _odd_lines(lines), strict=True):
            number += 1
            stripped = data.strip()
            if stripped and buf and not (over or in_comment or bracket_line or depth):
                # the common lines, read here as below: a tag pair alone on its line (one "[",
                # ending with "]"), a line of moves (no bracket, brace, parenthesis, ";" or
                # "%": no comment, variation or tag opens or closes on it); not inside a
                # comment or a variation, nor at a chunk's start or in one over the limit
                if stripped[0] == 91:  # [
                    plain = stripped[-1] == 93 and stripped.count(b"[") == 1
                    boundary = movetext
                else:
                    plain = not odd and stripped[-1] != 93 and 91 not in stripped
                    boundary = ended and not _LONE_END.fullmatch(stripped)  # not "1-0" then "*"
                if plain:
                    if boundary:
                        yield chunk()
                        buf, offsets, warnings, size = [], [], [], 0
                        start, tag_start = number, bool(_TAG_PAIR_LINE.match(stripped))
                    movetext = stripped[0] != 91
                    ended = movetext and bool(
                        stripped.endswith(_GAME_ENDS) and _GAME_END.search(stripped)
                    )
                    size += len(data) + 1
                    buf.append(data)
                    offsets.append(offset)
                    if size > limit:
                        over = True
                        _overflow(buf, offsets)
                    continue
            if not stripped:
                if bracket_line:
                    warnings.append((bracket_line, "stray '[' skipped"))
                    bracket_line = 0
                blank = in_comment
                if buf or over:
                    size += len(data) + 1
                    if not over:
                        buf.append(data)
                        offsets.append(offset)
                continue
            if bracket_line:
                if stripped[0] == 91:  # [
                    warnings.append((bracket_line, "stray '[' skipped"))
                else:
                    data = stripped = b"[" + stripped
                bracket_line = 0
            if in_comment:
                if blank and stripped[0] == 91 and _TAG_PAIR_LINE.match(stripped):
                    in_comment, depth, movetext = False, 0, True  # never closed: a new game here
                blank = False
            simple_tag = False
            if not in_comment:
                first = stripped[0]
                if first == 91:  # [
                    if stripped == b"[":
                        bracket_line = number
                        if not buf and not over:
                            start, tag_start = number, False
                        if not over:
                            buf.append(b"")
                            offsets.append(offset)
                        size += len(data) + 1
                        continue
                    boundary = movetext
                    simple_tag = stripped[-1] == 93 and stripped.count(b"[") == 1  # [Name "value"]
                    movetext = not simple_tag and (
                        stripped[-1] != 93
                        and not _JUNK_AFTER_TAGS.match(_TAG_BYTES.sub(b"", stripped))
                    )
                else:
                    if (
                        stripped[-1] == 93
                        and stripped.endswith(b'"]')
                        and stripped[:1].isalpha()
                        and _MISSING_BRACKET.match(stripped)
                    ):
                        shown = "[" + stripped.decode(errors="replace")
                        warnings.append((number, f"tag without its '[' read as {shown!r}"))
                        data = stripped = b"[" + stripped
                        boundary, movetext, simple_tag = movetext, False, True
                    elif first in _COMMENT_STARTS:
                        boundary = False
                    else:
                        boundary = ended and not _LONE_END.fullmatch(stripped)  # not "1-0" then "*"
                        # a line of moves that ends with tags ("0-1[Event ...]") opens the next game
                        movetext = not (stripped[-1] == 93 and _TAG_BYTES.search(stripped))
                if boundary and (buf or over):
                    yield chunk()
                    buf, offsets, warnings, size, over = [], [], [], 0, False
                    depth, ended = 0, False
            if not buf and not over:
                start = number
                tag_start = bool(_TAG_PAIR_LINE.match(stripped))
            if simple_tag:
                ended = False  # a game has begun
            else:
                code, tags_last = data, False
                if 91 in data:
                    tags = [m.end() for m in _TAG_BYTES.finditer(data)]
                    if tags:
                        code = _TAG_BYTES.sub(b"", data)
                        tags_last = not data[tags[-1] :].strip()
                if _SPECIAL.search(code):
                    opened = in_comment
                    in_comment, depth, tail = _scan(code, in_comment, depth)
                    if in_comment and not opened:
                        blank = False
                else:
                    tail = b"" if in_comment else code.strip()
                if tags_last and not in_comment:
                    ended = False  # tags end the line: a game has begun
                elif tail:
                    ended = (
                        depth == 0 and tail.endswith(_GAME_ENDS) and bool(_GAME_END.search(tail))
                    )
            size += len(data) + 1
            if over:
                continue
            buf.append(data)
            offsets.append(offset)
            if size > limit:
                over = True
                _overflow(buf, offsets)
    if over or any(line.strip() for line in buf):
        yield chunk()


def _overflow(buf: list[bytes], offsets: list[int]) -> None:
    """Drop the lines of a chunk gone over the size limit, but for its tag section."""
    keep = _tag_section(buf)
    del buf[keep:]
    del offsets[max(1, keep) :]


def _tag_section(lines: list[bytes]) -> int:
    """How many of the first lines to keep of a chunk too large: its tag lines, if short."""
    n = kept = 0
    for line in lines:
        s = line.strip()
        if not s.startswith(b"[") or not s.endswith(b"]"):
            break
        kept += len(line)
        n += 1
    return n if kept <= _KEEP_TAGS else 0


# -- tokens to games ------------------------------------------------------------------------------

_ELEMENT = (
    r"(?P<a>[1-9]\d?)(?P<sep>[-x])(?P<b>[1-9]\d?)(?![-xX:\d!?*(]| [-xX:])"  # fast path: 32-28
    r"|(?P<num>\d+\s*\.(?:\s*\.\.)?|\.\.\.)"
    r"|(?P<move>\d{1,2}(?:[ \t]*[-xX:][ \t]*\d{1,2})+|\d{4}"
    r"|[a-lA-L](?:1[0-2]|[1-9])(?:(?:[ \t]*[-xX:][ \t]*)?[a-lA-L](?:1[0-2]|[1-9]))+"
    r"|[a-h][a-h][1-8]|-)"
    r"(?P<strength>[!?]+|\([!?]+\)|\*)?"
)
_ELEMENT_RE = re.compile(_ELEMENT)
# a run of nothing but move numbers and moves of the fast path above, and those moves' squares
_PLAIN_RUN = re.compile(
    r"\s*(?:(?:[1-9]\d?[-x][1-9]\d?(?![-xX:\d!?*(]| [-xX:])|\d+\s*\.(?:\s*\.\.)?|\.\.\.)\s*)*"
)
_PLAIN_MOVE = re.compile(r"[1-9]\d?[-x][1-9]\d?")


class _PlainWords(dict[str, tuple[str, ...]]):
    """The squares of each word of a plain run, remembered: of a move written as numbers joined
    by "-" or "x" ("32-28", "26x17x8"); () for a move number ("12."). Looked up by a C loop
    (``map(_PLAIN_WORDS.__getitem__, words)``), as a run's words are many."""

    def __missing__(self, word: str) -> tuple[str, ...]:
        if len(self) >= 1 << 16:  # memory stays bounded
            self.clear()
        squares = () if word[-1] == "." else tuple(word.replace("x", "-").split("-"))
        self[word] = squares
        return squares


_PLAIN_WORDS = _PlainWords()


# the same elements with one group, the move number: findall gives "" for each move
_NUMBER_RE = re.compile(re.sub(r"\(\?P<(?!num>)\w+>", "(?:", _ELEMENT).replace("(?P<num>", "("))
_RUSSIAN_SHORT = re.compile(r"[a-h][a-h][1-8]")
_SQUARE_RE = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])|\d{1,2}")
_TAG_PARTS = re.compile(r'^\[\s*(.*?)\s*(?:"((?:\\.|[^"\\])*)"\s*)?\]$', re.S)
_PLAIN_TAG = re.compile(r'\[([A-Za-z_]\w*)[ \t]*"([^"\\\n]*)"[ \t]*\]')
_QUOTED_TAG = re.compile(r'\[[ \t]*[A-Za-z_&][^"\]]*"')  # [Name "... (a name, then a quote)
_TAG_NAME_VALUE = re.compile(r"^(\S+(?:\s+\S+)*?)\s+(\S.*)$")
_WS = re.compile(r"\s+")
_FEN_VALUE = re.compile(r'"([^"]*)"')


def _moves(kind: str, run: str) -> int:
    """The number of moves in a RUN or PLAIN_RUN token (its move numbers left out)."""
    if kind == PLAIN_RUN:  # words that are moves or move numbers (one dot each)
        return len(run.split()) - run.count(".")
    return _NUMBER_RE.findall(run).count("")


def _squares_moved(kind: str, run: str) -> bool:
    """Whether a run holds a move from a square (not only "-", the unknown move)."""
    return kind == PLAIN_RUN or any(
        m.group("a") or m.group("move") not in (None, "-") for m in _ELEMENT_RE.finditer(run)
    )


def parse_tag(text: str) -> tuple[str, str] | None:
    """Name and value of a tag token; None for a pseudo-tag without a value such as [Empty]."""
    m = _TAG_PARTS.match(text)
    if not m:
        return None
    name, quoted = m.group(1), m.group(2)
    if quoted is None and '"' in name:  # closing quote missing: [Round "11.1]
        name, _, quoted = name.partition('"')
        name = name.strip()
    if quoted is not None:
        return name, re.sub(r"\\([\\\"])", r"\1", quoted)  # only \" and \\ are escapes
    m2 = _TAG_NAME_VALUE.match(name)
    if m2:  # unquoted value: [Round 17]
        return m2.group(1), m2.group(2)
    return None


@lru_cache(maxsize=2)
def _tag_pairs(
    token: str,
) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[int, str]], bool]:
    """The tag pairs of a TAGS token, the (position, text) of its pseudo-tags, and whether a
    pair is written [Name "value"]: only such a pair starts a game ([Round 17] joins one).
    Cached: the token that starts a game is read twice (to start it, then for its tags)."""
    pairs: list[tuple[str, str]] = _PLAIN_TAG.findall(token)
    if len(pairs) == token.count("["):
        return pairs, (), bool(pairs)
    pairs, pseudo, quoted = [], [], False
    for m in _TAG_RE.finditer(token):
        plain = _PLAIN_TAG.fullmatch(m.group())
        pair = (plain.group(1), plain.group(2)) if plain else parse_tag(m.group())
        if pair is None:
            pseudo.append((m.start(), m.group()))
        else:
            pairs.append(pair)
            quoted = quoted or bool(_QUOTED_TAG.match(m.group()))
    return pairs, pseudo, quoted


def make_move(raw: str, strength: str = "", line: int = 0, column: int = 0) -> MoveNode:
    """A move node from the move's text as written."""
    compact, squares = _move_squares(raw)
    capture = any(c in compact for c in "xX:")
    seps = re.findall(r"[-x:]", compact.replace("X", "x"))
    if squares and len(squares) > 1 and seps:
        text = seps[0].join(squares) if len(set(seps)) == 1 else compact
    else:
        text = (
            compact
            if not squares or (len(squares) == 2 and squares[0].isalpha())
            else ("".join(squares))
        )
    return MoveNode(text, squares, capture, strength, raw=raw, line=line, column=column)


def _move_squares(raw: str) -> tuple[str, list[str]]:
    """A move as written without spaces (``1115`` as ``11-15``), and its squares."""
    compact = raw.replace(" ", "").replace("\t", "")
    if compact.isdigit() and len(compact) == 4:
        compact = f"{compact[:2]}-{compact[2:]}"
    if _RUSSIAN_SHORT.fullmatch(compact):
        return compact, [compact[0], compact[1:]]
    squares = [s.lstrip("0") if s.isdigit() else s.lower() for s in _SQUARE_RE.findall(compact)]
    return compact, squares


def _show(text: str, width: int = 20) -> str:
    """*text* quoted for a message, cut short, control characters made visible."""
    cut = text[:width] + ("..." if len(text) > width else "")
    return '"' + "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut) + '"'


class _Text:
    """The text of a chunk, with line and column of any position in it."""

    __slots__ = ("_at", "_row", "_starts", "line", "text")

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.line = line
        self._starts: list[int] | None = None
        self._at = self._row = 0  # a position and its row, where row() counted to

    def row(self, pos: int) -> int:
        """0-based row of *pos*: the line ends are counted from the position last asked, when
        *pos* is not before it (a chunk's games are asked in order)."""
        if pos < self._at:
            self._at = self._row = 0
        self._row += self.text.count("\n", self._at, pos)
        self._at = pos
        return self._row

    def where(self, pos: int) -> tuple[int, int]:
        """1-based line and column of *pos*."""
        starts = self._starts
        if starts is None:
            starts = self._starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        i = bisect_right(starts, pos) - 1
        return self.line + i, pos - starts[i] + 1


Item = tuple[str, object, int]  # (token kind, text or the items of a variation, position)
_TRAILING = frozenset((COMMENT, LINE_COMMENT, PAREN_COMMENT, TAGS))  # may trail a game's end
_RUNS = frozenset((PLAIN_RUN, RUN))
_ENDS = frozenset((RESULT, STAR))
_WAITING = frozenset((COMMENT, LINE_COMMENT, PAREN_COMMENT, NAG, SETUP))
VARIATION = "VARIATION"

_BEFORE_MOVES = ["a tag", "a move", "a comment", "a result"]
_IN_GAME = ["a move", "a comment", "a variation", "a result"]
_IN_VARIATION = ["a move", "a comment", "')'"]


class _Building:
    """The game being read: its tokens so far, its open variations, what it holds."""

    __slots__ = (
        "end",
        "escapes",
        "game",
        "has_move",
        "items",
        "level",
        "moved",
        "movetext",
        "plies",
        "skip_depth",
        "stack",
        "start",
    )

    def __init__(self, game: Game, start: int) -> None:
        self.game = game
        self.items: list[Item] = []
        self.level = self.items  # the item list tokens go to (the innermost open variation)
        self.stack: list[tuple[list[Item], int, bool]] = []  # (outer list, "(" position, moved)
        self.moved = False  # a move stands at the current level (since the last setup)
        self.has_move = False  # a move anywhere
        self.movetext = False  # moves, move numbers or a setup: a tag section now starts anew
        self.plies = 0  # moves of the main line
        self.start = start  # where the game's text starts in the chunk
        self.end = start  # and ends
        self.escapes: list[int] = []  # lines of a literal "\r" after a tag
        self.skip_depth = -1  # >= 0 after a syntax error: the depth while passing over the rest


_REST = 1 << 30  # skip_depth of a game that takes the rest of its chunk (an unclosed comment)


@dataclass(slots=True)
class _Segment:
    """What a chunk holds, in order: a game, or a run of text outside any game."""

    game: Game | None
    warning: GameWarning | None = None
    escapes: list[int] = field(default_factory=list)  # lines of a literal "\r" (broken export)


@dataclass(slots=True)
class _Ended:
    """The game that just ended with a result or "*", and where its text starts."""

    game: Game
    start: int
    loader: _Loader | None
    escapes: list[int]  # lines of a literal "\r" in the game and after its end


class _Reader:
    """Cuts the chunks of one file into games: the one reading loop."""

    def __init__(self, name: str, family: str, headers_only: bool, limit: int) -> None:
        self.name = name
        self.family = family  # 'bytes' or a UTF-16 form
        self.headers_only = headers_only
        self.limit = limit
        self.index = 0  # games so far
        self.token_re = token_re()

    # -- one chunk ------------------------------------------------------------------------------

    def read(self, chunk: Chunk) -> list[_Segment]:
        """The games and the runs of outside text of one chunk, in order."""
        if chunk.too_large:
            return [_Segment(self._too_large(chunk))]
        text, self.bad_lines = _decode(chunk.lines)
        self.text = _Text(text, chunk.line)
        self.chunk = chunk
        self.encoding = "utf-8" if self.family == "bytes" else self.family
        self.segments: list[_Segment] = []
        self.cur: _Building | None = None
        self.pending: list[Item] = []  # comments, NAGs, setups, pseudo-tags outside a game
        self.ended: _Ended | None = None
        self.outside = -1  # start and end of a run of text outside any game
        self.outside_end = -1
        self._tokens(text)
        if self.cur is not None:
            self._finish(None)
        self._settle_pending()
        self._close_outside()
        games = [s.game for s in self.segments if s.game is not None]
        if self.bad_lines:
            for game in games:
                first = game.source.line - chunk.line
                self._decoded(game, first, first + game.raw.count("\n"))
        for seg in self.segments:
            if seg.game is not None and seg.escapes:
                message = f"{len(seg.escapes)} literal '\\r' skipped (broken export)"
                seg.game.warnings.append(located(seg.escapes[0], None, message))
        for line, message in reversed(chunk.warnings):
            owner = next((g for g in reversed(games) if g.source.line <= line), None)
            owner = owner or (games[0] if games else None)
            if owner is not None:
                owner.warnings.insert(0, located(line, None, message))
            else:
                self.segments.insert(0, _Segment(None, located(line, None, message)))
        return self.segments

    def _tokens(self, text: str) -> None:
        for m in self.token_re.finditer(text):
            kind = m.lastgroup
            assert kind is not None
            pos = m.start(kind)
            cur = self.cur
            if cur is None:
                if not self._outside(m, kind, pos):
                    continue
                cur = self.cur
                assert cur is not None
            elif cur.skip_depth >= 0:
                if self._skipping(cur, m, kind, pos):
                    return
                continue
            level = cur.level
            if kind in _RUNS:
                token = m.group(kind)
                level.append((kind, token, pos))
                cur.movetext = True
                if kind == PLAIN_RUN and not self.headers_only:
                    # its words are move numbers and moves (with "-" or "x"); counted when
                    # asked (_Loader.plies), as a full read keeps the tokens
                    moved = "-" in token or "x" in token
                else:
                    n = _moves(kind, token)
                    moved = n > 0
                    if not cur.stack:
                        cur.plies += n
                if moved:
                    cur.moved = cur.has_move = True
                cur.end = m.end()
            elif kind == TAGS:
                if cur.stack:
                    self._error_unclosed(cur)
                if cur.stack or cur.movetext:
                    self._finish(None)
                    self._start(pos)
                self._tags(m.group(kind), pos)
            elif kind in _ENDS:
                if not cur.stack:
                    cur.end = m.end()
                    self._finish(m.group(kind))
                elif kind == STAR:
                    self._warn(cur.game, pos, "'*' inside a variation ignored")
                    cur.end = m.end()
                else:
                    found = f"found result {_show(m.group(kind))} inside a variation"
                    self._error(cur, pos, found, _IN_VARIATION)
            elif kind == LPAR:
                if len(cur.stack) >= MAX_DEPTH:
                    found = f'variation nested too deep: "(" at level {MAX_DEPTH + 1}, at most '
                    self._error(cur, pos, found + f"{MAX_DEPTH} are read", ["')'"])
                    continue
                if not cur.moved:
                    self._warn(cur.game, pos, "variation before any move kept as a comment")
                inner: list[Item] = []
                level.append((VARIATION, inner, pos))
                cur.stack.append((level, pos, cur.moved))
                cur.level, cur.moved = inner, False
                cur.end = m.end()
            elif kind == RPAR:
                if not cur.stack:
                    expected = _IN_GAME if cur.movetext else _BEFORE_MOVES
                    self._error(cur, pos, 'found ")" with no variation open', expected)
                    continue
                cur.level, _, moved = cur.stack.pop()
                cur.moved = moved
                cur.end = m.end()
            elif kind == JUNK:
                token = m.group(kind)
                if token[0] == "\\":
                    cur.escapes.append(self.text.where(pos)[0])
                else:
                    level.append((JUNK, token, pos))
                    self._warn(cur.game, pos, f"junk {token!r} skipped")
                cur.end = m.end()
            elif kind == ERROR:
                self._error_char(cur, m.group(kind), pos)
            else:  # COMMENT, LINE_COMMENT, PAREN_COMMENT, NAG, SETUP
                if kind == NAG and not cur.moved:
                    self._warn(cur.game, pos, f"NAG {m.group(kind)} before any move ignored")
                elif kind == SETUP:
                    cur.movetext = True
                    cur.moved = False
                level.append((kind, m.group(kind), pos))
                cur.end = m.end()

    def _outside(self, m: re.Match[str], kind: str, pos: int) -> bool:
        """A token outside any game: True when it starts one (then it is read as its first).

        Comments, NAGs, setups, pseudo-tags, move numbers and punctuation wait for the game that
        may follow; words, stray characters and a move after them on its line are text outside
        any game.
        """
        token = m.group(kind)
        if kind == TAGS:
            if _tag_pairs(token)[2]:
                self._start(pos)
                return True
            self.pending.append((kind, token, pos))
            return False
        if kind in _RUNS:
            if not _moves(kind, token):
                self.pending.append((RUN, token, pos))
                return False
            if self._line_is_clean(pos) and _squares_moved(kind, token):
                self._start(pos)
                return True
        elif kind in _WAITING:
            self.pending.append((kind, token, pos))
            return False
        elif kind == JUNK and token[0] == "\\" and self.ended is not None and self.outside < 0:
            self.ended.escapes.append(self.text.where(pos)[0])  # the export's line end
            return False
        elif kind == JUNK and not token[-1].isalpha():  # punctuation, brackets
            self.pending.append((kind, token, pos))
            return False
        elif kind in _ENDS and self.ended is not None and self.outside < 0 and not self.pending:
            self._glue(self.ended, m.end())  # a second end to the game just ended ("1-0 *")
            self._warn(self.ended.game, pos, f"second game end {_show(token)} ignored")
            return False
        self._settle_pending()
        if self.outside < 0:
            self.outside = pos
        self.outside_end = m.end()
        return False

    def _line_is_clean(self, pos: int) -> bool:
        """Whether no text outside any game stands before *pos* on its line."""
        return self.outside_end < 0 or self.text.text.rfind("\n", self.outside_end, pos) >= 0

    def _settle_pending(self) -> None:
        """Items held outside a game that no game took: comments trail the game that just
        ended; anything else is text outside any game."""
        if not self.pending:
            return
        _, token, pos = self.pending[-1]
        end = pos + len(str(token))
        trailing = all(k in _TRAILING for k, _, _ in self.pending)
        if self.ended is not None and self.outside < 0 and trailing:
            self._glue(self.ended, end)
        else:
            if self.outside < 0:
                self.outside = self.pending[0][2]
            self.outside_end = max(self.outside_end, end)
        self.pending = []

    def _glue(self, ended: _Ended, end: int) -> None:
        """Extend the game that just ended with what trails it: comments, a second result."""
        for kind, token, pos in self.pending:
            if kind == TAGS:
                for at, text in _tag_pairs(str(token))[1]:
                    self._warn(ended.game, pos + at, f"pseudo-tag {text} skipped", column=False)
            elif ended.loader is not None:
                ended.loader.items.append((kind, token, pos))
        self.pending = []
        ended.game.raw = self.text.text[ended.start : end]

    def _close_outside(self) -> None:
        if self.outside < 0:
            return
        text = self.text.text[self.outside : self.outside_end]
        line, column = self.text.where(self.outside)
        message = f"text outside any game skipped: {_show(text, 30)}"
        self.segments.append(_Segment(None, located(line, column, message)))
        self.outside = self.outside_end = -1

    # -- starting and finishing games -----------------------------------------------------------

    def _start(self, pos: int) -> None:
        self._close_outside()
        self.ended = None
        pending, self.pending = self.pending, []
        start = pending[0][2] if pending else pos
        source = Source(self.name, self.index, 0, 0, self.encoding)
        cur = self.cur = _Building(Game(source=source), start)
        self.index += 1
        for kind, token, at in pending:
            if kind == TAGS:
                self._tags(str(token), at)
                continue
            if kind == NAG:
                self._warn(cur.game, at, f"NAG {token} before any move ignored")
            elif kind == JUNK:
                self._warn(cur.game, at, f"junk {token!r} skipped")
            elif kind in (SETUP, RUN):
                cur.movetext = True
            cur.items.append((kind, token, at))
            cur.end = at + len(str(token))

    def _tags(self, token: str, pos: int) -> None:
        cur = self.cur
        assert cur is not None
        pairs, pseudo, _ = _tag_pairs(token)
        cur.game.tags.extend(pairs)
        for at, text in pseudo:
            self._warn(cur.game, pos + at, f"pseudo-tag {text} skipped", column=False)
        cur.end = pos + len(token)

    def _finish(self, terminator: str | None) -> None:
        cur = self.cur
        assert cur is not None
        self.cur = None
        game = cur.game
        if cur.stack and cur.skip_depth < 0:
            self._error_unclosed(cur)
        game.terminator = terminator
        drop_last = (
            terminator is None and game.syntax_error is None and _result_as_last_move(game, cur)
        )
        if drop_last:
            cur.plies -= 1
        if not len(game.tags) and not cur.has_move and game.syntax_error is None:
            self.index -= 1  # neither a tag nor a move: not a game
            if self.outside < 0:
                self.outside = cur.start
            self.outside_end = max(self.outside_end, cur.end)
            return
        text = self.text.text
        game.raw = text[cur.start : cur.end]
        row = self.text.row(cur.start)
        game.source.line = self.chunk.line + row
        game.source.offset = self.chunk.offsets[row]
        game._plies = cur.plies if game.syntax_error is None else 0  # a broken game: no moves
        loader = None
        if cur.items and not self.headers_only and game.syntax_error is None:
            loader = _Loader(cur.items, self.text, drop_last)
            game._body = None
            game._loader = loader
            game._plies = loader.plies
        self.segments.append(_Segment(game, escapes=cur.escapes))
        if terminator is not None:
            self.ended = _Ended(game, cur.start, loader, cur.escapes)

    def _decoded(self, game: Game, first: int, last: int) -> None:
        """Note a game whose rows *first* to *last* hold a line that is not UTF-8."""
        for row, byte in self.bad_lines:
            if first <= row <= last:
                game.source.encoding = "cp1252"
                message = f"not UTF-8 (byte 0x{byte:02X}): this game read as cp1252"
                game.warnings.insert(0, located(self.chunk.line + row, None, message))
                return

    def _too_large(self, chunk: Chunk) -> Game:
        encoding = "utf-8" if self.family == "bytes" else self.family
        offset = chunk.offsets[0] if chunk.offsets else 0
        source = Source(self.name, self.index, chunk.line, offset, encoding)
        self.index += 1
        game = Game(source=source)
        text, _ = _decode(chunk.lines)
        for m in _TAG_RE.finditer(text):
            pair = parse_tag(m.group())
            if pair:
                game.tags.add(*pair)
        message = (
            f"game too large: {chunk.too_large:,} bytes before the next game, over the limit "
            f"of {self.limit:,}; passed over unread"
        )
        game.syntax_error = PdnSyntaxError(self.name, chunk.line, 1, source.index, "", [], message)
        return game

    # -- errors and warnings --------------------------------------------------------------------

    def _warn(self, game: Game, pos: int, message: str, column: bool = True) -> None:
        line, col = self.text.where(pos)
        game.warnings.append(located(line, col if column else None, message))

    def _error(self, cur: _Building, pos: int, message: str, expected: list[str]) -> None:
        """A syntax error: the game keeps it, and the rest of the game is passed over."""
        line, column = self.text.where(pos)
        found = self.text.text[pos : pos + 20].split("\n", 1)[0].strip()
        if expected:
            message += "; expected " + (
                f"{', '.join(expected[:-1])} or {expected[-1]}" if len(expected) > 1
                else expected[0]
            )  # fmt: skip
        cur.game.syntax_error = PdnSyntaxError(
            self.name, line, column, cur.game.source.index, found, expected, message
        )
        cur.skip_depth = len(cur.stack)

    def _error_unclosed(self, cur: _Building) -> None:
        message = 'variation not closed: found "(" with no ")" before the end of the game'
        self._error(cur, cur.stack[0][1], message, [])
        cur.game.syntax_error.expected = ["')'"]  # type: ignore[union-attr]

    def _error_char(self, cur: _Building, char: str, pos: int) -> None:
        if char == "{":
            message = 'comment not closed: found "{" with no "}" before the next game'
            self._error(cur, pos, message, [])
            cur.game.syntax_error.expected = ["'}'"]  # type: ignore[union-attr]
            cur.end = len(self.text.text.rstrip())
            cur.skip_depth = _REST
            return
        message = (
            'found "}" outside a comment' if char == "}"
            else f"found unexpected character {_show(char)}"
        )  # fmt: skip
        expected = _IN_VARIATION if cur.stack else _IN_GAME if cur.movetext else _BEFORE_MOVES
        self._error(cur, pos, message, expected)
        cur.end = pos + 1

    def _skipping(self, cur: _Building, m: re.Match[str], kind: str, pos: int) -> bool:
        """A token after a syntax error: True when the rest of the chunk belongs to the game."""
        if cur.skip_depth == _REST:
            return True
        if kind == LPAR:
            cur.skip_depth += 1
        elif kind == RPAR:
            cur.skip_depth = max(0, cur.skip_depth - 1)
        elif kind == ERROR and m.group(kind) == "{":
            cur.end = len(self.text.text.rstrip())
            return True
        elif cur.skip_depth == 0 and kind in _ENDS:
            cur.end = m.end()
            self._finish(m.group(kind))
            return False
        elif cur.skip_depth == 0 and kind == TAGS:
            if cur.movetext:
                self._finish(None)
                self._start(pos)
            self._tags(m.group(kind), pos)
            return False
        elif kind in (RUN, PLAIN_RUN, SETUP):
            cur.movetext = True
        cur.end = m.end()
        return False


class _Loader:
    """Builds one game's movetext tree from its tokens when it is first asked for."""

    __slots__ = ("drop_last", "items", "text")

    def __init__(self, items: list[Item], text: _Text, drop_last: bool) -> None:
        self.items = items
        self.text = text
        self.drop_last = drop_last

    def plies(self) -> int:
        """The moves of the main line, counted from its tokens."""
        moves = sum(_moves(kind, str(token)) for kind, token, _ in self.items if kind in _RUNS)
        return moves - self.drop_last

    def __call__(self, game: Game) -> list[Node]:
        body: list[Node] = []
        self._add(body, self.items)
        if self.drop_last:
            for i in range(len(body) - 1, -1, -1):
                if isinstance(body[i], MoveNode):
                    del body[i]
                    break
        return body

    def _add(self, body: list[Node], items: list[Item]) -> None:
        """Append parse items to a movetext body (a variation at most MAX_DEPTH deep)."""
        for kind, token, pos in items:
            if kind == PLAIN_RUN:
                self._add_plain_run(body, str(token), pos)
            elif kind == RUN:
                self._add_run(body, str(token), pos)
            elif kind == VARIATION:
                nodes: list[Node] = []
                assert isinstance(token, list)
                self._add(nodes, token)
                move = _last_move(body)
                if move is not None:
                    move.variations.append(nodes)
                else:
                    body.append(CommentNode("(variation)"))
            elif kind in (COMMENT, LINE_COMMENT, PAREN_COMMENT):
                comment = _comment_text(str(token))
                last = body[-1] if body else None
                if isinstance(last, MoveNode) and not last.variations:
                    last.comments_after.append(comment)
                else:
                    body.append(CommentNode(comment))
            elif kind == NAG:
                move = _last_move(body)
                if move is not None:
                    move.nags.append(int(str(token)[1:]))
            elif kind == SETUP:
                fen = _FEN_VALUE.search(str(token))
                line, column = self.text.where(pos)
                body.append(SetupNode(fen.group(1) if fen else "", line, column))
            elif kind == JUNK:
                last = body[-1] if body else None
                text = str(token)
                if isinstance(last, MoveNode) and text[:1].isalpha():
                    last.comments_after.append(text)

    def _add_run(self, body: list[Node], value: str, pos: int) -> None:
        line, column = self.text.where(pos)
        line_start = 1 - column  # index where the token's first line starts
        scanned = 0
        append = body.append
        for m in _ELEMENT_RE.finditer(value):
            k = m.start()
            nl = value.rfind("\n", scanned, k)
            if nl >= 0:
                line += value.count("\n", scanned, k)
                line_start = nl + 1
            scanned = k
            a = m.group("a")
            if a is not None:  # a plain two-square move: the common case, built directly
                text = m.group(0)
                node = MoveNode(
                    text,
                    [a, m.group("b")],
                    m.group("sep") == "x",
                    raw=text,
                    line=line,
                    column=k - line_start + 1,
                )
            else:
                raw = m.group("move")
                if raw is None:
                    continue
                node = make_move(raw, m.group("strength") or "", line, k - line_start + 1)
            if body and isinstance(body[-1], CommentNode):
                _comments_before(body, node)
            append(node)

    def _add_plain_run(self, body: list[Node], value: str, pos: int) -> None:
        """_add_run() of a PLAIN_RUN token, whose words are move numbers ("12.") and moves
        written as numbers joined by "-" or "x": each move as the fast path there builds it."""
        line, column = self.text.where(pos)
        line_start = 1 - column  # index where the token's first line starts
        scanned = 0
        append = body.append
        for m in _WORD.finditer(value):
            word = m.group()
            if word[-1] == ".":
                continue
            k = m.start()
            nl = value.rfind("\n", scanned, k)
            if nl >= 0:
                line += value.count("\n", scanned, k)
                line_start = nl + 1
            scanned = k
            node = MoveNode(
                word,
                list(_PLAIN_WORDS[word]),
                "x" in word,
                raw=word,
                line=line,
                column=k - line_start + 1,
            )
            if body and isinstance(body[-1], CommentNode):
                _comments_before(body, node)
            append(node)


def _comments_before(body: list[Node], node: MoveNode) -> None:
    """The comments at the end of *body* moved onto *node*, the move they wait for."""
    while body and isinstance(body[-1], CommentNode):
        node.comments_before.insert(0, body.pop().text)  # type: ignore[union-attr]


_WORD = re.compile(r"\S+")
_PLAIN_KINDS = frozenset((PLAIN_RUN, RUN, COMMENT, LINE_COMMENT, PAREN_COMMENT, NAG, JUNK))


def plain_moves(game: Game) -> list[Sequence[str]] | None:
    """The squares of the main line's moves, read from the game's tokens without building its
    movetext tree, when the movetext holds no variation, no setup and no unknown move ``-``:
    then these are ``[n.squares for n in game.mainline()]``. None otherwise, and once the tree
    is built (then read Game.body)."""
    loader = game._loader
    if not isinstance(loader, _Loader) or game._body is not None:
        return None
    moves: list[Sequence[str]] = []
    for kind, token, _ in loader.items:
        if kind == PLAIN_RUN:  # words: move numbers ("12.") and moves ("32-28", "26x17x8")
            moves += filter(None, map(_PLAIN_WORDS.__getitem__, str(token).split()))
        elif kind == RUN:
            if _PLAIN_RUN.fullmatch(str(token)):
                moves += map(_PLAIN_WORDS.__getitem__, _PLAIN_MOVE.findall(str(token)))
                continue
            for a, _, b, number, move, _ in _ELEMENT_RE.findall(str(token)):
                if a:
                    moves.append((a, b))
                elif not number:
                    if move == "-":
                        return None
                    moves.append(_move_squares(move)[1])
        elif kind not in _PLAIN_KINDS:
            return None
    if loader.drop_last and moves:
        moves.pop()
    return moves


def _last_move(body: list[Node]) -> MoveNode | None:
    """The last move of a line since its last setup, where a NAG or a variation belongs."""
    for node in reversed(body):
        if isinstance(node, MoveNode):
            return node
        if isinstance(node, SetupNode):
            return None
    return None


def _comment_text(token: str) -> str:
    token = token[1:-1] if token.startswith(("{", "(")) else token[1:]
    return _WS.sub(" ", token).strip()


def _result_as_last_move(game: Game, cur: _Building) -> bool:
    """Whether the last "move" is the Result tag (such as 4-6 in Delft scoring); sets it."""
    result = game.tags.get("Result")
    if not result or not cur.items:
        return False
    kind, last, _ = cur.items[-1]
    if kind not in _RUNS:
        return False
    moves = [m.group(0) for m in _ELEMENT_RE.finditer(str(last)) if not m.group("num")]
    if moves and moves[-1].replace(" ", "") == result.replace(" ", ""):
        game.terminator = result.strip()
        return True
    return False


# -- sources ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """A byte range of a file that starts at a game boundary."""

    start: int
    end: int  # exclusive
    line: int  # line number of the first line
    encoding: str  # 'bytes' or a UTF-16 form (see pdn.lines.sniff)
    index: int = 0  # 0-based index in the file of the range's first game


def whole_span(path: str | os.PathLike[str], size: int) -> Span | None:
    """The first *size* bytes of a file as one span: the file as it was, though it grows while
    it is read (None for a binary file, which is not read)."""
    with Path(path).open("rb") as fh:
        family = sniff(fh.read(BLOCK))
    return None if family == "binary" else Span(0, size, 1, family)


def game_spans(
    path: str | os.PathLike[str],
    parts: int,
    max_game_bytes: int | None = None,
    upto: int | None = None,
) -> list[Span]:
    """Cut a file (its first *upto* bytes if given) into about *parts* byte ranges of whole
    games (for parallel work). Each range starts at a tag line and knows the index of its first
    game: the games of the ranges are those of a read of the whole file, with the same
    indexes."""
    limit = game_size_limit(max_game_bytes)
    with Path(path).open("rb") as fh:
        family = sniff(fh.read(BLOCK))
        size = fh.seek(0, os.SEEK_END) if upto is None else upto
        fh.seek(0)
        if family == "binary":
            return [Span(0, size, 1, family)]
        target = max(1, size // max(1, parts))
        spans = [Span(0, size, 1, family)]
        reader = _Reader(shown_name(path), family, True, limit)
        for chunk in _chunks(binary_lines(fh, limit, encoding=family), 1, limit):
            at = chunk.offsets[0] if chunk.offsets else 0
            index = reader.index
            games = [s.game for s in reader.read(chunk) if s.game is not None]  # counted
            # not at a chunk without a game, or at a lone tag (it may end the file: the game
            # before it takes its warning)
            far = at - spans[-1].start >= target
            if chunk.tag_start and far and games and not _lone_tag(games[0]):
                spans.append(Span(at, size, chunk.line, family, index))
    return [replace(s, end=e.start) for s, e in pairwise(spans)] + spans[-1:]


@dataclass(slots=True)
class _Opened:
    name: str
    family: str  # 'bytes', 'binary' or a UTF-16 form
    lines: Iterator[Batch]
    close: Callable[[], None]
    at_end: Callable[[], bool]  # whether the read reached the end of the file


def _open(source: PdnSource, span: Span | None, limit: int) -> _Opened:
    """Lines of any kind of source."""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        if str(source) == STDIN:
            return _open_binary(sys.stdin.buffer, shown_name(STDIN), limit)
        fh = path.open("rb")
        name = shown_name(path)
        if span is not None:
            fh.seek(span.start)
            lines = binary_lines(fh, limit, span.start, span.end, span.encoding)
            return _Opened(name, span.encoding, lines, fh.close, lambda: not fh.read(1))
        opened = _open_binary(fh, name, limit)
        opened.close = fh.close
        return opened
    name = str(getattr(source, "name", "<stream>"))
    if isinstance(source, io.TextIOBase):
        lines = text_lines(source, limit)
        return _Opened(name, "bytes", lines, lambda: None, lambda: True)
    return _open_binary(source, name, limit)  # type: ignore[arg-type]


def _open_binary(fh: BinaryIO, name: str, limit: int) -> _Opened:
    head = fh.read(BLOCK)
    family = sniff(head)
    rest = _Prefixed(head, fh)
    lines = binary_lines(rest, limit, encoding=family)  # type: ignore[arg-type]
    return _Opened(name, family, lines, lambda: None, lambda: True)


class _Prefixed:
    """A stream whose first bytes were read already."""

    def __init__(self, head: bytes, fh: BinaryIO) -> None:
        self.head = head
        self.fh = fh

    def read(self, n: int) -> bytes:
        if self.head:
            data, self.head = self.head[:n], self.head[n:]
            return data
        return self.fh.read(n)


# -- public API ----------------------------------------------------------------------------------


_UNITS = {
    "": 1,
    "k": 1 << 10,
    "kb": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
}
_SIZE = re.compile(r"\s*(\d+)\s*([a-z]*)\s*", re.I)


def parse_size(text: str) -> int:
    """A size such as ``4MB``, ``512k`` or ``1000000`` (bytes) in bytes; ValueError if none."""
    m = _SIZE.fullmatch(text)
    unit = _UNITS.get(m.group(2).lower()) if m else None
    if m is None or unit is None or int(m.group(1)) == 0:
        raise ValueError(f"not a size: {text!r} (write it as 4MB, 512KB or a number of bytes)")
    return int(m.group(1)) * unit


def game_size_limit(value: int | None = None) -> int:
    """The size limit of a game: *value*, else the environment's PDN_MAX_GAME_BYTES (how the
    commands pass their option to worker processes), else MAX_GAME_BYTES."""
    if value is not None:
        return value
    setting = os.environ.get(LIMIT_VARIABLE, "")
    return int(setting) if setting.isdigit() and int(setting) > 0 else MAX_GAME_BYTES


def read_games(
    source: PdnSource,
    *,
    select: Selector | None = None,
    headers_only: bool = False,
    span: Span | None = None,
    max_game_bytes: int | None = None,
) -> Generator[Game, None, None]:
    """Yield the games of a PDN file or stream one at a time.

    A game that does not parse is yielded with its tags and a ``syntax_error`` (a
    :class:`PdnSyntaxError`); reading goes on with the next game. ``headers_only`` keeps no
    movetext (:attr:`Game.body` is empty; :meth:`Game.ply_count` still counts the main line);
    ``select`` sees the tags of each game and only the games it accepts are yielded. Either way
    every game keeps the index, line and offset a full read gives it. A game or run of text
    larger than *max_game_bytes* (see :func:`game_size_limit`) is yielded as a game with a
    syntax error, unread. ``span`` (from :func:`game_spans`) reads one byte range of a file,
    its games with the indexes they have in the file. A path of ``-`` reads standard input.
    """
    limit = game_size_limit(max_game_bytes)
    yield from _read(_open(source, span, limit), select, headers_only, span, limit)


def _read(
    opened: _Opened, select: Selector | None, headers_only: bool, span: Span | None, limit: int
) -> Iterator[Game]:
    """The games of an opened source (see :func:`read_games`); closes it."""
    try:
        if opened.family == "binary":
            return
        reader = _Reader(opened.name, opened.family, headers_only, limit)
        reader.index = span.index if span else 0
        held: list[Game] = []  # games not yet yielded: text after them may still be theirs
        loose: list[GameWarning] = []  # warnings of outside text before the first game
        first_line = span.line if span else 1
        for chunk in _chunks(opened.lines, first_line, limit):
            segments = reader.read(chunk)
            games = [s.game for s in segments if s.game is not None]
            for i, seg in enumerate(segments):
                if seg.warning is None:  # a game
                    continue
                before = next((s.game for s in reversed(segments[:i]) if s.game), None)
                after = next((s.game for s in segments[i + 1 :] if s.game), None)
                if before is None and after is not None:
                    after.warnings.insert(0, seg.warning)
                elif before is not None:
                    before.warnings.append(seg.warning)
                elif held:
                    held[-1].warnings.append(seg.warning)
                else:
                    loose.append(seg.warning)
            if games and loose:
                games[0].warnings[:0] = loose
                loose = []
            held.extend(games)
            keep = 2 if held and _lone_tag(held[-1]) else 1
            while len(held) > keep:
                game = held.pop(0)
                if select is None or select(game.tags):
                    yield game
        if held and reader.index > 1 and opened.at_end() and _lone_tag(held[-1]):
            lone = held.pop()
            if held:
                tag = lone.raw.strip()
                held[-1].warnings.append(
                    located(lone.source.line, None, f"lone tag {tag} after the last game skipped")
                )
        for game in held:
            if select is None or select(game.tags):
                yield game
    finally:
        opened.close()


def _lone_tag(game: Game) -> bool:
    """A lone tag with nothing after it, such as [FILENAME ""]: when it ends a file, it is not a
    game of its own."""
    return (
        game.syntax_error is None
        and len(game.tags) == 1
        and not game.terminator
        and _TAG_RE.fullmatch(game.raw) is not None
    )


@dataclass(slots=True)
class ReadResult:
    """Per file: the games and the syntax errors, in file order."""

    games: list[Game] = field(default_factory=list)
    errors: list[PdnSyntaxError] = field(default_factory=list)


def game_files(
    paths: Iterable[str | os.PathLike[str]],
    problems: list[FileProblem],
    max_game_bytes: int | None = None,
) -> list[Path]:
    """The files under *paths* (see :func:`pdn.files.pdn_files`; standard input and pipes
    spooled) that hold at least one game; each other file is added to *problems*: not read, or
    "no games found" (neither a tag nor a move). Raises :class:`pdn.files.MissingPathError` as
    pdn_files does."""
    found = []
    for path in pdn_files(paths, problems):
        try:
            games = read_games(path, headers_only=True, max_game_bytes=max_game_bytes)
            if next(games, None) is None:
                problems.append(FileProblem(shown_name(path), "no games found"))
            else:
                found.append(path)
            games.close()
        except OSError as exc:
            problems.append(FileProblem(shown_name(path), f"not read: {exc.strerror or exc}"))
    return found


def read_file(source: PdnSource) -> ReadResult:
    """All games and syntax errors of one file (convenience over :func:`read_games`)."""
    result = ReadResult()
    for game in read_games(source):
        result.games.append(game)
        if game.syntax_error is not None:
            result.errors.append(game.syntax_error)
    return result


def read_string(text: str, file: str = "<string>") -> list[Game]:
    """The games of PDN text."""
    limit = game_size_limit()
    opened = _Opened(file, "bytes", string_lines(text, limit), _nothing, _yes)
    return list(_read(opened, None, False, None, limit))


def _nothing() -> None:
    """Nothing to close."""


def _yes() -> bool:
    """A string is read to its end."""
    return True
