"""Material and pattern search in the database.

Material: each game's positions cut into runs of equal material
(pdn.archive.selection.material_runs), kept by their signature (white men, white kings, black
men, black kings packed into one integer: pdn.db.material), so that a material spec is the
stored signatures whose counts it allows, and "for N plies" adds up adjacent matching runs of
a game.

Patterns: each game's positions as one compressed blob of bitboards (the engine's own layout,
little-endian words, as XOR deltas: see :func:`compressed`), scanned with numpy against the
pattern's masks. Only the games whose squares row allows the pattern are read: per game, the
squares each of white men, white kings, black men and black kings ever stood on, one bit per
square number. A position that fits the pattern has each of its pieces on such a square, so a
game without one never reaches it.
"""

from __future__ import annotations

import zlib
from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import cache
from typing import TYPE_CHECKING, Any

from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Select,
    and_,
    bindparam,
    false,
    insert,
    or_,
    select,
)

from pdn.archive.selection import Masks, Material, Pattern
from pdn.db.material import runs_of, staged
from pdn.db.positions import numbers_table
from pdn.db.schema import BoardsRow, GameRow, SquaresRow
from pdn.rules.geometry import geometry
from pdn.rules.move import Counts, Squares
from pdn.rules.position import Position
from pdn.rules.variants import VARIANTS, Variant, get_variant

if TYPE_CHECKING:  # numpy is loaded where boards are searched (an import does not need it)
    import numpy as np

_BITS = 8  # bits per count in a signature: counts up to 255
_TOP = (1 << _BITS) - 1


def signature(counts: Sequence[int]) -> int:
    """White men, white kings, black men and black kings packed into one integer."""
    wm, wk, bm, bk = counts
    return wm | wk << _BITS | bm << 2 * _BITS | bk << 3 * _BITS


# -- boards ----------------------------------------------------------------------------------------


