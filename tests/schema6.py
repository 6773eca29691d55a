"""A database of this schema written back in schema 6's layout, for the migration tests (the
layout checked against tests/data/schema6.sqlite, which the toolkit wrote at e95e7dd)."""

from __future__ import annotations

import sqlite3

from schema7 import layout_7
from schema15 import written_back
from sqlalchemy import Connection, text

from pdn.db.texts import unpack


def as_schema_6(db: str) -> None:
    """Turn a database just made into what schema 6 wrote: no tallies, the material runs keyed
    by game and first position with an index on signature and length, no material_staged,
    indexes on the games' variant and year alone, the moves as text
    (SQLite: in a column declared TEXT, edited as SQLite's documentation of ALTER TABLE allows
    for a change that leaves the file's format)."""
    written_back(db, 6, layout_6)
    if "://" in db:
        return
    declare(db, DECLARED_6)
    with sqlite3.connect(db) as raw:
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert raw.execute("SELECT DISTINCT typeof(moves) FROM games").fetchall() == [("text",)]
    raw.close()


DECLARED_6 = (("moves BLOB", "moves TEXT"),)  # SQLite: how schema 6 declared games' columns


def declare(db: str, changes: tuple[tuple[str, str], ...]) -> None:
    """Edit the declaration of SQLite's games table: each (new, old) text replaced."""
    with sqlite3.connect(db) as raw:
        version = raw.execute("PRAGMA schema_version").fetchone()[0]
        raw.execute("PRAGMA writable_schema = ON")
        for new, old in changes:
            raw.execute(
                "UPDATE sqlite_schema SET sql = replace(sql, ?, ?) WHERE name = 'games'", (new, old)
            )
        raw.execute(f"PRAGMA schema_version = {version + 1}")
        raw.execute("PRAGMA writable_schema = OFF")
    raw.close()


def layout_6(conn: Connection) -> None:
    """This schema's tables rewritten as schema 6 laid them out (schema 7's layout first)."""
    layout_7(conn)
    _material(conn)
    _moves(conn)
    for column in ("variant", "year"):
        conn.exec_driver_sql(f"DROP INDEX ix_games_{column}_results")
        conn.exec_driver_sql(f"CREATE INDEX ix_games_{column} ON games ({column})")


def _material(conn: Connection) -> None:
    run = conn.exec_driver_sql
    sqlite = conn.dialect.name == "sqlite"
    run("ALTER TABLE material RENAME TO material_7")
    if not sqlite:  # the names the old table's constraints are given freed
        for name in ("pkey", "game_id_fkey"):
            run(f"ALTER TABLE material_7 RENAME CONSTRAINT material_{name} TO material_7_{name}")
    run(
        f"CREATE TABLE material (game_id {'INTEGER' if sqlite else 'BIGINT'} NOT NULL, first "
        "INTEGER NOT NULL, length INTEGER NOT NULL, signature INTEGER NOT NULL, PRIMARY KEY "
        "(game_id, first), FOREIGN KEY(game_id) REFERENCES games (id))"
        + (" WITHOUT ROWID" if sqlite else "")
    )
    run("INSERT INTO material SELECT game_id, first, length, signature FROM material_7")
    run("CREATE INDEX ix_material_signature ON material (signature, length)")
    run("DROP TABLE material_7")
    run("DROP TABLE material_staged")


def _moves(conn: Connection) -> None:
    rows = conn.execute(text("SELECT id, moves FROM games")).all()
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("ALTER TABLE games ALTER COLUMN moves TYPE text USING ''")
    written = [{"gid": gid, "m": unpack(bytes(m))} for gid, m in rows]
    conn.execute(text("UPDATE games SET moves = :m WHERE id = :gid"), written)
