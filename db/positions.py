"""The positions of the stored games: a row per position of a game's main line, keyed by the
position's digest, and the digests of each game's first positions kept with the game.

An import stages the rows of the games it writes (a table without an index, appended to) and
moves them into the positions table once it has written its games, sorted by digest: rows so
inserted fill the table's pages one after another, where rows inserted game by game land all
over them (see docs/speed.md). The questions read the staged rows too, when there are any, so
that what a running or interrupted import wrote is found as well; the next import, or opening
the database for writing, moves them.
"""

from __future__ import annotations

import sqlite3
import struct
from collections.abc import Sequence

from sqlalchemy import Connection, Engine, Select, Subquery, select, union, union_all

from pdn.db.schema import DIGEST_BYTES, OPENING_PLIES_KEPT, STAGED, PositionRow

Row = tuple[int, int, int, str | None]  # digest, game id, position, the move played from it


def position_rows(gid: int, digests: Sequence[int], moves: Sequence[str]) -> tuple[Row, ...]:
    """The rows of game *gid*: *digests* of its positions (the start, then after each of
    *moves*)."""
    return tuple(
        (digest, gid, i, moves[i] if i < len(moves) else None) for i, digest in enumerate(digests)
    )


OFFSET = 1 << 63  # digests are kept as unsigned numbers this much larger: bytes compared
# as SQL compares them then order them as numbers


def opening_blob(digests: Sequence[int]) -> bytes:
    """games.opening: the digests of the positions after the first OPENING_PLIES_KEPT plies
    (*digests* start with the start position's), DIGEST_BYTES each, big-endian, OFFSET
    added."""
    kept = [d + OFFSET for d in digests[1 : OPENING_PLIES_KEPT + 1]]
    return struct.pack(f">{len(kept)}Q", *kept)


def opening_digests(blob: bytes) -> list[int]:
    """The digests games.opening holds, in ply order."""
    return [d - OFFSET for d in struct.unpack(f">{len(blob) // DIGEST_BYTES}Q", blob)]


def reaching(engine: Engine, digest: int) -> Subquery:
    """The rows of the positions with *digest* (columns digest, game_id, ply, move), staged ones
    included when there are any (an import at work, or killed)."""
    stored = _stored().where(PositionRow.digest == digest)
    if not _any_staged(engine):  # one table: the database reads its key, nothing put aside
        return stored.subquery()
    return union_all(stored, _staged().where(STAGED.c.digest == digest)).subquery()


def every_position(engine: Engine) -> Subquery:
    """The rows of every position, staged ones included, each once (columns as
    :func:`reaching`: a game stored anew from an earlier place stages its rows again)."""
    if not _any_staged(engine):
        return _stored().subquery()
    return union(_stored(), _staged()).subquery()


def _any_staged(engine: Engine) -> bool:
    with engine.connect() as conn:
        return _staged_in(conn)


def _staged_in(conn: Connection) -> bool:
    """Whether any position is staged."""
    return conn.execute(select(STAGED.c.digest).limit(1)).first() is not None


def _stored() -> Select[int, int, int, str | None]:
    return select(PositionRow.digest, PositionRow.game_id, PositionRow.ply, PositionRow.move)


def _staged() -> Select[int, int, int, str | None]:
    return select(STAGED.c.digest, STAGED.c.game_id, STAGED.c.ply, STAGED.c.move)


COLUMNS = "digest, game_id, ply, move"


def move_staged(conn: Connection, give_back: bool = True) -> None:
    """Move the staged rows into the positions table in digest order (a row there already, as
    a game stored anew from an earlier place stages it again, stays as it is); into SQLite,
    their pages given back (*give_back*) unless the database is vacuumed after. One statement:
    on PostgreSQL without the statement timeout (minutes on a million games)."""
    table, staged = PositionRow.__tablename__, STAGED.name
    if conn.dialect.name == "postgresql":  # rows staged meanwhile by another import stay
        conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
        conn.exec_driver_sql(
            f"WITH moved AS (DELETE FROM {staged} RETURNING {COLUMNS}) INSERT INTO {table} "
            f"({COLUMNS}) SELECT {COLUMNS} FROM moved ORDER BY digest, game_id, ply "
            "ON CONFLICT DO NOTHING"
        )
        return
    if not _staged_in(conn):
        return
    conn.exec_driver_sql(  # the writer holds the database: nobody stages meanwhile
        f"INSERT OR IGNORE INTO {table} ({COLUMNS}) SELECT {COLUMNS} FROM {staged} "
        "ORDER BY digest, game_id, ply"
    )
    conn.exec_driver_sql(f"DELETE FROM {staged}")
    driver = conn.connection.driver_connection
    assert driver is not None
    if not give_back or driver.execute("PRAGMA auto_vacuum").fetchone()[0] != INCREMENTAL:
        return  # a database of schema 5 keeps its free pages for the rows to come
    free = driver.execute("PRAGMA freelist_count").fetchone()[0]
    for _ in range(free):  # the staged rows' pages given back, a page a step of the statement
        driver.execute("PRAGMA incremental_vacuum")  # (Python's sqlite3 takes one step)


INCREMENTAL = 2  # PRAGMA auto_vacuum: pages given back when asked (pdn.db.connection sets it)


def vacuum_database(engine: Engine) -> None:
    """Rewrite an SQLite database whole, its pages full (a new database's tables, written in the
    order of hash keys, leave about a tenth of its bytes empty: 516 MB against 463 for the
    100,000-game slice); not while another writer holds it, nor when it fails otherwise (a
    full disk): then it stays as it is, whole."""
    raw = engine.raw_connection()
    driver = raw.driver_connection
    assert driver is not None
    wait = driver.execute("PRAGMA busy_timeout").fetchone()[0]
    try:
        driver.execute("PRAGMA busy_timeout = 1000")
        driver.execute("VACUUM")
    except sqlite3.OperationalError:  # busy (another import writes), or no room for the copy
        pass
    finally:
        driver.execute(f"PRAGMA busy_timeout = {int(wait)}")
        raw.close()
