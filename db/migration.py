"""Bringing a database made by an older schema up to this one, in the transaction that opens
it for writing: each step adds what its version added or rewrites what it changed."""

from __future__ import annotations

import zlib
from collections.abc import Callable
from itertools import groupby
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Connection,
    ForeignKey,
    Integer,
    MetaData,
    Table,
    Text,
    bindparam,
    text,
    update,
)

from pdn.db.material import added as added_runs
from pdn.db.positions import add_openings, opening_blob, opening_id
from pdn.db.postings import added, recounted
from pdn.db.schema import (
    CODED,
    HELD_TAGS,
    MATERIAL_STAGED,
    MOVE_TALLIES,
    NUMBERS,
    OPENING_PLIES_KEPT,
    OPENING_TALLIES,
    PLAYER_TALLIES,
    SCHEMA_VERSION,
    STAGED,
    TALLIES,
    AnalysisRow,
    BoardsRow,
    GameId,
    GameRow,
    MaterialRow,
    Meta,
    MoveText,
    Occurrence,
    OpeningRow,
    PostingRow,
    SquaresRow,
)
from pdn.db.staging import give_back_pages
from pdn.db.tallies import tallies_from_games
from pdn.db.texts import pack, pack_moves, unpack
from pdn.db.words import OLD_WORDS

PACKED_AT_ONCE = 2000  # games whose texts are read and packed at a time
ROWS_AT_ONCE = 256  # postings rows read and rewritten at a time (some 5 KiB each on the million)


_LAID_12 = MetaData()  # the positions and their staging table from schema 6 to 12, the
# material runs from 7 to 13 and their staging table from 7 to 15
POSITIONS_12 = Table(  # a row per position of each game (13 made the postings)
    "positions",
    _LAID_12,
    Column("digest", BigInteger, primary_key=True),
    Column("game", Integer, primary_key=True),
    Column("ply", Integer, primary_key=True),
    Column("move", Integer),
    sqlite_with_rowid=False,
)
STAGED_12 = Table(  # schema 12's staged positions: its columns, no key (13 stages a row a game)
    "positions_staged",
    _LAID_12,
    *(Column(c.name, c.type, nullable=c.nullable) for c in POSITIONS_12.columns),
)
MATERIAL_13 = Table(  # a row per run, keyed by signature (14 packed them a row per signature)
    "material",
    _LAID_12,
    Column("signature", Integer, primary_key=True),
    Column("game", Integer, ForeignKey("games.number"), primary_key=True),
    Column("first", Integer, primary_key=True),
    Column("length", Integer, nullable=False),
    sqlite_with_rowid=False,
)
MATERIAL_STAGED_15 = Table(  # a staged run a row (16 stages a row a game)
    "material_staged",
    _LAID_12,
    *(Column(name, Integer, nullable=False) for name in ("signature", "game", "first", "length")),
)
_LAYOUTS: dict[int, MetaData] = {}  # older schemas' tables, by version (see _laid_out)


def _laid_out(table: Table, version: int) -> Table:
    """*table* (positions, material or their staging tables) as schema *version* laid it out,
    for the steps to it: before 10 the game named by its id (game_id), before 11 the move by
    its text."""
    if version not in _LAYOUTS:  # with what the tables refer to
        _LAYOUTS[version] = MetaData()
        Table("games", _LAYOUTS[version], Column("id", GameId, primary_key=True),
              Column("number", Integer, unique=True))  # fmt: skip
    laid = _LAYOUTS[version]
    if table.name in laid.tables:
        return laid.tables[table.name]
    columns: list[Column[Any]] = []
    for c in table.columns:
        kept: dict[str, Any] = {"primary_key": c.primary_key, "nullable": c.nullable}
        if c.name == "game" and version < 10:
            refer = (ForeignKey("games.id") for _ in c.foreign_keys)
            columns.append(Column("game_id", GameId, *refer, **kept))
        elif c.name == "move" and version < 11:
            columns.append(Column("move", Text, nullable=True))
        else:
            refer = (ForeignKey(f.target_fullname) for f in c.foreign_keys)
            columns.append(Column(c.name, c.type, *refer, **kept))
    return Table(table.name, laid, *columns, sqlite_with_rowid=not table.primary_key)


