"""A database of this schema written back in schema 7's layout, for the migration tests (the
layout checked against tests/data/schema7.sqlite, which the toolkit wrote at 8c2e502)."""

from __future__ import annotations

from schema8 import layout_8
from schema15 import written_back
from sqlalchemy import Connection


def as_schema_7(db: str) -> None:
    """Turn a database just made into what schema 7 wrote: no squares, no tallies."""
    written_back(db, 7, layout_7)


def layout_7(conn: Connection) -> None:
    """This schema's tables as schema 7 laid them out (schema 8's layout first): without the
    tallies."""
    layout_8(conn)
    for table in ("tallies", "player_tallies", "opening_tallies", "move_tallies"):
        conn.exec_driver_sql(f"DROP TABLE {table}")
