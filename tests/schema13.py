"""A database of this schema written back in schema 13's layout, for the migration tests (the
layout checked against tests/data/schema13.sqlite, which the toolkit wrote at 75873b4)."""

from __future__ import annotations

from schema14 import layout_14
from schema15 import written_back
from sqlalchemy import Connection, insert, select, update

from pdn.db.material import unpacked
from pdn.db.migration import MATERIAL_13, _laid_out
from pdn.db.postings import recounted
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
        varints = recounted(data, short=False)
        conn.execute(update(PostingRow).where(PostingRow.prefix == prefix).values(data=varints))
