"""A byte stream as numbered lines, read in blocks so that memory stays flat.

CR, LF and CRLF all end a line; each line comes with the byte offset where it starts in the file.
A UTF-8 BOM is dropped; a file with a UTF-16 BOM is decoded and its lines handed on as UTF-8 (the
offsets stay those of the file). Bytes are not decoded otherwise: the reader decodes each game on
its own (UTF-8, else cp1252). A line longer than the size limit is never held: its bytes are
passed over and only its size is handed on.
"""

from __future__ import annotations

import codecs
import re
from collections.abc import Callable, Iterator
from typing import BinaryIO, TextIO

BLOCK = 1 << 20  # bytes read at a time
SNIFF = 8192  # bytes looked at to tell text from binary data

# (byte offset, the line's bytes without its line end); for a line over the size limit, its
# size in bytes instead of its bytes
Line = tuple[int, bytes | int]

_EOL = re.compile(rb"\r\n|\r|\n")
_TEXT_EOL = re.compile(r"\r\n|\r|\n")
_CONTROL = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")  # not tab, line ends, form feed, ESC


def sniff(head: bytes) -> str:
    """The encoding family of a file from its first bytes: 'utf-16-le', 'utf-16-be' (BOM),
    'binary' (many control bytes: not a text file) or 'bytes' (UTF-8, cp1252: decoded per game)."""
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
) -> Iterator[Line]:
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


def _byte_lines(read: Callable[[int], bytes], offset: int, limit: int) -> Iterator[Line]:
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
        last = len(parts) - 1
        uniform = eols if isinstance(eols, int) else 0
        for i, part in enumerate(parts):
            if i == last:  # no line end yet: the line continues in the next block
                if part:
                    size += len(part)
                    if size <= limit:
                        pending.append(part)
                    else:
                        pending.clear()
                position += len(part)
                break
            size += len(part)
            if size > limit:
                yield line_start, size
            elif pending:
                pending.append(part)
                yield line_start, b"".join(pending)
            else:
                yield line_start, part
            pending.clear()
            position += len(part) + (uniform or eols[i])  # type: ignore[index]
            line_start = position
            size = 0
        block = read(BLOCK)
    if size > limit:
        yield line_start, size
    elif size:
        yield line_start, b"".join(pending)


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
) -> Iterator[Line]:
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
        for m in _TEXT_EOL.finditer(text):
            part = text[pos : m.start()]
            size += len(part.encode(encoding))
            if size > limit:
                yield position, size
            else:
                yield position, "".join([*pending, part]).encode("utf-8", "surrogatepass")
            position += size + len(m.group().encode(encoding))
            pending, size, pos = [], 0, m.end()
        rest = text[pos:]
        size += len(rest.encode(encoding))
        if data:
            if size <= limit:
                pending.append(rest)
            else:
                pending.clear()
            continue
        if size > limit:
            yield position, size
        elif size:
            yield position, "".join([*pending, rest]).encode("utf-8", "surrogatepass")
        return


def text_lines(fh: TextIO, limit: int) -> Iterator[Line]:
    """The lines of a text stream as UTF-8 bytes; offsets count UTF-8 bytes."""
    position = 0
    first = True
    for line in fh:
        if first and line.startswith("\ufeff"):
            line = line[1:]
        first = False
        body = line.rstrip("\r\n")
        parts = body.split("\r")
        for i, part in enumerate(parts):
            data = part.encode("utf-8", "surrogatepass")
            yield position, (len(data) if len(data) > limit else data)
            position += len(data) + (1 if i < len(parts) - 1 else 0)
        position += len(line.encode("utf-8", "surrogatepass")) - len(
            body.encode("utf-8", "surrogatepass")
        )
