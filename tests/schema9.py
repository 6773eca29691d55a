"""A database of this schema written back in schema 9's layout, for the migration tests (the
layout checked against tests/data/schema9.sqlite, which the toolkit wrote at 7f80245)."""

from __future__ import annotations

from schema10 import layout_10, relaid
from schema15 import written_back
from sqlalchemy import Connection


def as_schema_9(db: str) -> None:
    """Turn a database just made into what schema 9 wrote: no games.number, the positions and
    the material runs naming their game by its id."""
    written_back(db, 9, layout_9)


KEYED = {  # schema 9's tables that named the game by its id: columns, key, reference
    "positions": ("digest BIGINT NOT NULL, game_id {id} NOT NULL, ply INTEGER NOT NULL, move "
                  "TEXT", "digest, game_id, ply", ""),
    "material": ("signature INTEGER NOT NULL, game_id {id} NOT NULL, first INTEGER NOT NULL, "
                 "length INTEGER NOT NULL", "signature, game_id, first",
                 ", FOREIGN KEY(game_id) REFERENCES games (id)"),
}  # fmt: skip


def layout_9(conn: Connection) -> None:
    """This schema's tables as schema 9 laid them out (schema 10's layout first): the games
    without their numbers."""
    layout_10(conn)
    run = conn.exec_driver_sql
    sqlite = conn.dialect.name == "sqlite"
    joined = "JOIN games g ON g.number = t.game"
    for table, (columns, key, reference) in KEYED.items():
        laid = columns.format(id="INTEGER" if sqlite else "BIGINT")
        names = (c.split()[0] for c in laid.split(", "))
        chosen = ", ".join("g.id" if n == "game_id" else f"t.{n}" for n in names)
        relaid(conn, table, laid, key, chosen, joined, reference)
        relaid(conn, f"{table}_staged", laid, "", chosen, joined)
    run("DROP INDEX ix_games_number")
    run("ALTER TABLE games DROP COLUMN number")
    if not sqlite:
        run("DROP SEQUENCE games_number_seq")
