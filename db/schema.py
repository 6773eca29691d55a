"""SQLAlchemy 2.0 models: games with their tags, moves and positions, the files they came from.

Text read from files goes into columns without a length limit, so that PostgreSQL stores what
SQLite stores.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    Column,
    ColumnElement,
    DateTime,
    Float,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    Sequence,
    String,
    Table,
    Text,
    func,
    text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

from pdn.db.texts import HexDigest, PackedText
from pdn.db.words import ENDINGS, OUTCOMES, RULES, SOURCES, VARIANT_NAMES, WINNERS, Coded

APPLICATION = "pdn-toolkit"
SCHEMA_VERSION = 16  # 2: game ids from the game hash, games.place; 3: a game is its record,
# material and boards tables (no release between the two changes, so one version); 4: games'
# termination says how the game really ended (a draw played past is no longer its ending)
# 5: the analysis table (pdn.db.migration adds it to a database of schema 4)
# 6: positions instead of plies (a row per position keyed by its digest), games.opening
# (and games.pdn holds the text packed, game_hash and moves_hash their bytes: pdn.db.texts)
# 7: material keyed by its signature (one copy, no index beside it), games.moves packed,
# the indexes on games' variant and year hold the results as well
# 8: the tallies: the games counted by what the statistics group them by (pdn.db.tallies)
# 9: the squares each kind of piece stood on in a game (pattern search reads only the games
# whose squares allow the pattern)
# 10: games.number, a small number per game in import order: the positions and the material
# runs name their game by it (3 bytes a row where the id takes 8)
# 11: move_texts, each move's text once: the positions name the move played by its id (1 or 2
# bytes a row where the text takes 4 to 8)
# 12: the boards rows hold each game's positions as XOR deltas (pdn.db.search.compressed), and
# games.start_fen is none for a game from its variant's start
# 13: postings: a row per 16-bit prefix of the digests, with every game reaching each of its
# positions (pdn.db.postings), where the positions table had a row per position of every game
# (20 bytes each); an import stages a row per game (positions_staged), where it staged a row
# per position
# 14: the material runs packed, a row per signature (pdn.db.material), where schema 13 had a
# row per run (some 15 bytes each)
# 15: the games' variant, result and ending stored as small numbers (pdn.db.words), no
# games.final_hash (nothing read it), occurrences without SQLite's rowid (its key was an index
# beside the table), the games' moves packed with their texts (pdn.db.texts.pack_moves), and
# each distinct opening once (openings), where each game kept its own
# 16: an import stages a game's material runs in one row (material_staged), where it staged a
# row per run
NUL_SHOWN = "\u2400"  # ␀: PostgreSQL text cannot hold NUL, so both databases store this
OPENING_PLIES_KEPT = 12  # openings: the digests of the positions after a game's first plies

CODED = {  # the games' columns of known words (pdn.db.words)
    "outcome": Coded(OUTCOMES), "winner": Coded(WINNERS), "variant": Coded(VARIANT_NAMES),
    "variant_source": Coded(SOURCES), "rules": Coded(RULES), "termination": Coded(ENDINGS),
}  # fmt: skip

# A game's id: the first 63 bits of its record hash, so the same game has the same id in any
# database and workers can write a game's rows without asking the database for an id first.
GameId = BigInteger().with_variant(Integer(), "sqlite")  # SQLite's INTEGER key holds 64 bits


class Base(DeclarativeBase):
    """Declarative base of the toolkit's tables."""


# A game's number: given when the game is first stored, in import order, and kept (see
# pdn.db.store.new_numbers): a table with a row per position or run names the game by it. On
# PostgreSQL, writers at once take the numbers from this sequence (SQLite has one writer).
NUMBERS = Sequence("games_number_seq", metadata=Base.metadata)


class Meta(Base):
    """Key/value facts about the database: which application made it, schema version."""

    __tablename__ = "pdn_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(Text)


class SourceFile(Base):
    """A PDN file that was imported (or is being imported)."""

    __tablename__ = "source_files"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(Text)
    sha256: Mapped[str] = mapped_column(String(64))
    size: Mapped[int] = mapped_column(BigInteger)
    encoding: Mapped[str] = mapped_column(String(20))
    complete: Mapped[bool] = mapped_column(Boolean, default=False)
    games: Mapped[int] = mapped_column(Integer, default=0)
    imported_at: Mapped[datetime] = mapped_column(DateTime)

    __table_args__ = (Index("ix_source_files_file", "sha256", "path", unique=True),)


