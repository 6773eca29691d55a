"""A database of this schema written back in schema 15's layout, for the migration tests (the
layout checked against tests/data/schema15.sqlite, which the toolkit wrote at 7e5a000); and
:func:`written_back`, which every schemaN module of the tests writes its layout with."""

from __future__ import annotations

import struct
from collections.abc import Callable

from sqlalchemy import Connection, insert, select, text

from pdn.db.connection import connect
from pdn.db.migration import MATERIAL_STAGED_15, _laid_out
from pdn.db.schema import MATERIAL_STAGED


def written_back(db: str, version: int, layout: Callable[[Connection], None]) -> None:
    """Rewrite a database just made in an older *layout*, in one transaction, marked as
    written by schema *version*; its staged rows, if any, staged still (opening it for writing
    would move them in)."""
    engine = connect(db, False)
    with engine.begin() as conn:
        layout(conn)
        conn.execute(
            text("UPDATE pdn_meta SET value = :v WHERE key = 'schema_version'"), {"v": str(version)}
        )
    engine.dispose()


def as_schema_15(db: str) -> None:
    """Turn a database just made into what schema 15 wrote."""
    written_back(db, 15, layout_15)


def layout_15(conn: Connection) -> None:
    """This schema's rows as schema 15 wrote them: the staged material runs a row each
    (signature, game, first position, length), where this schema stages a row a game."""
    rows = [
        (signature, game, first, length)
        for game, runs in conn.execute(select(MATERIAL_STAGED.c.game, MATERIAL_STAGED.c.runs))
        for signature, first, length in struct.iter_unpack("<3I", runs)
    ]
    MATERIAL_STAGED.drop(conn)
    table = _laid_out(MATERIAL_STAGED_15, 15)
    table.create(conn)
    names = [c.name for c in table.columns]
    if rows:
        conn.execute(insert(table), [dict(zip(names, r, strict=True)) for r in rows])
