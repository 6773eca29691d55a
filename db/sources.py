"""The files an import reads, as the database knows them: a row per file (path and checksum),
made for many files in one transaction, and the games stored from each so far."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from itertools import islice
from pathlib import Path

from sqlalchemy import Engine, bindparam, select, tuple_, update
from sqlalchemy.dialects import postgresql, sqlite

from pdn.db.schema import Occurrence, SourceFile
from pdn.read.decoding import detect_encoding
from pdn.read.files import shown_name

ROWS_AT_ONCE = 500  # files looked up in one statement
BLOCK = 1 << 20  # bytes hashed at a time


def file_digest(path: Path, size: int | None = None) -> str:
    """The SHA-256 of a file's bytes (its first *size* bytes if given)."""
    h = hashlib.sha256()
    left = size
    with path.open("rb") as fh:
        while left is None or left > 0:
            block = fh.read(BLOCK if left is None else min(left, BLOCK))
            if not block:
                break
            h.update(block)
            left = None if left is None else left - len(block)
    return h.hexdigest()


@dataclass(frozen=True, slots=True)
class Source:
    """A file to import as the database knows it: its row, whether it was imported whole, and
    the bytes imported now (its size when hashed: a file that grows is read that far)."""

    id: int
    complete: bool
    size: int


def source_files(engine: Engine, paths: list[Path]) -> list[Source]:
    """Each file's row (made if new, all in one transaction: two imports at once share them),
    for its path and the checksum of its bytes now."""
    now = datetime.now(UTC).replace(tzinfo=None)
    rows: list[dict[str, object]] = []
    keys: list[tuple[str, str]] = []
    sizes: list[int] = []
    for path in paths:
        sizes.append(path.stat().st_size)
        with path.open("rb") as fh:
            encoding = detect_encoding(fh)
        keys.append((shown_name(path), file_digest(path, sizes[-1])))
        rows.append({"path": keys[-1][0], "sha256": keys[-1][1], "size": sizes[-1],
                     "encoding": encoding, "complete": False, "games": 0,
                     "imported_at": now})  # fmt: skip
    found: dict[tuple[str, str], tuple[int, bool]] = {}
    with engine.begin() as conn:
        upsert = postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert
        if rows:
            conn.execute(upsert(SourceFile).on_conflict_do_nothing(), rows)
        wanted = iter(keys)
        while chunk := list(islice(wanted, ROWS_AT_ONCE)):
            known = select(SourceFile.path, SourceFile.sha256, SourceFile.id, SourceFile.complete)
            pair = tuple_(SourceFile.path, SourceFile.sha256)
            for name, digest, fid, complete in conn.execute(known.where(pair.in_(chunk))):
                found[name, digest] = int(fid), bool(complete)
    return [Source(*found[key], size) for key, size in zip(keys, sizes, strict=True)]


def mark_complete(engine: Engine, files: list[tuple[int, int]]) -> None:
    """Mark files (id, games) as imported whole, in one transaction."""
    if not files:
        return
    marked = (
        update(SourceFile)
        .where(SourceFile.id == bindparam("file"))
        .values(complete=True, games=bindparam("count"))
    )
    with engine.begin() as conn:
        conn.execute(marked, [{"file": fid, "count": n} for fid, n in files])


def present_indexes(engine: Engine, file_ids: list[int]) -> dict[int, set[int]]:
    """For each file, the indexes in it of the games stored from it (ROWS_AT_ONCE files a
    statement)."""
    found: dict[int, set[int]] = {fid: set() for fid in file_ids}
    wanted = iter(file_ids)
    with engine.connect() as conn:
        while chunk := list(islice(wanted, ROWS_AT_ONCE)):
            stored = select(Occurrence.file_id, Occurrence.file_index)
            for fid, index in conn.execute(stored.where(Occurrence.file_id.in_(chunk))):
                found[fid].add(index)
    return found
