"""The `pdn` command: one function per command, each a few lines over a library call."""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, NoReturn

import pandas as pd
import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    DownloadColumn,
    Progress,
    TextColumn,
    TimeRemainingColumn,
)
from rich.table import Table
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from pdn import __version__
from pdn.annotate import Notes, annotate_paths
from pdn.board import WHITE, SquareError
from pdn.cluster import ClusterError, connect
from pdn.convert import Captures, Style, convert_paths
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
from pdn.diagram import svg_diagram
from pdn.drawrules import RULE_SETS
from pdn.fen import FenError, parse_fen
from pdn.files import MissingPathError, pdn_files
from pdn.listing import list_games
from pdn.notation import MoveForm, move_text
from pdn.parallel import Runner, Task
from pdn.position import Position, perft
from pdn.reader import make_move, read_games
from pdn.replay import candidates, replay_game
from pdn.textboard import comments_at, move_list, text_board
from pdn.validate import Summary, validate_paths
from pdn.variants import Notation, UnknownVariantError, Variant, get_variant

app = typer.Typer(
    help="Read, check and study draughts games in PDN.",
    no_args_is_help=True,
    add_completion=False,
)
out = Console()
err = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line on stderr and exit with *code*."""
    err.print(f"pdn: {message}", markup=False, highlight=False)
    raise typer.Exit(code)


def _version(value: bool) -> None:
    if value:
        out.print(f"pdn {__version__}")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Draughts PDN toolkit."""


def _variant(name: str) -> Variant:
    try:
        return get_variant(name)
    except UnknownVariantError as exc:
        fail(str(exc))


def _position(variant: Variant, fen: str | None) -> Position:
    if fen is None:
        return Position.start(variant)
    try:
        return parse_fen(fen, variant)
    except FenError as exc:
        fail(str(exc))


Paths = Annotated[list[Path], typer.Argument(help="PDN files or folders (searched for *.pdn).")]
VariantOpt = Annotated[str, typer.Option("--variant", "-v", help="Variant name, e.g. english.")]
FenOpt = Annotated[str | None, typer.Option("--fen", help="Start position (FEN); default: start.")]
WorkersOpt = Annotated[int, typer.Option("--workers", "-j", help="Local worker processes.")]
ClusterOpt = Annotated[
    str | None,
    typer.Option(
        "--cluster",
        help="Run on Dask: local:N starts N worker processes here; tcp://host:8786 uses a "
        "running scheduler (its workers must see the files under the same paths).",
    ),
]
DupOpt = Annotated[
    str,
    typer.Option(
        "--duplicates",
        help="keep: count every capture path; drop: paths with the same captures count once.",
    ),
]


def _keep(duplicates: str) -> bool:
    if duplicates not in ("keep", "drop"):
        fail(f"--duplicates must be keep or drop, not {duplicates!r}")
    return duplicates == "keep"


@app.command("list")
def list_command(
    paths: Paths,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines instead of a table.")] = False,
) -> None:
    """One row per game, then the number of games and of syntax errors."""
    table = Table("file", "#", "line", "White", "Black", "Event", "Date", "Result", "plies")
    games = errors = 0
    try:
        for row in list_games(paths):
            games += 1
            if row.error is not None:
                errors += 1
                err.print(str(row.error), markup=False, highlight=False)
            if as_json:
                sys.stdout.write(json.dumps(row.as_dict(), ensure_ascii=False) + "\n")
            else:
                table.add_row(
                    Path(row.file).name,
                    str(row.index),
                    str(row.line),
                    row.white,
                    row.black,
                    row.event,
                    row.date,
                    row.result,
                    str(row.plies),
                )
    except OSError as exc:  # a missing path included (MissingPathError)
        fail(str(exc))
    if not as_json:
        out.print(table)
    summary = f"{games} games, {errors} syntax errors"
    (err if as_json else out).print(summary, markup=False, highlight=False)
    raise typer.Exit(1 if errors else 0)


@app.command()
def moves(
    variant: VariantOpt,
    fen: FenOpt = None,
    duplicates: DupOpt = "drop",
) -> None:
    """The legal moves of a position, one per line, with every landing square, sorted."""
    pos = _position(_variant(variant), fen)
    legal = pos.legal_moves(_keep(duplicates))
    texts = sorted((move_text(pos, m, MoveForm.FULL) for m in legal), key=_square_order)
    for text in texts:
        out.print(text, markup=False, highlight=False)


