"""Commands over a game database: import, query, explore, statistics, report."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import pandas as pd
import typer
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from pdn.cli.common import (
    CandidatesOpt,
    ClusterOpt,
    DbOpt,
    FenOpt,
    FrameFormat,
    FrameFormatOpt,
    GameVariantOpt,
    MaxSizeOpt,
    OutputOpt,
    Paths,
    QueryFormat,
    Rules,
    RulesOpt,
    VariantOpt,
    WorkersOpt,
    check_inputs,
    check_output,
    fail,
    pipeline_run,
    print_table,
    say,
)
from pdn.cli.output import Format, written, written_path
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
from pdn.variants import UnknownVariantError


def _engine(db: str, create: bool = False) -> Engine:
    try:
        return open_database(db, create=create)
    except DatabaseRefused as exc:
        fail(str(exc))


def _emit(frame: pd.DataFrame, fmt: FrameFormat | None, output: Path | None, title: str) -> None:
    """Print a frame as a table (see :func:`print_table`), or write it as Parquet."""
    if output:
        check_output(output)
    if frame.empty:
        say(f"{title}: nothing found", err=True)
    if fmt is FrameFormat.PARQUET:
        if output is None:
            fail("--format parquet needs --output FILE")
        try:
            with written_path(output) as part:
                frame.to_parquet(part, index=False)
        except ImportError:
            fail("--format parquet needs pyarrow: pip install 'pdn-toolkit[parquet]'")
        return
    rows = frame.itertuples(index=False, name=None)
    print_table([str(c) for c in frame.columns], rows, Format(fmt) if fmt else None, output, title)


def import_command(
    paths: Paths,
    db: DbOpt = DEFAULT_DB,
    variant: GameVariantOpt = None,
    rules: RulesOpt = Rules.SEED,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    candidates: CandidatesOpt = False,
    max_game_size: MaxSizeOpt = None,
) -> None:
    """Replay and store every game (invalid ones too); re-importing adds nothing; resumable.
    Into PostgreSQL, several workers (--workers, --cluster) write their games themselves."""
    check_inputs(paths)
    engine = _engine(db, create=True)
    try:
        with pipeline_run("importing", paths, variant, workers, cluster) as run:
            stats = import_paths(engine, run.files, variant, rules, run.runner, run.progress,
                                 candidates=candidates, on_problem=run.problem)  # fmt: skip
    except (OSError, SQLAlchemyError) as exc:  # games written so far stay; a re-run finishes
        fail(f"import stopped: {exc}; run it again to finish it", 1)
    rows = [
        ("files imported", stats.files),
        ("files already imported", stats.skipped_files),
        ("games read", stats.games),
        ("games added", stats.added),
        ("duplicates", stats.duplicates),
        ("already imported (resumed)", stats.already),
        ("invalid", stats.invalid),
        ("syntax errors", stats.syntax_errors),
    ]
    if candidates:
        rows.append(("fit other variants too", stats.also_fit))
    print_table(["import", "games"], rows, title=f"Imported into {db}")
    raise typer.Exit(1 if run.problems else 0)


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
        QueryFormat | None,
        typer.Option("--format", "-f", help="table, tsv, csv, json, parquet or pdn."),
    ] = None,
    output: OutputOpt = None,
) -> None:
    """The games that match; --format pdn exports them as a PDN archive, exactly as read."""
    if output:
        check_output(output)
    engine = _engine(db)
    where = GameFilter(white, black, player, event, site, variant, result, date_from, date_to,
                       moves, fen)  # fmt: skip
    try:
        frame = find_games(engine, where, limit or None)
    except (QuestionError, UnknownVariantError, FenError) as exc:
        fail(str(exc))
    if fmt is QueryFormat.PDN:
        texts = game_texts(engine, [int(i) for i in frame["id"]])
        with written(output) as sink:
            sink.write("\n\n".join(t.strip() for t in texts) + ("\n" if texts else ""))
        if not texts:
            say("no games match", err=True)
        return
    table = fmt in (None, QueryFormat.TABLE)
    _emit(frame.drop(columns="id") if table else frame, FrameFormat(fmt) if fmt else None,
          output, "games")  # fmt: skip


def explore(
    variant: VariantOpt,
    db: DbOpt = DEFAULT_DB,
    moves: Annotated[str | None, typer.Option(help='Moves from the start ("32-28 19-23").')] = None,
    fen: FenOpt = None,
    fmt: FrameFormatOpt = None,
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
    fmt: FrameFormatOpt = None,
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
    fmt: FrameFormatOpt = None,
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
    check_output(output)
    first = sources[0]
    if len(sources) == 1 and ("://" in first or first.endswith((".db", ".sqlite"))):
        engine = _engine(first)
        title = f"Archive report: {first}"
        _write_report(engine, title, output)
        return
    with tempfile.TemporaryDirectory() as tmp:
        check_inputs([Path(s) for s in sources])
        engine = _engine(str(Path(tmp) / "report.db"), create=True)
        import_paths(engine, [Path(s) for s in sources])
        _write_report(engine, f"Archive report: {', '.join(sources)}", output)
        engine.dispose()


def _write_report(engine: Engine, title: str, output: Path) -> None:
    page = html_report(engine, title)
    with written(output) as sink:
        sink.write(page)
    say(f"wrote {output}", err=True)
