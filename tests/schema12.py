"""A database of this schema written back in schema 12's layout, for the migration tests (the
layout checked against tests/data/schema12.sqlite, which the toolkit wrote at d0ddb1d)."""

from __future__ import annotations

import struct

from schema13 import layout_13
from schema15 import written_back
from sqlalchemy import Connection, insert, select

from pdn.db.migration import POSITIONS_12, STAGED_12
from pdn.db.postings import stored_postings
from pdn.db.schema import STAGED, PostingRow


def as_schema_12(db: str) -> None:
    """Turn a database just made into what schema 12 wrote: a row per position."""
    written_back(db, 12, layout_12)


def layout_12(conn: Connection) -> None:
    """This schema's rows as schema 12 wrote them (schema 13's layout first): the postings a
    row each in the positions table (digest, game, ply, move), in key order; the staged
    positions staged still, a row each."""
    layout_13(conn)
    rows = sorted((d, *p) for d, found in stored_postings(conn) for p in found)
    POSITIONS_12.create(conn)
    names = [c.name for c in POSITIONS_12.columns]
    if rows:
        conn.execute(insert(POSITIONS_12), [dict(zip(names, r, strict=True)) for r in rows])
    PostingRow.__table__.drop(conn)  # type: ignore[attr-defined]
    staged = [
        (d, g, p, m - 1 if m else None)
        for g, digests, moves in conn.execute(select(STAGED)).all()
        for p, ((d,), (m,)) in enumerate(
            zip(struct.iter_unpack("<q", digests), struct.iter_unpack("<I", moves), strict=True)
        )
    ]
    STAGED.drop(conn)
    STAGED_12.create(conn)
    if staged:
        conn.execute(insert(STAGED_12), [dict(zip(names, r, strict=True)) for r in staged])
