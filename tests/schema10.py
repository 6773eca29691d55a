"""A database of this schema written back in schema 10's layout, for the migration tests (the
layout checked against tests/data/schema10.sqlite, which the toolkit wrote at 494545d)."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, text

from pdn.db.connection import connect


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


COLUMNS = "digest BIGINT NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, move TEXT"


def as_schema_10(db: str) -> None:
    """Turn a database just made into what schema 10 wrote: no move_texts, the positions
    naming the move played by its text."""
    written_back(db, 10, layout_10)


def layout_10(conn: Connection) -> None:
    """This schema's tables as schema 10 laid them out: the moves of the positions (staged ones
    too) as text."""
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
