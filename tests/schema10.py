"""A database of this schema written back in schema 10's layout, for the migration tests (the
layout checked against tests/data/schema10.sqlite, which the toolkit wrote at 494545d)."""

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


COLUMNS = "digest BIGINT NOT NULL, game INTEGER NOT NULL, ply INTEGER NOT NULL, move TEXT"


def as_schema_10(db: str) -> None:
    """Turn a database just made into what schema 10 wrote: no move_texts, the positions
    naming the move played by its text."""
    written_back(db, 10, layout_10)


def layout_10(conn: Connection) -> None:
    """This schema's tables as schema 10 laid them out: the moves of the positions as text."""
    run = conn.exec_driver_sql
    sqlite = conn.dialect.name == "sqlite"
    run("ALTER TABLE positions RENAME TO positions_11")
    if not sqlite:  # the names the old table's constraints are given freed
        owned = "SELECT conname FROM pg_constraint WHERE conrelid = 'positions_11'::regclass"
        for (name,) in run(owned).all():
            run(f"ALTER TABLE positions_11 RENAME CONSTRAINT {name} TO {name}_11")
    run(
        f"CREATE TABLE positions ({COLUMNS}, PRIMARY KEY (digest, game, ply))"
        + (" WITHOUT ROWID" if sqlite else "")
    )
    run(
        "INSERT INTO positions SELECT t.digest, t.game, t.ply, m.text FROM positions_11 t LEFT "
        "JOIN move_texts m ON m.id = t.move"
    )
    run("DROP TABLE positions_11")
    run("DROP TABLE positions_staged")  # empty: the import moved its rows
    run(f"CREATE TABLE positions_staged ({COLUMNS})")
    run("DROP TABLE move_texts")
