"""Cutting a file's lines into chunks of whole games, so that one broken game never costs the
games after it and a chunk over the size limit is passed over as one game too large."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from itertools import accumulate, repeat
from operator import add

from pdn.read.lines import Batch
from pdn.rules.pyreader import game_end

# -- chunks --------------------------------------------------------------------------------------

TAG_RE = re.compile(
    r'\[[ \t]*[^\s"\[\]]+(?:[ \t]+[^\s"\[\]]+)*'
    r'(?:[ \t]*(?:"[^"\\\n]*+(?:\\.[^"\\\n]*+)*+"|"[^"\]\n]*|[^\]"\n]*))?[ \t]*\]'
)
_TAG_BYTES = re.compile(TAG_RE.pattern.encode())
TAG_PAIR_LINE = re.compile(rb'\[[ \t]*[A-Za-z_][^\s"\[\]]*[ \t]*"')  # [Name "...
_MISSING_BRACKET = re.compile(rb'^[A-Za-z][\w ]*\s"[^"]*"\]$')
_JUNK_AFTER_TAGS = re.compile(rb"^(?:\s|\\[rn])*$")
_SPECIAL = re.compile(rb"[{}();%]")
_COMMENT_STARTS = frozenset(b"%;{")
_KEEP_TAGS = 1 << 16  # of a chunk too large, this much of its tag section is kept
ODD_SPAN = 2048  # lines looked at at once for braces, parentheses, ";" and "%"


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


def _more_odd(odd: bytearray, lines: list[bytes]) -> None:
    """Add to *odd* the flags of the next ODD_SPAN of *lines* (see _odd_lines): found a span at
    a time as lines are read (a reader that stops early, such as the look at a file's first
    games, does not pay for a whole block)."""
    odd += _odd_lines(lines[len(odd) : len(odd) + ODD_SPAN])


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


def game_chunks(batches: Iterable[Batch], first_line: int, limit: int) -> Iterator[Chunk]:
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
    bracket_offset = bracket_size = 0  # where it is, and its bytes with the line end
    tag_start = False

    def chunk() -> Chunk:
        return Chunk(buf, start, offsets, warnings, tag_start, size if over else 0)

    from pdn.rules.position import core  # the kernel chosen (not loaded by what reads tags)

    plain_lines = core().plain_lines
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
        odd = bytearray()  # each line's flag (see _odd_lines), ODD_SPAN lines at a time
        i = 0
        while i < len(lines):
            if len(odd) == i:
                _more_odd(odd, lines)
            if buf and not (over or in_comment or bracket_line or depth):
                # the common lines of a game, added as they are: the kernel's loop (the lines
                # it leaves are read below, where it stopped)
                j, movetext, ended, size = plain_lines(lines, odd, i, movetext, ended, size, limit)
                buf += lines[i:j]
                offsets += starts[i:j]
                number += j - i
                i = j
                if i == len(odd):
                    continue
            offset, data = starts[i], lines[i]  # any other line
            i += 1
            number += 1
            stripped = data.strip()
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
            joined = 0  # the line of a lone "[" this line is joined to
            if bracket_line:
                if stripped[0] == 91:  # [
                    warnings.append((bracket_line, "stray '[' skipped"))
                else:
                    data = stripped = b"[" + stripped
                    joined = bracket_line
                bracket_line = 0
            if in_comment:
                if blank and stripped[0] == 91 and TAG_PAIR_LINE.match(stripped):
                    in_comment, depth, movetext = False, 0, True  # never closed: a new game here
                blank = False
            simple_tag = False
            late: tuple[int, str] | None = None  # a warning for the chunk this line is in
            if not in_comment:
                first = stripped[0]
                if first == 91:  # [
                    if stripped == b"[":
                        bracket_line, bracket_offset, bracket_size = number, offset, len(data) + 1
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
                        late = (number, f"tag without its '[' read as {shown!r}")
                        data = stripped = b"[" + stripped
                        boundary, movetext, simple_tag = movetext, False, True
                    elif first in _COMMENT_STARTS:
                        boundary = False
                    else:
                        # not "1-0" then "*"
                        boundary = ended and not game_end(stripped, alone=True)
                        # a line of moves that ends with tags ("0-1[Event ...]") opens the next game
                        movetext = not (stripped[-1] == 93 and _TAG_BYTES.search(stripped))
                if boundary and (buf or over):
                    lone = bool(joined) and not over and len(buf) > 1
                    if lone:  # the lone "[" opens the new chunk, so a span may start there
                        buf.pop()
                        offsets.pop()
                        size -= bracket_size
                    yield chunk()
                    buf, offsets, warnings, size, over = [], [], [], 0, False
                    depth, ended = 0, False
                    if lone:
                        buf, offsets, size = [b""], [bracket_offset], bracket_size
                        start, tag_start = joined, bool(TAG_PAIR_LINE.match(stripped))
                if late:
                    warnings.append(late)
            if not buf and not over:
                start = number
                tag_start = not joined and bool(TAG_PAIR_LINE.match(stripped))
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
                    ended = depth == 0 and game_end(tail)
            size += len(data) + 1
            if over:
                continue
            buf.append(data)
            offsets.append(offset)
            if size > limit:
                over = True
                _overflow(buf, offsets)
    if bracket_line:  # a lone "[" ends the lines read: no tag for it
        warnings.append((bracket_line, "stray '[' skipped"))
    if over or warnings or any(line.strip() for line in buf):
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
