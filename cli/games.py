"""Commands over PDN files: validate, annotate, convert (list and replay have modules of
their own, to start fast and to hold the interactive viewer)."""

from __future__ import annotations

import os
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from typing import Annotated

import typer

from pdn.archive.annotate import Notes, annotate_paths
from pdn.archive.convert import (
    Captures,
    GameTypeForm,
    ResultStyle,
    Separator,
    Style,
    Target,
    convert_paths,
)
from pdn.archive.identity import Same
from pdn.archive.validate import Summary, validate_paths
from pdn.cli.common import (
    CandidatesOpt,
    ClusterOpt,
    EncodingOpt,
    GameVariantOpt,
    MaxSizeOpt,
    OutputOpt,
    Paths,
    Rules,
    RulesOpt,
    WorkersOpt,
    check_output,
    pipeline_run,
    print_table,
    say,
)
from pdn.cli.output import check_not_read, check_output_folder, fail, json_line, written
from pdn.read.files import STDIN_NAME, shown_name
from pdn.rules.variants import Notation


def _summary_rows(
    summary: Summary, candidates: bool, warnings_shown: bool
) -> Iterator[tuple[str, object]]:
    yield from (
        ("games", summary.games),
        ("valid", summary.valid),
        ("invalid", summary.invalid),
        ("syntax errors", summary.syntax_errors),
    )
    hint = summary.warnings and not warnings_shown
    yield "warnings", f"{summary.warnings} (--warnings lists them)" if hint else summary.warnings
    if candidates:
        yield "fit other variants too", summary.also_fit
    for term, n in sorted(summary.terminations.items()):
        yield f"ended: {term}", n
    for variant, n in sorted(summary.variants.items()):
        yield variant, f"{n} ({summary.invalid_by_variant[variant]} invalid)"


def validate(
    paths: Paths,
    variant: GameVariantOpt = None,
    rules: RulesOpt = Rules.COMMON,
    report: Annotated[
        Path | None, typer.Option("--report", help="Write one JSON object per game here.")
    ] = None,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    candidates: CandidatesOpt = False,
    max_game_size: MaxSizeOpt = None,
    encoding: EncodingOpt = None,
    warnings: Annotated[
        bool,
        typer.Option(
            "--warnings", help="List each warning too: file:line:column: game N: warning: ..."
        ),
    ] = False,
) -> None:
    """Replay every game: one line per problem, a summary, exit 1 if any game is invalid."""
    if report:
        check_output(report)
    summary = Summary()
    with ExitStack() as stack:
        run = stack.enter_context(
            pipeline_run("validating", paths, variant, workers, cluster, writes=[report])
        )
        sink = stack.enter_context(written(report)) if report else None
        reports = validate_paths(run.files, variant, rules, run.runner, run.progress, candidates,
                                 run.problem)  # fmt: skip
        for rep in reports:
            summary.add(rep)
            for line in rep.problems():
                say(line)
            if warnings:
                for line in rep.warning_lines():
                    say(line)
            if sink:
                sink.write(json_line(rep.as_dict()) + "\n")
    print_table(["summary", "games"], _summary_rows(summary, candidates, warnings), title="Summary")
    raise typer.Exit(0 if summary.ok and not run.problems else 1)


