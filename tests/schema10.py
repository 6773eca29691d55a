"""A database of this schema written back in schema 10's layout, for the migration tests (the
layout checked against tests/data/schema10.sqlite, which the toolkit wrote at 494545d)."""

from __future__ import annotations

from schema11 import layout_11
from schema15 import written_back
from sqlalchemy import Connection

COLUMNS = "digest BIGINT NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, move TEXT"


def as_schema_10(db: str) -> None:
    """Turn a database just made into what schema 10 wrote: no move_texts, the positions
    naming the move played by its text."""
    written_back(db, 10, layout_10)


def layout_10(conn: Connection) -> None:
    """This schema's tables as schema 10 laid them out (schema 11's layout first): the moves of
    the positions (staged ones too) as text."""
    layout_11(conn)
    chosen = "t.digest, t.game, t.ply, m.text"
    joined = "LEFT JOIN move_texts m ON m.id = t.move"
    relaid(conn, "positions", COLUMNS, "digest, game, ply", chosen, joined)
    relaid(conn, "positions_staged", COLUMNS, "", chosen, joined)
    conn.exec_driver_sql("DROP TABLE move_texts")


def relaid(
    conn: Connection, table: str, columns: str, key: str, chosen: str, joined: str, also: str = ""
) -> None:
    """*table* made anew with *columns*, its primary *key* (none: a staging table) and *also*
    (more constraints), its rows the *chosen* values of its rows as they were (t) *joined* to
    another table."""
    run = conn.exec_driver_sql
    sqlite = conn.dialect.name == "sqlite"
    run(f"ALTER TABLE {table} RENAME TO {table}_old")
    if not sqlite:  # the names the old table's constraints are given freed
        owned = f"SELECT conname FROM pg_constraint WHERE conrelid = '{table}_old'::regclass"
        for (name,) in run(owned).all():
            run(f"ALTER TABLE {table}_old RENAME CONSTRAINT {name} TO {name}_old")
    keyed = f", PRIMARY KEY ({key}){also}" if key else ""
    run(f"CREATE TABLE {table} ({columns}{keyed})" + (" WITHOUT ROWID" if sqlite and key else ""))
    run(f"INSERT INTO {table} SELECT {chosen} FROM {table}_old t {joined}")
    run(f"DROP TABLE {table}_old")