def _add_analysis(conn: Connection) -> None:
    """Schema 4 to 5: the analysis table and its indexes."""
    AnalysisRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


FIRST_ID = -(1 << 63)  # below every game id: where a walk over the games in id order begins
OPENINGS_AT_ONCE = 10_000  # games whose opening digests are read and written at a time


def _to_6(conn: Connection) -> None:
    """Schema 5 to 6: positions for plies, the games' texts packed (statements over every row:
    on PostgreSQL without the statement timeout)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
    _positions_from_plies(conn)
    _compress_texts(conn)


def _positions_from_plies(conn: Connection) -> None:
    """Schema 5 to 6, part one: the plies (a row per move, with the positions before and after
    it) become positions (a row per position, with the move played from it), and each game
    keeps the digests of its first positions (games.opening)."""
    _laid_out(POSITIONS_12, 6).create(conn)
    _laid_out(STAGED_12, 6).create(conn)
    run = conn.exec_driver_sql
    run(  # every position a move was played from; then the last of each game; then the start
        "INSERT INTO positions (digest, game_id, ply, move) SELECT before, game_id, ply - 1, "
        "move FROM plies ORDER BY before, game_id, ply"
    )
    run(  # a game with no move: its start (stored as its last position) is all it reached
        "INSERT INTO positions (digest, game_id, ply, move) SELECT * FROM (SELECT p.after AS "
        "digest, p.game_id AS game_id, p.ply AS ply, NULL AS move FROM plies p WHERE NOT "
        "EXISTS (SELECT 1 FROM plies q WHERE q.game_id = p.game_id AND q.ply = p.ply + 1) "
        "UNION ALL SELECT final_hash, id, 0, NULL FROM games g WHERE final_hash IS NOT NULL "
        "AND NOT EXISTS (SELECT 1 FROM plies p WHERE p.game_id = g.id)) AS last "
        "ORDER BY digest, game_id"
    )
    empty = (
        "BYTEA NOT NULL DEFAULT ''"
        if conn.dialect.name == "postgresql"
        else "BLOB NOT NULL DEFAULT x''"
    )
    run(f"ALTER TABLE games ADD COLUMN opening {empty}")
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    games = text(f"SELECT id FROM games WHERE id > :last ORDER BY id LIMIT {OPENINGS_AT_ONCE}")
    firsts = text(
        f"SELECT game_id, after FROM plies WHERE game_id BETWEEN :low AND :high AND ply <= "
        f"{OPENING_PLIES_KEPT} ORDER BY game_id, ply"
    )
    last = FIRST_ID
    while ids := conn.execute(games, {"last": last}).scalars().all():
        rows = conn.execute(firsts, {"low": ids[0], "high": ids[-1]})
        kept = [
            (opening_blob([0, *(after for _, after in group)]), gid)
            for gid, group in groupby(rows, key=lambda row: int(row[0]))
        ]
        if kept:
            run(f"UPDATE games SET opening = {mark} WHERE id = {mark}", kept)
        last = ids[-1]
    run("DROP TABLE plies")
    run("DROP INDEX IF EXISTS ix_games_final_hash")


_AS_BYTES = {  # PostgreSQL: each column of schema 5 as bytea
    "game_hash": "decode(game_hash, 'hex')",
    "moves_hash": "decode(moves_hash, 'hex')",
    "pdn": "convert_to(pdn, 'UTF8')",
}


def _compress_texts(conn: Connection) -> None:
    """Schema 5 to 6, part two: each game's text packed and its two digests as bytes
    (pdn.db.texts), in place, a batch of games at a time in id order. PostgreSQL's columns
    become bytea first (the text as UTF-8, the digests decoded); SQLite's keep their declared
    types, which leave bytes as they are (a TEXT column converts only numbers). Values
    converted already are left alone."""
    if conn.dialect.name == "postgresql":
        if _column_type(conn, "pdn") == "bytea":
            return
        altered = ", ".join(f"ALTER COLUMN {c} TYPE bytea USING {b}" for c, b in _AS_BYTES.items())
        conn.exec_driver_sql(f"ALTER TABLE games {altered}")  # one rewrite of the table
        plain = "TRUE"
    else:
        plain = (
            "(typeof(pdn) = 'text' OR typeof(game_hash) = 'text' OR typeof(moves_hash) = 'text')"
        )
    batch = text(
        f"SELECT id, pdn, game_hash, moves_hash FROM games WHERE {plain} AND id > :after "
        "ORDER BY id LIMIT :n"
    )
    write = update(GameRow).where(GameRow.id == bindparam("gid"))
    write = write.values(pdn=bindparam("t"), game_hash=bindparam("g"), moves_hash=bindparam("m"))
    utf8 = conn.dialect.name == "postgresql"  # its texts are bytea by now, packed by none
    after = FIRST_ID
    while rows := conn.execute(batch, {"after": after, "n": PACKED_AT_ONCE}).all():
        converted = [  # PackedText and HexDigest convert what schema 5 wrote, pass bytes on
            {"gid": gid, "t": bytes(t).decode("utf-8") if utf8 else t, "g": g, "m": m}
            for gid, t, g, m in rows
        ]
        conn.execute(write, converted)
        after = rows[-1][0]


def _to_7(conn: Connection) -> None:
    """Schema 6 to 7: the material runs keyed by their signature, in one table without an index
    beside it, each game's moves packed, the indexes on variant and year gone for ones that
    hold the results too (on PostgreSQL without the statement timeout)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
    for index in ("ix_games_variant", "ix_games_year"):  # opening it makes their successors
        conn.exec_driver_sql(f"DROP INDEX IF EXISTS {index}")
    _material_by_signature(conn)
    _pack_moves(conn)
    if conn.dialect.name == "sqlite":  # the old material table's pages
        give_back_pages(conn)


