"""The material runs of the stored games, packed: a row per signature (the counts of white
men, white kings, black men and black kings packed into one integer: pdn.db.search.signature)
with every run of positions of a game's main line that has that material.

A row's data is a sequence of parts, one for each import that moved runs of the signature in
(an import stages a game's runs in a row of material_staged: :func:`staged`; and moves them in
at its end). A part:
the number of its runs n (a varint), the first run's game number (a varint), a byte of widths
(bits 0-1: the gaps between game numbers, 2-3: the first positions, 4-5: the lengths; each the
bytes less one), then the n - 1 gaps between the runs' game numbers in order, the n runs'
first positions (0 is the start, i the position after ply i) and their lengths in positions,
little-endian in the widths of the byte (the fewest bytes the largest of each takes). A game
stored anew from an earlier place stages its runs again: the build keeps a run once within an
import, and :func:`unpacked` across them. Schema 13 kept a row per run, keyed by signature,
game and first position: some 15 bytes each (241 MiB of the million-game archive's 1,733).
Schema 15 staged a row per run: OCA_2.0.pdn's 357,388, which took the writer 0.5 s to insert
and 0.5 s to sort in by SQL.
"""

from __future__ import annotations

import struct
from collections.abc import Callable, Iterator, Sequence
from functools import cache
from itertools import chain
from typing import TYPE_CHECKING

from sqlalchemy import Connection, select

from pdn.db.postings import (
    STAGED_AT_ONCE,
    WIDTHS,
    driver_cursor,
    in_ranges,
    little_endian,
    staged_in,
    taken_in,
    upsert,
    varint,
    varint_at,
)
from pdn.db.schema import MATERIAL_STAGED, MaterialRow

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt

TABLE = MaterialRow.__tablename__
KEY = "signature"
TAKEN = "material_moving"  # PostgreSQL: the staged rows move_in takes
READ_AT_ONCE = 1 << 18  # runs read at a time (the last signature's wait for the next)
ASKED_AT_ONCE = 500  # signatures asked for in one statement


RUN_BYTES = 12  # a staged run: signature, first position and length, 4 bytes each
SORTED_AT_ONCE = 1 << 18  # staged runs sorted at a time (32 bytes each in numpy): 4 million
# runs moved in by 2 million took 2.45 s and 217 MiB more, by 262,144 1.6 s and 43 MiB
RANGES = 256  # at most (a file each, open at once)


def staged(runs: Sequence[tuple[int, int, int]]) -> bytes:
    """A game's row of material_staged: each of its *runs* as its signature, first position
    and length, little-endian, 4 bytes each."""
    return struct.pack(f"<{3 * len(runs)}I", *chain.from_iterable(runs))


def parts(runs: npt.NDArray[np.int64]) -> list[tuple[int, bytes]]:
    """Each signature's part (see the module's text) from *runs*, rows of signature, game,
    first position and length sorted by the first three (a run repeated is kept once)."""
    import numpy as np

    if not len(runs):
        return []
    fresh = np.ones(len(runs), dtype=bool)
    fresh[1:] = (runs[1:, :3] != runs[:-1, :3]).any(axis=1)
    runs = runs[fresh]
    if runs[:, 1:].min() < 0 or runs[:, 1:].max() >> 32:
        raise ValueError("a run past the numbers a part holds")
    starts = [*np.flatnonzero(np.diff(runs[:, 0])) + 1]
    out = []
    for a, b in zip([0, *starts], [*starts, len(runs)], strict=True):
        games, firsts, lengths = runs[a:b, 1], runs[a:b, 2], runs[a:b, 3]
        gaps = np.diff(games)
        columns = (gaps, firsts, lengths)
        widths = [_width(int(c.max()) if len(c) else 0) for c in columns]
        head = (widths[0] - 1) | (widths[1] - 1) << 2 | (widths[2] - 1) << 4
        body = b"".join(little_endian(c, w).tobytes() for c, w in zip(columns, widths, strict=True))
        out.append((int(runs[a, 0]), varint(b - a) + varint(int(games[0])) + bytes([head]) + body))
    return out


def _width(top: int) -> int:
    """The bytes a number up to *top* takes (1 to 4)."""
    return 1 + (top >= 1 << 8) + (top >= 1 << 16) + (top >= 1 << 24)


def unpacked(data: bytes) -> npt.NDArray[np.int64]:
    """The runs of a row's *data*: rows of game, first position and length, in that order,
    each once."""
    import numpy as np

    found = [np.zeros((0, 3), np.int64)]
    at = 0
    while at < len(data):
        n, at = varint_at(data, at)
        base, at = varint_at(data, at)
        head = data[at]
        at += 1
        columns = []
        for count, width in zip((n - 1, n, n), WIDTHS[head], strict=True):
            columns.append(_numbers(data, at, count, width))
            at += count * width
        games = base + np.concatenate([[0], np.cumsum(columns[0])])
        found.append(np.stack([games, columns[1], columns[2]], axis=1))
    runs = np.concatenate(found)
    return _once(runs) if len(found) > 2 else runs


def _numbers(data: bytes, at: int, count: int, width: int) -> npt.NDArray[np.int64]:
    """*count* little-endian numbers of *width* bytes at *at* of *data*."""
    import numpy as np

    block = np.frombuffer(data, np.uint8, count * width, at).reshape(count, width)
    return block.astype(np.int64) @ (1 << 8 * np.arange(width, dtype=np.int64))


