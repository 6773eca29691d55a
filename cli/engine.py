"""Commands over engines: `pdn engine` (the built-in engine as a Hub engine) and `pdn analyse`."""

from __future__ import annotations

from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import Annotated

import typer

from pdn.cli.common import (
    ClusterOpt,
    GameVariantOpt,
    MaxSizeOpt,
    OutputOpt,
    Paths,
    Rules,
    RulesOpt,
    check_output,
    fail,
    pipeline_run,
    say,
    variant_named,
)
from pdn.cli.output import json_line, written

EngineOpt = Annotated[
    str,
    typer.Option(
        "--engine", "-e", help='builtin, or the command of a Hub engine ("scan hub", "dame hub").'
    ),
]
DEFAULT_DEPTH = 6
WorkersOpt = Annotated[
    int, typer.Option("--workers", "-j", help="Local worker processes (a game each).", min=1)
]


def engine_command(
    variant: Annotated[
        str, typer.Option("--variant", "-v", help="The variant until the GUI sets one.")
    ] = "international",
    rules: RulesOpt = Rules.SEED,
) -> None:
    """Serve the built-in engine over the Hub protocol on standard input and output."""
    import sys

    from pdn.engine.hubserver import serve

    serve(sys.stdin, sys.stdout, variant_named(variant), rules.value)


def analyse_command(
    paths: Paths,
    engine: EngineOpt = "builtin",
    depth: Annotated[
        int | None,
        typer.Option(help=f"Search each position this deep (default {DEFAULT_DEPTH}).", min=1),
    ] = None,
    nodes: Annotated[
        int | None, typer.Option(help="Search each position so many nodes.", min=1)
    ] = None,
    movetime: Annotated[
        float | None, typer.Option(help="Search each position so many seconds.", min=0.001)
    ] = None,
    output: OutputOpt = None,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write one JSON object per game here.")
    ] = None,
    variant: GameVariantOpt = None,
    rules: RulesOpt = Rules.SEED,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    max_game_size: MaxSizeOpt = None,
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Also import the games into this database and store the "
            "analysis there (per engine and limit; once).",
        ),
    ] = None,
) -> None:
    """Judge every move of the main lines: evaluations, losses, marks and better lines."""
    from pdn.archive.parallel import Processes
    from pdn.engine import EngineError, Limit, open_engine
    from pdn.engine.analysis import analyse_paths

    for path in (output, report):
        if path:
            check_output(path)
    if cluster and workers > 1:
        fail("--workers and --cluster exclude each other (a cluster brings its own workers)")
    limit = Limit(depth, nodes, movetime) if depth or nodes or movetime else Limit(DEFAULT_DEPTH)
    try:
        open_engine(engine, variant or "international").close()  # fails early, once
    except EngineError as exc:
        fail(str(exc))
    store = None
    if db:
        from pdn.cli.connect import open_db
        from pdn.db.analysis import Stored, store_analyses

        database, stored = open_db(db, create=True), Stored()
        store = partial(store_analyses, database, stored=stored)
    errors = 0
    with ExitStack() as stack:
        run = stack.enter_context(pipeline_run("analysing", paths, variant, 1, cluster))
        sink = stack.enter_context(written(output))
        lines = stack.enter_context(written(report)) if report else None
        runner = run.runner if cluster else Processes(workers)
        first = True
        analysing = store or analyse_paths
        for done in analysing(run.files, engine, limit, variant, rules.value, runner,
                              run.progress, run.problem):  # fmt: skip
            sink.write(("" if first else "\n") + done.text)
            first = False
            if lines:
                lines.write(json_line(done.report) + "\n")
            problem = done.problem()
            if problem:
                errors += 1
                say(problem, err=True)
    if db:
        say(f"{stored.games} games analysed, {stored.added_games} stored ({stored.rows} moves)",
            err=True)  # fmt: skip
    raise typer.Exit(1 if errors or run.problems else 0)