def _material_by_signature(conn: Connection) -> None:
    """Schema 6 to 7, part one: the runs copied into a table keyed by signature, in its order."""
    run = conn.exec_driver_sql
    run("DROP INDEX IF EXISTS ix_material_signature")
    run("ALTER TABLE material RENAME TO material_6")
    if conn.dialect.name == "postgresql":  # constraints are named for the table: names freed
        for name in ("pkey", "game_id_fkey"):
            run(f"ALTER TABLE material_6 RENAME CONSTRAINT material_{name} TO material_6_{name}")
    _laid_out(MATERIAL_13, 7).create(conn)
    _laid_out(MATERIAL_STAGED_15, 7).create(conn)
    columns = "signature, game_id, first, length"
    run(
        f"INSERT INTO material ({columns}) SELECT {columns} FROM material_6 ORDER BY "
        "signature, game_id, first"
    )
    run("DROP TABLE material_6")


def _pack_moves(conn: Connection) -> None:
    """Schema 6 to 7, part two: games.moves packed as games.pdn is (pdn.db.texts), a batch of
    games at a time in id order; PostgreSQL's column becomes bytea first (the text as UTF-8).
    Values packed already are left alone."""
    utf8 = conn.dialect.name == "postgresql"
    if utf8:
        if _column_type(conn, "moves") == "bytea":
            return
        conn.exec_driver_sql(
            "ALTER TABLE games ALTER COLUMN moves TYPE bytea USING convert_to(moves, 'UTF8')"
        )
        plain = "TRUE"
    else:  # the column keeps its declared type, which leaves bytes as they are
        plain = "typeof(moves) = 'text'"
    batch = text(f"SELECT id, moves FROM games WHERE {plain} AND id > :after ORDER BY id LIMIT :n")
    write = text("UPDATE games SET moves = :m WHERE id = :gid")
    after = FIRST_ID
    while rows := conn.execute(batch, {"after": after, "n": PACKED_AT_ONCE}).all():
        packed = [{"gid": gid, "m": pack(bytes(m).decode("utf-8") if utf8 else m)}
                  for gid, m in rows]  # fmt: skip
        conn.execute(write, packed)
        after = rows[-1][0]


