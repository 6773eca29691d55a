"""Commands over a game database: import, query, explore, statistics, report."""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path
from typing import Annotated

import pandas as pd
import typer
from rich.console import Console
from rich.table import Table
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from pdn.cli.common import (
    FORMATS,
    CandidatesOpt,
    ClusterOpt,
    DbOpt,
    FenOpt,
    FormatOpt,
    MaxSizeOpt,
    OutputOpt,
    Paths,
    VariantOpt,
    WorkersOpt,
    byte_progress,
    err,
    fail,
    out,
    replay_inputs,
    runner_for,
)
from pdn.db.questions import (
    DRAW_GROUPS,
    GameFilter,
    QuestionError,
    draw_stats,
    find_games,
    game_texts,
    opening_stats,
)
from pdn.db.questions import explore as explore_position
from pdn.db.report import html_report
from pdn.db.store import DEFAULT_DB, DatabaseRefused, import_paths, open_database
from pdn.fen import FenError
from pdn.files import MissingPathError
from pdn.variants import UnknownVariantError


def _engine(db: str, create: bool = False) -> Engine:
    try:
        return open_database(db, create=create)
    except DatabaseRefused as exc:
        fail(str(exc))


def _emit(frame: pd.DataFrame, fmt: str, output: Path | None, title: str) -> None:
    """Print a frame as a table, or write it as CSV, JSON (records) or Parquet."""
    if fmt not in FORMATS:
        fail(f"--format must be one of {', '.join(FORMATS)}, not {fmt!r}")
    if frame.empty:
        err.print(f"{title}: nothing found", markup=False, highlight=False)
    if fmt == "table":
        table = Table(*[str(c) for c in frame.columns], title=title)
        for row in frame.itertuples(index=False):
            table.add_row(*["" if pd.isna(v) else str(v) for v in row])
        (Console(file=output.open("w", encoding="utf-8")) if output else out).print(table)
    elif fmt == "parquet":
        if output is None:
            fail("--format parquet needs --output FILE")
        try:
            frame.to_parquet(output, index=False)
        except ImportError:
            fail("--format parquet needs pyarrow: pip install 'pdn-toolkit[parquet]'")
    else:
        text = (
            frame.to_csv(index=False)
            if fmt == "csv"
            else frame.to_json(orient="records", lines=True, force_ascii=False)
        )
        if output:
            output.write_text(text, encoding="utf-8")
        else:
            sys.stdout.write(text)


def import_command(
    paths: Paths,
    db: DbOpt = DEFAULT_DB,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Variant of games without GameType.")
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="Draw rules: seed or official.")] = "seed",
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    candidates: CandidatesOpt = False,
    max_game_size: MaxSizeOpt = None,
) -> None:
    """Replay and store every game (invalid ones too); re-importing adds nothing; resumable.
    Into PostgreSQL, several workers (--workers, --cluster) write their games themselves."""
    files = replay_inputs(paths, variant, rules, workers, cluster)
    engine = _engine(db, create=True)
    progress, done = byte_progress("importing", files)
    try:
        with runner_for(workers, cluster) as runner, progress:
            stats = import_paths(
                engine, files, variant, rules, runner, on_done=done, candidates=candidates
            )
    except (OSError, SQLAlchemyError) as exc:  # games written so far stay; a re-run finishes
        fail(f"import stopped: {exc}; run it again to finish it", 1)
    table = Table("", "", title=f"Imported into {db}", show_header=False)
    for label, value in (
        ("files imported", stats.files),
        ("files already imported", stats.skipped_files),
        ("games read", stats.games),
        ("games added", stats.added),
        ("duplicates", stats.duplicates),
        ("already imported (resumed)", stats.already),
        ("invalid", stats.invalid),
        ("syntax errors", stats.syntax_errors),
    ):
        table.add_row(label, str(value))
    if candidates:
        table.add_row("fit other variants too", str(stats.also_fit))
    out.print(table)
    raise typer.Exit(1 if files.problems else 0)


