"""Decoding a chunk's lines (UTF-8, else cp1252 line by line with the bad lines named), and
telling what a stream holds (a UTF-16 BOM, UTF-8, or not UTF-8)."""

from __future__ import annotations

import codecs
from typing import BinaryIO

from pdn.read.lines import BLOCK, sniff

# -- decoding ------------------------------------------------------------------------------------


def _latin1_rest(exc: UnicodeError) -> tuple[str, int]:
    """The five bytes cp1252 leaves undefined, read as Latin-1."""
    assert isinstance(exc, UnicodeDecodeError)
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


codecs.register_error("pdn-latin1", _latin1_rest)


def decode_lines(lines: list[bytes]) -> tuple[str, list[tuple[int, int]]]:
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