def _column_type(conn: Connection, column: str) -> str | None:
    """The data type PostgreSQL gives the games table's *column*."""
    return conn.execute(
        text(
            "SELECT data_type FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = 'games' AND column_name = :c"
        ),
        {"c": column},
    ).scalar()


def _to_8(conn: Connection) -> None:
    """Schema 7 to 8: the tallies, counted from the games (pdn.db.tallies; on PostgreSQL
    without the statement timeout)."""
    if conn.dialect.name == "postgresql":
        conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
    for table in (TALLIES, PLAYER_TALLIES, OPENING_TALLIES, MOVE_TALLIES):
        table.create(conn)
    tallies_from_games(conn)


def _to_9(conn: Connection) -> None:
    """Schema 8 to 9: the squares table, from the games' boards (pdn.db.search)."""
    from pdn.db.search import squares_from_boards  # (with the rules, which opening needs not)

    SquaresRow.__table__.create(conn)  # type: ignore[attr-defined]
    squares_from_boards(conn)


def _to_10(conn: Connection) -> None:
    """Schema 9 to 10: each game numbered in the order of its place, the positions and the
    material runs (staged ones too) naming their game by its number (on PostgreSQL without
    the statement timeout, and the numbers to come from the sequence)."""
    run = conn.exec_driver_sql
    postgresql = conn.dialect.name == "postgresql"
    if postgresql:
        run("SET LOCAL statement_timeout = 0")
        run("ALTER TABLE games ADD COLUMN number INTEGER")
    else:  # SQLite adds a column NOT NULL only with a default
        run("ALTER TABLE games ADD COLUMN number INTEGER NOT NULL DEFAULT 0")
    run(
        "UPDATE games SET number = r.n FROM (SELECT id, row_number() OVER (ORDER BY place) AS n "
        "FROM games) AS r WHERE games.id = r.id"
    )
    if postgresql:
        run("ALTER TABLE games ALTER COLUMN number SET NOT NULL")
        NUMBERS.create(conn)
        run(f"SELECT setval('{NUMBERS.name}', coalesce(max(number), 0) + 1, false) FROM games")
    run("CREATE UNIQUE INDEX ix_games_number ON games (number)")
    for table, staged, key in (
        (POSITIONS_12, STAGED_12, "digest, game, ply"),
        (MATERIAL_13, MATERIAL_STAGED_15, "signature, game, first"),
    ):
        for laid, order in ((table, key), (staged, "")):  # a staging table: in no order
            _rewritten(conn, _laid_out(laid, 10), 9, {"game": "g.number"},
                       "JOIN games g ON g.id = t.game_id", order)  # fmt: skip
    if not postgresql:  # the old tables' pages
        give_back_pages(conn)


def _to_11(conn: Connection) -> None:
    """Schema 10 to 11: each move's text once in move_texts, the most played first, and the
    positions (staged ones too) naming their move by its id (on PostgreSQL without the
    statement timeout)."""
    run = conn.exec_driver_sql
    postgresql = conn.dialect.name == "postgresql"
    if postgresql:
        run("SET LOCAL statement_timeout = 0")
    MoveText.__table__.create(conn)  # type: ignore[attr-defined]
    run(
        "INSERT INTO move_texts (text) SELECT move FROM (SELECT move FROM positions UNION ALL "
        "SELECT move FROM positions_staged) AS p WHERE move IS NOT NULL GROUP BY move "
        "ORDER BY count(*) DESC, move"
    )
    for table, order in ((POSITIONS_12, "digest, game, ply"), (STAGED_12, "")):
        _rewritten(conn, table, 10, {"move": "m.id"},
                   "LEFT JOIN move_texts m ON m.text = t.move", order)  # fmt: skip
    if not postgresql:  # the old tables' pages
        give_back_pages(conn)


BOARDS_AT_ONCE = 2000  # games whose boards are read and rewritten at a time


