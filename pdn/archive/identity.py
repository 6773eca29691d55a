"""When two games are the same: the same record, or the same moves.

A game is a record: its headers (the seven-tag roster Event, Site, Date, Round, White, Black,
Result, and GameType and FEN), its variant, its start position and its moves. Two games are
*copies* when all of that is equal after normalising: tag names in any case or language, values
with their whitespace collapsed, an unknown value (``?``, ``????.??.??``, ``*``, empty or missing)
read as missing, the FEN and the moves as replayed. So the same archive saved in another encoding,
with other line ends, other whitespace, its tags in another order or other comments holds the same
records. Games with the same variant, start and moves but other headers (a match that repeated a
game, a game entered twice under other players) have the *same moves*: different games, reported
together, never merged.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import lru_cache
from pathlib import Path

from pdn.archive.pipeline import Options, replay_paths
from pdn.game import Game
from pdn.replay import Replay
from pdn.rules.fen import to_fen
from pdn.rules.position import Position

HEADERS = ("Event", "Site", "Date", "Round", "White", "Black", "Result", "GameType", "FEN")
_UNKNOWN = {"", "?", "-", "*", "????.??.??", "????-??-??", "??.??.????"}


class Same(StrEnum):
    """What duplicates are grouped by."""

    COPIES = "copies"  # the same record
    MOVES = "moves"  # the same variant, start and moves, whatever the headers


@dataclass(frozen=True, slots=True)
class Identity:
    """A game's two keys (32 hex digits each)."""

    record: str
    moves: str | None  # None for a game without moves: such games share no moves

    def key(self, by: Same) -> str | None:
        """The key that groups games by *by*."""
        return self.record if by is Same.COPIES else self.moves


def header(value: str | None) -> str:
    """A header value normalised: whitespace collapsed, an unknown value empty."""
    text = " ".join((value or "").split())
    return "" if text in _UNKNOWN else text


def start_fen(replay: Replay) -> str | None:
    """The FEN of the position the replay started from (None: the FEN tag did not read)."""
    start = replay.first_position
    return _fen(start) if start is not None else None


@lru_cache(maxsize=64)  # most games start from their variant's start position
def _fen(pos: Position) -> str:
    return to_fen(pos)


def _digest(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def game_identity(game: Game, replay: Replay | None, moves: list[str] | None = None) -> Identity:
    """The identity of *game* as replayed (*replay* None: it did not parse). *moves* are the
    replayed moves as :func:`pdn.mainline.main_line` writes them, when the caller has them
    already (else Replay.line_rows gives them)."""
    if replay is None:  # no moves to go by: its text, whitespace collapsed
        values = [header(game.tags.get(name)) for name in HEADERS]
        return Identity(_digest("\x1f".join([*values, " ".join(game.raw.split())])), None)
    texts = replay.line_rows(0, 0).texts if moves is None else moves  # no board for them
    if len(texts) < game.ply_count():  # the replay stopped: the moves after it, as written
        written = game.mainline()  # (built only here: a whole replay has every move already)
        if replay.nodes:
            last = next((i for i, n in enumerate(written) if n is replay.nodes[-1]), len(written))
            texts = texts + [n.text for n in written[last + 1 :]]
        else:
            texts = [n.text for n in written]
    start = start_fen(replay) or header(game.fen)
    values = [header(game.tags.get(name)) for name in HEADERS[:-1]]
    values[HEADERS.index("Result")] = header(game.result)
    moves_key = "\x1f".join([replay.variant.name, start, " ".join(texts)])
    record = _digest("\x1f".join([*values, moves_key]))
    return Identity(record, _digest(moves_key) if texts else None)


@dataclass(frozen=True, slots=True)
class Identified:
    """A game of a file, named by file, index (from 1) and line, with its identity."""

    file: str
    index: int
    line: int
    white: str | None
    black: str | None
    event: str | None
    date: str | None
    result: str | None
    identity: Identity


def identified(game: Game, replay: Replay | None) -> Identified:
    """A game read and replayed, with its identity (runs where the game is replayed)."""
    src = game.source
    return Identified(src.file, src.index + 1, src.line, game.white, game.black, game.event,
                      game.date, game.result, game_identity(game, replay))  # fmt: skip


def identify_paths(
    paths: Iterable[str | Path], variant: str | None = None, rules: str = "common"
) -> Iterator[Identified]:
    """Every game under *paths*, replayed as validate and import replay it (on the pipeline),
    with its identity."""
    return replay_paths(paths, identified, Options(variant, rules))
