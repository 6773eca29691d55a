"""Opening the database of a command: one line and an exit code when it cannot be used."""

from __future__ import annotations

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError

from pdn.cli.common import fail
from pdn.db.connection import DatabaseRefused, DatabaseUnavailable, masked, open_database


def open_db(db: str, create: bool = False) -> Engine:
    """The database, made if *create*, else opened read-only; one line and exit 2 (refused) or
    1 (unavailable) when it cannot be used."""
    try:
        return open_database(db, create=create, readonly=not create)
    except DatabaseUnavailable as exc:
        fail(str(exc), 1)
    except DatabaseRefused as exc:
        fail(str(exc))


def db_reason(exc: BaseException, db: str) -> str:
    """The first line of what the database said (never the statement or its values)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    lines = str(orig).strip().splitlines()
    return masked(lines[0] if lines else type(orig).__name__, db)