def query(
    db: DbOpt = DEFAULT_DB,
    white: Annotated[str | None, typer.Option(help="White player contains.")] = None,
    black: Annotated[str | None, typer.Option(help="Black player contains.")] = None,
    player: Annotated[str | None, typer.Option(help="Either player contains.")] = None,
    event: Annotated[str | None, typer.Option(help="Event contains.")] = None,
    site: Annotated[str | None, typer.Option(help="Site contains.")] = None,
    variant: Annotated[str | None, typer.Option("--variant", "-v", help="Variant.")] = None,
    result: Annotated[
        str | None, typer.Option(help="Result as written (1-0) or first, second, draw.")
    ] = None,
    date_from: Annotated[int | None, typer.Option(help="From this year.")] = None,
    date_to: Annotated[int | None, typer.Option(help="Up to this year.")] = None,
    moves: Annotated[
        str | None,
        typer.Option(help='Games reaching the position after these moves ("32-28 19-23").'),
    ] = None,
    fen: Annotated[str | None, typer.Option(help="Games reaching this position.")] = None,
    limit: Annotated[int, typer.Option(help="At most this many games (0: all).")] = 100,
    fmt: Annotated[
        str, typer.Option("--format", "-f", help="table, csv, json, parquet or pdn.")
    ] = "table",
    output: OutputOpt = None,
) -> None:
    """The games that match; --format pdn exports them as a PDN archive, exactly as read."""
    engine = _engine(db)
    where = GameFilter(white, black, player, event, site, variant, result, date_from, date_to,
                       moves, fen)  # fmt: skip
    try:
        frame = find_games(engine, where, limit or None)
    except (QuestionError, UnknownVariantError, FenError) as exc:
        fail(str(exc))
    if fmt == "pdn":
        texts = game_texts(engine, [int(i) for i in frame["id"]])
        data = "\n\n".join(t.strip() for t in texts) + ("\n" if texts else "")
        if output:
            output.write_text(data, encoding="utf-8")
        else:
            sys.stdout.write(data)
        if not texts:
            err.print("no games match", markup=False, highlight=False)
        return
    _emit(frame.drop(columns="id") if fmt == "table" else frame, fmt, output, "games")


def explore(
    variant: VariantOpt,
    db: DbOpt = DEFAULT_DB,
    moves: Annotated[str | None, typer.Option(help='Moves from the start ("32-28 19-23").')] = None,
    fen: FenOpt = None,
    fmt: FormatOpt = "table",
    output: OutputOpt = None,
) -> None:
    """The moves played from a position, with games, wins, draws and score (transpositions too)."""
    engine = _engine(db)
    try:
        frame = explore_position(engine, variant, moves, fen)
    except (QuestionError, UnknownVariantError, FenError) as exc:
        fail(str(exc))
    _emit(frame, fmt, output, "moves played")


def stats_openings(
    db: DbOpt = DEFAULT_DB,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Only this variant.")
    ] = None,
    plies: Annotated[int, typer.Option(help="Openings by their first N plies.")] = 6,
    min_games: Annotated[int, typer.Option(help="Openings played at least this often.")] = 1,
    ballots: Annotated[
        bool, typer.Option("--ballots", help="English: by three-move ballot.")
    ] = False,
    fmt: FormatOpt = "table",
    output: OutputOpt = None,
) -> None:
    """Openings with games, first-player wins, draws, second-player wins, score and draw rate."""
    engine = _engine(db)
    try:
        frame = opening_stats(engine, variant, plies, min_games, ballots)
    except (QuestionError, UnknownVariantError) as exc:
        fail(str(exc))
    _emit(frame, fmt, output, "openings")


def stats_draws(
    db: DbOpt = DEFAULT_DB,
    by: Annotated[str, typer.Option(help=f"Group by: {', '.join(DRAW_GROUPS)}.")] = "variant",
    fmt: FormatOpt = "table",
    output: OutputOpt = None,
) -> None:
    """Draw rates and how the draws came about: moves rule, repetition, agreement."""
    engine = _engine(db)
    try:
        frame = draw_stats(engine, by)
    except QuestionError as exc:
        fail(str(exc))
    _emit(frame, fmt, output, f"draws by {by}")


def report(
    sources: Annotated[
        list[str], typer.Argument(help="A database (file.db or URL), or PDN files and folders.")
    ],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file.")],
) -> None:
    """One self-contained HTML page about an archive: counts, draw rates, openings, a diagram."""
    first = sources[0]
    if len(sources) == 1 and ("://" in first or first.endswith((".db", ".sqlite"))):
        engine = _engine(first)
        title = f"Archive report: {first}"
        _write_report(engine, title, output)
        return
    with tempfile.TemporaryDirectory() as tmp:
        engine = _engine(str(Path(tmp) / "report.db"), create=True)
        try:
            import_paths(engine, [Path(s) for s in sources])
        except MissingPathError as exc:
            fail(str(exc))
        _write_report(engine, f"Archive report: {', '.join(sources)}", output)
        engine.dispose()


def _write_report(engine: Engine, title: str, output: Path) -> None:
    output.write_text(html_report(engine, title), encoding="utf-8")
    err.print(f"wrote {output}", markup=False, highlight=False)
