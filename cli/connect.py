"""Opening the database of a command: one line and an exit code when it cannot be used."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Engine
from sqlalchemy.exc import DBAPIError, SQLAlchemyError

from pdn.cli.common import Run, fail
from pdn.db.connection import DatabaseRefused, DatabaseUnavailable, masked, open_database, shown

if TYPE_CHECKING:
    from pdn.db.store import ImportStats


def open_db(db: str, create: bool = False, existing: bool = False) -> Engine:
    """The database, made if *create*, opened to write if *existing* (it must hold games), else
    opened read-only; one line and exit 2 (refused) or 1 (unavailable) when it cannot be used."""
    write = create or existing
    try:
        return open_database(db, create=write, readonly=not write, existing=existing)
    except DatabaseUnavailable as exc:
        fail(str(exc), 1)
    except DatabaseRefused as exc:
        fail(str(exc))


def db_reason(exc: BaseException, db: str) -> str:
    """The first line of what the database said (never the statement or its values)."""
    orig = exc.orig if isinstance(exc, DBAPIError) else exc
    lines = str(orig).strip().splitlines()
    return masked(lines[0] if lines else type(orig).__name__, db)


def import_into(db: str, files: list[Path]) -> tuple[ImportStats, int]:
    """*files* imported into a new database *db* (temporary) for a command that reads them
    from there, and how many could not be read or held no game (each told on stderr); a
    database or file error (a full disk) is one line naming *db*, exit 1."""
    from pdn.archive.parallel import Processes
    from pdn.db.store import import_paths

    run = Run(files, Processes(1), None)  # (its problem() tells of a file as a pipeline's does)
    engine = open_db(db, create=True)
    try:
        # not vacuumed: the database is read once, then gone
        stats = import_paths(engine, files, vacuum=False, on_problem=run.problem)
        return stats, run.problems
    except (OSError, SQLAlchemyError) as exc:
        fail(f"{shown(db)}: import stopped: {db_reason(exc, db)}", 1)
    finally:
        engine.dispose()
