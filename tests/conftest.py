"""Shared fixtures: the corpus beside the checkout (../shared/corpus), its reports and database
made by one process, and new PostgreSQL databases on the server .ci/run starts."""

from __future__ import annotations

import csv
import hashlib
import os
import shutil
import uuid
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import Connection, Engine, FromClause, create_engine, delete, select, text

from pdn.archive.validate import validate_paths
from pdn.db.connection import open_database
from pdn.db.material import parts as material_parts
from pdn.db.material import unpacked as unpacked_runs
from pdn.db.postings import every_posting, parts, stored_postings, upsert
from pdn.db.schema import Base, GameRow, MaterialRow, MoveText, PostingRow
from pdn.db.search import StoredPositions, stored_rows, words
from pdn.db.store import ImportStats, import_paths
from pdn.game import Game
from pdn.read.reader import Seam, Span, read_games
from pdn.rules.position import CORES, Position, core, use_core

SHARED = Path(__file__).resolve().parents[2] / "shared"
CORPUS = SHARED / "corpus"


@dataclass(frozen=True, slots=True)
class CorpusFile:
    """One row of corpus/SOURCES.tsv."""

    path: Path
    variant: str
    games: int
    expect: str
    encoding: str


def in_ci() -> bool:
    """Whether the tests run under CI (where nothing they need may be missing)."""
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def corpus_dir() -> Path:
    """The corpus folder; fails under CI, skips elsewhere when it is missing."""
    if not CORPUS.is_dir():
        reason = f"the shared corpus is missing: expected it at {CORPUS}"
        if in_ci():
            pytest.fail(reason)
        pytest.skip(reason)
    return CORPUS


# Headless Chromium as root on a machine without network: no sandbox, no background connections
CHROMIUM_FLAGS = [
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
]  # fmt: skip


def dame_hub() -> list[str]:
    """dame-rs's Hub engine command (`dame hub`, the test extras install dame-rs); fails under
    CI, skips elsewhere when it is missing."""
    import sys

    found = shutil.which("dame") or str(Path(sys.executable).with_name("dame"))
    if os.access(found, os.X_OK):
        return [found, "hub"]
    if in_ci():
        pytest.fail("dame is missing: pip install dame-rs (in the test extras)")
    pytest.skip("dame-rs is not installed (pip install dame-rs)")


def chromium() -> str:
    """Debian's Chromium; fails under CI, skips elsewhere when it is missing."""
    found = shutil.which("chromium") or shutil.which("chromium-browser")
    if found:
        return found
    if in_ci():
        pytest.fail("chromium is missing: .ci/run installs Debian's chromium package")
    pytest.skip("chromium is not installed (apt-get install chromium)")


def corpus_files() -> list[CorpusFile]:
    """Every file listed in SOURCES.tsv (empty when the corpus is absent)."""
    sources = CORPUS / "SOURCES.tsv"
    if not sources.is_file():
        return []
    with sources.open(encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh, delimiter="\t"))
    return [
        CorpusFile(CORPUS / r["file"], r["variant"], int(r["games"]), r["expect"], r["encoding"])
        for r in rows
    ]


def stored(gid: int, positions: Sequence[Position]) -> StoredPositions:
    """What the database stores of game *gid*'s *positions* (as an import stores a main line
    through Kernel.line_rows, whose scan it is)."""
    v = positions[0].variant
    return stored_rows(gid, v, core().scan(positions, words(v), True))


def need_core(name: str) -> None:
    """Skip (fail under CI) when the core *name* is not here: the C kernel was not built."""
    if name not in CORES:
        reason = f"the {name!r} core is not built here (no C compiler at install time?)"
        if in_ci():
            pytest.fail(reason)
        pytest.skip(reason)


@pytest.fixture(params=["c", "python"])
def each_core(request: pytest.FixtureRequest) -> Iterator[str]:
    """Run the test on the C kernel and again on its pure-Python twin."""
    name: str = request.param
    need_core(name)
    previous = use_core(name)
    yield name
    use_core(previous.name)


