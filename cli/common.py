"""What the commands share: the consoles, one-line failures, option types, checks of common
options, worker runners and progress bars."""

from __future__ import annotations

import os
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, DownloadColumn, Progress, TextColumn, TimeRemainingColumn

from pdn.cluster import ClusterError, connect
from pdn.drawrules import RULE_SETS
from pdn.fen import FenError, parse_fen
from pdn.files import FileProblem, MissingPathError
from pdn.parallel import Runner, Task
from pdn.position import Duplicates, Position
from pdn.reader import LIMIT_VARIABLE, game_files, parse_size
from pdn.variants import UnknownVariantError, Variant, get_variant

out = Console()
err = Console(stderr=True, soft_wrap=True)


def fail(message: str, code: int = 2) -> NoReturn:
    """Print one line on stderr and exit with *code*."""
    err.print(f"pdn: {message}", markup=False, highlight=False)
    raise typer.Exit(code)


def variant_named(name: str) -> Variant:
    try:
        return get_variant(name)
    except UnknownVariantError as exc:
        fail(str(exc))


def position_of(variant: Variant, fen: str | None) -> Position:
    if fen is None:
        return Position.start(variant)
    try:
        return parse_fen(fen, variant)
    except FenError as exc:
        fail(str(exc))


Paths = Annotated[
    list[Path], typer.Argument(help="PDN files or folders (searched for *.pdn); - reads stdin.")
]


def _max_game_size(value: str | None) -> str | None:
    """Set the size limit of a game for this run, worker processes included."""
    if value is not None:
        try:
            os.environ[LIMIT_VARIABLE] = str(parse_size(value))
        except ValueError as exc:
            fail(f"--max-game-size: {exc}")
    return value


MaxSizeOpt = Annotated[
    str | None,
    typer.Option(
        "--max-game-size",
        help="A game (or run of text) larger than this is reported and passed over unread "
        "(default 4MB).",
        callback=_max_game_size,
    ),
]


class Inputs(list[Path]):
    """The files to read, with the problems met finding them (each printed once)."""

    problems: list[FileProblem]


def input_files(paths: list[Path]) -> Inputs:
    """The files under *paths* that hold games; one line on stderr for each file not read or
    without games (exit 1 at the end), a usage error for a missing path or an empty folder."""
    problems: list[FileProblem] = []
    try:
        files = Inputs(game_files(paths, problems))
    except MissingPathError as exc:
        fail(str(exc))
    for problem in problems:
        err.print(str(problem), markup=False, highlight=False)
    files.problems = problems
    return files


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
CandidatesOpt = Annotated[
    bool,
    typer.Option(
        "--candidates",
        help="Also replay games without GameType under the other variants their notation "
        "allows, and tell which they fit as well (slower).",
    ),
]
DupOpt = Annotated[
    str,
    typer.Option(
        "--duplicates",
        help="drop: capture paths with the same start, end and pieces taken count once; keep: "
        "once per order the pieces are taken in (published perft 'keep'); paths: every path.",
    ),
]


def duplicates_mode(text: str) -> Duplicates:
    """The --duplicates value, or a one-line usage error."""
    try:
        return Duplicates(text)
    except ValueError:
        choices = ", ".join(d.value for d in Duplicates)
        fail(f"--duplicates must be one of {choices}, not {text!r}")


def replay_inputs(
    paths: list[Path], variant: str | None, rules: str, workers: int, cluster: str | None
) -> Inputs:
    """The PDN files to replay, after checking the options that validate and import share."""
    if rules not in RULE_SETS:
        fail(f"--rules must be one of {', '.join(RULE_SETS)}, not {rules!r}")
    if workers < 1:
        fail(f"--workers must be 1 or more, not {workers}")
    if cluster and workers > 1:
        fail("--workers and --cluster exclude each other (a cluster brings its own workers)")
    if variant:
        variant_named(variant)
    return input_files(paths)


@contextmanager
def runner_for(workers: int, cluster: str | None) -> Iterator[int | Runner]:
    """Local worker processes, or the Dask cluster named by --cluster."""
    if not cluster:
        yield workers
        return
    try:
        with connect(cluster) as runner:
            yield runner
    except ClusterError as exc:
        fail(str(exc))


def byte_progress(verb: str, files: list[Path]) -> tuple[Progress, Callable[[Task], None]]:
    """A progress bar over the bytes of *files*, and what to tell it each task that is done."""
    progress = Progress(
        TextColumn(verb), BarColumn(), DownloadColumn(), TimeRemainingColumn(),
        console=err, disable=not err.is_terminal, transient=True,
    )  # fmt: skip
    bar = progress.add_task(verb, total=sum(f.stat().st_size for f in files))
    return progress, lambda task: progress.advance(bar, task.size)


DbOpt = Annotated[
    str, typer.Option("--db", help="SQLite file, or PostgreSQL URL (postgresql+psycopg://...).")
]
FORMATS = ("table", "csv", "json", "parquet")
FormatOpt = Annotated[str, typer.Option("--format", "-f", help="table, csv, json or parquet.")]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write here, not stdout.")]
