"""Importing archives into a game database (see :mod:`pdn.db.connection` for opening one).

Every game is replayed on the way in and stored with its tags, its moves, the positions they
lead through and its exact text; invalid games are stored too, marked with their errors. A game
is a record (:mod:`pdn.archive.identity`): a copy of a game already stored is not stored again, only
noted where it was read, and games with the same moves but their own headers are each stored.
Games are written in batches, each in one transaction, so an interrupted import leaves no
half-written game and running it again completes it without replaying what is stored; a file
already imported whole is skipped. A game's id comes from its record and it keeps its first
place in import order, so writers working at once (the workers of a cluster, two imports) leave
what one writer would, and each import counts what it added itself.
"""

from __future__ import annotations

import os
import secrets
from bisect import bisect_right
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from functools import partial
from itertools import groupby
from operator import itemgetter
from pathlib import Path
from typing import Any

from sqlalchemy import (
    Boolean,
    Connection,
    Engine,
    Insert,
    delete,
    exists,
    func,
    literal_column,
    select,
    text,
    tuple_,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.exc import IntegrityError, OperationalError
from sqlalchemy.orm import aliased

from pdn.archive.parallel import Processes, Runner, Task, as_runner, run_tasks
from pdn.archive.pipeline import (
    OnProblem,
    Options,
    Progress,
    find_files,
    plan,
    replay_tasks,
    task_games,
)
from pdn.archive.validate import GameReport
from pdn.db.connection import connect
from pdn.db.positions import add_openings, move_codes, opening_id
from pdn.db.postings import staged_row
from pdn.db.records import Record, build_record, place, renumber_record
from pdn.db.schema import (
    CODED,
    MATERIAL_STAGED,
    NUL_SHOWN,
    NUMBERS,
    STAGED,
    BoardsRow,
    GameRow,
    Occurrence,
    SquaresRow,
    TagRow,
)
from pdn.db.sources import mark_complete, present_indexes, source_files
from pdn.db.staging import move_staged, vacuum_database
from pdn.db.tallies import GROUPED, PLAYER_GROUPED, batch_tallies, sum_tallies
from pdn.db.texts import digest_bytes
from pdn.db.words import coded
from pdn.game import Game
from pdn.read.files import FileProblem, shown_name
from pdn.replay import Replay

MARKED_AT_ONCE = 1000  # files marked imported whole in one transaction
BATCH = 4000  # games written in one transaction: game ids are hash bits, so each batch's rows
# land all over the tables' pages, and fewer commits write fewer pages (1,000 to 4,000 took 1.6 s
# off an import of OCA_2.0.pdn into SQLite)


@dataclass(frozen=True, slots=True)
class FileTask:
    """A task of an import, with where its games go."""

    task: Task
    file_id: int
    offset: int  # games of the file before the task's span
    stored: frozenset[int] = frozenset()  # indexes in the span stored before the import began
    run: int = 0  # the import's mark on what it writes (a task run again knows its own games)


@dataclass(slots=True)
class SpanCounts:
    """What a task read and what became of each game: added, a copy of a stored game, or
    stored already (by an earlier run, or another import at once); and the bad ones."""

    games: int = 0
    added: int = 0
    copies: int = 0
    already: int = 0
    invalid: int = 0
    syntax_errors: int = 0
    also_fit: int = 0  # games that fit other variants as well (when asked)
    game_warnings: int = 0  # the games' own warnings, as `pdn validate` counts them
    warnings: list[str] = field(default_factory=list)

    def count(self, report: GameReport) -> None:
        """Count one game read now."""
        self.games += 1
        self.also_fit += bool(report.candidates)
        self.game_warnings += len(report.warnings)
        if report.syntax_error:
            self.syntax_errors += 1
        elif not report.valid:
            self.invalid += 1

    def add(self, other: SpanCounts) -> None:
        """Add the counts of another batch or task."""
        self.games += other.games
        self.added += other.added
        self.copies += other.copies
        self.already += other.already
        self.invalid += other.invalid
        self.syntax_errors += other.syntax_errors
        self.also_fit += other.also_fit
        self.game_warnings += other.game_warnings
        self.warnings += other.warnings


@dataclass(slots=True)
class ImportStats:
    """What an import did: of the games read, those added, the copies of games stored already
    (not stored again) and those an earlier run stored; and how many of the games read share
    their moves with another stored game (each stored: ``pdn duplicates --by moves``)."""

    files: int = 0
    skipped_files: int = 0  # already imported whole, unchanged
    games: int = 0  # read in the files imported now
    added: int = 0
    copies: int = 0  # the same record as a game stored from another file or place
    already: int = 0  # stored from this place before: by an interrupted run, or another import
    same_moves: int = 0  # games read whose moves another stored game with other headers has
    invalid: int = 0
    syntax_errors: int = 0
    also_fit: int = 0  # games that fit other variants as well (when asked)
    game_warnings: int = 0  # the warnings of the games read, as `pdn validate` counts them
    warnings: list[str] = field(default_factory=list)  # about games stored otherwise than read
    per_file: dict[str, int] = field(default_factory=dict)


def import_paths(
    engine: Engine,
    paths: Iterable[str | Path],
    variant: str | None = None,
    rules: str = "common",
    workers: int | Runner = 1,
    progress: Progress | None = None,
    batch: int = BATCH,
    candidates: bool = False,
    on_problem: OnProblem | None = None,
    finishing: Callable[[str], None] | None = None,
    vacuum: bool = True,
) -> ImportStats:
    """Import every game under *paths* into the database of *engine*, replayed in this process,
    in *workers* local processes or on a Dask cluster's runner, with the same result (see
    :mod:`pdn.archive.pipeline`). Into PostgreSQL, workers in other processes write their games
    themselves; into SQLite this process writes what they return. *progress* is told of the
    games and bytes done, *on_problem* of the files not read. With *candidates*, games are also
    replayed under the other variants their notation allows, and those that fit one as well are
    counted. *finishing* is told what the import does once every game is written (sorting the
    positions in, vacuuming a new database unless not *vacuum*: minutes on a million games)."""
    stats = ImportStats()
    options = Options(variant, rules, candidates=candidates)
    runner = as_runner(workers)
    ids: dict[Path, int] = {}
    sizes: dict[Path, int] = {}  # read that far: the bytes hashed, though a file grows
    found = find_files(paths, on_problem)
    for path, source in zip(found, source_files(engine, found), strict=True):
        if source.complete:
            stats.skipped_files += 1
        else:
            ids[path], sizes[path] = source.id, source.size
    present = {fid: sorted(n) for fid, n in present_indexes(engine, list(ids.values())).items()}
    on_workers = engine.dialect.name != "sqlite" and runner.elsewhere  # workers write
    # spans know their first game's index where workers write or games are stored (to skip)
    tasks = plan(ids, options, runner, sizes, exact=on_workers or any(present.values()))
    run = secrets.randbits(62)
    unread: set[str] = set()  # files that broke off while read: not marked imported whole

    def broke_off(problem: FileProblem) -> None:
        unread.add(problem.path)
        if on_problem is not None:
            on_problem(problem)

    told = broke_off if on_problem is not None else None
    planned = _planned(tasks, ids, present, run)
    if on_workers:
        results = _import_on_workers(engine, planned, options, runner, progress, batch)
    else:
        results = _import_here(engine, planned, options, runner, progress, batch, told, run)
    total = SpanCounts()
    whole: list[tuple[int, int]] = []  # files read whole (id, games), marked so in groups
    with made_after(engine, finishing, vacuum):
        for ft, counts in results:
            total.add(counts)
            if ft.task.last and ft.task.path.stat().st_size < sizes[ft.task.path]:
                stats.warnings.append(f"{shown_name(ft.task.path)}: shortened while imported: "
                                      "not marked imported; import it again")  # fmt: skip
            elif ft.task.last and shown_name(ft.task.path) not in unread:
                games = ft.offset + counts.games
                whole.append((ft.file_id, games))
                stats.files += 1
                stats.per_file[str(ft.task.path)] = games
                if len(whole) >= MARKED_AT_ONCE:  # a mark left undone: the next run makes it
                    mark_complete(engine, whole)
                    whole = []
        mark_complete(engine, whole)
    stats.games, stats.added, stats.copies = total.games, total.added, total.copies
    stats.already, stats.invalid = total.already, total.invalid
    stats.syntax_errors, stats.also_fit = total.syntax_errors, total.also_fit
    stats.warnings = total.warnings + stats.warnings  # the games', then the files'
    stats.game_warnings = total.game_warnings
    stats.same_moves = _same_moves(engine, list(ids.values()))
    return stats


def record_of(game: Game, replay: Replay | None) -> Record | None:
    """The record of a game as the pipeline hands it over; None for a game it did not replay
    because it is stored (a game that did not parse has no replay either, and a record)."""
    if replay is None and game.syntax_error is None:
        return None
    return build_record(game, replay)


@contextmanager
def made_after(
    engine: Engine, finishing: Callable[[str], None] | None = None, vacuum: bool = True
) -> Iterator[None]:
    """What is made once every row of an import is in: the positions and material runs it
    staged moved into their tables, sorted (pdn.db.staging), the tallies' rows summed
    (pdn.db.tallies), then a new SQLite database vacuumed (unless not *vacuum*). Only once the
    import has written every game: one stopped or failed leaves them to be made when the
    database is next opened to write. *finishing* is told of each step."""
    told = finishing or (lambda _: None)
    with engine.connect() as conn:
        empty = conn.dialect.name == "sqlite" and conn.execute(select(GameRow.id)).first() is None
    yield  # stopped or failed: at once (a full disk would fail the sort as well)
    told("sorting the positions in")
    with engine.begin() as conn:
        move_staged(conn, give_back=not (empty and vacuum))
        sum_tallies(conn)
    if empty and vacuum:
        told("vacuuming the new database")
        vacuum_database(engine)


def span_records(
    task: Task, options: Options, skip: frozenset[int] = frozenset()
) -> list[Record | None]:
    """Records for the games of a task, in order; None for the games whose index (counted from
    the task's first game, from 1) is in *skip*: those are not replayed."""
    return [
        None if n in skip else build_record(game, replay)
        for n, (game, replay) in enumerate(task_games(task, options, skip), 1)
    ]


def _task_records(ft: FileTask, options: Options) -> list[Record | None]:
    """Records for the games of a task; None for those stored before (runs in workers)."""
    skip = frozenset(i - ft.offset for i in ft.stored)
    return span_records(ft.task, options, skip)


def _import_here(
    engine: Engine,
    work: list[FileTask],
    options: Options,
    runner: Runner,
    progress: Progress | None,
    batch: int,
    on_problem: OnProblem | None,
    run: int,
) -> Iterator[tuple[FileTask, SpanCounts]]:
    """Tasks replayed by *runner* on the pipeline, their games written here (the single writer
    SQLite wants); games stored by an earlier run are not replayed again. Games are written in
    batches across tasks and files (a batch per task made a commit per span, one per file a
    commit per small file); a file is told, as its last task, once its last game is committed."""
    tasks = [ft.task for ft in work]
    ids = {ft.task.path: ft.file_id for ft in work}
    skip = {ft.task: frozenset(i - ft.offset for i in ft.stored) for ft in work if ft.stored}
    results = replay_tasks(
        tasks, record_of, options, runner, progress, on_problem, skip, renumber_record
    )
    here = runner.workers + 1 if isinstance(runner, Processes) and runner.elsewhere else 1
    aside = (os.cpu_count() or 1) > here  # processes of the import on this machine
    pending: list[tuple[int, Record]] = []
    waiting: list[tuple[FileTask, SpanCounts]] = []  # read whole, games in pending or written
    written: list[tuple[FileTask, SpanCounts]] = []  # games in the batch written last
    with _batch_writer(engine, run, aside) as write:
        for path, group in groupby(results, key=lambda result: result[0].path):
            read: list[Task] = []  # the file's tasks, as each is begun
            counts = SpanCounts()
            for i, record in enumerate(_chained(group, read), 1):
                if _counted(counts, i, record) and record is not None:
                    pending.append((ids[path], record))
                if len(pending) >= batch:  # a batch across files: small ones share it
                    counts.add(write(pending))  # the batch before it is committed by now
                    yield from written
                    written, waiting, pending = waiting, [], []
            waiting.append((FileTask(read[-1], ids[path], 0), counts))
        if pending:
            waiting[-1][1].add(write(pending))
    yield from written + waiting  # every batch committed


def _counted(counts: SpanCounts, index: int, record: Record | None) -> bool:
    """Count the game at *index* of its file; whether it is to be written (not stored before)."""
    if record is None:
        counts.games += 1
        counts.already += 1
        return False
    record.report.index = index
    counts.count(record.report)
    if record.nul:
        counts.warnings.append(
            f"{record.report.file}:{record.report.line}: game {index}: NUL bytes stored as "
            f"{NUL_SHOWN}"
        )
    return True


def _chained(
    group: Iterable[tuple[Task, Iterator[Record | None]]], read: list[Task]
) -> Iterator[Record | None]:
    """The records of a file's tasks in order, each task added to *read* as it is begun."""
    for task, records in group:
        read.append(task)
        yield from records


def _planned(
    tasks: list[Task], ids: dict[Path, int], present: dict[int, list[int]], run: int
) -> list[FileTask]:
    """The tasks with the index their games are numbered from (a span's first game's, counted
    when the file was cut; 0 where it was not) and the indexes of their games *present* (stored
    before the import began)."""
    planned: list[FileTask] = []
    for task, after in zip(tasks, [*tasks[1:], None], strict=False):
        known = present[ids[task.path]]
        first = task.span.index or 0 if task.span else 0
        end = after.span.index if after and after.path == task.path and after.span else None
        stop = len(known) if end is None else bisect_right(known, end)
        stored = frozenset(known[bisect_right(known, first) : stop])
        planned.append(FileTask(task, ids[task.path], first, stored, run))
    return planned


def _import_on_workers(
    engine: Engine,
    work: list[FileTask],
    options: Options,
    runner: Runner,
    progress: Progress | None,
    batch: int,
) -> Iterator[tuple[FileTask, SpanCounts]]:
    """Tasks replayed and written by the workers, each numbering its games from its span's first
    game's index in the file."""
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
        engine = _ENGINES[url] = connect(url)
    return _store(engine, ft.file_id, ft.offset + 1, _task_records(ft, options), batch, ft.run)


def _store(
    engine: Engine,
    file_id: int,
    first: int,
    records: Iterable[Record | None],
    batch: int,
    run: int,
    aside: bool = False,
) -> SpanCounts:
    """Write the records of games *first*, *first* + 1, ... of a file in batches, marked as
    written by the import *run*, committed aside where a core is free (see
    :func:`_batch_writer`); a None record is a game stored before."""
    counts = SpanCounts()
    pending: list[tuple[int, Record]] = []
    with _batch_writer(engine, run, aside) as write:
        for i, record in enumerate(records, first):
            if not _counted(counts, i, record) or record is None:
                continue
            pending.append((file_id, record))
            if len(pending) >= batch:
                counts.add(write(pending))
                pending = []
        if pending:
            counts.add(write(pending))
    return counts


Write = Callable[[list[tuple[int, Record]]], SpanCounts]


@contextmanager
def _batch_writer(engine: Engine, run: int, aside: bool) -> Iterator[Write]:
    """What writes a batch in a transaction of its own: :func:`write_batch`, or into SQLite with
    a core to spare (*aside*), the batch written here and committed in a thread while the next
    one is made (a commit is one long call into SQLite, which lets go of the GIL: 1.2 s of the
    5.7 s an import of OCA_2.0.pdn spends writing). A batch waits for the commit before it, and
    so does the end. Not where the driver keeps a connection to its thread (SQLite's memory
    databases, a URL with check_same_thread=true)."""
    shared = engine.dialect.create_connect_args(engine.url)[1].get("check_same_thread") is False
    if not aside or engine.dialect.name != "sqlite" or not shared:
        yield partial(write_batch, engine, run=run)
        return
    committing: Future[None] | None = None

    def write(batch: list[tuple[int, Record]]) -> SpanCounts:
        nonlocal committing
        if committing is not None:
            committing.result()
        conn = engine.connect()
        try:
            conn.begin()
            counts = _write(conn, batch, run)
        except BaseException:
            conn.close()  # rolled back
            raise
        committing = thread.submit(_commit, conn)
        return counts

    with ThreadPoolExecutor(1, thread_name_prefix="pdn-commit") as thread:
        yield write
        if committing is not None:
            committing.result()


def _commit(conn: Connection) -> None:
    try:
        conn.commit()
    finally:
        conn.close()


def _same_moves(engine: Engine, file_ids: list[int]) -> int:
    """How many games read from *file_ids* share their moves with another stored game."""
    if not file_ids:
        return 0
    other = aliased(GameRow)
    twin = exists().where(other.moves_hash == GameRow.moves_hash, other.id != GameRow.id)
    query = (
        select(func.count())
        .select_from(Occurrence)
        .join(GameRow, GameRow.id == Occurrence.game_id)
        .where(Occurrence.file_id.in_(file_ids), GameRow.moves_hash.is_not(None), twin)
    )
    with engine.connect() as conn:
        return int(conn.execute(query).scalar() or 0)


RETRIES = 5
# PostgreSQL: deadlock detected, serialization failure, and a key a concurrent writer inserted
# meanwhile: ON CONFLICT (game_hash) settles only that index, and two writers inserting one
# game at once may meet first on the id's (seen in CI: the corpus imported on a cluster)
_RETRY_STATES = ("40P01", "40001", "23505")


def write_batch(engine: Engine, batch: list[tuple[int, Record]], run: int = 0) -> SpanCounts:
    """Write one batch of games in one transaction (again, if concurrent writers collided),
    marked as written by the import *run*; what became of them, counted in the same
    transaction."""
    for attempt in range(RETRIES):
        try:
            with engine.begin() as conn:
                return _write(conn, batch, run)
        except _Raced:
            if attempt == RETRIES - 1:
                raise
        except (OperationalError, IntegrityError) as exc:
            if getattr(exc.orig, "sqlstate", None) not in _RETRY_STATES or attempt == RETRIES - 1:
                raise
    raise AssertionError("unreachable")


def _write(conn: Connection, batch: list[tuple[int, Record]], run: int) -> SpanCounts:
    """Write games with their places in files. A game is stored once, with the tags and text of
    its first copy in import order (lowest place): a game stored from a later place is replaced,
    its other copies marked. Writing a batch again changes nothing, and concurrent writers end
    where one writer in import order would; each counts the games it added itself (those an
    earlier attempt of the same import *run* wrote included)."""
    firsts: dict[int, tuple[dict[str, Any], Record]] = {}
    read: list[tuple[int, int, int, int, int]] = []  # file, index, line, game id, place
    for file_id, r in batch:
        index = r.report.index
        row = {**r.row, "file_id": file_id, "file_index": index, "place": place(file_id, index)}
        read.append((file_id, index, r.report.line, row["id"], row["place"]))
        known = firsts.get(row["id"])
        if known is None or row["place"] < known[0]["place"]:
            firsts[row["id"]] = (row, r)
    games = [firsts[i] for i in sorted(firsts)]  # one lock order for all writers
    ids = [row["id"] for row, _ in games]
    rows = [row for row, _ in games]
    # the stored rows, as the tallies counted them: a game stored anew may change its players
    # and result as written (copies of a record differ in whitespace and unknown values)
    before = _stored(conn, ids)
    number = _numbered(conn, rows, before)
    upsert = (postgresql.insert if conn.dialect.name == "postgresql" else sqlite.insert)(GameRow)
    kept = ("id", "game_hash", "number")  # a game stored anew keeps its number
    replace = {c: upsert.excluded[c] for c in rows[0] if c not in kept}
    upsert = upsert.on_conflict_do_update(
        index_elements=["game_hash"], set_=replace, where=upsert.excluded.place < GameRow.place
    )
    opened = [opening_id(row["opening"]) for row in rows]  # each game's opening, by its id
    add_openings(conn, {i: row["opening"] for i, row in zip(opened, rows, strict=True) if i})
    named = [{**row, "opening": i} for i, row in zip(opened, rows, strict=True)]
    if conn.dialect.name == "sqlite":  # the writer holds the database: look, then write
        _through_driver(conn, upsert, [_as_stored(row) for row in named])
        inserted = {i for i in ids if i not in before}
        replaced = {row["id"] for row in rows if row["id"] in before and
                    row["place"] < before[row["id"]]["place"]}  # fmt: skip
        stored = {row["id"]: row["place"] if row["id"] in inserted or row["id"] in replaced
                  else before[row["id"]]["place"] for row in rows}  # fmt: skip
    else:  # rows inserted (not updated) by this statement have xmax 0
        done = conn.execute(
            upsert.returning(GameRow.id, literal_column("xmax = 0", Boolean)), named
        )
        fresh = dict(done.all())
        inserted = {i for i, new in fresh.items() if new}
        replaced = {i for i, new in fresh.items() if not new}
        if not replaced <= before.keys():  # stored meanwhile by another writer: not looked at
            raise _Raced
        stored = _places(conn, ids)
    # a place this run wrote before holds a game stored before the batch
    ours = _written_by(conn, run, [(f, i) for f, i, _, gid, _ in read if gid in before])
    won = [r for row, r in games if row["id"] in inserted or row["id"] in replaced]
    if replaced:  # the rows a later place wrote go, to be written anew
        gone = sorted(replaced)
        conn.execute(delete(TagRow).where(TagRow.game_id.in_(gone)))
        conn.execute(delete(BoardsRow).where(BoardsRow.game_id.in_(gone)))
        conn.execute(delete(SquaresRow).where(SquaresRow.game_id.in_(gone)))
        conn.execute(update(Occurrence).where(Occurrence.game_id.in_(gone)).values(duplicate=True))
    _add_rows(conn, TagRow.__tablename__, ["game_id", "position", "name", "value"],
              [t for r in won for t in r.tags])  # fmt: skip
    # a game stored anew from an earlier place is the same record with the same positions and
    # material runs: staged again, they are moved once
    code = move_codes(conn, [r.moves for r in won]).__getitem__
    # in order of their numbers, which the move of the postings sorts the faster for
    _add_rows(conn, STAGED.name, ["game", "digests", "moves"],
              sorted(staged_row(number[r.row["id"]], r.digests, map(code, r.moves))
                     for r in won if r.digests))  # fmt: skip
    _add_rows(conn, MATERIAL_STAGED.name, ["game", "runs"],
              [(number[r.row["id"]], r.material) for r in won if r.material])  # fmt: skip
    _add_rows(conn, BoardsRow.__tablename__, ["game_id", "data"],
              [b for r in won for b in r.boards])  # fmt: skip
    _add_rows(conn, SquaresRow.__tablename__, [c.name for c in SquaresRow.__table__.columns],
              [q for r in won for q in r.squares])  # fmt: skip
    anew = [(row, before[row["id"]]) for row in rows if row["id"] in replaced]
    written = [(row, r.explored) for row, r in games if row["id"] in inserted]
    for table, counted in batch_tallies(written, anew):
        _add_rows(conn, table.name, [c.name for c in table.columns], counted)
    counts = SpanCounts()
    marks = []
    for file_id, index, line, gid, at in read:
        first = stored[gid] == at
        marks.append((file_id, index, line, gid, not first, run))
        if first and (gid in inserted or (file_id, index) in ours):
            counts.added += 1
        elif first and gid not in replaced:
            counts.already += 1
        else:
            counts.copies += 1
    mark = "?" if conn.dialect.paramstyle == "qmark" else "%s"
    conn.exec_driver_sql(
        f"INSERT INTO {Occurrence.__tablename__} (file_id, file_index, line, game_id, duplicate, "
        f"run) VALUES ({mark}, {mark}, {mark}, {mark}, {mark}, {mark}) ON CONFLICT (file_id, "
        "file_index) DO UPDATE SET game_id = excluded.game_id, duplicate = excluded.duplicate",
        marks,
    )
    return counts


def _written_by(conn: Connection, run: int, places: list[tuple[int, int]]) -> set[tuple[int, int]]:
    """The places of *places* whose games the import *run* wrote already (a task run again)."""
    if not run or not places:
        return set()
    rows = conn.execute(
        select(Occurrence.file_id, Occurrence.file_index).where(
            Occurrence.run == run, tuple_(Occurrence.file_id, Occurrence.file_index).in_(places)
        )
    )
    return {(f, i) for f, i in rows}


class _Raced(Exception):
    """A game this batch stored anew was first stored by another writer after the batch
    looked: the batch is written again (PostgreSQL)."""


def _stored(conn: Connection, ids: list[int]) -> dict[int, dict[str, Any]]:
    """The stored games of *ids*: their place, number and what the tallies count them by; on
    PostgreSQL locked until the batch commits, so that they stay so."""
    c = GameRow.__table__.c
    counted = dict.fromkeys(("place", "number", "white", "black", *GROUPED, *PLAYER_GROUPED))
    query = select(c.id, *(c[n] for n in counted))
    if conn.dialect.name == "postgresql":
        query = query.order_by(c.id).with_for_update()  # in the order the batch writes them
    return {row.id: row._asdict() for row in conn.execute(query.where(c.id.in_(ids)))}


def _numbered(
    conn: Connection, rows: list[dict[str, Any]], before: dict[int, dict[str, Any]]
) -> dict[int, int]:
    """Each game's number (see pdn.db.schema.NUMBERS), set in *rows*: a stored game's own
    (*before*), new numbers for the others in the order of their places."""
    new = sorted((row for row in rows if row["id"] not in before), key=itemgetter("place"))
    for row, n in zip(new, new_numbers(conn, len(new)), strict=True):
        row["number"] = n
    for row in rows:
        if row["id"] in before:
            row["number"] = before[row["id"]]["number"]
    return {row["id"]: row["number"] for row in rows}


def new_numbers(conn: Connection, n: int) -> list[int]:
    """*n* game numbers no game has: on PostgreSQL from the sequence (a number taken by a
    writer whose game another stored first is never given), on SQLite after the highest (the
    writer holds the database)."""
    if conn.dialect.name == "postgresql":
        taken = text(f"SELECT nextval('{NUMBERS.name}') FROM generate_series(1, :n)")
        return sorted(conn.execute(taken, {"n": n}).scalars())
    top = conn.execute(select(func.max(GameRow.number))).scalar() or 0
    return list(range(top + 1, top + 1 + n))


def _places(conn: Connection, ids: list[int]) -> dict[int, int]:
    """The place each stored game of *ids* was stored from (a batch: few enough for IN)."""
    rows = conn.execute(select(GameRow.id, GameRow.place).where(GameRow.id.in_(ids)))
    return dict(rows.all())


def _as_stored(row: dict[str, Any]) -> dict[str, Any]:
    """*row* with its digests and words as the database stores them (the driver does not
    convert)."""
    game, moves = digest_bytes(row["game_hash"]), digest_bytes(row["moves_hash"])
    return {**coded(row, CODED), "game_hash": game, "moves_hash": moves}


def _through_driver(conn: Connection, statement: Insert, rows: list[dict[str, Any]]) -> None:
    """Execute *statement* for *rows* (the same two or more keys) as the driver's executemany:
    SQLAlchemy's processing of each row's parameters took longer than SQLite's insert of it."""
    compiled = statement.compile(dialect=conn.dialect, column_keys=list(rows[0]))
    values = itemgetter(*compiled.positiontup or ())
    conn.exec_driver_sql(compiled.string, [values(row) for row in rows])


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
