"""A database of this schema written back in schema 11's layout, for the migration tests (the
layout checked against tests/data/schema11.sqlite, which the toolkit wrote at f3c1361)."""

from __future__ import annotations

import zlib

from schema12 import layout_12
from schema15 import written_back
from sqlalchemy import Connection, Text, bindparam, delete, insert, literal, select, update

from pdn.db.schema import BoardsRow, GameRow, TagRow
from pdn.db.search import board_arrays, words
from pdn.read.reader import read_string
from pdn.rules.fen import to_fen
from pdn.rules.position import Position
from pdn.rules.variants import get_variant


def as_schema_11(db: str) -> None:
    """Turn a database just made into what schema 11 wrote: boards deflated position after
    position, start_fen written for every game, every tag in tags."""
    written_back(db, 11, layout_11)


def layout_11(conn: Connection) -> None:
    """This schema's rows as schema 11 wrote them: each boards row the kernel's packing (the
    positions one after another, then the sides to move) compressed by zlib at level 1; the
    start position's FEN in start_fen for a game from its variant's start; a tags row for each
    tag of a game's text."""
    layout_12(conn)
    rows = conn.execute(
        select(BoardsRow.game_id, GameRow.variant, BoardsRow.data).join(
            GameRow, GameRow.id == BoardsRow.game_id
        )
    ).all()
    old = []
    for gid, variant, data in rows:
        boards, turns = board_arrays(data, words(get_variant(str(variant))))
        old.append({"gid": gid, "old": zlib.compress(boards.tobytes() + turns.tobytes(), 1)})
    written = update(BoardsRow).where(BoardsRow.game_id == bindparam("gid"))
    conn.execute(written.values(data=bindparam("old")), old)
    starts = conn.execute(select(GameRow.variant).where(GameRow.from_start).distinct()).scalars()
    for name in starts:
        fen = to_fen(Position.start(get_variant(str(name))))
        chosen = GameRow.from_start & (GameRow.variant == literal(name, Text))  # (a word)
        conn.execute(update(GameRow).where(chosen).values(start_fen=fen))
    every = []
    for gid, pdn in conn.execute(select(GameRow.id, GameRow.pdn)):
        (game,) = read_string(pdn)
        every += [{"game_id": gid, "position": i, "name": n, "value": v}
                  for i, (n, v) in enumerate(game.tags.items())]  # fmt: skip
    conn.execute(delete(TagRow))
    conn.execute(insert(TagRow), every)
