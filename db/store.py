"""Opening a database (SQLite by default, or PostgreSQL by URL) and importing archives into it.

Every game is replayed on the way in and stored with its tags, its moves, the positions they
lead through and its exact text; invalid games are stored too, marked with their errors. Games
are written in batches, each in one transaction, so an interrupted import leaves no half-written
game and running it again completes it; a file already imported whole is skipped. A game is
stored once, under an id taken from its moves, with its first occurrence in import order, so
writers working at once (the workers of a cluster) leave what one writer would.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from functools import partial
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Connection,
    Engine,
    create_engine,
    delete,
    event,
    func,
    insert,
    inspect,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import DatabaseError, OperationalError

from pdn.db.schema import (
    APPLICATION,
    SCHEMA_VERSION,
    Base,
    GameRow,
    Meta,
    Occurrence,
    PlyRow,
    SourceFile,
    TagRow,
)
from pdn.fen import to_fen
from pdn.files import FileProblem, shown_name
from pdn.game import Game
from pdn.notation import MoveForm, move_text
from pdn.parallel import Runner, Task, as_runner, run_tasks
from pdn.pipeline import (
    OnProblem,
    Options,
    Progress,
    find_files,
    plan,
    replay_tasks,
    task_games,
)
from pdn.reader import detect_encoding, read_games
from pdn.replay import Replay
from pdn.validate import GameReport, report_game

DEFAULT_DB = "draughts.db"
BATCH = 500


class DatabaseRefused(Exception):
    """A database this toolkit will not use (not its own, or a newer schema)."""


def database_url(db: str) -> str:
    """An SQLAlchemy URL for a path or URL given by the user."""
    return db if "://" in db else f"sqlite:///{db}"


def open_database(db: str = DEFAULT_DB, create: bool = True) -> Engine:
    """An engine on *db* (a path or URL), with the schema created or checked."""
    url = database_url(db)
    if url.startswith("sqlite:///") and not create and not Path(url[10:]).exists():
        raise DatabaseRefused(f"{url[10:]}: no such database (import some games first)")
    engine = create_engine(url)
    if engine.dialect.name not in ("sqlite", "postgresql"):
        engine.dispose()
        raise DatabaseRefused(f"{db}: only SQLite and PostgreSQL databases are supported")
    if engine.dialect.name == "sqlite":
        event.listen(engine, "connect", _sqlite_pragmas)
    try:
        tables = set(inspect(engine).get_table_names())
        if tables and "pdn_meta" not in tables:
            raise DatabaseRefused(f"{db}: not a {APPLICATION} database (it has other tables)")
        if not tables:
            if not create:
                raise DatabaseRefused(f"{db}: the database is empty (import some games first)")
            Base.metadata.create_all(engine)
            with engine.begin() as conn:
                conn.execute(
                    insert(Meta),
                    [
                        {"key": "application", "value": APPLICATION},
                        {"key": "schema_version", "value": str(SCHEMA_VERSION)},
                    ],
                )
        with engine.connect() as conn:
            meta: dict[str, str] = dict(conn.execute(select(Meta.key, Meta.value)).all())
    except (DatabaseError, OperationalError) as exc:
        engine.dispose()
        raise DatabaseRefused(f"{db}: cannot be used as a database ({exc.orig})") from None
    if meta.get("application") != APPLICATION:
        raise DatabaseRefused(f"{db}: not a {APPLICATION} database")
    version = int(meta.get("schema_version", "0"))
    if version > SCHEMA_VERSION:
        raise DatabaseRefused(
            f"{db}: made by a newer version of this toolkit (schema {version}, "
            f"this version reads {SCHEMA_VERSION})"
        )
    if version < SCHEMA_VERSION:
        raise DatabaseRefused(
            f"{db}: made by an older version of this toolkit (schema {version}, this version "
            f"reads {SCHEMA_VERSION}); import the archives into a new database"
        )
    return engine


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA foreign_keys=ON")
    cursor.close()


# -- rows of one game -------------------------------------------------------------------------


@dataclass(slots=True)
class Record:
    """Everything stored for one game: its report and its rows."""

    report: GameReport
    row: dict[str, Any]
    tags: list[tuple[str, str]]
    plies: list[dict[str, Any]]


def record(game: Game, replay: Replay | None) -> Record:
    """The record of one game and its replay (None: it did not parse)."""
    report = report_game(game, replay)
    plies = _ply_rows(replay) if replay else []
    return Record(report, _game_row(game, replay, report, plies), game.tags.items(), plies)


def _ply_rows(replay: Replay) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = []
    if not replay.moves:
        return rows
    g = replay.positions[0].geometry
    digests = [p.digest() for p in replay.positions[: len(replay.moves) + 1]]
    for i, move in enumerate(replay.moves):
        before = replay.positions[i]
        full = move_text(before, move, MoveForm.FULL)
        rivals = before.captures() if move.captured else []
        rows.append(
            {
                "ply": i + 1,
                "move": move_text(before, move, legal=rivals) if move.captured else full,
                "start": g.label(move.start),
                "end": g.label(move.end),
                "path": full,
                "captured": ",".join(g.label(s) for s in move.captured),
                "crowns": move.crowns,
                "before": digests[i],
                "after": digests[i + 1],
            }
        )
    return rows


def _game_row(
    game: Game, replay: Replay | None, report: GameReport, plies: list[dict[str, Any]]
) -> dict[str, Any]:
    """The games-table values of a game (without its place)."""
    start = replay.positions[0] if replay and replay.positions else None
    written = [m.text for m in game.mainline()] if game.syntax_error is None else []
    moves = [p["path"] for p in plies] + written[len(plies) :]
    identity = "|".join(
        [report.variant or "", to_fen(start) if start else game.fen or "", " ".join(moves)]
    )
    if not moves and not start:  # nothing to recognise it by but its text
        identity += "|" + game.raw
    game_hash = hashlib.sha256(identity.encode()).hexdigest()[:32]
    return {
        "id": game_id(game_hash),
        "game_hash": game_hash,
        "line": game.source.line,
        "event": game.event,
        "site": game.site,
        "date": game.date,
        "year": game.year,
        "round": game.round,
        "white": game.white,
        "black": game.black,
        "result": game.result,
        "outcome": game.outcome.value,
        "variant": report.variant,
        "variant_source": report.variant_source,
        "rules": replay.rules.name if replay else "seed",
        "start_fen": to_fen(start) if start else game.fen,
        "termination": report.termination,
        "termination_ply": report.termination_ply,
        "plies": report.plies,
        "valid": report.valid,
        "errors": json.dumps(report.errors if not report.syntax_error else [report.syntax_error]),
        "moves": " ".join(p["move"] for p in plies),
        "opening_hash": plies[2]["after"] if len(plies) >= 3 else None,
        "final_hash": plies[-1]["after"] if plies else (start.digest() if start else None),
        "pdn": game.raw,
    }


# -- import ----------------------------------------------------------------------------------

PLACE_BITS = 32  # a place is file id and index in the file, packed into one number


def place(file_id: int, index: int) -> int:
    """The import-order key of the *index*-th game of a file (ordered by file id, then index)."""
    return (file_id << PLACE_BITS) | index


def game_id(game_hash: str) -> int:
    """A game's id: the first 63 bits of its hash."""
    return int(game_hash[:16], 16) >> 1


