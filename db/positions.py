"""The positions of the stored games: the games reaching a position, from its postings (an
import stages them first: see pdn.db.staging and pdn.db.postings), and the digests of each
game's first positions, its opening (kept once for the games that play it).
"""

from __future__ import annotations

import hashlib
import json
import struct
from collections import Counter
from collections.abc import Sequence
from itertools import chain
from typing import Any

from sqlalchemy import (
    BigInteger,
    Connection,
    Engine,
    Select,
    Subquery,
    Text,
    bindparam,
    func,
    select,
    type_coerce,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.dialects.postgresql import ARRAY

from pdn.db.postings import postings_at, postings_between
from pdn.db.schema import DIGEST_BYTES, OPENING_PLIES_KEPT, MoveText, OpeningRow


def move_codes(conn: Connection, lines: Sequence[Sequence[str]]) -> dict[str, int]:
    """The code of each move text the *lines* play: its id (move_texts.id) plus one, those not
    there yet added: in SQLite the most played first (the lowest ids take a byte), in
    PostgreSQL (4 bytes each) in text order, one order for the writers at once to wait on each
    other's texts without a deadlock; a text another writer adds meanwhile is taken as it
    stored it. Only the texts not stored are counted (most are, after an import's first
    batch)."""
    wanted = select(MoveText.text, MoveText.id + 1)
    played = set(chain.from_iterable(lines))
    codes = {t: i for t, i in conn.execute(wanted.where(MoveText.text.in_(list(played))))}
    unknown = played - codes.keys()
    if unknown:
        counted = Counter(filter(unknown.__contains__, chain.from_iterable(lines)))
        new = [t for t, _ in counted.most_common()]
        dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
        if dialect is postgresql:
            new.sort()
        conn.execute(dialect.insert(MoveText).on_conflict_do_nothing(), [{"text": t} for t in new])
        codes.update((t, i) for t, i in conn.execute(wanted.where(MoveText.text.in_(new))))
    return codes


OFFSET = 1 << 63  # digests are kept as unsigned numbers this much larger: bytes compared
# as SQL compares them then order them as numbers


def opening_blob(digests: Sequence[int]) -> bytes:
    """A game's opening (openings.digests; a record's row holds it until it is written): the
    digests of the positions after the first OPENING_PLIES_KEPT plies (*digests* start with
    the start position's), DIGEST_BYTES each, big-endian, OFFSET added."""
    kept = [d + OFFSET for d in digests[1 : OPENING_PLIES_KEPT + 1]]
    return struct.pack(f">{len(kept)}Q", *kept)


def opening_digests(blob: bytes) -> list[int]:
    """The digests an opening holds (:func:`opening_blob`), in ply order."""
    return [d - OFFSET for d in struct.unpack(f">{len(blob) // DIGEST_BYTES}Q", blob)]


def opening_id(blob: bytes) -> int | None:
    """The id of an opening's row (pdn.db.schema.OpeningRow): the first 63 bits of its
    digests' BLAKE2b hash, as a game's id is of its record's; None for a game of no ply."""
    if not blob:
        return None
    return int.from_bytes(hashlib.blake2b(blob, digest_size=8).digest(), "big") >> 1


def add_openings(conn: Connection, openings: dict[int, bytes]) -> None:
    """Store the *openings* (id: digests) not stored yet; two with one id (which 63 bits of
    hash make as unlikely as two games with one id) stop the writing with both named."""
    if not openings:
        return
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    conn.exec_driver_sql(
        f"INSERT INTO openings (id, digests) VALUES ({mark}, {mark}) ON CONFLICT (id) DO NOTHING",
        sorted(openings.items()),  # one order for writers at once (PostgreSQL): no deadlock
    )
    ids = list(openings)
    for i in range(0, len(ids), 1000):
        chosen = select(OpeningRow.id, OpeningRow.digests).where(
            OpeningRow.id.in_(ids[i : i + 1000])
        )
        for oid, digests in conn.execute(chosen):
            if bytes(digests) != openings[oid]:
                raise ValueError(f"two openings have id {oid}: {bytes(digests).hex()} and "
                                 f"{openings[oid].hex()}")  # fmt: skip


def later_digests(conn: Connection, games: Sequence[int], plies: int) -> dict[int, list[int]]:
    """The digests after the plies past those games.opening keeps, up to ply *plies*, of each
    of *games* (by number) that has any, in ply order, from the postings."""
    found: dict[int, list[int]] = {}
    postings = postings_between(conn, OPENING_PLIES_KEPT + 1, plies, games)
    for digest, game in postings[postings[:, 2].argsort(kind="stable"), :2].tolist():
        found.setdefault(game, []).append(digest)
    return found


def reaching(engine: Engine, digest: int) -> Subquery:
    """The postings of the position *digest* as rows (columns digest, game, ply, move: game is
    the game's number, move the id of the move played), staged ones included (an import at
    work, or killed)."""
    with engine.connect() as conn:
        found = postings_at(conn, digest)
    return rows_table(engine, [(digest, *p) for p in found])


def at_ply(engine: Engine, ply: int) -> Subquery:
    """The postings at ply *ply* of every game as rows (columns as :func:`reaching`), staged
    ones included: every posting read."""
    with engine.connect() as conn:
        found = postings_between(conn, ply, ply).tolist()
    return rows_table(engine, [(d, g, p, m - 1 if m >= 1 else None) for d, g, p, m in found])


def rows_table(engine: Engine, rows: list[tuple[int, int, int, int | None]]) -> Subquery:
    """*rows* (digest, game, ply, move) as a table of a query: in SQLite read from their JSON
    text, in PostgreSQL from arrays (one parameter, however many rows)."""
    names = ("digest", "game", "ply", "move")
    if engine.dialect.name == "postgresql":
        arrays = [
            bindparam(n, [r[i] for r in rows], type_=ARRAY(BigInteger)) for i, n in enumerate(names)
        ]
        table = func.unnest(*arrays).table_valued(*names).render_derived()
        return select(*(table.c[n] for n in names)).subquery()
    each = func.json_each(bindparam("rows", json.dumps(rows), type_=Text)).table_valued("value")
    columns = (
        type_coerce(func.json_extract(each.c.value, f"$[{i}]"), BigInteger).label(n)
        for i, n in enumerate(names)
    )
    return select(*columns).subquery()


def numbers_table(engine: Engine, numbers: list[int]) -> Select[Any]:
    """*numbers* as the rows of a query (one column, ``number``): in SQLite read from their
    JSON text, in PostgreSQL from an array (one parameter, however many)."""
    if engine.dialect.name == "postgresql":
        array = bindparam("numbers", numbers, type_=ARRAY(BigInteger))
        table = func.unnest(array).table_valued("number").render_derived()
        return select(table.c.number)
    each = func.json_each(bindparam("numbers", json.dumps(numbers), type_=Text))
    return select(type_coerce(each.table_valued("value").c.value, BigInteger).label("number"))
