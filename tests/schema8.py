"""A database of this schema written back in schema 8's layout, for the migration tests (the
layout checked against tests/data/schema8.sqlite, which the toolkit wrote at eecdb8e)."""

from __future__ import annotations

from sqlalchemy import Connection, text

from pdn.db.connection import open_database


def as_schema_8(db: str) -> None:
    """Turn a database just made into what schema 8 wrote: no squares table."""
    engine = open_database(db)
    with engine.begin() as conn:
        layout_8(conn)
        conn.execute(text("UPDATE pdn_meta SET value = '8' WHERE key = 'schema_version'"))
    engine.dispose()


def layout_8(conn: Connection) -> None:
    """This schema's tables as schema 8 laid them out: without the squares."""
    conn.exec_driver_sql("DROP TABLE squares")
