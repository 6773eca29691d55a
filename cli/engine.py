"""Commands over engines: `pdn engine` (the built-in engine as a Hub engine) and `pdn analyse`."""

from __future__ import annotations

from collections.abc import Iterable
from contextlib import ExitStack
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.cli.common import (
    ClusterOpt,
    GameVariantOpt,
    MaxSizeOpt,
    OutputOpt,
    Rules,
    RulesOpt,
    check_output,
    fail,
    pipeline_run,
    say,
    variant_named,
)
from pdn.cli.output import json_line, written

if TYPE_CHECKING:
    from pdn.engine import Limit
    from pdn.engine.analysis import Analysed

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
    rules: RulesOpt = Rules.COMMON,
) -> None:
    """Serve the built-in engine over the Hub protocol on standard input and output."""
    import sys

    from pdn.engine.hubserver import serve

    serve(sys.stdin, sys.stdout, variant_named(variant), rules.value)


def analyse_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="PDN files or folders (searched for *.pdn); none: with --db, the "
            "games stored there that this engine and limit have not judged."
        ),
    ] = None,
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
    rules: RulesOpt = Rules.COMMON,
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
    if not paths:
        if not db:
            fail("give PDN files, or --db DB alone to judge the games stored there")
        if cluster:
            fail("--cluster works on files: give them, or use --workers")
        _analyse_stored(db, engine, limit, workers, output, report)
        return
    store = None
    if db:
        from pdn.cli.connect import open_db
        from pdn.db.analysis import Stored, store_analyses

        database, stored = open_db(db, create=True), Stored()
        store = partial(store_analyses, database, stored=stored)
    with pipeline_run("analysing", paths, variant, 1, cluster, writes=[output, report]) as run:
        runner = run.runner if cluster else Processes(workers)
        analysing = store or analyse_paths
        errors = _written_all(analysing(run.files, engine, limit, variant, rules.value, runner,
                                        run.progress, run.problem), output, report)  # fmt: skip
    if db:
        say(str(stored), err=True)
    raise typer.Exit(1 if errors or run.problems else 0)


def _written_all(found: Iterable[Analysed], output: Path | None, report: Path | None) -> int:
    """The games judged written as PDN and their report lines; how many stopped short (each
    said in one line)."""
    errors = 0
    with ExitStack() as stack:
        sink = stack.enter_context(written(output))
        lines = stack.enter_context(written(report)) if report else None
        for i, done in enumerate(found):
            sink.write(("\n" if i else "") + done.text)
            if lines:
                lines.write(json_line(done.report) + "\n")
            problem = done.problem()
            if problem:
                errors += 1
                say(problem, err=True)
    return errors


def _analyse_stored(db: str, engine: str, limit: Limit, workers: int, output: Path | None,
                    report: Path | None) -> None:  # fmt: skip
    """`pdn analyse --db DB` without files: the stored games not yet judged."""
    from pdn.cli.connect import open_db
    from pdn.db.analysis import Stored, analyse_stored

    database, stored = open_db(db, existing=True), Stored()
    errors = _written_all(analyse_stored(database, engine, limit, workers, stored), output, report)
    say(str(stored), err=True)
    raise typer.Exit(1 if errors else 0)