@dataclass(frozen=True, slots=True)
class FileTask:
    """A task of an import, with where its games go."""

    task: Task
    file_id: int
    offset: int  # games of the file before the task's span
    stored: frozenset[int] = frozenset()  # indexes in the span stored before the import began


@dataclass(slots=True)
class SpanCounts:
    """What a task read: games, those already stored by an earlier run, and the bad ones."""

    games: int = 0
    already: int = 0
    invalid: int = 0
    syntax_errors: int = 0
    also_fit: int = 0  # games that fit other variants as well (when asked)

    def count(self, report: GameReport) -> None:
        """Count one game read now."""
        self.games += 1
        self.also_fit += bool(report.candidates)
        if report.syntax_error:
            self.syntax_errors += 1
        elif not report.valid:
            self.invalid += 1


@dataclass(slots=True)
class ImportStats:
    """What an import did."""

    files: int = 0
    skipped_files: int = 0  # already imported whole, unchanged
    games: int = 0  # read in the files imported now
    added: int = 0
    duplicates: int = 0  # already in the database from another file or place
    already: int = 0  # already imported from this place by an earlier, interrupted run
    invalid: int = 0
    syntax_errors: int = 0
    also_fit: int = 0  # games that fit other variants as well (when asked)
    per_file: dict[str, int] = field(default_factory=dict)


