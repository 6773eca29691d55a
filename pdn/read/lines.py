"""A byte stream as numbered lines, read in blocks so that memory stays flat.

CR, LF and CRLF all end a line; each line comes with the byte offset where it starts in the file.
A UTF-8 BOM is dropped; a file with a UTF-16 BOM is decoded and its lines handed on as UTF-8 (the
offsets stay those of the file). Bytes are not decoded otherwise: the reader decodes each game on
its own (UTF-8, else the file's code page). A line longer than the size limit is never held: its
bytes are passed over and only its size is handed on. Lines are handed on in batches (a block's
lines), so that the reader can match a run of them at once.
"""

from __future__ import annotations

import codecs
import io
import re
from collections.abc import Callable, Iterator
from itertools import accumulate, repeat
from operator import add
from typing import BinaryIO, TextIO

BLOCK = 1 << 20  # bytes read at a time
SNIFF = 8192  # bytes looked at to tell text from binary data

# consecutive lines: (the byte offset of each, its bytes without its line end, 0); a line over
# the size limit is a batch of its own: ([its offset], [], its size in bytes)
Batch = tuple[list[int], list[bytes], int]
TEXT_BATCH = 4096  # lines of a text stream handed on at a time

_EOL = re.compile(rb"\r\n|\r|\n")
_TEXT_EOL = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")  # not tab, line ends, form feed, ESC


def sniff(head: bytes) -> str:
    """The encoding family of a file from its first bytes: 'utf-16-le', 'utf-16-be' (BOM),
    'binary' (many control bytes: not a text file) or 'bytes' (UTF-8 or a code page: decoded
    per game)."""
    if head.startswith(codecs.BOM_UTF16_LE):
        return "utf-16-le"
    if head.startswith(codecs.BOM_UTF16_BE):
        return "utf-16-be"
    sample = head[:SNIFF]
    controls = len(_CONTROL.findall(sample))
    if controls >= 8 and controls * 20 >= len(sample):
        return "binary"
    return "bytes"


def binary_lines(
    fh: BinaryIO, limit: int, start: int = 0, end: int | None = None, encoding: str = "bytes"
) -> Iterator[Batch]:
    """The lines of *fh* from byte *start* (a line start) to *end* (exclusive, None: the end).

    *encoding* is what :func:`sniff` said of the file's start ('bytes' or a UTF-16 form).
    """
    remaining = None if end is None else end - start

    def read(n: int) -> bytes:
        nonlocal remaining
        if remaining is None:
            return fh.read(n)
        data = fh.read(min(n, remaining)) if remaining > 0 else b""
        remaining -= len(data)
        return data

    if encoding.startswith("utf-16"):
        return _utf16_lines(read, encoding, start, limit)
    return _byte_lines(read, start, limit)


def _byte_lines(read: Callable[[int], bytes], offset: int, limit: int) -> Iterator[Batch]:
    head = read(BLOCK)
    while 0 < len(head) < 3 and (more := read(BLOCK)):
        head += more
    skip = 3 if offset == 0 and head.startswith(codecs.BOM_UTF8) else 0
    pending: list[bytes] = []  # the start of a line that runs on into the next block
    size = 0  # bytes of that line so far
    line_start = offset
    block = head[skip:] or read(BLOCK)
    position = offset + skip  # file offset of block[0]
    while block:
        while block.endswith(b"\r") and (more := read(1)):  # a CRLF cut between two blocks
            block += more
        parts, eols = _split(block)
        rest = parts.pop()  # no line end yet: the line continues in the next block
        if parts:
            ends = repeat(eols) if isinstance(eols, int) else eols
            starts = list(accumulate(map(add, map(len, parts), ends), initial=position))
            position = starts.pop()
            starts[0] = line_start
            first = size + len(parts[0])  # the first line's size, its start in earlier blocks
            if pending and first <= limit:
                parts[0] = b"".join([*pending, parts[0]])
            yield from _within_limit(starts, parts, first, limit)
            pending.clear()
            line_start, size = position, 0
        if rest:
            size += len(rest)
            if size <= limit:
                pending.append(rest)
            else:
                pending.clear()
        position += len(rest)
        block = read(BLOCK)
    if size > limit:
        yield [line_start], [], size
    elif size:
        yield [line_start], [b"".join(pending)], 0


