"""The positions of the stored games as postings: for each position digest, every game that
reaches it, at which ply and with which move played from it; a row holds the digests that
share their top 16 bits (its key, the prefix).

A row's data is a sequence of parts, one for each import that moved positions of the row in
(an import stages a row per game: see :func:`staged_row` and pdn.db.staging). A part: the
number of its digests (a varint); each digest's low 48 bits (6 bytes), in order; then each
digest's postings: a byte of widths and count, their number if the byte does not hold it (a
varint), and the postings, each the game's number, the ply (0 is the start) and the move's id
in move_texts plus one (0: none, from a game's last position), little-endian in the widths of
the byte (the fewest bytes the digest's largest number of each kind takes). The byte's top two
bits are the count when it is 1 to 3 (0: the varint follows): 577,265 of OCA_2.0.pdn's
660,650 digests have one posting, and these bits save their byte of count (parts written
before have them 0 and read as they did). An import adds a part by appending it to the row
(SQL's ``||``), so a row is never read back to be written. A game stored anew from an earlier
place stages its rows again, which the build leaves out within an import and :func:`unpacked`
across them. Schema 12 kept a row per position: 20 bytes each, the digest repeated for every
game reaching it; a row per digest took some 14 bytes of key and cell each.
"""

from __future__ import annotations

import struct
import sys
import tempfile
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from sqlalchemy import Connection, Table, literal, select

from pdn.db.schema import STAGED, PostingRow

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

CHUNK = 1 << 18  # rows of schema 12's positions read at a time (20 bytes each as records)


Posting = tuple[int, int, int | None]  # the game's number, the ply, the move's id (none: last)


SHIFT = 48  # a row holds the digests of one value of their top 16 bits (its key)
LOW = (1 << SHIFT) - 1  # the bits of a digest its row's data holds
PREFIXES = 1 << (64 - SHIFT)  # the rows there can be


WIDTHS = [((h & 3) + 1, (h >> 2 & 3) + 1, (h >> 4 & 3) + 1) for h in range(0x100)]
# a byte of widths (bits 0-1, 2-3 and 4-5: each the bytes less one) as the widths of a part's
# three columns: in a postings part, the game, the ply and the move; in a material part
# (pdn.db.material), the gaps, the first positions and the lengths
SHORT_COUNT = 3  # the most postings of a digest its byte of widths counts in bits 6-7


def parts(
    digests: npt.NDArray[np.int64],
    games: npt.NDArray[np.int64],
    plies: npt.NDArray[np.int64],
    moves: npt.NDArray[np.int64],
) -> list[tuple[int, bytes]]:
    """Each row's part (see the module's text) from postings sorted by digest, game and ply (a
    posting repeated is kept once), each digest's postings in the widths their numbers need:
    laid out in one array of bytes, each byte of a column's numbers put in place at once."""
    import numpy as np

    if not len(digests):
        return []
    key = np.stack([digests, games, plies])
    fresh = np.ones(len(digests), dtype=bool)
    fresh[1:] = (key[:, 1:] != key[:, :-1]).any(axis=0)
    digests, games, plies, moves = digests[fresh], games[fresh], plies[fresh], moves[fresh]
    if games.min() < 0 or games.max() >> 32 or plies.max() >> 32 or moves.max() >> 32:
        raise ValueError("a posting past the numbers a part holds")
    starts = _starts(digests)  # of each digest's postings
    counts = np.diff(np.append(starts, len(digests)))
    columns = (games, plies, moves)
    widths = [_widths(np.maximum.reduceat(c, starts)) for c in columns]  # per digest
    short = counts <= SHORT_COUNT  # counted in the byte of widths, else by a varint after it
    heads = (widths[0] - 1) | (widths[1] - 1) << 2 | (widths[2] - 1) << 4 | short * counts << 6
    counted = np.where(short, 0, _varint_bytes(counts))
    record = widths[0] + widths[1] + widths[2]
    sizes = 1 + counted + counts * record  # each digest's bytes
    ends = np.cumsum(sizes)
    at = ends - sizes
    laid = np.zeros(int(ends[-1]), np.uint8)
    laid[at] = heads
    for i in range(int(counted.max())):  # the varints' bytes, the last without the top bit
        more = counted > i
        last = counted[more] == i + 1
        laid[at[more] + 1 + i] = (counts[more] >> 7 * i) & 0x7F | np.where(last, 0, 0x80)
    owner = np.repeat(np.arange(len(starts)), counts)  # each posting's digest
    first = (at + 1 + counted)[owner] + (np.arange(len(digests)) - starts[owner]) * record[owner]
    for column, width in zip(columns, widths, strict=True):
        wide = width[owner]
        for i in range(int(width.max())):
            put = wide > i
            laid[first[put] + i] = column[put] >> 8 * i & 0xFF
        first = first + wide
    prefixes = digests[starts] >> SHIFT
    firsts = [*_starts(prefixes).tolist(), len(starts)]  # of each row's digests
    lows = little_endian(digests[starts] & LOW, 6).tobytes()
    data, bounds = laid.tobytes(), [0, *ends.tolist()]
    return [
        (p, varint(b - a) + lows[6 * a : 6 * b] + data[bounds[a] : bounds[b]])
        for p, a, b in zip(prefixes[firsts[:-1]].tolist(), firsts, firsts[1:], strict=False)
    ]


