"""A database of this schema written back in schema 13's layout, for the migration tests (the
layout checked against tests/data/schema13.sqlite, which the toolkit wrote at 75873b4)."""

from __future__ import annotations

from schema14 import layout_14, written_back
from sqlalchemy import Connection, insert, select, update

from pdn.db.material import unpacked
from pdn.db.migration import MATERIAL_13, _laid_out
from pdn.db.postings import RECORD_BYTES, varint, varint_at
from pdn.db.schema import MaterialRow, PostingRow


def as_schema_13(db: str) -> None:
    """Turn a database just made into what schema 13 wrote: a row per material run, and
    every count of postings a varint."""
    written_back(db, 13, layout_13)


def layout_13(conn: Connection) -> None:
    """This schema's rows as schema 13 wrote them: the material runs a row each (signature,
    game, first position, length), in key order; the staged runs staged still (the same
    layout); each digest's count of postings a varint after its byte of widths (schema 14
    wrote it so as well); schema 14's layout first."""
    layout_14(conn)
    rows = sorted(
        (sig, *run)
        for sig, data in conn.execute(select(MaterialRow.signature, MaterialRow.data))
        for run in unpacked(data).tolist()
    )
    MaterialRow.__table__.drop(conn)  # type: ignore[attr-defined]
    table = _laid_out(MATERIAL_13, 13)
    table.create(conn)
    names = [c.name for c in table.columns]
    if rows:
        conn.execute(insert(table), [dict(zip(names, r, strict=True)) for r in rows])
    for prefix, data in conn.execute(select(PostingRow.prefix, PostingRow.data)).all():
        conn.execute(
            update(PostingRow).where(PostingRow.prefix == prefix).values(data=_varints(data))
        )


def _varints(data: bytes) -> bytes:
    """A postings row's *data* with each count a varint (see pdn.db.postings)."""
    out = bytearray()
    at = 0
    while at < len(data):
        k, lows = varint_at(data, at)
        out += data[at : lows + 6 * k]  # the count of digests and their low bits
        at = lows + 6 * k
        for _ in range(k):
            head = data[at]
            n, at = (head >> 6, at + 1) if head >> 6 else varint_at(data, at + 1)
            size = n * RECORD_BYTES[head]
            out += bytes([head & 0x3F]) + varint(n) + data[at : at + size]
            at += size
    return bytes(out)