def _file_digest(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as fh:
        for block in iter(lambda: fh.read(1 << 20), b""):
            h.update(block)
    return h.hexdigest()


def import_paths(
    engine: Engine,
    paths: Iterable[str | Path],
    variant: str | None = None,
    rules: str = "seed",
    workers: int | Runner = 1,
    progress: Progress | None = None,
    batch: int = BATCH,
    candidates: bool = False,
    on_problem: OnProblem | None = None,
) -> ImportStats:
    """Import every game under *paths* into the database of *engine*, replayed in this process,
    in *workers* local processes or on a Dask cluster's runner, with the same result (see
    :mod:`pdn.pipeline`). Into PostgreSQL, workers in other processes write their games
    themselves; into SQLite this process writes what they return. *progress* is told of the
    games and bytes done, *on_problem* of the files not read. With *candidates*, games are also
    replayed under the other variants their notation allows, and those that fit one as well are
    counted."""
    stats = ImportStats()
    options = Options(variant, rules, candidates=candidates)
    runner = as_runner(workers)
    ids: dict[Path, int] = {}
    for path in find_files(paths, on_problem):
        fid, done = _source_file(engine, path, _file_digest(path))
        if done:
            stats.skipped_files += 1
        else:
            ids[path] = fid
    tasks = plan(ids, options, runner)
    before = _count_games(engine)
    unread: set[str] = set()  # files that broke off while read: not marked imported whole

    def broke_off(problem: FileProblem) -> None:
        unread.add(problem.path)
        if on_problem is not None:
            on_problem(problem)

    told = broke_off if on_problem is not None else None
    if engine.dialect.name != "sqlite" and runner.elsewhere:
        results = _import_on_workers(engine, tasks, ids, options, runner, progress, batch)
    else:
        results = _import_here(engine, tasks, ids, options, runner, progress, batch, told)
    for ft, counts in results:
        stats.games += counts.games
        stats.already += counts.already
        stats.invalid += counts.invalid
        stats.syntax_errors += counts.syntax_errors
        stats.also_fit += counts.also_fit
        if ft.task.last and shown_name(ft.task.path) not in unread:
            games = ft.offset + counts.games
            with engine.begin() as conn:
                conn.execute(
                    update(SourceFile)
                    .where(SourceFile.id == ft.file_id)
                    .values(complete=True, games=games)
                )
            stats.files += 1
            stats.per_file[str(ft.task.path)] = games
    stats.added = _count_games(engine) - before
    stats.duplicates = stats.games - stats.already - stats.added
    return stats


def span_records(
    task: Task, options: Options, skip: frozenset[int] = frozenset()
) -> list[Record | None]:
    """Records for the games of a task, in order; None for the games whose index (counted from
    the task's first game, from 1) is in *skip*: those are not replayed."""
    return [
        None if n in skip else record(game, replay)
        for n, (game, replay) in enumerate(task_games(task, options, skip), 1)
    ]


def _import_here(
    engine: Engine,
    tasks: list[Task],
    ids: dict[Path, int],
    options: Options,
    runner: Runner,
    progress: Progress | None,
    batch: int,
    on_problem: OnProblem | None,
) -> Iterator[tuple[FileTask, SpanCounts]]:
    """Tasks replayed by *runner*, their games written here (the single writer SQLite wants)."""
    offset = 0
    present: set[int] = set()
    for task, records in replay_tasks(tasks, record, options, runner, progress, on_problem):
        file_id = ids[task.path]
        if task.first:
            offset = 0
            present = _present_indexes(engine, file_id)
        counts = _store(engine, file_id, offset + 1, records, present, batch)
        yield FileTask(task, file_id, offset), counts
        offset += counts.games


def count_games(task: Task) -> int:
    """How many games a task holds (what a full read yields, broken games included)."""
    return sum(1 for _ in read_games(task.path, span=task.span))


def _import_on_workers(
    engine: Engine,
    tasks: list[Task],
    ids: dict[Path, int],
    options: Options,
    runner: Runner,
    progress: Progress | None,
    batch: int,
) -> Iterator[tuple[FileTask, SpanCounts]]:
    """Tasks replayed and written by the workers: first the games of every span but a file's last
    are counted (a game's index must be known where it is written), then the spans imported."""
    counted = [t for t in tasks if not t.last]
    games = dict(run_tasks(count_games, counted, runner))
    offset = 0
    present: set[int] = set()
    work: list[FileTask] = []
    for task in tasks:
        file_id = ids[task.path]
        if task.first:
            offset = 0
            present = _present_indexes(engine, file_id)
        end = offset + games[task] if task in games else None
        stored = frozenset(i for i in present if i > offset and (end is None or i <= end))
        work.append(FileTask(task, file_id, offset, stored))
        offset = end if end is not None else 0
    url = engine.url.render_as_string(hide_password=False)
    imported = partial(import_span, url=url, options=options, batch=batch)
    told = partial(_told, progress) if progress else None
    yield from run_tasks(imported, work, runner, told)


def _told(progress: Progress, ft: FileTask, counts: SpanCounts) -> None:
    progress(counts.games, ft.task.size)


_ENGINES: dict[str, Engine] = {}  # one engine per database in each worker process


def import_span(ft: FileTask, url: str, options: Options, batch: int) -> SpanCounts:
    """Replay the games of a task and write them, batch by batch (runs in worker processes).
    Games stored before the import began are skipped; writing a game again changes nothing, so
    a task run again after its worker died adds nothing twice."""
    engine = _ENGINES.get(url)
    if engine is None:
        engine = _ENGINES[url] = create_engine(url, pool_size=1)
    skip = frozenset(i - ft.offset for i in ft.stored)
    records = span_records(ft.task, options, skip)
    return _store(engine, ft.file_id, ft.offset + 1, records, set(), batch)


def _store(
    engine: Engine,
    file_id: int,
    first: int,
    records: Iterable[Record | None],
    present: set[int],
    batch: int,
) -> SpanCounts:
    """Write the records of games *first*, *first* + 1, ... of a file in batches; those that are
    None or whose index is *present* were stored already."""
    counts = SpanCounts()
    pending: list[tuple[int, Record]] = []
    for i, record in enumerate(records, first):
        if record is None or i in present:
            counts.games += 1
            counts.already += 1
            continue
        record.report.index = i
        counts.count(record.report)
        pending.append((file_id, record))
        if len(pending) >= batch:
            write_batch(engine, pending)
            pending = []
    if pending:
        write_batch(engine, pending)
    return counts


def _count_games(engine: Engine) -> int:
    with engine.connect() as conn:
        return int(conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0)


def _source_file(engine: Engine, path: Path, digest: str) -> tuple[int, bool]:
    """The id of the file's row (made if new) and whether it was imported whole already."""
    with engine.begin() as conn:
        row = conn.execute(
            select(SourceFile.id, SourceFile.complete).where(
                SourceFile.path == shown_name(path), SourceFile.sha256 == digest
            )
        ).first()
        if row is not None:
            return row[0], bool(row[1])
        with path.open("rb") as fh:
            encoding = detect_encoding(fh)
        result = conn.execute(
            insert(SourceFile).values(
                path=shown_name(path),
                sha256=digest,
                size=path.stat().st_size,
                encoding=encoding,
                complete=False,
                games=0,
                imported_at=datetime.now(UTC).replace(tzinfo=None),
            )
        )
        return int(result.inserted_primary_key[0]), False  # type: ignore[index]


def _present_indexes(engine: Engine, file_id: int) -> set[int]:
    with engine.connect() as conn:
        rows = conn.execute(select(Occurrence.file_index).where(Occurrence.file_id == file_id))
        return {r[0] for r in rows}


RETRIES = 5
_RETRY_STATES = ("40P01", "40001")  # PostgreSQL: deadlock detected, serialization failure


def write_batch(engine: Engine, batch: list[tuple[int, Record]]) -> None:
    """Write one batch of games in one transaction (again, if concurrent writers deadlocked)."""
    for attempt in range(RETRIES):
        try:
            with engine.begin() as conn:
                _write(conn, batch)
            return
        except OperationalError as exc:
            if getattr(exc.orig, "sqlstate", None) not in _RETRY_STATES or attempt == RETRIES - 1:
                raise


def _write(conn: Connection, batch: list[tuple[int, Record]]) -> None:
    """Write games with their places in files. A game is stored once, with the tags and text of
    its first occurrence in import order (lowest place): a game stored from a later place is
    replaced, its other occurrences marked duplicates. Writing a batch again changes nothing, and
    concurrent writers end where one writer in import order would."""
    firsts: dict[str, tuple[dict[str, Any], Record]] = {}
    occurrences: list[dict[str, Any]] = []
    for file_id, r in batch:
        index = r.report.index
        row = {**r.row, "file_id": file_id, "file_index": index, "place": place(file_id, index)}
        occurrences.append({"file_id": file_id, "file_index": index, "game_id": row["id"],
                            "place": row["place"]})  # fmt: skip
        known = firsts.get(row["game_hash"])
        if known is None or row["place"] < known[0]["place"]:
            firsts[row["game_hash"]] = (row, r)
    games = [firsts[h] for h in sorted(firsts)]  # one lock order for all writers
    upsert = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(GameRow)
    replaced = {c: upsert.excluded[c] for c in games[0][0] if c not in ("id", "game_hash")}
    conn.execute(
        upsert.on_conflict_do_update(
            index_elements=["game_hash"], set_=replaced, where=upsert.excluded.place < GameRow.place
        ),
        [row for row, _ in games],
    )
    ids = [row["id"] for row, _ in games]  # a batch: few enough for one IN list
    stored = dict(conn.execute(select(GameRow.id, GameRow.place).where(GameRow.id.in_(ids))).all())
    won = [(row, r) for row, r in games if stored[row["id"]] == row["place"]]
    if won:  # rows a retried task or a later place wrote go, to be written anew
        won_ids = [row["id"] for row, _ in won]
        conn.execute(delete(TagRow).where(TagRow.game_id.in_(won_ids)))
        conn.execute(delete(PlyRow).where(PlyRow.game_id.in_(won_ids)))
        conn.execute(
            update(Occurrence).where(Occurrence.game_id.in_(won_ids)).values(duplicate=True)
        )
    tags = [
        (row["id"], i, name[:100], value)
        for row, r in won
        for i, (name, value) in enumerate(r.tags)
    ]
    _add_rows(conn, TagRow.__tablename__, ["game_id", "position", "name", "value"], tags)
    plies = [(row["id"], *p.values()) for row, r in won for p in r.plies]
    if plies:
        first = next(p for _, r in won for p in r.plies)
        _add_rows(conn, PlyRow.__tablename__, ["game_id", *first], plies)
    marks = [
        (o["file_id"], o["file_index"], o["game_id"], stored[o["game_id"]] != o["place"])
        for o in occurrences
    ]
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    conn.exec_driver_sql(
        f"INSERT INTO {Occurrence.__tablename__} (file_id, file_index, game_id, duplicate) "
        f"VALUES ({mark}, {mark}, {mark}, {mark}) ON CONFLICT (file_id, file_index) "
        "DO UPDATE SET game_id = excluded.game_id, duplicate = excluded.duplicate",
        marks,
    )


def _add_rows(
    conn: Connection, table: str, columns: list[str], rows: list[tuple[Any, ...]]
) -> None:
    """Plain rows, the bulk of an import's writing: COPY with psycopg, else executemany."""
    if not rows:
        return
    names = ", ".join(f'"{c}"' for c in columns)
    if conn.dialect.driver == "psycopg":
        with conn.connection.cursor().copy(f"COPY {table} ({names}) FROM STDIN") as copy:
            for row in rows:
                copy.write_row(row)
        return
    marks = ", ".join(["?" if conn.dialect.paramstyle == "qmark" else "%s"] * len(columns))
    conn.exec_driver_sql(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)
