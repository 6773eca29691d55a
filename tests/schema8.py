"""A database of this schema written back in schema 8's layout, for the migration tests (the
layout checked against tests/data/schema8.sqlite, which the toolkit wrote at eecdb8e)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, text

from pdn.db.connection import open_database


def written_back(db: str, version: int, layout: Callable[[Connection], None]) -> None:
    """Rewrite a database just made in an older *layout*, in one transaction, marked as
    written by schema *version* (every schemaN module of the tests writes its layout so)."""
    engine = open_database(db)
    with engine.begin() as conn:
        layout(conn)
        conn.execute(
            text("UPDATE pdn_meta SET value = :v WHERE key = 'schema_version'"), {"v": str(version)}
        )
    engine.dispose()


def as_schema_8(db: str) -> None:
    """Turn a database just made into what schema 8 wrote: no squares table."""
    written_back(db, 8, layout_8)


def layout_8(conn: Connection) -> None:
    """This schema's tables as schema 8 laid them out: without the squares."""
    conn.exec_driver_sql("DROP TABLE squares")