@pytest.fixture
def corpus() -> Path:
    """Path of ../shared/corpus."""
    return corpus_dir()


POSTGRES = os.environ.get("PDN_TEST_POSTGRES")


def postgres_reason() -> str | None:
    """Why the PostgreSQL tests cannot run here (None when they can); under CI they must."""
    if POSTGRES or in_ci():
        return None
    return "PDN_TEST_POSTGRES is not set (.ci/run starts a server and sets it)"


@contextmanager
def postgres_database() -> Iterator[str]:
    """The URL of a new, empty PostgreSQL database, dropped afterwards."""
    if not POSTGRES:
        pytest.fail("CI runs the PostgreSQL tests: PDN_TEST_POSTGRES must be set by .ci/run")
    name = f"pdn_test_{uuid.uuid4().hex[:12]}"
    admin = create_engine(POSTGRES, isolation_level="AUTOCOMMIT")
    with admin.connect() as conn:
        conn.execute(text(f'CREATE DATABASE "{name}"'))
    try:
        yield POSTGRES.rsplit("/", 1)[0] + "/" + name
    finally:
        with admin.connect() as conn:
            conn.execute(text(f'DROP DATABASE "{name}" WITH (FORCE)'))
        admin.dispose()


def _backends() -> list[object]:
    why = postgres_reason()
    skip = [pytest.mark.skip(reason=why)] if why else []
    return ["sqlite", pytest.param("postgres", marks=skip)]


