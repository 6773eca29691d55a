"""The tallies: the games counted by what the statistics group them by, so that a question
over every game of a million reads a few thousand rows (pdn.db.questions).

``tallies`` counts the games by variant, year, whether they begin at the start, the position
after three plies, how they ended and their result (as the board reads it, by the side that
moved first, and as written), with the lowest place among each group's games; the
``player_tallies`` count each game for both its players by how it ended and its result.

A group may have several rows: an import appends the counts of each batch of games it writes,
in the batch's transaction (a game stored anew from an earlier place adds a row of no game at
that place, which can only lower its group's first place), and once it has written every game
sums each group's rows into one (:func:`sum_tallies`, with the staged rows' move). A question
sums the rows of each group it asks of: the same answer before and after, as after an import
that stopped. Games are never deleted and a stored game's grouped columns never change (they
are of its record: pdn.archive.identity), so the tallies always count what the games table
holds.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable
from typing import Any

from sqlalchemy import Connection, Table, func, select, union_all

from pdn.db.schema import PLAYER_TALLIES, TALLIES, GameRow

GROUPED = ("variant", "year", "from_start", "opening_hash", "termination", "winner", "outcome",
           "result")  # fmt: skip
PLAYER_GROUPED = ("termination", "winner", "outcome", "result")


def tally_rows(
    inserted: Iterable[dict[str, Any]], replaced: Iterable[dict[str, Any]]
) -> list[tuple[Any, ...]]:
    """The rows of ``tallies`` for games rows written anew (*inserted*) and games stored anew
    from an earlier place (*replaced*, counted before): one a group, in its columns' order."""
    games: Counter[tuple[Any, ...]] = Counter()
    first: dict[tuple[Any, ...], int] = {}
    for counted, rows in ((1, inserted), (0, replaced)):
        for row in rows:
            key = tuple(row[c] for c in GROUPED)
            games[key] += counted
            first[key] = min(first.get(key, row["place"]), row["place"])
    return [(*key, games[key], first[key]) for key in first]


def player_tally_rows(inserted: Iterable[dict[str, Any]]) -> list[tuple[Any, ...]]:
    """The rows of ``player_tallies`` for games rows written anew: one a group."""
    games: Counter[tuple[Any, ...]] = Counter()
    for row in inserted:
        grouped = tuple(row[c] for c in PLAYER_GROUPED)
        games[(row["white"], *grouped)] += 1
        games[(row["black"], *grouped)] += 1
    return [(*key, n) for key, n in games.items()]


def tallies_from_games(conn: Connection) -> None:
    """Fill the empty tallies from the games table (a database made before schema 8)."""
    g = GameRow.__table__.c
    keys = [g[c] for c in GROUPED]
    counted = select(*keys, func.count().label("games"), func.min(g.place).label("first"))
    conn.execute(TALLIES.insert().from_select(_columns(TALLIES), counted.group_by(*keys)))
    sides = union_all(
        *(select(g[side].label("player"), *(g[c] for c in PLAYER_GROUPED))
          for side in ("white", "black"))
    ).subquery()  # fmt: skip
    keys = [sides.c[c] for c in ("player", *PLAYER_GROUPED)]
    per_player = select(*keys, func.count().label("games")).group_by(*keys)
    conn.execute(PLAYER_TALLIES.insert().from_select(_columns(PLAYER_TALLIES), per_player))


def sum_tallies(conn: Connection) -> None:
    """Sum each group's rows into one (on PostgreSQL, the rows another import appends meanwhile
    stay as they are: the statement deletes and sums the rows it sees)."""
    for table in (TALLIES, PLAYER_TALLIES):
        keys = ", ".join(c.name for c in table.columns if c.name not in ("games", "first"))
        sums = "sum(games)" + (", min(first)" if "first" in table.c else "")
        every = ", ".join(_columns(table))
        if conn.dialect.name == "postgresql":
            conn.exec_driver_sql(
                f"WITH gone AS (DELETE FROM {table.name} RETURNING {every}) INSERT INTO "
                f"{table.name} ({every}) SELECT {keys}, {sums} FROM gone GROUP BY {keys}"
            )
            continue
        if not _summed(conn, table, keys):  # the writer holds the database meanwhile
            conn.exec_driver_sql(f"CREATE TEMP TABLE summed AS SELECT {keys}, {sums} FROM "
                                 f"{table.name} GROUP BY {keys}")  # fmt: skip
            conn.exec_driver_sql(f"DELETE FROM {table.name}")
            conn.exec_driver_sql(f"INSERT INTO {table.name} ({every}) SELECT * FROM summed")
            conn.exec_driver_sql("DROP TABLE summed")


def _summed(conn: Connection, table: Table, keys: str) -> bool:
    """Whether every group of *table* has one row."""
    groups = f"SELECT count(*) FROM (SELECT 1 FROM {table.name} GROUP BY {keys}) AS g"
    rows = conn.execute(select(func.count()).select_from(table)).scalar()
    return rows == conn.exec_driver_sql(groups).scalar()


def _columns(table: Table) -> list[str]:
    return [c.name for c in table.columns]
