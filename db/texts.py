"""A game's PDN text as the games table stores it: one format byte, then the UTF-8 text as is
(``0``) or deflated (``1``: raw deflate, RFC 1951, with the preset dictionary db/texts.zdict),
whichever is shorter. SQLite and PostgreSQL store the same bytes, and every reader gets the text
back through the column's type (:class:`PackedText`). A game's moves are stored the same way
but deflated with the game's own text as the dictionary (``2``: :func:`pack_moves`), so they
are read with it (:func:`unpack_moves`). The games' hex digests are stored as the bytes they
spell (:class:`HexDigest`), read back as hex.

A game's text is some 500 bytes, too short for deflate to find much to repeat within it: the
dictionary, built from the corpus's game texts by benchmarks/textdict.py, gives it the header
lines and move runs games share (OCA_2.0.pdn's 11.5 MB of text: 6.9 MB deflated alone, 4.1 MB
with the dictionary). Stored texts depend on the dictionary, so the file is never changed: a new
dictionary would come with a new format byte, the old one kept for the texts stored with it.
"""

from __future__ import annotations

import zlib
from pathlib import Path

from sqlalchemy import Dialect, LargeBinary, TypeDecorator

PLAIN = 0  # format byte: the UTF-8 text follows
DEFLATED = 1  # format byte: raw deflate with the dictionary texts.zdict follows
LEVEL = 6  # level 9 saved 0.2% more of OCA_2.0.pdn's text, for 10% more time
WINDOW_BITS = -15  # raw deflate with a 32 KiB window: no zlib header, checksum or dictionary id
MEM_LEVEL = 8
DICTIONARY_FILE = Path(__file__).with_name("texts.zdict")  # package data of pdn.db
DICTIONARY = DICTIONARY_FILE.read_bytes()
_PRIMED = zlib.compressobj(LEVEL, zlib.DEFLATED, WINDOW_BITS, MEM_LEVEL, zdict=DICTIONARY)


class DamagedText(ValueError):
    """Stored bytes that are not a text :func:`pack` wrote."""


def pack(text: str) -> bytes:
    """The stored form of *text* (NUL bytes are the caller's: see pdn.db.records)."""
    plain = text.encode("utf-8")
    deflater = _PRIMED.copy()  # the dictionary read in once: 30% less time than a new one
    deflated = deflater.compress(plain) + deflater.flush()
    if len(deflated) < len(plain):
        return bytes((DEFLATED,)) + deflated
    return bytes((PLAIN,)) + plain


def unpack(data: bytes) -> str:
    """The text :func:`pack` stored as *data*."""
    if not data or data[0] not in (PLAIN, DEFLATED):
        raise DamagedText(f"stored text of unknown format {data[:1]!r}")
    body = memoryview(data)[1:]
    if data[0] == DEFLATED:
        inflater = zlib.decompressobj(WINDOW_BITS, zdict=DICTIONARY)
        try:
            plain = inflater.decompress(body) + inflater.flush()
        except zlib.error as exc:
            raise DamagedText(f"stored text cannot be inflated: {exc}") from None
        if not inflater.eof or inflater.unused_data:
            raise DamagedText("stored text is cut short or followed by other bytes")
        return plain.decode("utf-8")
    return str(body, "utf-8")


WITH_TEXT = 2  # format byte of a game's moves: raw deflate with the game's text as dictionary


def pack_moves(moves: str, text: str) -> bytes:
    """A game's *moves* as games.moves stores them (schema 15): format byte WITH_TEXT, then
    deflated with the game's *text* (as games.pdn holds it) as the preset dictionary, where
    they mostly are already (OCA_2.0.pdn's moves: 1.4 MB, where deflated with the dictionary
    of texts they took 2.4); as is when that is shorter."""
    plain = moves.encode("utf-8")
    deflater = zlib.compressobj(LEVEL, zlib.DEFLATED, WINDOW_BITS, MEM_LEVEL, zdict=_zdict(text))
    deflated = deflater.compress(plain) + deflater.flush()
    if len(deflated) < len(plain):
        return bytes((WITH_TEXT,)) + deflated
    return bytes((PLAIN,)) + plain


def unpack_moves(data: bytes, text: str) -> str:
    """The moves :func:`pack_moves` stored as *data* for the game of *text* (or :func:`pack`,
    before schema 15)."""
    if data[:1] != bytes((WITH_TEXT,)):
        return unpack(data)
    inflater = zlib.decompressobj(WINDOW_BITS, zdict=_zdict(text))
    try:
        plain = inflater.decompress(memoryview(data)[1:]) + inflater.flush()
    except zlib.error as exc:
        raise DamagedText(f"stored moves cannot be inflated: {exc}") from None
    if not inflater.eof or inflater.unused_data:
        raise DamagedText("stored moves are cut short or followed by other bytes")
    return plain.decode("utf-8")


def _zdict(text: str) -> bytes:
    """*text* as a preset dictionary (which cannot be empty)."""
    return text.encode("utf-8") or b" "


class PackedText(TypeDecorator[str]):
    """A text column stored packed: bytes in the database (BLOB, bytea), the text when read. A
    value written as bytes is taken as packed already (an import packs in its workers and writes
    SQLite through the driver)."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | bytes | None, dialect: Dialect) -> bytes | None:
        """The stored form of *value*."""
        return pack(value) if isinstance(value, str) else value

    def process_result_value(self, value: bytes | None, dialect: Dialect) -> str | None:
        """The text stored as *value*."""
        return None if value is None else unpack(value)


def digest_bytes(digest: str | None) -> bytes | None:
    """A hex digest as the bytes it spells (None stays None)."""
    return None if digest is None else bytes.fromhex(digest)


class HexDigest(TypeDecorator[str]):
    """A hex digest stored as its bytes: half the room, in the table and in its index. A value
    written as bytes is taken as converted already (see pdn.db.store)."""

    impl = LargeBinary
    cache_ok = True

    def process_bind_param(self, value: str | bytes | None, dialect: Dialect) -> bytes | None:
        """The bytes *value* spells."""
        return digest_bytes(value) if isinstance(value, str) else value

    def process_result_value(self, value: bytes | None, dialect: Dialect) -> str | None:
        """The digest in hex, as it was written."""
        return None if value is None else bytes(value).hex()
