"""Game database: SQLAlchemy models, import and questions answered as pandas frames.

>>> from pdn.db import open_database            # doctest: +SKIP
>>> engine = open_database("games.db")          # an SQLite file, or a PostgreSQL URL
>>> from pdn.db.questions import GameFilter, find_games
>>> find_games(engine, GameFilter(player="Tinsley"), limit=10)

``open_database(url, create=True, readonly=False)`` checks the schema (made in an empty
database when *create*); see :func:`pdn.db.connection.open_database`.
"""

from __future__ import annotations

from typing import Any


def __getattr__(name: str) -> Any:
    """``open_database`` loaded when first used (SQLAlchemy is not imported before)."""
    if name == "open_database":
        from pdn.db.connection import open_database

        return open_database
    raise AttributeError(f"module 'pdn.db' has no attribute {name!r}")


__all__ = ["open_database"]
