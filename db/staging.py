"""The tables an import fills through a staging table: the postings and the material runs.

An import appends the rows of the games it writes to a staging table, which has no index, and
moves them in once it has written its games: the positions, staged a row per game, become a
part of each row of the postings they reach (pdn.db.postings), the material runs, staged a row
each, a part of their signature's row (pdn.db.material); so each row is written once an
import, not once a game. The questions read the staged rows too, when there are any, so that
what a running or interrupted import wrote is found as well; the next import, or opening the
database for writing, moves them."""

from __future__ import annotations

import sqlite3

from sqlalchemy import Connection, Engine

from pdn.db.material import move_in as move_material_in
from pdn.db.postings import move_in, staged_in
from pdn.db.schema import MATERIAL_STAGED, STAGED

MOVING = 0x70646E6D6F766500  # PostgreSQL advisory lock of an import moving staged rows ("pdnmove")


def move_staged(conn: Connection, give_back: bool = True) -> None:
    """Move the staged rows into their tables: the positions into the postings
    (pdn.db.postings.move_in), the material runs into their signatures' rows
    (pdn.db.material.move_in); into SQLite, their pages given back (*give_back*) unless the
    database is vacuumed after. On PostgreSQL without the statement timeout (minutes on a
    million games), one mover at a time till the transaction ends (pdn.db.tallies.sum_tallies
    runs after it)."""
    if conn.dialect.name == "postgresql":  # rows staged meanwhile by another import stay
        conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
        # one mover at a time: two, each deleting rows the other inserts, could deadlock
        conn.exec_driver_sql(f"SELECT pg_advisory_xact_lock({MOVING})")
        move_in(conn)
        move_material_in(conn)
        return
    positions, runs = staged_in(conn, STAGED), staged_in(conn, MATERIAL_STAGED)  # nobody else
    if positions:
        move_in(conn)
    if runs:
        move_material_in(conn)
    if (positions or runs) and give_back:
        give_back_pages(conn)


def give_back_pages(conn: Connection) -> None:
    """Give an SQLite database's free pages back to the file system (a database made before
    schema 6 keeps them for the rows to come)."""
    driver = conn.connection.driver_connection
    assert driver is not None
    if driver.execute("PRAGMA auto_vacuum").fetchone()[0] != INCREMENTAL:
        return
    free = driver.execute("PRAGMA freelist_count").fetchone()[0]
    for _ in range(free):  # a page a step of the statement (Python's sqlite3 takes one step)
        driver.execute("PRAGMA incremental_vacuum")


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
