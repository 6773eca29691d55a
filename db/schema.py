"""SQLAlchemy 2.0 models: games with their tags, moves and positions, the files they came from."""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import (
    BigInteger,
    Boolean,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    String,
    Text,
)
from sqlalchemy.orm import DeclarativeBase, Mapped, mapped_column

APPLICATION = "pdn-toolkit"
SCHEMA_VERSION = 2  # 2: game ids from the game hash, games.place

# A game's id: the first 63 bits of its hash, so the same game has the same id in any database
# and workers can write a game's rows without asking the database for an id first.
GameId = BigInteger().with_variant(Integer(), "sqlite")  # SQLite's INTEGER key holds 64 bits


class Base(DeclarativeBase):
    """Declarative base of the toolkit's tables."""


class Meta(Base):
    """Key/value facts about the database: which application made it, schema version."""

    __tablename__ = "pdn_meta"
    key: Mapped[str] = mapped_column(String(64), primary_key=True)
    value: Mapped[str] = mapped_column(String(200))


class SourceFile(Base):
    """A PDN file that was imported (or is being imported)."""

    __tablename__ = "source_files"
    id: Mapped[int] = mapped_column(Integer, primary_key=True)
    path: Mapped[str] = mapped_column(String(1000), index=True)
    sha256: Mapped[str] = mapped_column(String(64), index=True)
    size: Mapped[int] = mapped_column(BigInteger)
    encoding: Mapped[str] = mapped_column(String(20))
    complete: Mapped[bool] = mapped_column(Boolean, default=False)
    games: Mapped[int] = mapped_column(Integer, default=0)
    imported_at: Mapped[datetime] = mapped_column(DateTime)


class GameRow(Base):
    """One distinct game (the same game in several files is stored once)."""

    __tablename__ = "games"
    id: Mapped[int] = mapped_column(GameId, primary_key=True, autoincrement=False)
    game_hash: Mapped[str] = mapped_column(String(32), unique=True)
    file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id"))
    file_index: Mapped[int] = mapped_column(Integer)  # 1-based, in the first file seen
    place: Mapped[int] = mapped_column(BigInteger, unique=True)  # import order: see store.place
    line: Mapped[int] = mapped_column(Integer)
    event: Mapped[str | None] = mapped_column(String(300), index=True)
    site: Mapped[str | None] = mapped_column(String(300), index=True)
    date: Mapped[str | None] = mapped_column(String(100), index=True)
    year: Mapped[int | None] = mapped_column(Integer, index=True)
    round: Mapped[str | None] = mapped_column(String(100))
    white: Mapped[str | None] = mapped_column(String(300), index=True)
    black: Mapped[str | None] = mapped_column(String(300), index=True)
    result: Mapped[str | None] = mapped_column(String(40), index=True)  # as written
    outcome: Mapped[str] = mapped_column(String(10), index=True)  # first, second, draw, unknown
    variant: Mapped[str | None] = mapped_column(String(30), index=True)
    variant_source: Mapped[str | None] = mapped_column(String(20))
    rules: Mapped[str] = mapped_column(String(20))
    start_fen: Mapped[str | None] = mapped_column(Text)
    termination: Mapped[str] = mapped_column(String(30), index=True)
    termination_ply: Mapped[int | None] = mapped_column(Integer)
    plies: Mapped[int] = mapped_column(Integer)
    valid: Mapped[bool] = mapped_column(Boolean, index=True)
    errors: Mapped[str] = mapped_column(Text)  # JSON list, as in the validate report
    moves: Mapped[str] = mapped_column(Text)  # main line, PDN 3.0 short forms, space separated
    opening_hash: Mapped[int | None] = mapped_column(BigInteger)  # position after 3 plies
    final_hash: Mapped[int | None] = mapped_column(BigInteger, index=True)  # last position
    pdn: Mapped[str] = mapped_column(Text)  # the game's text exactly as read


class Occurrence(Base):
    """Each place a game was read from: the first one, and the duplicates in other files."""

    __tablename__ = "occurrences"
    file_id: Mapped[int] = mapped_column(ForeignKey("source_files.id"), primary_key=True)
    file_index: Mapped[int] = mapped_column(Integer, primary_key=True)
    game_id: Mapped[int] = mapped_column(GameId, ForeignKey("games.id"), index=True)
    duplicate: Mapped[bool] = mapped_column(Boolean)


class TagRow(Base):
    """Every tag of a game, in file order."""

    __tablename__ = "tags"
    game_id: Mapped[int] = mapped_column(GameId, ForeignKey("games.id"), primary_key=True)
    position: Mapped[int] = mapped_column(Integer, primary_key=True)
    name: Mapped[str] = mapped_column(String(100), index=True)
    value: Mapped[str] = mapped_column(Text)


class PlyRow(Base):
    """One move of a game's main line, with the positions before and after it."""

    __tablename__ = "plies"
    game_id: Mapped[int] = mapped_column(GameId, ForeignKey("games.id"), primary_key=True)
    ply: Mapped[int] = mapped_column(Integer, primary_key=True)  # 1-based
    move: Mapped[str] = mapped_column(String(100))  # PDN 3.0 short form
    start: Mapped[str] = mapped_column(String(4))
    end: Mapped[str] = mapped_column(String(4))
    path: Mapped[str] = mapped_column(String(200))  # every landing square
    captured: Mapped[str] = mapped_column(String(200))  # captured squares, comma separated
    crowns: Mapped[bool] = mapped_column(Boolean)
    before: Mapped[int] = mapped_column(BigInteger)  # position hash before the move
    after: Mapped[int] = mapped_column(BigInteger)  # position hash after the move

    __table_args__ = (
        Index("ix_plies_before", "before"),  # explorer and position search
        Index("ix_plies_ply_after", "ply", "after", "game_id"),  # openings by their first plies
    )
