"""`pdn list`: one row per game as the files are read (a module of its own, so that it starts
without the replaying commands' imports)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from typing import Annotated

import typer

from pdn.archive.listing import ListedGame, list_games
from pdn.cli.common import (
    ClusterOpt,
    EncodingOpt,
    Format,
    FormatOpt,
    MaxSizeOpt,
    OutputOpt,
    Paths,
    WorkersOpt,
    check_output,
    pipeline_run,
    print_table,
    say,
)

LIST_COLUMNS = ["file", "index", "line", "white", "black", "event", "date", "result", "plies"]


def list_command(
    paths: Paths,
    fmt: FormatOpt = None,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines (--format json).")] = False,
    output: OutputOpt = None,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    max_game_size: MaxSizeOpt = None,
    encoding: EncodingOpt = None,
) -> None:
    """One row per game, as the files are read; syntax errors, files not read and the count on
    stderr."""
    fmt = Format.JSON if as_json else fmt
    if output:
        check_output(output)
    errors = 0

    def rows(games: Iterator[ListedGame]) -> Iterator[list[object]]:
        nonlocal errors
        for row in games:
            values: list[object] = [row.file, row.index, row.line, row.white, row.black,
                                    row.event, row.date, row.result, row.plies]  # fmt: skip
            if row.error is not None:
                errors += 1
                say(str(row.error), err=True)
            if fmt is Format.JSON:
                values.append(str(row.error) if row.error else None)
            yield values

    columns = [*LIST_COLUMNS, "error"] if fmt is Format.JSON else LIST_COLUMNS
    screen = output is None and sys.stdout.isatty()  # the rows show the progress
    listing = pipeline_run("listing", paths, workers=workers, cluster=cluster, bar=not screen,
                           writes=[output])  # fmt: skip
    with listing as run:
        games = list_games(run.files, run.runner, run.progress, run.problem)
        count = print_table(columns, rows(games), fmt, output, group=0)
    summary = f"{count} games, {errors} syntax errors"
    if run.problems:
        summary += f", {run.problems} files not read or without games"
    say(summary, err=True)
    raise typer.Exit(1 if errors or run.problems else 0)