class GameRow(Base):
    """One game: a record (headers, variant, start, moves) stored once, however many files
    hold a copy of it (see pdn.archive.identity)."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(GameId, primary_key=True, autoincrement=False)
    game_hash: Mapped[str] = mapped_column(HexDigest, unique=True)  # the record's identity
    moves_hash: Mapped[str | None] = mapped_column(HexDigest, index=True)  # variant+start+moves
    file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id"))
    file_index: Mapped[int] = mapped_column(Integer)  # 1-based, in the first file seen
    place: Mapped[int] = mapped_column(BigInteger, unique=True)  # import order: see store.place
    number: Mapped[int] = mapped_column(Integer)  # see NUMBERS
    line: Mapped[int] = mapped_column(Integer)
    event: Mapped[str | None] = mapped_column(Text)
    site: Mapped[str | None] = mapped_column(Text)
    date: Mapped[str | None] = mapped_column(Text)
    year: Mapped[int | None] = mapped_column(Integer)
    round: Mapped[str | None] = mapped_column(Text)
    white: Mapped[str | None] = mapped_column(Text)
    black: Mapped[str | None] = mapped_column(Text)
    result: Mapped[str | None] = mapped_column(Text)  # as written
    outcome: Mapped[str] = mapped_column(CODED["outcome"])  # first, second, draw, unknown
    winner: Mapped[str] = mapped_column(CODED["winner"])  # white, black, draw, unknown
    variant: Mapped[str | None] = mapped_column(CODED["variant"])
    variant_source: Mapped[str | None] = mapped_column(CODED["variant_source"])
    rules: Mapped[str] = mapped_column(CODED["rules"])
    start_fen: Mapped[str | None] = mapped_column(Text)  # none from the start (from_start)
    from_start: Mapped[bool] = mapped_column(Boolean)  # begins at its variant's start position
    termination: Mapped[str] = mapped_column(CODED["termination"])
    termination_ply: Mapped[int | None] = mapped_column(Integer)
    plies: Mapped[int] = mapped_column(Integer)
    valid: Mapped[bool] = mapped_column(Boolean)
    errors: Mapped[str] = mapped_column(Text)  # JSON list, as in the validate report
    moves: Mapped[bytes] = mapped_column(LargeBinary)  # main line, PDN 3.0 short forms, spaced,
    # packed with the game's text (pdn.db.texts.pack_moves: read with unpack_moves)
    opening_hash: Mapped[int | None] = mapped_column(BigInteger)  # position after 3 plies
    opening: Mapped[int | None] = mapped_column(ForeignKey("openings.id"))  # see OpeningRow
    pdn: Mapped[str] = mapped_column(PackedText)  # the game's text as read (first copy)

    __table_args__ = (
        # a variant's or a year's games, and their results counted from the index alone (on
        # PostgreSQL the game id as well, which the counts name: SQLite's is the row's key)
        Index(
            "ix_games_variant_results",
            "variant",
            "winner",
            "termination",
            postgresql_include=["id"],
        ),
        Index("ix_games_year_results", "year", "winner", "termination", postgresql_include=["id"]),
        Index("ix_games_number", "number", unique=True),  # a position's game, by its number
        # the invalid games in import order, without a scan of every game
        Index(
            "ix_games_invalid",
            "place",
            sqlite_where=text("valid = 0"),
            postgresql_where=text("valid = false"),
        ),
    )


class Occurrence(Base):
    """Each place a game was read from: the stored copy, and the other copies."""

    __tablename__ = "occurrences"
    file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id"), primary_key=True)
    file_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    line: Mapped[int] = mapped_column(Integer)
    game_id: Mapped[int] = mapped_column(GameId, ForeignKey("games.id"), index=True)
    duplicate: Mapped[bool] = mapped_column(Boolean)  # a copy: the game is stored from elsewhere
    run: Mapped[int] = mapped_column(BigInteger)  # the import that read it here (its random mark)

    __table_args__ = ({"sqlite_with_rowid": False},)


class TagRow(Base):
    """The tags of a game, in file order (position: its place among the game's tags), but one
    whose value games holds as written in the tag's own column (HELD_TAGS): each value is in
    one place, and a game's text (games.pdn) has them all."""

    __tablename__ = "tags"
    game_id: Mapped[int] = mapped_column(GameId, ForeignKey("games.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(Text)
    value: Mapped[str] = mapped_column(Text)

    __table_args__ = ({"sqlite_with_rowid": False},)


HELD_TAGS = {  # the tags with a column of their own in games (a Result tag of "*" or "?" is
    # not what the column holds: the result the movetext ends with); OCA_2.0.pdn's tags are all
    # of the roster: 3.8 MiB of tags rows where each value was in both places
    "Event": "event", "Site": "site", "Date": "date", "Round": "round",
    "White": "white", "Black": "black", "Result": "result",
}  # fmt: skip


class PostingRow(Base):
    """The positions of the stored games' main lines whose digests share their top 16 bits
    (*prefix*), each with its postings: each game reaching it (by games.number), at which ply
    (0 is the start) and with which move played from it (by move_texts.id; none from the
    last), packed (see pdn.db.postings)."""

    __tablename__ = "postings"
    prefix: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    data: Mapped[bytes] = mapped_column(LargeBinary)


class MoveText(Base):
    """The text of each move a position names (PDN 3.0 short form), once, by its id: an import
    adds the moves it meets first, the most played of its batch first (ids up to 127 take a
    byte in SQLite)."""

    __tablename__ = "move_texts"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    text: Mapped[str] = mapped_column(Text, unique=True)


STAGED = Table(  # the positions of the games an import writes, a row a game, till it moves
    # them into the postings (pdn.db.postings.move_in): the game by its number, the digest of
    # each position of its main line (8 bytes each, little-endian) and the move played from it
    # (its id in move_texts plus one, 4 bytes each; 0: none)
    "positions_staged",
    Base.metadata,
    Column("game", Integer, nullable=False),
    Column("digests", LargeBinary, nullable=False),
    Column("moves", LargeBinary, nullable=False),
)


class OpeningRow(Base):
    """The digests of the positions after the first plies of a game (up to
    OPENING_PLIES_KEPT; see pdn.db.positions.opening_blob), once for every game that plays
    them (OCA_2.0.pdn's 22,621 games play 8,601): games.opening names the row by its id, 63
    bits of the digests' hash (pdn.db.positions.opening_id), which a writer makes without
    asking the database (schema 15; before, each game kept its own copy in games.opening)."""

    __tablename__ = "openings"
    id: Mapped[int] = mapped_column(GameId, primary_key=True, autoincrement=False)
    digests: Mapped[bytes] = mapped_column(LargeBinary)


DIGEST_BYTES = 8  # a position's digest in openings.digests
PLAYED = OpeningRow.id == GameRow.opening  # a game's opening: join it to ask the two below


def opening_digest(ply: int) -> ColumnElement[bytes]:
    """The digest after ply *ply* (1 to OPENING_PLIES_KEPT) of a game's opening (PLAYED), as
    its bytes; empty for a game of fewer plies."""
    return func.substr(OpeningRow.digests, DIGEST_BYTES * (ply - 1) + 1, DIGEST_BYTES)


def opening_reaches(ply: int) -> ColumnElement[bool]:
    """The game has a ply *ply* (up to OPENING_PLIES_KEPT): its opening (PLAYED) holds its
    digest."""
    if not 1 <= ply <= OPENING_PLIES_KEPT:
        raise ValueError(f"openings keep plies 1 to {OPENING_PLIES_KEPT}, not {ply}")
    return func.length(OpeningRow.digests) >= DIGEST_BYTES * ply


class MaterialRow(Base):
    """The runs of consecutive positions of the stored games' main lines that have material
    *signature* (men, kings a side, packed: pdn.db.search.signature), packed (see
    pdn.db.material): each run's game (by games.number), first position (0 is the start,
    position i the one after ply i) and length in positions."""

    __tablename__ = "material"
    signature: Mapped[int] = mapped_column(Integer, primary_key=True, autoincrement=False)
    data: Mapped[bytes] = mapped_column(LargeBinary)


MATERIAL_STAGED = Table(  # the material runs of the games an import writes, a row a game, till
    # it moves them into their signatures' rows (pdn.db.material.move_in): the game by its
    # number and its runs, each its signature, first position and length (pdn.db.material.staged)
    "material_staged",
    Base.metadata,
    Column("game", Integer, nullable=False),
    Column("runs", LargeBinary, nullable=False),
)


class BoardsRow(Base):
    """Every position of a game's main line, packed (see pdn.db.search.compressed)."""

    __tablename__ = "boards"
    game_id: Mapped[int] = mapped_column(GameId, ForeignKey("games.id"), primary_key=True)
    data: Mapped[bytes] = mapped_column(LargeBinary)

    __table_args__ = ({"sqlite_with_rowid": False},)


class SquaresRow(Base):
    """The squares on which each kind of piece stood in some position of a game's main line,
    one bit per square number (see pdn.db.search.square_bits)."""

    __tablename__ = "squares"
    game_id: Mapped[int] = mapped_column(GameId, ForeignKey("games.id"), primary_key=True)
    white_men: Mapped[int] = mapped_column(BigInteger)
    white_kings: Mapped[int] = mapped_column(BigInteger)
    black_men: Mapped[int] = mapped_column(BigInteger)
    black_kings: Mapped[int] = mapped_column(BigInteger)

    __table_args__ = ({"sqlite_with_rowid": False},)


# The games counted by what the statistics group them by (see pdn.db.tallies): an import
# appends the counts of each batch it writes, in the batch's transaction, and sums the rows of
# each group into one once it has written every game; a question sums a group's rows.
TALLIES = Table(
    "tallies",
    Base.metadata,
    Column("variant", String(30)),
    Column("year", Integer),
    Column("from_start", Boolean, nullable=False),
    Column("opening_hash", BigInteger),
    Column("termination", String(30), nullable=False),
    Column("winner", String(10), nullable=False),
    Column("outcome", String(10), nullable=False),
    Column("games", Integer, nullable=False),  # 0: a game stored anew from an earlier place
    Column("first", BigInteger, nullable=False),  # the lowest place a game of them is stored at
)
PLAYER_TALLIES = Table(  # each game counted for both its players (twice when they are one)
    "player_tallies",
    Base.metadata,
    Column("player", Text),
    Column("termination", String(30), nullable=False),
    Column("winner", String(10), nullable=False),
    Column("outcome", String(10), nullable=False),
    Column("result", Text),  # as written
    Column("games", Integer, nullable=False),  # less than 0: the names of a game stored anew
)

OPENING_TALLIES = Table(  # the games from the start by the position after each of their first plies
    "opening_tallies",
    Base.metadata,
    Column("ply", Integer, nullable=False),  # 1 to pdn.db.tallies.OPENING_PLIES_TALLIED
    Column("digest", BigInteger, nullable=False),  # the position after that ply
    Column("variant", String(30)),
    Column("winner", String(10), nullable=False),
    Column("outcome", String(10), nullable=False),
    Column("games", Integer, nullable=False),  # 0: a game stored anew from an earlier place
    Column("first", BigInteger, nullable=False),  # the lowest place a game of them is stored at
)

MOVE_TALLIES = Table(  # the moves played from the positions of the openings (pdn.db.tallies)
    "move_tallies",
    Base.metadata,
    Column("digest", BigInteger, nullable=False),
    Column("move", Text, nullable=False),  # PDN 3.0 short form, as positions.move
    Column("winner", String(10), nullable=False),
    Column("games", Integer, nullable=False),
    Index("ix_move_tallies_digest", "digest"),
)


class AnalysisRow(Base):
    """An engine's judgement of one move of a game's main line (see pdn.engine.analysis): each
    engine and limit keeps its own rows."""

    __tablename__ = "analysis"
    game_id: Mapped[int] = mapped_column(GameId, ForeignKey("games.id"), primary_key=True)
    engine: Mapped[str] = mapped_column(Text, primary_key=True)  # name and version
    limit: Mapped[str] = mapped_column(String(60), primary_key=True)  # "depth=6", "time=0.5"
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1-based
    side: Mapped[str] = mapped_column(String(5))  # white or black: who played the move
    move: Mapped[str] = mapped_column(Text)  # as written in the game
    score: Mapped[str] = mapped_column(String(12))  # after the move, seen by White: 0.35, #-7
    best_score: Mapped[str] = mapped_column(String(12))  # before it, seen by White
    best_line: Mapped[str] = mapped_column(Text)  # the engine's line, space separated
    loss: Mapped[float] = mapped_column(Float)  # men, to two decimals
    mark: Mapped[str | None] = mapped_column(String(12))  # inaccuracy, mistake, blunder

    __table_args__ = (
        Index("ix_analysis_mark", "mark", "side", "game_id"),  # --blunders, --mistakes
        Index("ix_analysis_loss", "loss", "game_id"),  # --loss-min, games by biggest loss
        {"sqlite_with_rowid": False},
    )
