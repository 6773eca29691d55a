"""The `pdn` command: one function per command, each a few lines over a library call."""

from __future__ import annotations

import json
import re
import sys
import time
from pathlib import Path
from typing import Annotated, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn
from rich.table import Table

from pdn import __version__
from pdn.drawrules import RULE_SETS
from pdn.fen import FenError, parse_fen
from pdn.files import MissingPathError, pdn_files
from pdn.listing import list_games
from pdn.notation import MoveForm, move_text
from pdn.position import Position, perft
from pdn.validate import Summary, validate_paths
from pdn.variants import UnknownVariantError, Variant, get_variant

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
    except (MissingPathError, OSError) as exc:
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
    workers: Annotated[int, typer.Option("--workers", "-j", help="Worker processes.")] = 1,
) -> None:
    """Replay every game: one line per problem, a summary, exit 1 if any game is invalid."""
    if rules not in RULE_SETS:
        fail(f"--rules must be one of {', '.join(RULE_SETS)}, not {rules!r}")
    if workers < 1:
        fail(f"--workers must be 1 or more, not {workers}")
    if variant:
        _variant(variant)
    try:
        files = list(pdn_files(paths))
    except MissingPathError as exc:
        fail(str(exc))
    summary = Summary()
    sink = report.open("w", encoding="utf-8") if report else None
    progress = Progress(
        TextColumn("validating"), BarColumn(), MofNCompleteColumn(), TextColumn("files"),
        console=err, disable=not err.is_terminal, transient=True,
    )  # fmt: skip
    try:
        with progress:
            task = progress.add_task("files", total=len(files))
            for rep in validate_paths(
                files, variant, rules, workers, on_file=lambda _: progress.advance(task)
            ):
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


def main() -> None:
    """Entry point of the `pdn` console script."""
    app()