def _once(runs: npt.NDArray[np.int64]) -> npt.NDArray[np.int64]:
    """*runs* (game, first, length) in order of game and first position, each once."""
    import numpy as np

    runs = runs[np.lexsort((runs[:, 1], runs[:, 0]))]
    fresh = np.ones(len(runs), dtype=bool)
    fresh[1:] = (runs[1:, :2] != runs[:-1, :2]).any(axis=1)
    return runs[fresh]


def runs_of(conn: Connection, wanted: Callable[[int], bool]) -> npt.NDArray[np.int64]:
    """The runs (game, first position, length) of every signature *wanted* accepts, staged
    ones included (an import at work, or killed), in order of game and first position, each
    once (a game stored anew during an import has its runs stored and staged). The staged
    rows are read first: an import moving them in meanwhile (PostgreSQL reads each
    statement's own snapshot) leaves them in one read or the other."""
    import numpy as np

    found = [np.zeros((0, 3), np.int64)]
    staged = staged_in(conn, MATERIAL_STAGED)
    if staged:  # every staged run read, those of the signatures wanted kept
        for chunk in _staged(conn, MATERIAL_STAGED.name):
            kinds = np.unique(chunk["signature"])
            kept = kinds[[wanted(s) for s in kinds.tolist()]]
            found.append(_as_rows(chunk[np.isin(chunk["signature"], kept)])[:, 1:])
    stored = conn.execute(select(MaterialRow.signature)).scalars()
    chosen = sorted(s for s in stored if wanted(s))
    for i in range(0, len(chosen), ASKED_AT_ONCE):
        asked = chosen[i : i + ASKED_AT_ONCE]
        rows = select(MaterialRow.data).where(MaterialRow.signature.in_(asked))
        found += [unpacked(data) for data in conn.execute(rows).scalars()]
    if staged or len(found) > 2:  # one stored row comes in order, each run once
        return _once(np.concatenate(found))
    return found[-1]


def move_in(conn: Connection) -> None:
    """Move the staged runs into their rows, a part for each signature (see
    pdn.db.postings.taken_in): more than SORTED_AT_ONCE cut by signature into up to RANGES
    ranges (see pdn.db.postings.in_ranges), each then sorted and written in turn."""

    def move(table: str) -> None:
        import numpy as np

        total = conn.exec_driver_sql(f"SELECT sum(length(runs)) FROM {table}").scalar() or 0
        ranges = min(-(-int(total) // RUN_BYTES // SORTED_AT_ONCE), RANGES)
        statement = upsert(conn, TABLE, KEY)

        def cut(chunk: npt.NDArray[np.void]) -> npt.NDArray[np.int64]:
            return chunk["signature"] % ranges

        for found in in_ranges(conn, _staged(conn, table), _run(), ranges, cut):
            runs = _as_rows(found)
            made = parts(runs[np.lexsort((runs[:, 2], runs[:, 1], runs[:, 0]))])
            if made:
                conn.exec_driver_sql(statement, made)

    taken_in(conn, MATERIAL_STAGED, TAKEN, move)


@cache
def _run() -> np.dtype[np.void]:
    """A staged run as numpy holds it to sort it: signature, game, first position, length."""
    import numpy as np

    return np.dtype([(name, "<i8") for name in ("signature", "game", "first", "length")])


def _as_rows(runs: npt.NDArray[np.void]) -> npt.NDArray[np.int64]:
    """Records of :func:`_run` as rows of signature, game, first position and length."""
    import numpy as np

    return runs.view(np.int64).reshape(-1, 4)


def _staged(conn: Connection, table: str) -> Iterator[npt.NDArray[np.void]]:
    """The staged runs of *table*, a batch of games at a time (records of :func:`_run`)."""
    import numpy as np

    cursor = driver_cursor(conn, f"SELECT game, runs FROM {table}", "pdn_material")
    while rows := cursor.fetchmany(STAGED_AT_ONCE):
        numbers, blobs = zip(*rows, strict=True)
        lengths = np.array([len(b) // RUN_BYTES for b in blobs])
        runs = np.frombuffer(b"".join(blobs), "<u4").reshape(-1, 3)
        out = np.empty(len(runs), _run())
        out["signature"], out["first"], out["length"] = runs.T
        out["game"] = np.repeat(np.array(numbers, np.int64), lengths)
        yield out
    cursor.close()


def added(conn: Connection, query: str) -> None:
    """Add a part to the row of each signature the runs of *query* have (signature, game,
    first position, length; in that order), read a chunk at a time through the driver's
    cursor: schema 13's rows, and schema 15's staged runs."""
    import numpy as np

    statement = upsert(conn, TABLE, KEY)
    cursor = driver_cursor(conn, query, "pdn_material")
    held = np.zeros((0, 4), np.int64)
    while chunk := cursor.fetchmany(READ_AT_ONCE):
        block = np.concatenate([held, np.array(chunk, np.int64)])
        cut = int(np.searchsorted(block[:, 0], block[-1, 0]))
        held = block[cut:]
        if cut:
            conn.exec_driver_sql(statement, parts(block[:cut]))
    cursor.close()
    if len(held):
        conn.exec_driver_sql(statement, parts(held))
