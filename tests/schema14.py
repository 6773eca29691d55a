"""A database of this schema written back in schema 14's layout, for the migration tests (the
layout checked against tests/data/schema14.sqlite, which the toolkit wrote at 3c113aa)."""

from __future__ import annotations

from typing import Any, cast

from schema15 import layout_15, written_back
from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    String,
    Table,
    bindparam,
    insert,
    select,
    update,
)

from pdn.db.migration import _rewritten
from pdn.db.postings import postings_between
from pdn.db.schema import CODED, GameRow, Occurrence, OpeningRow
from pdn.db.texts import pack, unpack_moves

LAID_14 = MetaData()
Table("source_files", LAID_14, Column("id", Integer, primary_key=True))  # what games refer to
WIDTHS = {"outcome": 10, "winner": 10, "variant": 30, "variant_source": 20, "rules": 20,
          "termination": 30}  # the String lengths of schema 14's word columns  # fmt: skip


def _copied(column: Column[Any]) -> Column[Any]:
    """*column* for another table, with what it refers to."""
    return Column(
        column.name, column.type, *(ForeignKey(f.target_fullname) for f in column.foreign_keys),
        primary_key=column.primary_key, nullable=column.nullable, unique=column.unique,
        index=column.index, autoincrement=column.autoincrement,
    )  # fmt: skip


GAMES = cast(Table, GameRow.__table__)
OCCURRENCES = cast(Table, Occurrence.__table__)


def _games_14() -> Table:
    """The games table as schema 14 laid it out: words as text, final_hash after opening_hash,
    the opening's digests in games.opening."""
    columns: list[Any] = []
    for c in GAMES.columns:
        copied = _copied(c)
        if c.name in WIDTHS:
            copied.type = String(WIDTHS[c.name])
        if c.name == "opening":
            copied = Column("opening", LargeBinary, nullable=False)
        columns.append(copied)
        if c.name == "opening_hash":
            columns.append(Column("final_hash", BigInteger))
    indexes = [
        Index(i.name, *(c.name for c in i.columns), unique=i.unique, **i.dialect_kwargs)
        for i in GAMES.indexes
        if not any(c.index for c in i.columns)  # (an index=True column's is copied with it)
    ]
    return Table("games", LAID_14, *columns, *indexes)


GAMES_14 = _games_14()
OCCURRENCES_14 = Table("occurrences", LAID_14, *map(_copied, OCCURRENCES.columns))
FINAL_14 = Table("final_14", LAID_14, Column("game", BigInteger), Column("digest", BigInteger))


def as_schema_14(db: str) -> None:
    """Turn a database just made into what schema 14 wrote."""
    written_back(db, 14, layout_14)


def layout_14(conn: Connection) -> None:
    """This schema's rows as schema 14 wrote them: the games' moves packed as their texts are,
    their words as text, with final_hash (the digest of each game's last position, from the
    postings) and their openings' digests in games.opening (no openings table); occurrences
    with a rowid; schema 15's layout first."""
    layout_15(conn)
    rows = postings_between(conn, 0, 1 << 31).tolist()
    last: dict[int, tuple[int, int]] = {}
    for digest, game, ply, _ in rows:
        if ply >= last.get(game, (-1, 0))[0]:
            last[game] = (ply, digest)
    FINAL_14.create(conn)
    if last:
        conn.execute(insert(FINAL_14), [{"game": g, "digest": d} for g, (_, d) in last.items()])
    run = conn.exec_driver_sql
    rows = conn.execute(select(GameRow.id, GameRow.moves, GameRow.pdn)).all()
    if rows:  # the moves packed as texts
        conn.execute(
            update(GameRow).where(GameRow.id == bindparam("gid")).values(moves=bindparam("m")),
            [{"gid": g, "m": pack(unpack_moves(m, t))} for g, m, t in rows],
        )
    words = {name: _words_of(name) for name in CODED}
    final = "(SELECT f.digest FROM final_14 f WHERE f.game = t.number)"
    empty = "decode('', 'hex')" if conn.dialect.name == "postgresql" else "x''"
    opening = f"coalesce((SELECT o.digests FROM openings o WHERE o.id = t.opening), {empty})"
    if conn.dialect.name == "postgresql":  # in place (the tables referring to games stay so)
        for name, word in words.items():
            run(f"ALTER TABLE games ALTER COLUMN {name} TYPE varchar({WIDTHS[name]}) USING {word}")
        run("ALTER TABLE games ADD COLUMN final_hash BIGINT")
        run(f"UPDATE games t SET final_hash = {final}")
        run("ALTER TABLE games ADD COLUMN opening_14 bytea")
        run(f"UPDATE games t SET opening_14 = {opening}")
        run("ALTER TABLE games DROP COLUMN opening")
        run("ALTER TABLE games RENAME COLUMN opening_14 TO opening")
        run("ALTER TABLE games ALTER COLUMN opening SET NOT NULL")
    else:
        run("PRAGMA legacy_alter_table = ON")
        for table in (GAMES, OCCURRENCES):
            for index in table.indexes:
                run(f"DROP INDEX {index.name}")
        _rewritten(conn, GAMES_14, 15, {**words, "final_hash": final, "opening": opening}, "",
                   "t.id")  # fmt: skip
        _rewritten(conn, OCCURRENCES_14, 15, {}, "", "t.file_id, t.file_index")
        run("PRAGMA legacy_alter_table = OFF")
    FINAL_14.drop(conn)
    OpeningRow.__table__.drop(conn)  # type: ignore[attr-defined]


def _words_of(column: str) -> str:
    """SQL giving the word of each number games.*column* holds."""
    whens = " ".join(f"WHEN {n} THEN '{w}'" for w, n in CODED[column].numbers.items())
    return f"CASE {column} {whens} END"
