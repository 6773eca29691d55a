"""A database of this schema written back in schema 5's layout, for the migration tests (the
layout checked against tests/data/schema5.sqlite, which the toolkit wrote at 6814a9f)."""

from __future__ import annotations

import sqlite3

from schema6 import DECLARED_6, declare, layout_6
from schema15 import written_back
from sqlalchemy import Connection, text

from pdn.db.texts import unpack


def layout_5(conn: Connection) -> None:
    """This schema's tables as schema 5 laid them out, but for SQLite's declarations (schema 6's
    layout first): plies for positions, the texts and digests as text."""
    layout_6(conn)
    _plies(conn)
    _texts(conn)


def as_schema_5(db: str) -> None:
    """Turn a database just made into what schema 5 wrote: plies for positions (a row per move,
    with the positions before and after it, and their two indexes), no games.opening, an index
    on games.final_hash; the texts as text and the digests in hex, in columns of type text and
    varchar(32) (SQLite: in the table's declaration, edited as SQLite's documentation of ALTER
    TABLE allows for a change that leaves the file's format); schema 6's layout first."""
    written_back(db, 5, layout_5)
    if "://" in db:
        return
    declare(db, (*DECLARED_6, ("pdn BLOB", "pdn TEXT"), ("_hash BLOB", "_hash VARCHAR(32)")))
    with sqlite3.connect(db) as raw:
        (ddl,) = raw.execute("SELECT sql FROM sqlite_schema WHERE name = 'games'").fetchone()
        for column in ("game_hash VARCHAR(32) NOT NULL", "moves_hash VARCHAR(32),", "pdn TEXT NOT"):
            assert column in ddl
        assert raw.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        kinds = raw.execute(
            "SELECT DISTINCT typeof(pdn), typeof(game_hash), typeof(moves_hash) FROM games"
        ).fetchall()
        assert set(kinds) <= {("text", "text", "text"), ("text", "text", "null")}  # null: the
        # moves digest of a game that did not parse
    raw.close()


def _plies(conn: Connection) -> None:
    rowid = " WITHOUT ROWID" if conn.dialect.name == "sqlite" else ""
    run = conn.exec_driver_sql
    run("CREATE TABLE plies (game_id BIGINT NOT NULL REFERENCES games (id), ply INTEGER NOT "
        "NULL, move TEXT NOT NULL, before BIGINT NOT NULL, after BIGINT NOT NULL, PRIMARY "
        f"KEY (game_id, ply)){rowid}")  # fmt: skip
    run(
        "INSERT INTO plies SELECT p.game_id, p.ply + 1, p.move, p.digest, q.digest FROM "
        "positions p JOIN positions q ON q.game_id = p.game_id AND q.ply = p.ply + 1"
    )
    run("CREATE INDEX ix_plies_position ON plies (before, move, after)")
    run("CREATE INDEX ix_plies_opening ON plies (ply, after, game_id) WHERE ply <= 12")
    run("DROP TABLE positions")
    run("DROP TABLE positions_staged")
    run("ALTER TABLE games DROP COLUMN opening")
    run("CREATE INDEX ix_games_final_hash ON games (final_hash)")


def _texts(conn: Connection) -> None:
    rows = conn.execute(text("SELECT id, pdn, game_hash, moves_hash FROM games")).all()
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql(
            "ALTER TABLE games ALTER COLUMN pdn TYPE text USING '', ALTER COLUMN game_hash "
            "TYPE varchar(32) USING encode(game_hash, 'hex'), ALTER COLUMN moves_hash TYPE "
            "varchar(32) USING encode(moves_hash, 'hex')"
        )
    written = [
        {"gid": gid, "t": unpack(bytes(p)), "g": bytes(g).hex(), "m": m and bytes(m).hex()}
        for gid, p, g, m in rows
    ]
    conn.execute(
        text("UPDATE games SET pdn = :t, game_hash = :g, moves_hash = :m WHERE id = :gid"), written
    )