@pytest.fixture(params=_backends())
def db(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[str]:
    """A fresh, empty database: an SQLite file, or a new PostgreSQL database."""
    if request.param == "sqlite":
        yield str(tmp_path / "test.db")
        return
    with postgres_database() as url:
        yield url


def table_digests(engine: Engine) -> dict[str, tuple[int, str]]:
    """Each table's row count and a digest of its rows in key order (when and by which import
    run they were read left out, and a game named by its id where the table has its number,
    which writers at once give in the order they write; None: no game has it; the postings
    read, each move by its text): equal digests mean equal databases, whatever the backend."""
    out = {}
    games = GameRow.__table__.c
    named = {"game": games.id}
    with engine.connect() as conn:
        for table in Base.metadata.sorted_tables:
            if table is MoveText.__table__:  # its texts counted where the positions name them
                continue
            if table is PostingRow.__table__:
                out[table.name] = _posting_digest(conn)
                continue
            if table is MaterialRow.__table__:
                out[table.name] = _material_digest(conn)
                continue
            left = ("imported_at", "run", "number")
            ids = {"game"}
            columns = [named[c.name] if c.name in ids else c for c in table.columns
                       if c.name not in left]  # fmt: skip
            key = [named[c.name] if c.name in ids else c for c in table.primary_key.columns]
            digest = hashlib.sha256()
            n = 0
            joined: FromClause = table
            if "game" in table.c:
                joined = joined.outerjoin(GameRow, games.number == table.c.game)
            rows = conn.execute(select(*columns).select_from(joined).order_by(*key))
            if not table.primary_key:  # a tallies table: in the order of its rows' values
                rows = sorted(rows, key=repr)  # type: ignore[assignment]
            for row in rows:
                digest.update(repr(tuple(row)).encode())
                n += 1
            out[table.name] = (n, digest.hexdigest())
    return out


def postings_cut(conn: Connection, gone: set[int]) -> list[tuple[int, int, int, int | None]]:
    """Take the postings of the games numbered as in *gone* out of the stored ones; those
    postings, as (digest, game, ply, move id)."""
    rows = sorted((d, *p) for d, found in stored_postings(conn) for p in found)
    kept = np.array([(d, g, p, 0 if m is None else m + 1) for d, g, p, m in rows if g not in gone])
    conn.execute(delete(PostingRow))
    if len(kept):
        conn.exec_driver_sql(upsert(conn), parts(*kept.astype(np.int64).T))
    return [r for r in rows if r[1] in gone]


def material_cut(conn: Connection, gone: set[int]) -> list[tuple[int, int, int, int]]:
    """Take the material runs of the games numbered as in *gone* out of the stored ones; those
    runs, as (signature, game, first position, length)."""
    rows = _material_rows(conn)
    kept = np.array([r for r in rows if r[1] not in gone], np.int64).reshape(-1, 4)
    conn.execute(delete(MaterialRow))
    if len(kept):
        conn.exec_driver_sql(upsert(conn, "material", "signature"), material_parts(kept))
    return [r for r in rows if r[1] in gone]


def _material_rows(conn: Connection) -> list[tuple[int, int, int, int]]:
    """The stored material runs (signature, game number, first position, length), in order."""
    query = select(MaterialRow.signature, MaterialRow.data)
    return sorted((s, *r) for s, data in conn.execute(query) for r in unpacked_runs(data).tolist())


def _material_digest(conn: Connection) -> tuple[int, str]:
    """The stored material runs' count and a digest of them, each as (signature, game id,
    first position, length), in the order of their text."""
    ids = dict(conn.execute(select(GameRow.number, GameRow.id)).all())
    rows = sorted(((s, ids.get(g), f, n) for s, g, f, n in _material_rows(conn)), key=repr)
    digest = hashlib.sha256()
    for row in rows:
        digest.update(repr(row).encode())
    return len(rows), digest.hexdigest()


def _posting_digest(conn: Connection) -> tuple[int, str]:
    """The postings' count and a digest of them, each as (digest, game id, ply, move text), in
    the order of their text."""
    ids = dict(conn.execute(select(GameRow.number, GameRow.id)).all())
    texts = dict(conn.execute(select(MoveText.id, MoveText.text)).all())
    every = every_posting(conn)
    rows = [(d, ids.get(g), p, None if m is None else texts[m]) for d, f in every for g, p, m in f]
    rows.sort(key=repr)
    digest = hashlib.sha256()
    for row in rows:
        digest.update(repr(row).encode())
    return len(rows), digest.hexdigest()


@pytest.fixture(scope="session")
def corpus_reports() -> list[dict[str, object]]:
    """The report of every corpus game, validated in one process."""
    return [r.as_dict() for r in validate_paths([corpus_dir()], workers=1)]


@pytest.fixture(scope="session")
def corpus_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[Engine, ImportStats]]:
    """The corpus imported into SQLite by one process, with what the import said."""
    engine = open_database(str(tmp_path_factory.mktemp("corpus") / "corpus.db"))
    stats = import_paths(engine, [corpus_dir()])
    yield engine, stats
    engine.dispose()


def quick_spans_read(path: Path, spans: list[Span]) -> list[Game]:
    """The games of spans from :func:`pdn.read.reader.quick_spans`, read as the pipeline reads
    them (see pdn.archive.pipeline.replay_tasks): each from 0, on past a guessed end; the spans
    that read passed over left out, the one it ended in read from there; numbered on."""
    games: list[Game] = []
    ended: Seam | None = None  # where the read of the span before ended, past its end
    for span in spans:
        if ended is not None and (ended.at is None or span.end <= ended.at):
            continue  # read with the span before
        if ended is not None and ended.at is not None:
            span = replace(span, start=ended.at, line=ended.line)
        seam = Seam()
        read = list(read_games(path, span=span, max_game_bytes=1 << 20, seam=seam))
        ended = seam if span.guessed and seam.at != span.end else None
        for g in read:  # numbered on from the games before
            g.source = replace(g.source, index=g.source.index + len(games))
            if g.syntax_error is not None:
                g.syntax_error = replace(g.syntax_error, game=g.syntax_error.game + len(games))
        games += read
    return games


def seams_held(path: Path, spans: list[Span]) -> list[bool]:
    """For each span but the last, whether its read ends at its guessed end."""
    held = []
    for span in spans[:-1]:
        seam = Seam()
        list(read_games(path, span=span, seam=seam))
        held.append(seam.at == span.end)
    return held