def _square_order(text: str) -> list[tuple[int, str]]:
    """Sort key of a move's text: numbers by value, algebraic squares by name."""
    return [(int(s), "") if s.isdigit() else (0, s) for s in re.split(r"[-x:]", text)]


@app.command("perft")
def perft_command(
    variant: VariantOpt,
    depth: Annotated[int, typer.Option("--depth", "-d", help="Depth in plies (1 or more).")],
    fen: FenOpt = None,
    duplicates: DupOpt = "drop",
) -> None:
    """Count move sequences to each depth: one line `D COUNT` per depth, then nodes per second."""
    if depth < 1:
        fail(f"--depth must be 1 or more, not {depth}")
    v = _variant(variant)
    pos = _position(v, fen)
    keep = _keep(duplicates)
    nodes = 0
    start = time.perf_counter()
    for d in range(1, depth + 1):
        count = perft(pos, d, keep)
        nodes += count
        out.print(f"{d} {count}", markup=False, highlight=False)
    seconds = time.perf_counter() - start
    out.print(f"{nodes / seconds if seconds else 0:,.0f} nodes/s", markup=False, highlight=False)


def _replay_inputs(
    paths: list[Path], variant: str | None, rules: str, workers: int, cluster: str | None
) -> list[Path]:
    """The PDN files to replay, after checking the options that validate and import share."""
    if rules not in RULE_SETS:
        fail(f"--rules must be one of {', '.join(RULE_SETS)}, not {rules!r}")
    if workers < 1:
        fail(f"--workers must be 1 or more, not {workers}")
    if cluster and workers > 1:
        fail("--workers and --cluster exclude each other (a cluster brings its own workers)")
    if variant:
        _variant(variant)
    try:
        return list(pdn_files(paths))
    except MissingPathError as exc:
        fail(str(exc))


@contextmanager
def _runner(workers: int, cluster: str | None) -> Iterator[int | Runner]:
    """Local worker processes, or the Dask cluster named by --cluster."""
    if not cluster:
        yield workers
        return
    try:
        with connect(cluster) as runner:
            yield runner
    except ClusterError as exc:
        fail(str(exc))


def _byte_progress(verb: str, files: list[Path]) -> tuple[Progress, Callable[[Task], None]]:
    """A progress bar over the bytes of *files*, and what to tell it each task that is done."""
    progress = Progress(
        TextColumn(verb), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
        console=err, disable=not err.is_terminal, transient=True,
    )  # fmt: skip
    bar = progress.add_task(verb, total=sum(f.stat().st_size for f in files))
    return progress, lambda task: progress.advance(bar, task.size)


def _summary_table(summary: Summary) -> Table:
    table = Table("", "games", title="Summary", show_header=False)
    for label, value in (
        ("games", summary.games),
        ("valid", summary.valid),
        ("invalid", summary.invalid),
        ("syntax errors", summary.syntax_errors),
        ("warnings", summary.warnings),
    ):
        table.add_row(label, str(value))
    for term, n in sorted(summary.terminations.items()):
        table.add_row(f"ended: {term}", str(n))
    for variant, n in sorted(summary.variants.items()):
        table.add_row(f"{variant}", f"{n} ({summary.invalid_by_variant[variant]} invalid)")
    return table


@app.command()
def validate(
    paths: Paths,
    variant: Annotated[
        str | None,
        typer.Option("--variant", "-v", help="Variant of games without a GameType tag."),
    ] = None,
    rules: Annotated[
        str, typer.Option("--rules", help="Draw rules: seed (40 moves, 3-fold) or official.")
    ] = "seed",
    report: Annotated[
        Path | None, typer.Option("--report", help="Write one JSON object per game here.")
    ] = None,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
) -> None:
    """Replay every game: one line per problem, a summary, exit 1 if any game is invalid."""
    files = _replay_inputs(paths, variant, rules, workers, cluster)
    summary = Summary()
    sink = report.open("w", encoding="utf-8") if report else None
    progress, done = _byte_progress("validating", files)
    try:
        with _runner(workers, cluster) as runner, progress:
            for rep in validate_paths(files, variant, rules, runner, on_done=done):
                summary.add(rep)
                for line in rep.problems():
                    out.print(line, markup=False, highlight=False, soft_wrap=True)
                if sink:
                    sink.write(json.dumps(rep.as_dict(), ensure_ascii=False) + "\n")
    except OSError as exc:
        fail(str(exc))
    finally:
        if sink:
            sink.close()
    out.print(_summary_table(summary))
    raise typer.Exit(0 if summary.ok else 1)


