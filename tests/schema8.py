"""A database of this schema written back in schema 8's layout, for the migration tests (the
layout checked against tests/data/schema8.sqlite, which the toolkit wrote at eecdb8e)."""

from __future__ import annotations

from schema9 import layout_9
from schema15 import written_back
from sqlalchemy import Connection


def as_schema_8(db: str) -> None:
    """Turn a database just made into what schema 8 wrote: no squares table."""
    written_back(db, 8, layout_8)


def layout_8(conn: Connection) -> None:
    """This schema's tables as schema 8 laid them out (schema 9's layout first): without the
    squares."""
    layout_9(conn)
    conn.exec_driver_sql("DROP TABLE squares")