def _to_12(conn: Connection) -> None:
    """Schema 11 to 12: games.start_fen none for the games from their variant's start; no tags
    row for a value games holds in the tag's column (HELD_TAGS); each game's boards as XOR
    deltas (pdn.db.search.compressed), a batch of games at a time in id order (on PostgreSQL
    without the statement timeout)."""
    from pdn.db.search import boards_by_game, compressed, words  # (with the rules: see _to_9)
    from pdn.rules.pykernel import delta_columns

    postgresql = conn.dialect.name == "postgresql"
    if postgresql:
        conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
    conn.execute(update(GameRow).where(GameRow.from_start).values(start_fen=None))
    held = " ".join(f"WHEN '{tag}' THEN g.{column}" for tag, column in HELD_TAGS.items())
    conn.exec_driver_sql(
        f"DELETE FROM tags WHERE value = (SELECT CASE tags.name {held} END FROM games g "
        "WHERE g.id = tags.game_id)"
    )
    rewrite = (
        update(BoardsRow)
        .where(BoardsRow.game_id == bindparam("gid"))
        .values(data=bindparam("deltas"))
    )
    for rows in boards_by_game(conn, BOARDS_AT_ONCE):
        laid = ((gid, delta_columns(zlib.decompress(data), words(v))) for gid, v, data in rows)
        deltas = [(gid, compressed(columns)) for gid, columns in laid]
        conn.execute(rewrite, [{"gid": gid, "deltas": d} for gid, d in deltas])
    if not postgresql:  # the pages the shorter rows left
        give_back_pages(conn)


def _to_13(conn: Connection) -> None:
    """Schema 12 to 13: the positions become postings, a row per prefix of their digests
    (pdn.db.postings),
    read in key order, and the staged ones (a killed import's) added to them; the staging
    table made anew, a row a game (on PostgreSQL without the statement timeout)."""
    postgresql = conn.dialect.name == "postgresql"
    if postgresql:
        conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
    PostingRow.__table__.create(conn)  # type: ignore[attr-defined]
    for table in (POSITIONS_12, STAGED_12):
        added(conn, f"SELECT digest, game, ply, coalesce(move + 1, 0) FROM {table.name} "
                    "ORDER BY 1, 2, 3")  # fmt: skip
        table.drop(conn)
    STAGED.create(conn)
    if not postgresql:  # the old tables' pages
        give_back_pages(conn)


def _to_14(conn: Connection) -> None:
    """Schema 13 to 14: the material runs packed, a row per signature (pdn.db.material), read
    in key order; the staged ones (a killed import's) stay staged, in the same layout (on
    PostgreSQL without the statement timeout)."""
    postgresql = conn.dialect.name == "postgresql"
    if postgresql:
        conn.exec_driver_sql("SET LOCAL statement_timeout = 0")
    _renamed(conn, MATERIAL_13.name, 13)
    MaterialRow.__table__.create(conn)  # type: ignore[attr-defined]
    added_runs(conn, "SELECT signature, game, first, length FROM material_13 ORDER BY 1, 2, 3")
    conn.exec_driver_sql("DROP TABLE material_13")
    if not postgresql:  # the old table's pages
        give_back_pages(conn)


def _renamed(conn: Connection, name: str, old: int) -> None:
    """Table *name* renamed *name*_*old*, and on PostgreSQL its constraints too (they are named
    for the table): the names freed for the table's new layout."""
    run = conn.exec_driver_sql
    run(f"ALTER TABLE {name} RENAME TO {name}_{old}")
    if conn.dialect.name == "postgresql":
        names = conn.execute(
            text("SELECT conname FROM pg_constraint WHERE conrelid = CAST(:t AS regclass)"),
            {"t": f"{name}_{old}"},
        ).scalars()
        for was in names:
            run(f"ALTER TABLE {name}_{old} RENAME CONSTRAINT {was} TO {name}_{old}_"
                f"{was[len(name) + 1 :]}")  # fmt: skip


def _rewritten(
    conn: Connection, table: Table, old: int, new: dict[str, str], joined: str, order: str
) -> None:
    """A step from schema *old*, for one table: its rows copied into its *table* layout through
    the rows of its old layout (t) *joined* to another table, *new* giving a column's value
    where it is not the old one's; in *order* (none: a staging table)."""
    run = conn.exec_driver_sql
    name = table.name
    _renamed(conn, name, old)
    table.create(conn)
    columns = [c.name for c in table.columns]
    chosen = ", ".join(new.get(c, f"t.{c}") for c in columns)
    for column, value in new.items():
        order = order.replace(column, value)
    run(
        f"INSERT INTO {name} ({', '.join(columns)}) SELECT {chosen} FROM {name}_{old} t "
        f"{joined}{' ORDER BY ' if order else ''}{order}"
    )
    run(f"DROP TABLE {name}_{old}")