@app.command()
def diagram(
    variant: VariantOpt,
    fen: FenOpt = None,
    move: Annotated[
        str | None, typer.Option("--move", help="Draw this move as an arrow (e.g. 32-28).")
    ] = None,
    flip: Annotated[bool, typer.Option("--flip", help="Black at the bottom.")] = False,
    output: Annotated[Path | None, typer.Option("--output", "-o", help="SVG file.")] = None,
) -> None:
    """Draw a position as SVG, with the variant's numbering and an arrow for a move."""
    pos = _position(_variant(variant), fen)
    arrow = None
    if move:
        try:
            found = candidates(pos, make_move(move).squares)
        except SquareError as exc:
            fail(str(exc))
        if len(found) != 1:
            fail(f"move {move!r} is {'ambiguous' if found else 'not legal'} in this position")
        arrow = found[0]
    svg = svg_diagram(pos, arrow, flip)
    if output:
        output.write_text(svg, encoding="utf-8")
    else:
        sys.stdout.write(svg)


@app.command("replay")
def replay_command(
    file: Annotated[Path, typer.Argument(help="A PDN file.")],
    game: Annotated[int, typer.Option("--game", "-g", help="Game number (1-based).")] = 1,
    ply: Annotated[
        int | None, typer.Option("--ply", "-p", help="Show the position after this ply.")
    ] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Variant if the game has no GameType.")
    ] = None,
    flip: Annotated[bool, typer.Option("--flip", help="Black at the bottom.")] = False,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Write one SVG diagram per position here.")
    ] = None,
) -> None:
    """Show a game: the board after a ply, the marked move list, comments and how it ended."""
    try:
        chosen = next((g for g in read_games(file) if g.source.index + 1 == game), None)
    except OSError as exc:
        fail(str(exc))
    if chosen is None:
        fail(f"{file}: there is no game {game}")
    if chosen.syntax_error is not None:
        fail(str(chosen.syntax_error))
    replay = replay_game(chosen, _variant(variant) if variant else None)
    last = len(replay.moves)
    at = last if ply is None else ply
    if not 0 <= at <= last:
        fail(f"--ply must be between 0 and {last}")
    pos = replay.positions[at]
    first_is_white = replay.variant.first == "W"
    offset = 0 if (replay.positions[0].turn == WHITE) == first_is_white else 1
    out.print(
        f"{chosen.white or '?'} - {chosen.black or '?'}  {chosen.event or ''}  "
        f"{chosen.result or ''}  ({replay.variant.title})",
        markup=False, highlight=False, soft_wrap=True,
    )  # fmt: skip
    out.print(text_board(pos, flip), markup=False, highlight=False)
    out.print(f"after ply {at} of {last}; {'White' if pos.turn == WHITE else 'Black'} to move",
              markup=False, highlight=False)  # fmt: skip
    out.print(move_list(chosen, at, offset), markup=False, highlight=False)
    for comment in comments_at(chosen, at):
        out.print(f"{{{comment}}}", markup=False, highlight=False)
    ended = replay.termination
    if replay.termination_ply is not None:
        ended += f" at ply {replay.termination_ply}"
    out.print(f"ended: {ended}", markup=False, highlight=False)
    for e in replay.errors:
        out.print(f"error at ply {e.ply} ({e.move}): {e.reason}", markup=False, highlight=False)
    if svg:
        svg.mkdir(parents=True, exist_ok=True)
        for i, position in enumerate(replay.positions):
            move = replay.moves[i - 1] if i else None
            (svg / f"ply-{i:03d}.svg").write_text(svg_diagram(position, move, flip), "utf-8")
    raise typer.Exit(0 if replay.valid else 1)


