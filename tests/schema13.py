"""A database of this schema written back in schema 13's layout, for the migration tests (the
layout checked against tests/data/schema13.sqlite, which the toolkit wrote at 75873b4)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, insert, select, text

from pdn.db.connection import connect
from pdn.db.material import unpacked
from pdn.db.migration import MATERIAL_13, _laid_out
from pdn.db.schema import MaterialRow


def written_back(db: str, version: int, layout: Callable[[Connection], None]) -> None:
    """Rewrite a database just made in an older *layout*, in one transaction, marked as
    written by schema *version* (every schemaN module of the tests writes its layout so); its
    staged rows, if any, staged still (opening it for writing would move them in)."""
    engine = connect(db, False)
    with engine.begin() as conn:
        layout(conn)
        conn.execute(
            text("UPDATE pdn_meta SET value = :v WHERE key = 'schema_version'"), {"v": str(version)}
        )
    engine.dispose()


def as_schema_13(db: str) -> None:
    """Turn a database just made into what schema 13 wrote: a row per material run."""
    written_back(db, 13, layout_13)


def layout_13(conn: Connection) -> None:
    """This schema's rows as schema 13 wrote them: the material runs a row each (signature,
    game, first position, length), in key order; the staged runs staged still (the same
    layout)."""
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
