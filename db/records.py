"""A game's rows: what an import stores of one game and its replay (its record), its id and
its place in import order."""

from __future__ import annotations

import json
import struct
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any

from pdn.archive.criteria import winner
from pdn.archive.identity import game_identity, start_fen
from pdn.archive.validate import GameReport, renumber_report, report_game
from pdn.db.positions import opening_blob
from pdn.db.schema import HELD_TAGS, NUL_SHOWN
from pdn.db.search import Scanned, StoredPositions, stored_rows, words
from pdn.db.tallies import explored_moves
from pdn.db.texts import pack, pack_moves
from pdn.game import Game
from pdn.mainline import LineRows
from pdn.replay import Replay
from pdn.rules.position import Position

# -- rows of one game -------------------------------------------------------------------------


@dataclass(slots=True)
class Record:
    """Everything stored for one game: its report and its rows, built once, as written. The
    rows are tuples of plain values, which the garbage collector stops walking once it has seen
    them (an import holds a batch of records: as lists they cost it 1.2 s CPU on OCA_2.0.pdn)."""

    report: GameReport
    row: dict[str, Any]  # the games-table values (texts packed), but for the place read from
    tags: tuple[tuple[int, int, str, str], ...]  # game id, position, name, value
    digests: bytes  # of the main line's positions, 8 bytes each, little-endian
    moves: tuple[str, ...]  # the move played from each position, as its text (none from the last)
    material: bytes  # its runs of equal material, staged (pdn.db.material.staged)
    boards: tuple[tuple[int, bytes], ...]  # game id, its positions packed (none without replay)
    squares: tuple[tuple[int, int, int, int, int], ...]  # game id, where each kind stood
    nul: bool = False  # NUL bytes in the text were stored as NUL_SHOWN
    explored: tuple[tuple[int, str], ...] = ()  # digest, move: see pdn.db.tallies

    def __reduce__(self) -> tuple[Callable[..., Record], tuple[Any, ...]]:
        """Pickled as its fields in order, the moves as one text, as workers send records to
        the writer: 11 µs a record where the slots by name and a text a move took 21 (some
        0.23 s of the workers' CPU on OCA_2.0.pdn)."""
        fields = (self.report, self.row, self.tags, self.digests, " ".join(self.moves))
        rest = (self.material, self.boards, self.squares, self.nul, self.explored)
        return _unpickled, (*fields, *rest)


def _unpickled(report: GameReport, row: dict[str, Any], tags: Any, digests: bytes, moves: str,
               *rest: Any) -> Record:  # fmt: skip
    """A record as :meth:`Record.__reduce__` pickled it."""
    return Record(report, row, tags, digests, tuple(moves.split(" ")) if moves else (), *rest)


def build_record(game: Game, replay: Replay | None) -> Record:
    """The record of one game and its replay (None: it did not parse)."""
    report = report_game(game, replay)
    start = replay.first_position if replay else None
    rows = replay.line_rows(words(start.variant), FIRST_KEPT) if replay and start else None
    moves = rows.texts if rows else []
    identity = game_identity(game, replay, moves)
    gid = game_id(identity.record)
    stored = stored_rows(gid, start.variant, _scanned(rows)) if rows and start else NOTHING
    digests = stored.digests
    result = game.result
    from_start = start is not None and start == Position.start(start.variant)
    text = game.raw.replace("\x00", NUL_SHOWN)  # NUL as below
    row = {
        "id": gid,
        "game_hash": identity.record,
        "moves_hash": identity.moves,
        "line": game.source.line,
        "event": game.event,
        "site": game.site,
        "date": game.date,
        "year": game.year,
        "round": game.round,
        "white": game.white,
        "black": game.black,
        "result": result,
        "outcome": game.outcome.value,
        "winner": winner(game, report.variant),
        "variant": report.variant,
        "variant_source": report.variant_source,
        "rules": replay.rules.name if replay else "common",
        "start_fen": None if from_start else (start_fen(replay) if replay else None) or game.fen,
        "from_start": from_start,
        "termination": report.termination,
        "termination_ply": report.termination_ply,
        "plies": report.plies,
        "valid": report.valid,
        "errors": _errors_json(report),
        "moves": pack_moves(" ".join(moves), text),
        "opening_hash": digests[3] if len(digests) > 3 else None,
        "opening": opening_blob(digests),
        "pdn": pack(text),
    }
    nul = "\x00" in game.raw
    pairs: Iterable[tuple[str, str]] = game.tags.items()
    if nul:  # PostgreSQL text cannot hold NUL: both databases store NUL_SHOWN in its place
        for column in _TEXTS:
            row[column] = _shown(row[column])
        pairs = ((_shown(n), _shown(v)) for n, v in pairs)
    tags = tuple(
        (gid, i, n, v) for i, (n, v) in enumerate(pairs) if row.get(HELD_TAGS.get(n, "")) != v
    )
    explored = (
        explored_moves(start.variant, rows.runs, _position_at(replay, rows), digests, moves)
        if replay and rows and start
        else ()
    )
    packed = struct.pack(f"<{len(digests)}q", *digests)
    return Record(
        report, row, tags, packed, tuple(moves), stored.material, stored.boards, stored.squares,
        nul, explored,
    )  # fmt: skip


FIRST_KEPT = 1  # the start, where explored_moves reads a game from (see _position_at)
NOTHING = StoredPositions([], b"", (), ())  # the rows of a game without a position


def _scanned(rows: LineRows) -> Scanned:
    return rows.digests, rows.packed, rows.runs, rows.reached


def _position_at(replay: Replay, rows: LineRows) -> Callable[[int], Position]:
    """The main line's position at an index: the start from *rows*, another (a game set up
    with more men than the start may come down to them) from the replay's board."""
    return lambda i: rows.first[i] if i < len(rows.first) else replay.positions[i]


def renumber_record(record: Record | None, by: int) -> Record | None:
    """The record (changed in place) as it is for the game *by* places on in its file: its
    report's number, and a syntax error's text, which names it (None: a game stored before)."""
    if record is not None:
        renumber_report(record.report, by)
        if record.report.syntax_error:
            record.row["errors"] = _errors_json(record.report)
    return record


_TEXTS = ("event", "site", "date", "round", "white", "black", "result", "start_fen")


def _errors_json(report: GameReport) -> str:
    """The errors column: the report's errors, or its syntax error, as a JSON list."""
    errors = report.errors if not report.syntax_error else [report.syntax_error]
    return json.dumps(errors) if errors else "[]"  # (as json.dumps writes an empty list)


def _shown(text: Any) -> Any:
    return text.replace("\x00", NUL_SHOWN) if isinstance(text, str) else text


# -- import ----------------------------------------------------------------------------------

PLACE_BITS = 32  # a place is file id and index in the file, packed into one number


def place(file_id: int, index: int) -> int:
    """The import-order key of the *index*-th game of a file (ordered by file id, then index)."""
    return (file_id << PLACE_BITS) | index


def game_id(game_hash: str) -> int:
    """A game's id: the first 63 bits of its record hash."""
    return int(game_hash[:16], 16) >> 1