@app.command("annotate")
def annotate_command(
    paths: Paths,
    output: Annotated[Path, typer.Option("--output", "-o", help="The annotated PDN file.")],
    fen_every: Annotated[int, typer.Option(help="Add the FEN every N plies (0: never).")] = 0,
    material: Annotated[
        bool, typer.Option("--material", help="Add the material after captures and crowning.")
    ] = False,
    events: Annotated[
        bool,
        typer.Option(
            "--events/--no-events",
            help="Comment multi-captures, crowning, draws by rule, illegal moves, the final FEN.",
        ),
    ] = True,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Variant of games without GameType.")
    ] = None,
) -> None:
    """Write the games back with comments where something happens; their own comments kept."""
    if fen_every < 0:
        fail(f"--fen-every must be 0 or more, not {fen_every}")
    if variant:
        _variant(variant)
    try:
        with output.open("w", encoding="utf-8") as sink:
            for text in annotate_paths(paths, Notes(events, fen_every, material), variant):
                sink.write(text)
    except OSError as exc:  # a missing path included (MissingPathError)
        fail(str(exc))


DbOpt = Annotated[
    str, typer.Option("--db", help="SQLite file, or PostgreSQL URL (postgresql+psycopg://...).")
]
FORMATS = ("table", "csv", "json", "parquet")
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="table, csv, json or parquet.")]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write here, not stdout.")]


@app.command()
def convert(
    paths: Paths,
    output: OutputOpt = None,
    to: Annotated[
        str, typer.Option("--to", help="pdn, json (a line per game) or csv (a row per move).")
    ] = "pdn",
    squares: Annotated[
        str | None, typer.Option(help="numeric or algebraic (default: the variant's own).")
    ] = None,
    captures: Annotated[
        str,
        typer.Option(
            help="short (PDN 3.0), long (PDN 3.0 long form) or full (every landing square)."
        ),
    ] = "short",
    separator: Annotated[str | None, typer.Option(help="Capture separator: x or ':'.")] = None,
    result_style: Annotated[
        str | None,
        typer.Option(help="international (2-0, 1-1, 0-2) or default (1-0, 1/2-1/2, 0-1)."),
    ] = None,
    gametype: Annotated[str, typer.Option(help="GameType tag: short (20) or long.")] = "short",
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Variant of games without GameType.")
    ] = None,
) -> None:
    """Replay each game and write it normalised; a game that does not replay is kept as read."""
    for name, value, allowed in (
        ("--to", to, ("pdn", "json", "csv")),
        ("--squares", squares, (None, "numeric", "algebraic")),
        ("--captures", captures, ("short", "long", "full")),
        ("--separator", separator, (None, "x", ":")),
        ("--result-style", result_style, (None, "international", "default")),
        ("--gametype", gametype, ("short", "long")),
    ):
        if value not in allowed:
            choices = ", ".join(str(a) for a in allowed if a)
            fail(f"{name} must be one of {choices}, not {value!r}")
    notation = Notation(squares) if squares else None
    style = Style(notation, Captures(captures), separator, result_style, gametype)
    if variant:
        _variant(variant)
    kept = 0
    sink = output.open("w", encoding="utf-8", newline="") if output else sys.stdout
    try:
        for piece, warning in convert_paths(paths, to, style, variant):
            sink.write(piece)
            if warning:
                kept += 1
                err.print(warning, markup=False, highlight=False)
    except (MissingPathError, ValueError) as exc:
        fail(str(exc))
    finally:
        if output:
            sink.close()
    if kept:
        err.print(f"{kept} games kept as written", markup=False, highlight=False)


# -- database --------------------------------------------------------------------------------


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


@app.command("import")
def import_command(
    paths: Paths,
    db: DbOpt = DEFAULT_DB,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Variant of games without GameType.")
    ] = None,
    rules: Annotated[str, typer.Option("--rules", help="Draw rules: seed or official.")] = "seed",
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
) -> None:
    """Replay and store every game (invalid ones too); re-importing adds nothing; resumable.
    Into PostgreSQL, several workers (--workers, --cluster) write their games themselves."""
    files = _replay_inputs(paths, variant, rules, workers, cluster)
    engine = _engine(db, create=True)
    progress, done = _byte_progress("importing", files)
    try:
        with _runner(workers, cluster) as runner, progress:
            stats = import_paths(engine, files, variant, rules, runner, on_done=done)
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
    out.print(table)


@app.command()
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


@app.command()
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


stats_app = typer.Typer(help="Opening and draw statistics.", no_args_is_help=True)
app.add_typer(stats_app, name="stats")


@stats_app.command("openings")
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


@stats_app.command("draws")
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


@app.command()
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


def main() -> None:
    """Entry point of the `pdn` console script."""
    app()


if __name__ == "__main__":
    main()