def _to_15(conn: Connection) -> None:
    """Schema 14 to 15: each game's moves packed with its text (pdn.db.texts.pack_moves); each
    distinct opening stored once (openings), games.opening its id; the postings' counts of 1
    to 3 in their bytes of widths; the games' words (variant, result, ending: CODED) as their
    numbers, a word of an older name (OLD_WORDS) as the new one's; games.final_hash dropped.
    On SQLite the games table and occurrences are written anew (occurrences without the
    rowid), the tables referring to games left referring to it (legacy_alter_table); on
    PostgreSQL the columns are altered in place, without the statement timeout."""
    run = conn.exec_driver_sql
    numbered = {name: _numbers_of(conn, name) for name in CODED}
    if conn.dialect.name == "postgresql":
        run("SET LOCAL statement_timeout = 0")
    _moves_with_texts(conn)
    _openings_apart(conn)
    _counts_in_widths(conn)
    if conn.dialect.name == "postgresql":
        for name, number in numbered.items():
            run(f"ALTER TABLE games ALTER COLUMN {name} TYPE smallint USING {number}")
        run("ALTER TABLE games DROP COLUMN final_hash")
        run("ALTER TABLE games ADD COLUMN opening_15 BIGINT")
        run("UPDATE games g SET opening_15 = m.opening FROM opening_15 m WHERE m.game = g.id")
        run("ALTER TABLE games DROP COLUMN opening")
        run("ALTER TABLE games RENAME COLUMN opening_15 TO opening")
        run("ALTER TABLE games ADD CONSTRAINT games_opening_fkey FOREIGN KEY (opening) "
            "REFERENCES openings (id)")  # fmt: skip
        run("DROP TABLE opening_15")
        return
    run("PRAGMA legacy_alter_table = ON")
    for table in ("games", "occurrences"):  # their indexes' names, for the new tables
        indexes = run(
            "SELECT name FROM sqlite_master WHERE type = 'index' AND tbl_name = ? AND sql "
            "IS NOT NULL",
            (table,),
        ).scalars()
        for index in list(indexes):
            run(f"DROP INDEX {index}")
    opened = {"opening": "(SELECT m.opening FROM opening_15 m WHERE m.game = t.id)"}
    _rewritten(conn, GameRow.__table__, 14, {**numbered, **opened}, "", "t.id")  # type: ignore[arg-type]
    _rewritten(conn, Occurrence.__table__, 14, {}, "", "t.file_id, t.file_index")  # type: ignore[arg-type]
    run("PRAGMA legacy_alter_table = OFF")
    run("DROP TABLE opening_15")
    give_back_pages(conn)


def _moves_with_texts(conn: Connection) -> None:
    """Each game's moves packed with its text, a batch of games at a time in id order."""
    batch = text("SELECT id, moves, pdn FROM games WHERE id > :after ORDER BY id LIMIT :n")
    write = text("UPDATE games SET moves = :m WHERE id = :gid")
    after = FIRST_ID
    while rows := conn.execute(batch, {"after": after, "n": PACKED_AT_ONCE}).all():
        packed = []
        for gid, moves, stored in rows:
            game = unpack(bytes(stored))
            packed.append({"gid": gid, "m": pack_moves(unpack(bytes(moves)), game)})
        conn.execute(write, packed)
        after = rows[-1][0]


def _counts_in_widths(conn: Connection) -> None:
    """Each postings row with its counts of 1 to 3 in their bytes of widths, as a new import
    writes them (pdn.db.postings.recounted), some rows at a time in key order."""
    batch = text("SELECT prefix, data FROM postings WHERE prefix > :after ORDER BY prefix LIMIT :n")
    write = text("UPDATE postings SET data = :d WHERE prefix = :p")
    after = -(1 << 31)
    while rows := conn.execute(batch, {"after": after, "n": ROWS_AT_ONCE}).all():
        counted = [(p, recounted(bytes(d)), len(d)) for p, d in rows]
        changed = [{"p": p, "d": d} for p, d, was in counted if len(d) != was]
        if changed:
            conn.execute(write, changed)
        after = rows[-1][0]


