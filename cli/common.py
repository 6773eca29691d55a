"""What the commands share: the consoles, one-line failures, option types, checks of common
options, worker runners and progress bars."""

from __future__ import annotations

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
from pdn.files import MissingPathError, pdn_files
from pdn.parallel import Runner, Task
from pdn.position import Duplicates, Position
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
) -> list[Path]:
    """The PDN files to replay, after checking the options that validate and import share."""
    if rules not in RULE_SETS:
        fail(f"--rules must be one of {', '.join(RULE_SETS)}, not {rules!r}")
    if workers < 1:
        fail(f"--workers must be 1 or more, not {workers}")
    if cluster and workers > 1:
        fail("--workers and --cluster exclude each other (a cluster brings its own workers)")
    if variant:
        variant_named(variant)
    try:
        return list(pdn_files(paths))
    except MissingPathError as exc:
        fail(str(exc))


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
