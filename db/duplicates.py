"""Duplicates, listed as groups of games each named by file, index and line: in files (every
game replayed) or in a database (every place a game was read from), with the same groups for
the same files.

By copies: the same record (:mod:`pdn.archive.identity`). By moves: the same variant, start
and moves, whatever the headers (copies of a game are among them).
"""

from __future__ import annotations

import sqlite3
import tempfile
from collections.abc import Iterable
from contextlib import closing
from itertools import islice
from pathlib import Path

import pandas as pd
from sqlalchemy import BigInteger, Engine, cast, func, select

from pdn.archive.identity import Same, identify_paths
from pdn.db.records import PLACE_BITS
from pdn.db.schema import GameRow, Occurrence, SourceFile

COLUMNS = ["group", "file", "index", "line", "white", "black", "event", "date", "result"]


def file_duplicates(
    paths: Iterable[str | Path], by: Same, variant: str | None = None, rules: str = "common"
) -> pd.DataFrame:
    """The groups of duplicates among the games under *paths*, in reading order: each game's
    key and names written to an SQLite file in the temporary folder (TMPDIR) as the games are
    replayed, and the groups found there by SQL, in bounded memory (a dict of every game read
    held 973 MiB for the million-game benchmark archive)."""
    names = ", ".join(f'"{c}"' for c in COLUMNS[1:])
    grouped = (
        f'SELECT dense_rank() OVER (ORDER BY first) AS "group", {names} FROM (SELECT *, '
        "count(*) OVER same AS n, min(read) OVER same AS first FROM games WINDOW same AS "
        "(PARTITION BY key)) WHERE n > 1 ORDER BY first, read"
    )
    games = (
        (key, g.file, g.index, g.line, g.white, g.black, g.event, g.date, g.result)
        for g in identify_paths(paths, variant, rules)
        if (key := g.identity.key(by)) is not None
    )
    with (
        tempfile.TemporaryDirectory(prefix="pdn-duplicates-") as folder,
        closing(sqlite3.connect(Path(folder) / "games.db")) as conn,
    ):
        conn.execute(f"CREATE TABLE games (read INTEGER PRIMARY KEY, key TEXT, {names})")
        marks = ", ".join("?" * len(COLUMNS))  # the key, then the columns but the group
        insert = f"INSERT INTO games (key, {names}) VALUES ({marks})"
        while batch := list(islice(games, WRITTEN_AT_ONCE)):
            conn.executemany(insert, batch)
        return pd.read_sql_query(grouped, conn)


WRITTEN_AT_ONCE = 10_000  # games written to the temporary file at a time


def database_duplicates(engine: Engine, by: Same) -> pd.DataFrame:
    """The groups of duplicates among the places the games of a database were read from, in
    import order."""
    key = GameRow.id if by is Same.COPIES else GameRow.moves_hash
    read = (
        select(
            key.label("key"),
            func.count().over(partition_by=key).label("n"),
            func.min(cast(Occurrence.file_id, BigInteger) * 2**PLACE_BITS + Occurrence.file_index)
            .over(partition_by=key)
            .label("first"),
            SourceFile.path.label("file"),
            Occurrence.file_index.label("index"),
            Occurrence.line,
            GameRow.white,
            GameRow.black,
            GameRow.event,
            GameRow.date,
            GameRow.result,
            Occurrence.file_id,
        )
        .join(GameRow, GameRow.id == Occurrence.game_id)
        .join(SourceFile, SourceFile.id == Occurrence.file_id)
        .where(key.is_not(None))
        .subquery()
    )
    query = select(read).where(read.c.n > 1).order_by(read.c.first, read.c.file_id, read.c.index)
    with engine.connect() as conn:
        frame = pd.read_sql(query, conn)
    frame["group"] = (frame["first"] != frame["first"].shift()).cumsum()
    return frame[COLUMNS].reset_index(drop=True)
