"""Decoding a chunk's lines (UTF-8, else the file's code page line by line with the bad lines
named), finding that code page from the text, and telling what a stream holds (a UTF-16 BOM,
UTF-8, or not UTF-8)."""

from __future__ import annotations

import codecs
import os
import re
from typing import BinaryIO

from pdn.read.lines import BLOCK, sniff

# -- decoding ------------------------------------------------------------------------------------


def _latin1_rest(exc: UnicodeError) -> tuple[str, int]:
    """The five bytes cp1252 leaves undefined, read as Latin-1."""
    assert isinstance(exc, UnicodeDecodeError)
    return exc.object[exc.start : exc.end].decode("latin-1"), exc.end


codecs.register_error("pdn-latin1", _latin1_rest)


# The code pages draughts archives are written in, when not in UTF-8: Western and Central
# European Windows, Cyrillic Windows, DOS and KOI8-R
CODE_PAGES = ("cp1252", "cp1251", "cp866", "koi8_r", "cp1250")


ENCODING_VARIABLE = "PDN_ENCODING"  # the code page the reading commands' --encoding sets


def code_page_named(name: str) -> str:
    """The codec name of the code page *name* (``KOI8-R`` -> ``koi8-r``); LookupError for an
    unknown one or one that is not a single-byte code page of text."""
    info = codecs.lookup(name)
    if info.name.startswith(("utf", "ascii")) or not _single_byte(info.name):
        raise LookupError(f"{name!r} is not a code page (choose e.g. {', '.join(CODE_PAGES)})")
    return info.name


def _single_byte(name: str) -> bool:
    """Whether the codec *name* maps every byte to one character."""
    try:
        return len(bytes(range(256)).decode(name, "replace")) == 256
    except (LookupError, TypeError):
        return False


def forced_code_page() -> str | None:
    """The code page --encoding set for this run (ENCODING_VARIABLE), if any."""
    value = os.environ.get(ENCODING_VARIABLE)
    return code_page_named(value) if value else None


def guess_code_page(data: bytes) -> str:
    """The code page of CODE_PAGES that *data* (text that is not UTF-8) is written in:
    charset-normalizer tells the script; between the Cyrillic pages, the one whose words are
    shaped as words are (lower case, capitalised or all capitals: a text read in the wrong one
    of them mixes the cases inside its words; charset-normalizer's own choice among them changed
    with its version 3.5); between the Western and the Central European page, whose letters it
    cannot tell apart in a few names, the one that reads more of the bytes as letters (cp1252
    when they read as many). A tie goes to the first page of the pair or to charset-normalizer."""
    from charset_normalizer import from_bytes  # imported when a file needs it (it is slow)

    best = from_bytes(data, cp_isolation=list(CODE_PAGES)).best()
    if best is None or best.encoding not in CODE_PAGES:
        return "cp1252"
    if best.encoding in _LATIN:
        return max(_LATIN, key=lambda page: _letters(data, page))
    pages = (best.encoding, *(page for page in _CYRILLIC if page != best.encoding))
    return max(pages, key=lambda page: _shaped_letters(data, page))


_LATIN = ("cp1252", "cp1250")  # the first wins a tie
_CYRILLIC = ("cp1251", "cp866", "koi8_r")
_WORD = re.compile(r"[^\W\d_]+")


def _letters(data: bytes, page: str) -> int:
    """How many of the bytes above ASCII read as letters in *page*."""
    text = data.decode(page, "pdn-latin1" if page == "cp1252" else "replace")
    return sum(1 for c in text if c > "\x7f" and c.isalpha())


def _shaped_letters(data: bytes, page: str) -> int:
    """How many letters above ASCII *data* read in *page* has in words of one shape: all lower
    case, all capitals, or a capital and then lower case."""
    words = _WORD.findall(data.decode(page, "replace"))
    return sum(
        sum(1 for c in word if c > "\x7f")
        for word in words
        if word.islower() or word.isupper() or (word[0].isupper() and word[1:].islower())
    )


def decode_lines(
    lines: list[bytes], code_page: str | None = None
) -> tuple[str, list[tuple[int, int]], str | None]:
    """The text of a chunk's lines, the (row, first bad byte) of each line that is not UTF-8,
    and the code page such lines are read in: *code_page*, else the one guess_code_page finds
    in them (the lines are decoded one by one only then)."""
    data = b"\n".join(lines)
    try:
        return data.decode("utf-8"), [], code_page
    except UnicodeDecodeError:
        pass
    texts, bad = [], []
    for row, line in enumerate(lines):
        try:
            texts.append(line.decode("utf-8"))
        except UnicodeDecodeError as exc:
            texts.append("")
            bad.append((row, line[exc.start]))
    if code_page is None:
        code_page = guess_code_page(b"\n".join(lines[row] for row, _ in bad))
    errors = "pdn-latin1" if code_page == "cp1252" else "replace"
    for row, _ in bad:
        texts[row] = lines[row].decode(code_page, errors)
    return "\n".join(texts), bad, code_page


def detect_encoding(fh: BinaryIO) -> str:
    """What a seekable binary stream holds from where it stands: 'utf-16-le' or 'utf-16-be'
    (BOM), 'utf-8-sig', 'utf-8', or the code page of the text that is not UTF-8 (--encoding's,
    else the one guess_code_page finds in the lines of the first block that are not UTF-8;
    the reader decodes each game so)."""
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
        encoding = forced_code_page() or guess_code_page(b"\n".join(_not_utf8(data)))
    fh.seek(start)
    return encoding


def _not_utf8(data: bytes) -> list[bytes]:
    """The lines of *data* that are not UTF-8 (a line cut at either end of the block counts)."""
    out = []
    for line in data.split(b"\n"):
        try:
            line.decode("utf-8")
        except UnicodeDecodeError:
            out.append(line)
    return out
