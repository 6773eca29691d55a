"""What the commands share: option types, checks of common options, and the run of the pipeline
(files, runner, progress bar) under the commands that read archives. Output helpers live in
cli/output.py (:func:`print_table` is the one way to print rows)."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.cli.output import (
    Format,
    check_inputs,
    check_not_read,
    check_output,
    check_output_folder,
    fail,
    print_table,
    say,
    visible,
)
from pdn.rules.variants import UnknownVariantError, Variant, get_variant

if TYPE_CHECKING:
    from pdn.archive.parallel import Runner
    from pdn.archive.pipeline import Progress
    from pdn.read.files import FileProblem

__all__ = [
    "Format",
    "check_inputs",
    "check_output",
    "check_output_folder",
    "fail",
    "print_table",
    "say",
    "visible",
]


def variant_named(name: str) -> Variant:
    """The variant called *name*, or a one-line usage error."""
    try:
        return get_variant(name)
    except UnknownVariantError as exc:
        fail(str(exc))


class Rules(StrEnum):
    """Draw rules (pdn.rules.draw.RULE_SETS)."""

    COMMON = "common"  # the common 40-move and threefold repetition rules
    OFFICIAL = "official"  # each federation's rules (docs/rules.md)
    SEED = "seed"  # the common rules' former name


Paths = Annotated[
    list[Path],
    typer.Argument(
        help="PDN files or folders (searched for *.pdn); - reads stdin.", metavar="PATH"
    ),
]


def _max_game_size(value: str | None) -> str | None:
    """Set the size limit of a game for this run, worker processes included."""
    import os

    from pdn.read.reader import LIMIT_VARIABLE, parse_size

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


def _encoding(value: str | None) -> str | None:
    """Set the code page of the lines that are not UTF-8 for this run, worker processes
    included."""
    import os

    from pdn.read.decoding import ENCODING_VARIABLE, code_page_named

    if value is not None:
        try:
            os.environ[ENCODING_VARIABLE] = code_page_named(value)
        except LookupError as exc:
            fail(f"--encoding: {exc}")
    return value


EncodingOpt = Annotated[
    str | None,
    typer.Option(
        "--encoding",
        help="The code page of text that is not UTF-8, e.g. cp1251 (default: found from the "
        "text of each file among cp1252, cp1251, cp866, koi8-r and cp1250).",
        callback=_encoding,
    ),
]


VariantOpt = Annotated[str, typer.Option("--variant", "-v", help="Variant name, e.g. english.")]
GameVariantOpt = Annotated[
    str | None, typer.Option("--variant", "-v", help="Variant of games without a GameType tag.")
]
RulesOpt = Annotated[
    Rules,
    typer.Option(
        "--rules",
        help="Draw rules: common (40 moves, threefold repetition; seed is its old name) or "
        "official (each federation's, docs/rules.md).",
    ),
]
FenOpt = Annotated[str | None, typer.Option("--fen", help="Start position (FEN); default: start.")]
WorkersOpt = Annotated[
    int,
    typer.Option(
        "--workers", "-j", help="Local worker processes (used from 4 MB of input on).", min=1
    ),
]
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
DbOpt = Annotated[
    str, typer.Option("--db", help="SQLite file, or PostgreSQL URL (postgresql+psycopg://...).")
]
FormatOpt = Annotated[
    Format | None,
    typer.Option(
        "--format", "-f", help="table, tsv, csv or json (default: table on a terminal, else tsv)."
    ),
]


class FrameFormat(StrEnum):
    """How a statistics frame is written: the row formats, or Parquet (a file)."""

    TABLE = "table"
    TSV = "tsv"
    CSV = "csv"
    JSON = "json"
    PARQUET = "parquet"


class QueryFormat(StrEnum):
    """How found games are written: as a frame, or as a PDN archive of the games as read."""

    TABLE = "table"
    TSV = "tsv"
    CSV = "csv"
    JSON = "json"
    PARQUET = "parquet"
    PDN = "pdn"


FrameFormatOpt = Annotated[
    FrameFormat | None,
    typer.Option(
        "--format",
        "-f",
        help="table, tsv, csv, json or parquet (default: table on a terminal, else tsv).",
    ),
]
OutputOpt = Annotated[Path | None, typer.Option("--output", "-o", help="Write here, not stdout.")]


def _all_when_zero(value: int | None) -> int | None:
    """--top 0 means every row, as --limit 0 means every game."""
    return value or None


TopOpt = Annotated[
    int | None,
    typer.Option(
        "--top", help="Only the N rows with most games (0: all).", min=0, callback=_all_when_zero
    ),
]


# -- a run of the pipeline ----------------------------------------------------------------------


@dataclass(slots=True)
class Run:
    """What a command over archives runs with: its files, its runner, its progress bar, and the
    count of files not read (each told on stderr as it is met)."""

    files: list[Path]
    runner: Runner
    progress: Progress | None
    problems: int = 0

    def problem(self, problem: FileProblem) -> None:
        """Tell of a file not read (or without games); the command exits 1 at the end."""
        self.problems += 1
        say(str(problem), err=True)


@contextmanager
def pipeline_run(
    verb: str,
    paths: list[Path],
    variant: str | None = None,
    workers: int = 1,
    cluster: str | None = None,
    bar: bool = True,
    writes: Iterable[Path | None] = (),
) -> Iterator[Run]:
    """Check the options every command over archives shares, find the files (one line for each
    that cannot be read or holds no game; one line and exit 2 where a file the command *writes*
    is one of them), choose the runner (local processes where they pay, or the Dask cluster)
    and show a progress bar while the block runs (unless not *bar*)."""
    from pdn.archive.parallel import Processes
    from pdn.archive.pipeline import PAYING_BYTES, find_files, workers_that_pay
    from pdn.read.files import MissingPathError

    check_inputs(paths)
    if cluster and workers > 1:
        fail("--workers and --cluster exclude each other (a cluster brings its own workers)")
    if variant:
        variant_named(variant)
    found: list[FileProblem] = []
    try:
        files = find_files(paths, found.append)
    except MissingPathError as exc:
        fail(str(exc))
    for written_file in writes:
        if written_file is not None:
            check_not_read(written_file, files)
    run = Run(files, Processes(1), None)
    for problem in found:
        run.problem(problem)
    if cluster:
        with _cluster(cluster) as runner, progress_bar(verb, files, bar) as progress:
            run.runner, run.progress = runner, progress
            yield run
        return
    used = workers_that_pay(files, workers)
    if used < workers:
        size = sum(f.stat().st_size for f in files)
        say(f"pdn: one worker: {_size(size)} of input is too little for --workers to pay "
            f"(from {_size(PAYING_BYTES)} on)", err=True)  # fmt: skip
    with progress_bar(verb, files, bar) as progress:
        run.runner, run.progress = Processes(used), progress
        yield run


@contextmanager
def _cluster(address: str) -> Iterator[Runner]:
    from pdn.archive.cluster import ClusterError, connect

    try:
        with connect(address) as runner:
            yield runner
    except ClusterError as exc:
        fail(str(exc))


def _size(n: int) -> str:
    return f"{n / (1 << 20):.1f} MB" if n >= 1 << 20 else f"{n / 1024:.0f} KB"


SMALL = 1 << 20  # below this much input the bar counts games, above it bytes too


@contextmanager
def progress_bar(verb: str, files: list[Path], shown: bool = True) -> Iterator[Progress | None]:
    """A progress bar on stderr while the block runs (if *shown* and stderr is a terminal): it
    moves with every game done, and shows bytes as well on large inputs. Yields what to tell
    it."""
    import sys

    if not shown or not sys.stderr.isatty():
        yield None
        return
    from rich.console import Console
    from rich.progress import BarColumn, DownloadColumn, TextColumn, TimeRemainingColumn
    from rich.progress import Progress as Bar

    total = sum(f.stat().st_size for f in files)
    columns = [TextColumn("{task.description}"), BarColumn(),
               TextColumn("{task.fields[games]:,} games")]  # fmt: skip
    if total >= SMALL:
        columns.append(DownloadColumn())
    columns.append(TimeRemainingColumn())
    bar = Bar(*columns, console=Console(stderr=True), transient=True)
    task = bar.add_task(verb, total=total, games=0)
    with bar:
        yield BarProgress(lambda **changes: bar.update(task, **changes), verb)


@dataclass(slots=True)
class BarProgress:
    """What a progress bar is told: games and bytes done, and what a command does once every
    game is (its last phase, shown in the verb's place)."""

    update: Callable[..., None]
    verb: str
    games: int = 0

    def __call__(self, games: int, done: int) -> None:
        self.games += games
        self.update(advance=done, games=self.games)

    def phase(self, text: str) -> None:
        """Show *text* after the verb: the games are done, the command is not."""
        self.update(description=f"{self.verb}: {text}")