def annotate_command(
    paths: Paths,
    output_as_given: Annotated[
        str,
        typer.Option(
            "--output",
            "-o",
            metavar="OUT",
            help="The annotated PDN file (- is stdout), or a FOLDER/ to fill.",
        ),
    ],
    fen_every: Annotated[
        int, typer.Option(help="Add the FEN every N plies (0: never).", min=0)
    ] = 0,
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
    variant: GameVariantOpt = None,
    rules: RulesOpt = Rules.COMMON,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    max_game_size: MaxSizeOpt = None,
    encoding: EncodingOpt = None,
) -> None:
    """Write the games back with comments where something happens; their own comments kept.
    -o FOLDER/ (the slash says it): one file in it per file read, under its name."""
    output = Path(output_as_given)  # the text kept: a Path drops the slash of FOLDER/
    folder = output_as_given.endswith(("/", os.sep))
    if folder:
        check_output_folder(output)
    else:
        check_output(output)
    notes = Notes(events, fen_every, material)
    writes = [None if folder else output]
    with pipeline_run("annotating", paths, variant, workers, cluster, writes=writes) as run:
        batches = [(output, run.files)]
        if folder:
            targets = _in_folder(output, run.files)
            batches = [(t, [f]) for t, f in zip(targets, run.files, strict=True)]
            output.mkdir(exist_ok=True)
        for target, files in batches:
            with written(target) as sink:
                texts = annotate_paths(files, notes, variant, rules, run.runner, run.progress,
                                       run.problem)  # fmt: skip
                for text in texts:
                    sink.write(text)
    raise typer.Exit(1 if run.problems else 0)


def _in_folder(folder: Path, files: list[Path]) -> list[Path]:
    """Where each file's annotated games go in *folder*: under the file's name (what stdin
    brought as stdin.pdn); one line and exit 2 where two files have one name, or where one
    would be written over a file read."""
    targets: dict[Path, str] = {}
    for path in files:
        name = shown_name(path)
        target = folder / ("stdin.pdn" if name == STDIN_NAME else Path(name).name)
        if target in targets:
            fail(f"{targets[target]} and {name} would both be written to {target}: "
                 "annotate them into separate folders")  # fmt: skip
        targets[target] = name
    for target in targets:
        check_not_read(target, files)
    return list(targets)


def convert(
    paths: Paths,
    output: OutputOpt = None,
    to: Annotated[
        Target, typer.Option("--to", help="pdn, json (a line per game) or csv (a row per move).")
    ] = Target.PDN,
    squares: Annotated[
        Notation | None, typer.Option(help="numeric or algebraic (default: the variant's own).")
    ] = None,
    captures: Annotated[
        Captures,
        typer.Option(
            help="short (PDN 3.0), long (PDN 3.0 long form) or full (every landing square)."
        ),
    ] = Captures.SHORT,
    separator: Annotated[
        Separator | None, typer.Option(help="Capture separator (default: the variant's own).")
    ] = None,
    result_style: Annotated[
        ResultStyle | None,
        typer.Option(help="international (2-0, 1-1, 0-2) or default (1-0, 1/2-1/2, 0-1)."),
    ] = None,
    gametype: Annotated[
        GameTypeForm, typer.Option(help="GameType tag: short (20) or long.")
    ] = GameTypeForm.SHORT,
    variant: GameVariantOpt = None,
    rules: RulesOpt = Rules.COMMON,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    max_game_size: MaxSizeOpt = None,
    encoding: EncodingOpt = None,
    drop_duplicates: Annotated[
        Same | None,
        typer.Option(
            help="copies: leave out a game read before (same headers, variant, start, moves); "
            "moves: leave out a game whose moves were read before."
        ),
    ] = None,
) -> None:
    """Replay each game and write it normalised; a game that does not replay is kept as read."""
    if output:
        check_output(output)
    style = Style(squares, captures, separator, result_style, gametype)
    kept = dropped = 0
    newline = "" if to is Target.CSV else None
    with (
        pipeline_run("converting", paths, variant, workers, cluster, writes=[output]) as run,
        written(output, newline) as sink,
    ):
        pieces = convert_paths(run.files, to, style, variant, rules, run.runner, run.progress,
                               run.problem, drop_duplicates)  # fmt: skip
        for piece, warning in pieces:
            if piece is None:
                dropped += 1
            else:
                sink.write(piece)
                kept += warning is not None
            if warning:
                say(warning, err=True)
    if kept:
        say(f"{kept} games kept as written", err=True)
    if dropped:
        say(f"{dropped} duplicates dropped", err=True)
    raise typer.Exit(1 if run.problems else 0)
