"""Opening a database (SQLite by default, any SQLAlchemy URL) and importing archives into it.

Every game is replayed on the way in and stored with its tags, its moves, the positions they
lead through and its exact text; invalid games are stored too, marked with their errors. Games
are written in batches, each in one transaction, so an interrupted import leaves no half-written
game and running it again completes it; a file already imported whole is skipped.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import Engine, create_engine, event, insert, inspect, select, update
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
from pdn.files import pdn_files
from pdn.game import Game
from pdn.notation import MoveForm, move_text
from pdn.reader import Span, detect_encoding, read_games
from pdn.replay import Replay, replay_game
from pdn.validate import GameReport, file_tasks, report_game, run_tasks
from pdn.variants import get_variant

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


def _record(game: Game, variant: str | None, rules: str, prefer: str | None) -> Record:
    """The record of one game, replayed under the variant chosen for it."""
    replay = None
    if game.syntax_error is None:
        replay = replay_game(game, get_variant(variant) if variant else None, rules, prefer)
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
    """The games-table values of a game (without its ids)."""
    start = replay.positions[0] if replay and replay.positions else None
    written = [m.text for m in game.mainline()] if game.syntax_error is None else []
    moves = [p["path"] for p in plies] + written[len(plies) :]
    identity = "|".join(
        [report.variant or "", to_fen(start) if start else game.fen or "", " ".join(moves)]
    )
    if not moves and not start:  # nothing to recognise it by but its text
        identity += "|" + game.raw
    return {
        "game_hash": hashlib.sha256(identity.encode()).hexdigest()[:32],
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


def span_records(
    path: Path, span: Span | None, variant: str | None, rules: str, prefer: str | None
) -> list[Record]:
    """Records for the games of a file or of one span of it (runs in worker processes)."""
    return [_record(g, variant, rules, prefer) for g in read_games(path, span=span)]


# -- import ----------------------------------------------------------------------------------


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
    workers: int = 1,
    on_game: Callable[[], None] | None = None,
    batch: int = BATCH,
) -> ImportStats:
    """Import every game under *paths* into the database of *engine*."""
    stats = ImportStats()
    if variant:
        get_variant(variant)
    pending: list[tuple[int, Record]] = []
    file_id = 0
    present: set[int] = set()
    index = 0
    todo: list[Path] = []
    ids: dict[Path, int] = {}
    for path in pdn_files(paths):
        fid, done = _source_file(engine, path, _file_digest(path))
        if done:
            stats.skipped_files += 1
        else:
            todo.append(path)
            ids[path] = fid
    tasks = file_tasks(todo, variant, rules, workers)
    for task, records in run_tasks(span_records, tasks, variant, rules, workers):
        if task.first:
            stats.files += 1
            file_id, index = ids[task.path], 0
            present = _present_indexes(engine, file_id)
        for record in records:
            index += 1  # spans number their games from 1: count across the file
            record.report.index = index
            stats.games += 1
            if on_game:
                on_game()
            if index in present:
                stats.already += 1
                continue
            pending.append((file_id, record))
            if len(pending) >= batch:
                _write(engine, pending, stats)
                pending = []
        if task.last:
            if pending:
                _write(engine, pending, stats)
                pending = []
            with engine.begin() as conn:
                conn.execute(
                    update(SourceFile)
                    .where(SourceFile.id == file_id)
                    .values(complete=True, games=index)
                )
            stats.per_file[str(task.path)] = index
    return stats


def _source_file(engine: Engine, path: Path, digest: str) -> tuple[int, bool]:
    """The id of the file's row (made if new) and whether it was imported whole already."""
    with engine.begin() as conn:
        row = conn.execute(
            select(SourceFile.id, SourceFile.complete).where(
                SourceFile.path == str(path), SourceFile.sha256 == digest
            )
        ).first()
        if row is not None:
            return row[0], bool(row[1])
        with path.open("rb") as fh:
            encoding = detect_encoding(fh)
        result = conn.execute(
            insert(SourceFile).values(
                path=str(path),
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


def _write(engine: Engine, batch: list[tuple[int, Record]], stats: ImportStats) -> None:
    """Write one batch of games in one transaction."""
    hashes = list({r.row["game_hash"] for _, r in batch})
    with engine.begin() as conn:
        known: dict[str, int] = {}
        for i in range(0, len(hashes), 500):
            found = conn.execute(
                select(GameRow.game_hash, GameRow.id).where(
                    GameRow.game_hash.in_(hashes[i : i + 500])
                )
            )
            known.update({h: gid for h, gid in found})
        next_id = (
            conn.execute(select(GameRow.id).order_by(GameRow.id.desc()).limit(1)).scalar() or 0
        ) + 1
        games: list[dict[str, Any]] = []
        tags: list[dict[str, Any]] = []
        plies: list[dict[str, Any]] = []
        occurrences: list[dict[str, Any]] = []
        for file_id, r in batch:
            h = r.row["game_hash"]
            if r.report.syntax_error:
                stats.syntax_errors += 1
            elif not r.report.valid:
                stats.invalid += 1
            if h in known:
                stats.duplicates += 1
                occurrences.append(
                    {
                        "file_id": file_id,
                        "file_index": r.report.index,
                        "game_id": known[h],
                        "duplicate": True,
                    }
                )
                continue
            gid = known[h] = next_id
            next_id += 1
            stats.added += 1
            games.append({**r.row, "id": gid, "file_id": file_id, "file_index": r.report.index})
            tags.extend(
                {"game_id": gid, "position": i, "name": name[:100], "value": value}
                for i, (name, value) in enumerate(r.tags)
            )
            plies.extend({**p, "game_id": gid} for p in r.plies)
            occurrences.append(
                {
                    "file_id": file_id,
                    "file_index": r.report.index,
                    "game_id": gid,
                    "duplicate": False,
                }
            )
        if games:
            conn.execute(insert(GameRow), games)
        for model, rows in ((TagRow, tags), (PlyRow, plies), (Occurrence, occurrences)):
            if rows:  # plain rows through the driver: the bulk of an import's writing
                columns = list(rows[0])
                marks = ", ".join(
                    ["?" if conn.dialect.paramstyle == "qmark" else "%s"] * len(columns)
                )
                names = ", ".join(f'"{c}"' for c in columns)
                conn.exec_driver_sql(
                    f"INSERT INTO {model.__tablename__} ({names}) VALUES ({marks})",
                    [tuple(r[c] for c in columns) for r in rows],
                )