def _within_limit(starts: list[int], lines: list[bytes], first: int, limit: int) -> Iterator[Batch]:
    """The lines as batches, each line over the limit a batch of its own (*first*: the size of
    the first line, which may have begun in an earlier block)."""
    if first <= limit and max(map(len, lines)) <= limit:
        yield starts, lines, 0
        return
    kept = 0  # lines before this one not yet handed on
    for i, line in enumerate(lines):
        size = first if i == 0 else len(line)
        if size > limit:
            if kept < i:
                yield starts[kept:i], lines[kept:i], 0
            yield [starts[i]], [], size
            kept = i + 1
    if kept < len(lines):
        yield starts[kept:], lines[kept:], 0


def _split(block: bytes) -> tuple[list[bytes], int | list[int]]:
    """The block cut at its line ends, and the length of the line ends (one for all, or each)."""
    if b"\r" not in block:
        return block.split(b"\n"), 1
    if block.count(b"\r\n") == block.count(b"\r") == block.count(b"\n"):
        return block.split(b"\r\n"), 2
    parts, eols, pos = [], [], 0
    for m in _EOL.finditer(block):
        parts.append(block[pos : m.start()])
        eols.append(m.end() - m.start())
        pos = m.end()
    parts.append(block[pos:])
    return parts, eols


def _utf16_lines(
    read: Callable[[int], bytes], encoding: str, offset: int, limit: int
) -> Iterator[Batch]:
    """Lines of UTF-16 data as UTF-8 bytes, with the offsets of the UTF-16 file."""
    decoder = codecs.getincrementaldecoder(encoding)(errors="replace")
    position = offset  # where the current line starts
    pending: list[str] = []  # the start of a line that runs on into the next block
    size = 0  # its bytes in the file so far
    carry = ""  # a CR at the end of a block: a CRLF may be cut between two blocks
    first = True
    while True:
        data = read(BLOCK)
        text = carry + decoder.decode(data, final=not data)
        carry = ""
        if first and text:
            if text.startswith("\ufeff"):
                text, position = text[1:], position + 2
            first = False
        if data and text.endswith("\r"):
            carry, text = "\r", text[:-1]
        pos = 0
        starts: list[int] = []
        lines: list[bytes] = []
        for m in _TEXT_EOL.finditer(text):
            part = text[pos : m.start()]
            size += len(part.encode(encoding))
            if size > limit:
                if lines:
                    yield starts, lines, 0
                    starts, lines = [], []
                yield [position], [], size
            else:
                starts.append(position)
                lines.append("".join([*pending, part]).encode("utf-8", "surrogatepass"))
            position += size + len(m.group().encode(encoding))
            pending, size, pos = [], 0, m.end()
        if lines:
            yield starts, lines, 0
        rest = text[pos:]
        size += len(rest.encode(encoding))
        if data:
            if size <= limit:
                pending.append(rest)
            else:
                pending.clear()
            continue
        if size > limit:
            yield [position], [], size
        elif size:
            yield [position], ["".join([*pending, rest]).encode("utf-8", "surrogatepass")], 0
        return


def text_lines(fh: TextIO, limit: int) -> Iterator[Batch]:
    """The lines of a text stream as UTF-8 bytes; offsets count UTF-8 bytes."""
    position = 0
    first = True
    starts: list[int] = []
    lines: list[bytes] = []
    for line in fh:
        if first and line.startswith("\ufeff"):
            line = line[1:]
        first = False
        body = line.rstrip("\r\n")
        parts = body.split("\r")
        for i, part in enumerate(parts):
            data = part.encode("utf-8", "surrogatepass")
            if len(data) > limit:
                if lines:
                    yield starts, lines, 0
                    starts, lines = [], []
                yield [position], [], len(data)
            else:
                starts.append(position)
                lines.append(data)
            position += len(data) + (1 if i < len(parts) - 1 else 0)
        position += len(line.encode("utf-8", "surrogatepass")) - len(
            body.encode("utf-8", "surrogatepass")
        )
        if len(lines) >= TEXT_BATCH:
            yield starts, lines, 0
            starts, lines = [], []
    if lines:
        yield starts, lines, 0


def string_lines(text: str, limit: int) -> Iterator[Batch]:
    """The lines of *text* as :func:`text_lines` reads them from ``io.StringIO(text)``: cut
    at once where the text holds no CR (then LF alone ends a line)."""
    if "\r" in text:
        yield from text_lines(io.StringIO(text), limit)
        return
    lines = text.encode("utf-8", "surrogatepass").split(b"\n")
    if not lines[-1]:  # the text ends with a line end, or is empty
        lines.pop()
    if lines:
        lines[0] = lines[0].removeprefix(codecs.BOM_UTF8)
        starts = list(accumulate(map(add, map(len, lines), repeat(1)), initial=0))
        starts.pop()
        yield from _within_limit(starts, lines, len(lines[0]), limit)