def _starts(values: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """Where each run of equal *values* (sorted) begins."""
    import numpy as np

    return np.concatenate([[0], np.flatnonzero(np.diff(values)) + 1])


def varint(n: int) -> bytes:
    if n < 0x80:
        return SMALL[n]
    out = bytearray()
    while n >= 0x80:
        out.append(n & 0x7F | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


SMALL = [bytes([n]) for n in range(0x80)]  # the varints of one byte


def _widths(tops: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The bytes each number up to *tops* takes (1 to 5)."""
    return 1 + (tops >= 1 << 8) + (tops >= 1 << 16) + (tops >= 1 << 24) + (tops >= 1 << 32)


def _varint_bytes(numbers: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """The bytes the varint of each of *numbers* takes."""
    import numpy as np

    n = np.ones(len(numbers), np.int64)
    for bits in (7, 14, 21, 28, 35):
        n += numbers >= 1 << bits
    return n


def little_endian(column: npt.NDArray[np.int64], width: int) -> npt.NDArray[np.uint8]:
    """*column*'s numbers little-endian in *width* bytes each, a row a number."""
    import numpy as np

    shifts = 8 * np.arange(width, dtype=np.int64)
    return ((column[:, None] >> shifts) & 0xFF).astype(np.uint8)


def unpacked(prefix: int, data: bytes) -> dict[int, list[Posting]]:
    """The postings of each digest of the row of *prefix* (its *data*), in the order of game
    and ply, each once."""
    out: dict[int, list[Posting]] = {}
    again = False  # a digest in parts of several imports: a game stored anew is in two
    at = 0
    while at < len(data):
        k, at = varint_at(data, at)
        lows = [int.from_bytes(data[i : i + 6], "little") for i in range(at, at + 6 * k, 6)]
        at += 6 * k
        for low in lows:
            head = data[at]
            widths = WIDTHS[head]
            n, at = (head >> 6, at + 1) if head >> 6 else varint_at(data, at + 1)
            size = n * sum(widths)
            digest = prefix << SHIFT | low
            again = again or digest in out
            out.setdefault(digest, []).extend(_records(data[at : at + size], n, widths))
            at += size
    if again:  # a posting once for each game and ply, as parts() keeps it
        out = {d: sorted({(g, p): (g, p, m) for g, p, m in ps}.values()) for d, ps in out.items()}
    return out


def varint_at(data: bytes, at: int) -> tuple[int, int]:
    """The varint at *at* of *data*, and where it ends."""
    n = shift = 0
    while True:
        byte = data[at]
        at += 1
        n |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return n, at


LOOPED = 16  # a digest's postings in a part, this many or fewer, are read without numpy


def recounted(data: bytes, short: bool = True) -> bytes:
    """A row's *data* with each digest's count written *short* (1 to 3 in its byte of widths,
    as :func:`parts` writes it) or else as a varint after the byte (as parts were written
    before schema 15)."""
    out = bytearray()
    at = 0
    while at < len(data):
        k, lows = varint_at(data, at)
        out += data[at : lows + 6 * k]  # the number of digests and their low bits
        at = lows + 6 * k
        for _ in range(k):
            head = data[at]
            n, start = (head >> 6, at + 1) if head >> 6 else varint_at(data, at + 1)
            widths = head & 0x3F
            kept = short and n <= SHORT_COUNT
            out += bytes([widths | n << 6]) if kept else bytes([widths]) + varint(n)
            at = start + n * RECORD_BYTES[head]
            out += data[start:at]
    return bytes(out)


def _records(data: bytes, n: int, widths: tuple[int, int, int]) -> list[Posting]:
    """The *n* postings of a part's records."""
    g, p, m = widths
    size = g + p + m
    if n <= LOOPED:
        out: list[Posting] = []
        for at in range(0, n * size, size):
            move = int.from_bytes(data[at + g + p : at + size], "little")
            out.append((
                int.from_bytes(data[at : at + g], "little"),
                int.from_bytes(data[at + g : at + g + p], "little"),
                move - 1 if move else None,
            ))  # fmt: skip
        return out
    import numpy as np

    block = np.frombuffer(data, np.uint8).reshape(n, size).astype(np.int64)
    columns = []
    col = 0
    for w in widths:
        columns.append((block[:, col : col + w] << (8 * np.arange(w))).sum(axis=1).tolist())
        col += w
    return [(a, b, c - 1 if c else None) for a, b, c in zip(*columns, strict=True)]


def upsert(conn: Connection, table: str = PostingRow.__tablename__, key: str = "prefix") -> str:
    """The statement that appends a part to a row of *table* keyed by *key* (or makes the row):
    the postings', or the material runs' (pdn.db.material)."""
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    joined = f"{table}.data || excluded.data"
    if conn.dialect.name == "sqlite":  # || makes text of two blobs: the same bytes
        joined = f"CAST({joined} AS BLOB)"
    return (
        f"INSERT INTO {table} ({key}, data) VALUES ({mark}, {mark}) "
        f"ON CONFLICT ({key}) DO UPDATE SET data = {joined}"
    )


UINT32 = next(code for code in "IL" if array(code).itemsize == 4)  # an array's type of 4 bytes


def staged_row(number: int, digests: bytes, codes: Iterable[int]) -> tuple[int, bytes, bytes]:
    """The staged row of game *number*: its positions' *digests* (8 bytes each, little-endian)
    and the code of the move played from each (*codes*: its id plus one; past their end, 0)."""
    moves = array(UINT32, codes)
    moves.frombytes(bytes(4 * (len(digests) // 8 - len(moves))))
    if sys.byteorder == "big":
        moves.byteswap()
    return number, digests, moves.tobytes()


def move_in(conn: Connection) -> None:
    """Move the staged positions into the postings (see :func:`taken_in`)."""
    taken_in(conn, STAGED, TAKEN, lambda table: _moved(conn, table))


def staged_in(conn: Connection, staged: Table) -> bool:
    """Whether any row is *staged*."""
    return conn.execute(select(literal(1)).select_from(staged).limit(1)).first() is not None


def taken_in(conn: Connection, staged: Table, taken: str, move: Callable[[str], None]) -> None:
    """Move the rows of *staged* in with *move*, told the table to read them from, and empty
    it: on PostgreSQL the rows staged when the statement began, others staged meanwhile left
    for their import (taken into table *taken* of the transaction first: a cursor read a
    chunk at a time cannot delete)."""
    if conn.dialect.name != "postgresql":
        move(staged.name)
        conn.execute(staged.delete())
        return
    run = conn.exec_driver_sql
    run(f"CREATE TEMPORARY TABLE {taken} (LIKE {staged.name}) ON COMMIT DROP")
    run(f"WITH moved AS (DELETE FROM {staged.name} RETURNING *) INSERT INTO {taken} "
        "SELECT * FROM moved")  # fmt: skip
    move(taken)
    run(f"DROP TABLE {taken}")


TAKEN = "positions_moving"  # PostgreSQL: the staged rows move_in takes
SORTED_AT_ONCE = 1 << 21  # postings sorted at a time (some 60 bytes each in numpy's arrays)
WRITTEN_AT_ONCE = 1 << 16  # postings whose parts are made and written at a time


def _moved(conn: Connection, table: str) -> None:
    """Add a part to the postings of each digest the staged rows of *table* reach, sorted by
    digest, game and ply: more than SORTED_AT_ONCE cut by ranges of prefixes (see
    :func:`in_ranges`), each range then sorted and written in turn."""
    total = conn.exec_driver_sql(f"SELECT sum(length(digests)) / 8 FROM {table}").scalar() or 0
    ranges = min(-(-int(total) // SORTED_AT_ONCE), PREFIXES)
    step = -(-PREFIXES // max(ranges, 1))  # prefixes a range: a row's postings in one range

    def cut(chunk: npt.NDArray[np.void]) -> npt.NDArray[np.int64]:
        return ((chunk["digest"] >> SHIFT) + PREFIXES // 2) // step

    for found in in_ranges(conn, _staged(conn, table), _record(), ranges, cut):
        _written(conn, found)


def in_ranges(
    conn: Connection,
    chunks: Iterable[npt.NDArray[np.void]],
    record: np.dtype[np.void],
    ranges: int,
    cut: Callable[[npt.NDArray[np.void]], npt.NDArray[np.int64]],
) -> Iterator[npt.NDArray[np.void]]:
    """The records of *chunks* (of dtype *record*) in *ranges* parts, each whole, in turn: one
    part if *ranges* is at most 1, else cut by *cut* (each record's range, 0 to *ranges* - 1)
    into files apart (one read of the chunks), and each file read back in turn. So the staged
    rows of a million games are sorted a range at a time, in bounded memory."""
    import numpy as np

    if ranges <= 1:
        yield np.concatenate([np.zeros(0, record), *chunks])
        return
    with tempfile.TemporaryDirectory(prefix="pdn-staged-", dir=_spill_place(conn)) as spill:
        paths = [Path(spill) / str(k) for k in range(ranges)]
        files = [path.open("wb") for path in paths]
        for chunk in chunks:
            k = cut(chunk)
            order = np.argsort(k, kind="stable")
            ends = np.searchsorted(k[order], np.arange(ranges + 1))
            for i, f in enumerate(files):
                chunk[order[ends[i] : ends[i + 1]]].tofile(f)
        for f in files:
            f.close()
        for path in paths:
            yield np.fromfile(path, record)
            path.unlink()


def _spill_place(conn: Connection) -> str | None:
    """Where :func:`in_ranges` cuts staged rows into files: beside an SQLite database file, whose
    disk holds the database they go into (the system's temporary folder may be memory: a
    million games spill some 1 GB); else the system's temporary folder (None)."""
    if conn.dialect.name != "sqlite":
        return None
    found = conn.exec_driver_sql("PRAGMA database_list").all()
    path = next((file for _, name, file in found if name == "main"), "")
    return str(Path(path).parent) if path else None


def _written(conn: Connection, found: npt.NDArray[np.void]) -> None:
    """Add the parts of the postings *found* (in any order), a slice of rows at a time."""
    import numpy as np

    found = found[_sorted(found)]
    statement = upsert(conn)
    prefixes = found["digest"] >> SHIFT
    at = 0
    while at < len(found):
        end = min(at + WRITTEN_AT_ONCE, len(found))
        end += int(np.searchsorted(prefixes[end:], prefixes[end - 1], side="right"))  # whole
        cut = found[at:end]
        made = parts(*(cut[c].astype(np.int64) for c in ("digest", "game", "ply", "move")))
        conn.exec_driver_sql(statement, made)
        at = end


def _sorted(found: npt.NDArray[np.void]) -> npt.NDArray[np.int64]:
    """The order of the postings *found* by digest, game and ply. Staged in order of game and
    ply (an import stages its games in order of their numbers), they are sorted by digest
    alone, ties in the order found: two of numpy's quicksorts, the second of each digest's run
    and index as one number (OCA_2.0.pdn's postings: 0.1 s, where sorting by the three took
    0.3); else by the three."""
    import numpy as np

    n = len(found)
    game, ply = found["game"].astype(np.int64), found["ply"].astype(np.int64)
    after = (game[1:] > game[:-1]) | ((game[1:] == game[:-1]) & (ply[1:] > ply[:-1]))
    if not after.all():  # a game stored anew, or writers at once (PostgreSQL)
        return np.lexsort((found["ply"], found["game"], found["digest"]))
    by = np.argsort(found["digest"])
    digests = found["digest"][by]
    runs = np.concatenate([[0], np.cumsum(digests[1:] != digests[:-1])])
    return np.sort(runs * n + by) % n


STAGED_AT_ONCE = 4096  # staged games read at a time


def driver_cursor(conn: Connection, query: str, name: str = "pdn_postings") -> Any:
    """The driver's cursor on *query*'s rows, fetched as asked (on PostgreSQL the server's
    cursor *name*, one open at a time): SQLAlchemy's rows cost more than the work on them."""
    driver = conn.connection.driver_connection
    assert driver is not None
    cursor = driver.cursor(name=name) if conn.dialect.name == "postgresql" else driver.cursor()
    cursor.execute(query)
    return cursor


@cache
def _record() -> np.dtype[np.void]:
    """A posting as numpy holds it to sort it: 20 bytes."""
    import numpy as np

    return np.dtype([("digest", "<i8"), ("game", "<u4"), ("ply", "<u4"), ("move", "<u4")])


def _staged(conn: Connection, table: str) -> Iterator[npt.NDArray[np.void]]:
    """The staged postings of *table*, a batch of games at a time (records of :func:`_record`;
    the move its id plus one)."""
    import numpy as np

    cursor = driver_cursor(conn, f"SELECT game, digests, moves FROM {table}")
    while rows := cursor.fetchmany(STAGED_AT_ONCE):
        numbers, digests, moves = zip(*rows, strict=True)
        lengths = np.array([len(b) // 8 for b in digests])
        out = np.empty(int(lengths.sum()), _record())
        out["digest"] = np.frombuffer(b"".join(digests), "<i8")
        out["move"] = np.frombuffer(b"".join(moves), "<u4")
        out["game"] = np.repeat(np.array(numbers, np.int64), lengths)
        out["ply"] = np.arange(len(out)) - np.repeat(np.cumsum(lengths) - lengths, lengths)
        yield out
    cursor.close()


def added(conn: Connection, query: str) -> None:
    """Add a part to the postings of each digest the rows of *query* hold (digest, game, ply,
    move id plus one; in that order), read a chunk at a time through the driver's cursor (the
    postings of the last row's digests in a chunk wait for the next): the positions of schema
    12."""
    import numpy as np

    cursor = driver_cursor(conn, query)
    held = np.zeros(0, _record())
    while chunk := cursor.fetchmany(CHUNK):
        block = np.concatenate([held, np.array(chunk, dtype=_record())])
        prefixes = block["digest"] >> SHIFT
        cut = int(np.searchsorted(prefixes, prefixes[-1]))
        held = block[cut:]
        _written(conn, block[:cut])
    cursor.close()
    _written(conn, held)


def postings_at(conn: Connection, digest: int) -> list[Posting]:
    """The postings of position *digest*, staged ones included: read first, so that an import
    moving them in meanwhile (PostgreSQL reads each statement's own snapshot) leaves them in
    one read or the other."""
    prefix = digest >> SHIFT
    staged = {
        (g, p, m - 1 if m else None)
        for chunk in _staged(conn, STAGED.name)
        for g, p, m in _rows(chunk[chunk["digest"] == digest])
    }
    stored = conn.execute(select(PostingRow.data).where(PostingRow.prefix == prefix)).scalar()
    found = unpacked(prefix, stored or b"").get(digest, [])
    return sorted({*found, *staged}) if staged else found


def _rows(records: npt.NDArray[np.void]) -> Iterator[tuple[int, int, int]]:
    """Each record's game, ply and move (its id plus one)."""
    columns = (records[c].tolist() for c in ("game", "ply", "move"))
    return zip(*columns, strict=True)


def stored_postings(conn: Connection) -> Iterator[tuple[int, list[Posting]]]:
    """Each stored position's digest and postings, a row at a time."""
    query = select(PostingRow.prefix, PostingRow.data)
    for prefix, data in conn.execute(query.execution_options(stream_results=True)):
        yield from unpacked(prefix, data).items()


AT_PLY_BYTES = 1 << 22  # bytes of postings rows read into one pass of :func:`_between`


def postings_between(
    conn: Connection, first: int, last: int, games: Sequence[int] | None = None
) -> npt.NDArray[np.int64]:
    """Every posting at plies *first* to *last* (of *games* only, if given: their numbers),
    staged ones included (read first, as :func:`postings_at` reads them), each (digest, game,
    ply) once, in that order: a row each of digest, game, ply and the move's id plus one (0:
    none, from the last position). Each row's digests are walked to find their records, which
    are read in numpy."""
    import numpy as np

    wanted = None if games is None else np.array(sorted(set(games)), np.int64)
    found = [np.zeros((0, 4), np.int64)]
    for chunk in _staged(conn, STAGED.name):
        kept = chunk[(chunk["ply"] >= first) & (chunk["ply"] <= last)]
        if wanted is not None:
            kept = kept[np.isin(kept["game"], wanted)]
        found.append(
            np.stack([kept[c].astype(np.int64) for c in ("digest", "game", "ply", "move")], axis=1)
        )
    batch: list[tuple[int, bytes]] = []
    size = 0
    cursor = driver_cursor(conn, f"SELECT prefix, data FROM {PostingRow.__tablename__}")
    while rows := cursor.fetchmany(64):
        batch += rows
        size += sum(len(data) for _, data in rows)
        if size >= AT_PLY_BYTES:
            found.append(_between(batch, first, last, wanted))
            batch, size = [], 0
    cursor.close()
    found.append(_between(batch, first, last, wanted))
    every = np.concatenate(found)
    every = every[np.lexsort((every[:, 2], every[:, 1], every[:, 0]))]
    again = (every[1:, :3] == every[:-1, :3]).all(axis=1)  # a game stored anew: twice
    return every[np.concatenate([[True], ~again])] if again.any() else every


RECORD_BYTES = [sum(w) for w in WIDTHS]  # a posting's bytes, by its widths byte


def _between(
    rows: list[tuple[int, bytes]], first: int, last: int, games: npt.NDArray[np.int64] | None
) -> npt.NDArray[np.int64]:
    """The postings of *rows* (prefix, data) at plies *first* to *last* (of *games* only, if
    given), as :func:`postings_between` gives them, in no order."""
    import numpy as np

    digests: list[int] = []
    heads: list[int] = []
    starts: list[int] = []  # of each digest's records, in the rows' data joined
    counts: list[int] = []
    base = 0
    for prefix, data in rows:
        high = prefix << SHIFT
        at = 0
        while at < len(data):
            k, at = varint_at(data, at)
            lows = struct.unpack_from("<" + "IH" * k, data, at) if k else ()
            digests += [high | lows[i] | lows[i + 1] << 32 for i in range(0, 2 * k, 2)]
            at += 6 * k
            for _ in range(k):
                head = data[at]
                n = head >> 6 or data[at + 1]
                if head >> 6:
                    at += 1
                elif n < 0x80:
                    at += 2
                else:
                    n, at = varint_at(data, at + 1)
                heads.append(head & 0x3F)
                starts.append(base + at)
                counts.append(n)
                at += n * RECORD_BYTES[head]
        base += len(data)
    if not digests:
        return np.zeros((0, 4), np.int64)
    joined = np.frombuffer(b"".join(d for _, d in rows), np.uint8)
    head_of, start_of, count_of = np.array(heads), np.array(starts), np.array(counts)
    digest_of = np.array(digests, np.int64)
    out = [np.zeros((0, 4), np.int64)]
    for head in np.unique(head_of).tolist():
        g, p, m = WIDTHS[head]
        chosen = head_of == head
        n = count_of[chosen]
        records = np.repeat(start_of[chosen], n)
        records += (np.arange(len(records)) - np.repeat(np.cumsum(n) - n, n)) * (g + p + m)
        plies = _numbers(joined, records + g, p)
        hit = (plies >= first) & (plies <= last)
        numbers = _numbers(joined, records[hit], g)
        columns = [
            np.repeat(digest_of[chosen], n)[hit],
            numbers,
            plies[hit],
            _numbers(joined, records[hit] + g + p, m),
        ]
        if games is not None:
            columns = [c[np.isin(numbers, games)] for c in columns]
        out.append(np.stack(columns, axis=1))
    return np.concatenate(out)


def _numbers(joined: npt.NDArray[np.uint8], at: npt.NDArray[np.int64], width: int) -> Any:
    """The little-endian numbers of *width* bytes at each of *at* in *joined*."""
    import numpy as np

    total = np.zeros(len(at), np.int64)
    for i in range(width):
        total |= joined[at + i].astype(np.int64) << (8 * i)
    return total


def every_posting(conn: Connection) -> Iterator[tuple[int, list[Posting]]]:
    """Each stored position's digest and postings, staged ones included."""
    staged: dict[int, set[Posting]] = {}
    for chunk in _staged(conn, STAGED.name):
        for d, (g, p, m) in zip(chunk["digest"].tolist(), _rows(chunk), strict=True):
            staged.setdefault(d, set()).add((g, p, m - 1 if m else None))
    for digest, found in stored_postings(conn):
        more = staged.pop(digest, None)
        yield digest, sorted({*found, *more}) if more else found
    for digest, more in staged.items():
        yield digest, sorted(more)