@cache
def words(variant: Variant) -> int:
    """64-bit words per bitboard on the variant's board."""
    return -(-geometry(variant).size // 64)


FOLD = 63  # bits of a squares column: square number n of a board is bit (n - 1) % FOLD


@cache
def _byte_bits(variant: Variant) -> tuple[tuple[int, ...], ...]:
    """Per byte of the variant's bitboards, the squares-column bits of its 256 values."""
    g = geometry(variant)
    bit_of = {s: 1 << (g.number(s) - 1) % FOLD for s in g.squares}
    tables = []
    for k in range(-(-g.size // 8)):
        table = []
        for value in range(256):
            bits = 0
            for b in range(8):
                if value >> b & 1:
                    bits |= bit_of.get(8 * k + b, 0)
            table.append(bits)
        tables.append(tuple(table))
    return tuple(tables)


def square_bits(variant: Variant, board: int) -> int:
    """A bitboard as a squares column holds it: square number n (in the variant's own
    numbering) as bit n - 1, folded into FOLD bits on a board of more squares (12x12, and
    Turkish's 64); a number PostgreSQL's BIGINT holds. A pattern's square numbers are thus the
    same bits in every variant's games."""
    tables = _byte_bits(variant)
    bits = 0
    for table, byte in zip(tables, board.to_bytes(len(tables), "little"), strict=True):
        bits |= table[byte]
    return bits


Scanned = tuple[list[int], bytes, list[tuple[int, int, Counts]], Squares]  # see Kernel.scan


@dataclass(frozen=True, slots=True)
class StoredPositions:
    """What the database stores of a game's main-line positions, as table rows."""

    digests: list[int]  # per position, the start first
    material: bytes  # its runs of equal material, staged (pdn.db.material.staged)
    boards: tuple[tuple[int, bytes], ...]  # game id, the positions packed (none without any)
    squares: tuple[tuple[int, int, int, int, int], ...]  # game id, the squares of each kind


def stored_rows(gid: int, variant: Variant, scanned: Scanned) -> StoredPositions:
    """The rows of game *gid* from the kernel's scan of its positions on the board of *variant*
    (Kernel.scan, Kernel.line_rows): their digests; their runs of equal material, each with
    its signature; the positions packed (see :func:`compressed`); and the squares each of
    the four kinds of piece ever stood on (square_bits)."""
    hashes, packed, runs, reached = scanned
    material = staged([(signature(counts), first, length) for first, length, counts in runs])
    wm, wk, bm, bk = (square_bits(variant, board) for board in reached)
    boards = ((gid, compressed(packed)),)
    return StoredPositions(hashes, material, boards, ((gid, wm, wk, bm, bk),))


DELTAS = 1  # format byte of a boards row (schema 12): the positions' words as XOR deltas
# (a boards row of schema 11 and before is a zlib stream, whose first byte is 0x78)
WINDOW_BITS = -15  # raw deflate with a 32 KiB window
# deflate's runs of zeros alone (Z_RLE): OCA_2.0.pdn's boards take 4.24 MiB so at any level, and
# 4.26 at level 6 with its usual search, which takes 60% more time


def compressed(packed: bytes) -> bytes:
    """A game's positions as the boards table holds them, from the kernel's packing (Kernel.scan:
    each word of the positions' bitboards a column over the positions, XORed with the word
    before, then a byte per position, the side to move): format byte DELTAS, then deflated. A
    move changes a few squares of two bitboards, so the columns are mostly zero: OCA_2.0.pdn's
    boards take 4.2 MiB, where the positions deflated one after another took 7.4."""
    deflater = zlib.compressobj(1, zlib.DEFLATED, WINDOW_BITS, 8, zlib.Z_RLE)
    return bytes((DELTAS,)) + deflater.compress(packed) + deflater.flush()


def board_arrays(data: bytes, w: int) -> tuple[np.ndarray, np.ndarray]:
    """The positions of a boards row (*w* words a bitboard): their bitboards as an array shaped
    (positions, 4, w), white men, white kings, black men and black kings of each; and the side
    to move of each. A row of schema 11 and before (the migration steps before 12 read them)
    holds the positions deflated one after another by zlib."""
    import numpy as np

    deltas = data[:1] == bytes((DELTAS,))
    raw = zlib.decompress(data[1:], WINDOW_BITS) if deltas else zlib.decompress(data)
    n = len(raw) // (32 * w + 1)
    laid = np.frombuffer(raw, "<u8", count=n * 4 * w)
    if deltas:
        laid = np.bitwise_xor.accumulate(laid.reshape(4 * w, n), axis=1).T
    return laid.reshape(n, 4, w), np.frombuffer(raw, np.uint8, offset=32 * w * n)


def unpacked(variant: Variant, data: bytes) -> Iterator[Position]:
    """The positions of a boards row, in order."""
    boards, turns = board_arrays(data, words(variant))
    for kinds, turn in zip(boards.tolist(), turns.tolist(), strict=True):
        wm, wk, bm, bk = (sum(word << 64 * k for k, word in enumerate(b)) for b in kinds)
        yield Position(variant, wm, wk, bm, bk, turn)


SQUARES_AT_ONCE = 5000  # games whose boards are read at a time to fill the squares table


def squares_from_boards(conn: Connection) -> None:
    """Fill the empty squares table from the games' boards (a database made before schema 9),
    a batch of games at a time in id order."""
    import numpy as np

    kinds = [c.name for c in SquaresRow.__table__.columns][1:]
    for rows in boards_by_game(conn, SQUARES_AT_ONCE):
        found = []
        for gid, v, data in rows:
            reached = np.bitwise_or.reduce(board_arrays(data, words(v))[0])
            boards = (sum(int(word) << 64 * j for j, word in enumerate(b)) for b in reached)
            bits = (square_bits(v, board) for board in boards)
            found.append({"game_id": gid, **dict(zip(kinds, bits, strict=True))})
        conn.execute(insert(SquaresRow), found)


def boards_by_game(conn: Connection, at_once: int) -> Iterator[list[tuple[int, Variant, bytes]]]:
    """The boards rows of the games with a variant, as (game id, variant, data), *at_once*
    games at a time in id order; each batch read after the one before is used (its rows may be
    rewritten meanwhile)."""
    batch = (
        select(BoardsRow.game_id, GameRow.variant, BoardsRow.data)
        .join(GameRow, GameRow.id == BoardsRow.game_id)
        .where(BoardsRow.game_id > bindparam("after"), GameRow.variant.is_not(None))
        .order_by(BoardsRow.game_id)
        .limit(at_once)
    )
    after = -(1 << 63)  # below every game id
    while rows := conn.execute(batch, {"after": after}).all():
        yield [(gid, get_variant(str(name)), data) for gid, name, data in rows]
        after = rows[-1][0]


def _mask_words(mask: int, w: int) -> np.ndarray:
    import numpy as np

    return np.frombuffer(mask.to_bytes(8 * w, "little"), dtype="<u8")


def _fitting(boards: np.ndarray, turns: np.ndarray, masks: Masks) -> np.ndarray:
    """Per position (boards shaped (positions, 4, w)), whether it fits the masks."""
    import numpy as np

    w = boards.shape[2]
    ok = np.ones(len(turns), dtype=bool)
    if masks.turn is not None:
        ok &= turns == masks.turn
    wm, wk, bm, bk = boards[:, 0], boards[:, 1], boards[:, 2], boards[:, 3]
    for have, mask in (
        (wm, masks.white_men), (wk, masks.white_kings), (wm | wk, masks.white_pieces),
        (bm, masks.black_men), (bk, masks.black_kings), (bm | bk, masks.black_pieces),
    ):  # fmt: skip
        if mask:
            m = _mask_words(mask, w)
            ok &= ((have & m) == m).all(axis=1)
    if masks.empty:
        m = _mask_words(masks.empty, w)
        ok &= ((wm | wk | bm | bk) & m == 0).all(axis=1)
    return ok


BATCH = 4000  # games whose boards are read and checked at once


def squares_allow(
    pattern: Pattern, variant: str | None = None, folded: bool = True
) -> ColumnElement[bool] | None:
    """Whether a game's squares row allows *pattern* on the board of *variant*, or of some
    variant (not *folded*: of the variants whose boards have at most FOLD squares; None: every
    row does, for a pattern of empty squares alone)."""
    sq = SquaresRow
    columns = (
        sq.white_men, sq.white_kings, sq.white_men.op("|")(sq.white_kings),
        sq.black_men, sq.black_kings, sq.black_men.op("|")(sq.black_kings),
    )  # fmt: skip
    asked = set()
    boards = [get_variant(variant)] if variant else VARIANTS.values()
    for v in boards if folded else [v for v in boards if v.name not in folded_variants()]:
        m = pattern.compile(v)
        if m is not None:
            kinds = (m.white_men, m.white_kings, m.white_pieces,
                     m.black_men, m.black_kings, m.black_pieces)  # fmt: skip
            asked.add(tuple(square_bits(v, mask) for mask in kinds))
    if any(not any(bits) for bits in asked):
        return None
    return or_(
        false(),
        *(
            and_(*(c.op("&")(b) == b for c, b in zip(columns, bits, strict=True) if b))
            for bits in sorted(asked)
        ),
    )


def one_piece(pattern: Pattern) -> bool:
    """Whether *pattern* asks for one piece on one numbered square and for nothing else: then a
    game of a board of at most FOLD squares reaches it exactly when its squares row has that
    square (see :func:`folded_variants` for the others)."""
    (colour, _, square), *more = pattern.items
    return pattern.turn is None and not more and colour != "E" and square.isdigit()


@cache
def folded_variants() -> frozenset[str]:
    """The names of the variants (with or without capture obligation) whose boards have more
    than FOLD squares: their squares rows fold two squares onto one bit."""
    big = [v.name for v in VARIANTS.values() if len(geometry(v).squares) > FOLD]
    return frozenset([*big, *(f"{name}-nco" for name in big)])


def pattern_games(
    conn: Connection, games: Iterable[tuple[int, str | None]], pattern: Pattern
) -> Iterator[int]:
    """The ids among *games* ((id, variant) pairs, in order) of the games that reach the pattern,
    in the same order."""
    pending: list[tuple[int, Variant]] = []
    named: dict[str, Variant] = {}  # each name looked up once a search
    for game_id, name in games:
        v = (named.get(name) or named.setdefault(name, get_variant(name))) if name else None
        if v is not None and pattern.compile(v) is not None:  # (-nco: its base's board)
            pending.append((game_id, v))
        if len(pending) >= BATCH:
            yield from _check(conn, pending, pattern)
            pending = []
    yield from _check(conn, pending, pattern)


def _check(conn: Connection, pending: list[tuple[int, Variant]], pattern: Pattern) -> Iterator[int]:
    """The games of *pending* that reach the pattern, in order: the positions of all the games
    of one variant checked at once."""
    import numpy as np

    ids = [game_id for game_id, _ in pending]
    query = select(BoardsRow.game_id, BoardsRow.data).where(BoardsRow.game_id.in_(ids))
    data = dict(conn.execute(query).all()) if ids else {}
    found: set[int] = set()
    for v in {v for _, v in pending}:
        w = words(v)
        games = [gid for gid, gv in pending if gv == v and data.get(gid)]
        if not games:
            continue
        arrays = [board_arrays(data[gid], w) for gid in games]
        counts = [len(a) for a, _ in arrays]
        boards = np.concatenate([a for a, _ in arrays])
        turns = np.concatenate([t for _, t in arrays])
        ok = _fitting(boards, turns, pattern.compile(v))  # type: ignore[arg-type]
        starts = np.cumsum([0, *counts[:-1]])
        hits = np.logical_or.reduceat(ok, starts)
        found.update(gid for gid, hit in zip(games, hits, strict=True) if hit)
    yield from (gid for gid in ids if gid in found)


# -- material --------------------------------------------------------------------------------------


def allows(material: Material, sig: int) -> bool:
    """Whether *material* allows the counts of signature *sig*."""
    for i, count in enumerate(material.counts):
        n = sig >> i * _BITS & _TOP
        if n < count.low or (count.high is not None and n > count.high):
            return False
    return True


def material_numbers(engine: Engine, material: Material, plies: int = 1) -> list[int]:
    """The numbers (games.number) of the games in which the material stands for at least
    *plies* consecutive positions, in order."""
    import numpy as np

    with engine.connect() as conn:
        runs = runs_of(conn, lambda sig: allows(material, sig))
    games = runs[:, 0]
    if plies > 1:  # a game's adjacent runs: one island, its lengths added
        ends = runs[:, 1] + runs[:, 2]
        fresh = np.ones(len(runs), dtype=bool)
        fresh[1:] = (games[1:] != games[:-1]) | (runs[1:, 1] != ends[:-1])
        island = np.cumsum(fresh) - 1
        long = np.bincount(island, weights=runs[:, 2]) >= plies
        games = games[fresh][long]
    first = np.ones(len(games), dtype=bool)  # the runs come in order of game
    first[1:] = games[1:] != games[:-1]
    numbers: list[int] = games[first].tolist()
    return numbers


def material_games(engine: Engine, material: Material, plies: int = 1) -> Select[Any]:
    """:func:`material_numbers` as the rows of a query (one column, the number)."""
    return numbers_table(engine, material_numbers(engine, material, plies))
