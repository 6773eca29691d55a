"""Text criteria as SQL conditions: players, event and site selected in the database as
:func:`pdn.archive.criteria.text_matches` selects them in files."""

from __future__ import annotations

from sqlalchemy import ColumnElement, Connection, Engine, func, select
from sqlalchemy.sql.elements import SQLCoreOperations

from pdn.archive.criteria import text_matches, whole_key
from pdn.archive.players import Aliases
from pdn.db.schema import NUL_SHOWN, GameRow


def spellings(
    conn: Connection, column: SQLCoreOperations[str | None], wanted: str
) -> list[str | None]:
    """The values of *column* stored that are *wanted* as a whole (:func:`whole_key`, in
    Python: SQL's lower() folds only ASCII letters, and trim() only spaces)."""
    key = whole_key(wanted)
    return [v for (v,) in conn.execute(select(column).distinct()) if whole_key(v) == key]


def text_condition(
    engine: Engine, column: SQLCoreOperations[str | None], text: str
) -> ColumnElement[bool]:
    """*column* meets the text criterion *text*: in SQL (:func:`_matches`); after ``=``, the
    values :func:`spellings` finds. A NUL is sought as stored (:data:`NUL_SHOWN`): SQLite's
    LIKE ends a pattern at a NUL."""
    text = text.replace("\x00", NUL_SHOWN)
    if text.startswith("="):
        with engine.connect() as conn:
            return column.in_(spellings(conn, column, text[1:]))
    return _matches(column, text)


def _matches(column: SQLCoreOperations[str | None], text: str) -> ColumnElement[bool]:
    """Case-insensitive: *text* anywhere in the value, every character literal (``%`` and
    ``_`` too); with ``*``, a pattern the whole value must match, ``*`` any run of characters."""
    low = func.lower(column)
    if "*" not in text:
        return low.contains(text.lower(), autoescape=True)
    pattern = text.lower().replace("/", "//").replace("%", "/%").replace("_", "/_")
    return low.like(pattern.replace("*", "%"), escape="/")


def player_condition(
    engine: Engine, column: SQLCoreOperations[str | None], text: str, aliases: Aliases | None
) -> ColumnElement[bool]:
    """*column* (White or Black) meets the text criterion *text*, the players under the names
    *aliases* give them if any."""
    if aliases is None:
        return text_condition(engine, column, text)
    return column.in_(_written(engine, text.replace("\x00", NUL_SHOWN), aliases))


def _written(engine: Engine, text: str, aliases: Aliases) -> list[str]:
    """The player names as written in the database that stand for a player whose name (as the
    aliases give it) matches *text* (pdn.archive.criteria.text_matches)."""
    with engine.connect() as conn:
        names = conn.execute(select(GameRow.white).union(select(GameRow.black))).scalars().all()
    return sorted(n for n in names if n is not None and text_matches(aliases.name(n), text))
