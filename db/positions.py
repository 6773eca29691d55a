"""The positions of the stored games: a row per position of a game's main line, keyed by the
position's digest, the game named by its number (an import stages them first: see
pdn.db.staging), and the digests of each game's first positions kept with the game.
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Sequence
from itertools import repeat

from sqlalchemy import Connection, Engine, FromClause, Select, Subquery, select, union_all
from sqlalchemy.dialects import postgresql, sqlite

from pdn.db.schema import DIGEST_BYTES, OPENING_PLIES_KEPT, STAGED, MoveText, PositionRow
from pdn.db.staging import POSITIONS, any_staged, every_row

Row = tuple[int, int, int, str | None]  # digest, game id, position, the move played from it
# (an import writes the game's number for its id, the move's id for its text: pdn.db.store)


def position_rows(gid: int, digests: Sequence[int], moves: Sequence[str]) -> tuple[Row, ...]:
    """The rows of game *gid*: *digests* of its positions (the start, then after each of
    *moves*)."""
    played: list[str | None] = [*moves, *[None] * (len(digests) - len(moves))]
    return tuple(zip(digests, repeat(gid), range(len(digests)), played, strict=False))


def move_ids(conn: Connection, played: Counter[str]) -> dict[str, int]:
    """The id (move_texts.id) of each move text *played* counts, those not there yet added: in
    SQLite the most played first (the lowest ids take a byte), in PostgreSQL (4 bytes each) in
    text order, one order for the writers at once to wait on each other's texts without a
    deadlock; a text another writer adds meanwhile is taken as it stored it."""
    wanted = select(MoveText.text, MoveText.id)
    ids = {t: i for t, i in conn.execute(wanted.where(MoveText.text.in_(list(played))))}
    new = [t for t, _ in played.most_common() if t not in ids]
    if new:
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        if dialect is postgresql:
            new.sort()
        conn.execute(dialect.insert(MoveText).on_conflict_do_nothing(), [{"text": t} for t in new])
        ids.update((t, i) for t, i in conn.execute(wanted.where(MoveText.text.in_(new))))
    return ids


OFFSET = 1 << 63  # digests are kept as unsigned numbers this much larger: bytes compared
# as SQL compares them then order them as numbers


def opening_blob(digests: Sequence[int]) -> bytes:
    """games.opening: the digests of the positions after the first OPENING_PLIES_KEPT plies
    (*digests* start with the start position's), DIGEST_BYTES each, big-endian, OFFSET
    added."""
    kept = [d + OFFSET for d in digests[1 : OPENING_PLIES_KEPT + 1]]
    return struct.pack(f">{len(kept)}Q", *kept)


def opening_digests(blob: bytes) -> list[int]:
    """The digests games.opening holds, in ply order."""
    return [d - OFFSET for d in struct.unpack(f">{len(blob) // DIGEST_BYTES}Q", blob)]


def reaching(engine: Engine, digest: int) -> Subquery:
    """The rows of the positions with *digest* (columns digest, game, ply, move: game is the
    game's number), staged ones included when there are any (an import at work, or killed)."""
    stored = _stored().where(PositionRow.digest == digest)
    if not any_staged(engine, POSITIONS):  # one table: the database reads its key
        return stored.subquery()
    return union_all(stored, _staged().where(STAGED.c.digest == digest)).subquery()


def every_position(engine: Engine) -> FromClause:
    """The rows of every position, staged ones included, each once (columns as
    :func:`reaching`)."""
    return every_row(engine, POSITIONS)


def _stored() -> Select[int, int, int, str | None]:
    return select(PositionRow.digest, PositionRow.game, PositionRow.ply, PositionRow.move)


def _staged() -> Select[int, int, int, str | None]:
    return select(STAGED.c.digest, STAGED.c.game, STAGED.c.ply, STAGED.c.move)