def _openings_apart(conn: Connection) -> None:
    """Each distinct games.opening stored in openings, by its id, and the temporary table
    opening_15 naming each game's (game id, opening id; none for a game of no ply), a batch of
    games at a time in id order."""
    OpeningRow.__table__.create(conn)  # type: ignore[attr-defined]
    conn.exec_driver_sql("CREATE TEMPORARY TABLE opening_15 (game BIGINT PRIMARY KEY, opening "
                         "BIGINT)")  # fmt: skip
    batch = text("SELECT id, opening FROM games WHERE id > :after ORDER BY id LIMIT :n")
    write = text("INSERT INTO opening_15 (game, opening) VALUES (:g, :o)")
    after = FIRST_ID
    while rows := conn.execute(batch, {"after": after, "n": OPENINGS_AT_ONCE}).all():
        blobs = [bytes(opening) for _, opening in rows]
        ids = [opening_id(blob) for blob in blobs]
        add_openings(conn, {i: blob for i, blob in zip(ids, blobs, strict=True) if i})
        conn.execute(write, [{"g": gid, "o": i} for (gid, _), i in zip(rows, ids, strict=True)])
        after = rows[-1][0]


def _numbers_of(conn: Connection, column: str) -> str:
    """SQL giving the number of each word games.*column* holds (see _to_15); a word it has no
    number for stops the step."""
    kind = CODED[column]
    found = conn.exec_driver_sql(f"SELECT DISTINCT {column} FROM games").scalars()
    unknown = sorted(w for w in found if w is not None and w not in kind.numbers and
                     w not in OLD_WORDS)  # fmt: skip
    if unknown:
        raise ValueError(f"games.{column} holds {unknown[0]!r}, which schema 15 cannot store")
    whens = [*kind.numbers.items(), *((old, kind.numbers[new]) for old, new in OLD_WORDS.items()
                                      if new in kind.numbers)]  # fmt: skip
    cases = " ".join(f"WHEN '{word}' THEN {n}" for word, n in whens)
    return f"CASE {column} {cases} END"


def _to_16(conn: Connection) -> None:
    """Schema 15 to 16: the material staging table made anew, a row a game; the runs staged in
    the old one (a killed import's) moved into their signatures' rows first (pdn.db.material)."""
    _renamed(conn, MATERIAL_STAGED.name, 15)
    added_runs(conn, "SELECT signature, game, first, length FROM material_staged_15 ORDER BY 1, "
                     "2, 3")  # fmt: skip
    conn.exec_driver_sql("DROP TABLE material_staged_15")
    MATERIAL_STAGED.create(conn)


STEPS: dict[int, Callable[[Connection], None]] = {  # from version N to N + 1
    4: _add_analysis,
    5: _to_6,
    6: _to_7,
    7: _to_8,
    8: _to_9,
    9: _to_10,
    10: _to_11,
    11: _to_12,
    12: _to_13,
    13: _to_14,
    14: _to_15,
    15: _to_16,
}


def can_migrate(version: int) -> bool:
    """Whether a database of schema *version* can be brought up to this one."""
    return version == SCHEMA_VERSION or (version in STEPS and can_migrate(version + 1))


def migrate(conn: Connection, facts: dict[str, str]) -> dict[str, str]:
    """The facts after bringing the database of *facts* up to this schema (nothing done when it
    is current, newer, or too old to migrate)."""
    written = facts.get("schema_version", "")
    if not written.isdecimal() or not can_migrate(int(written)):
        return facts
    version = int(written)
    while version < SCHEMA_VERSION:
        STEPS[version](conn)
        version += 1
    if str(version) != written:
        conn.execute(update(Meta).where(Meta.key == "schema_version").values(value=str(version)))
    return {**facts, "schema_version": str(version)}
