"""`pdn filter`: the games of PDN files that meet criteria, written, converted or counted."""

from __future__ import annotations

import csv
import typing
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.archive.convert import Captures, GameTypeForm, ResultStyle, Separator, Style, Target
from pdn.archive.criteria import Criteria
from pdn.archive.identity import Same
from pdn.cli.common import (
    ClusterOpt,
    EncodingOpt,
    MaxSizeOpt,
    OutputOpt,
    Paths,
    Rules,
    RulesOpt,
    WorkersOpt,
    check_output,
    fail,
    pipeline_run,
    say,
)
from pdn.cli.output import written
from pdn.cli.selection import EVERY, Selection, selection_options
from pdn.rules.variants import Notation

if TYPE_CHECKING:
    from pdn.archive.filtering import Seen


@selection_options
def filter_command(
    paths: Paths,
    selection: Selection = EVERY,
    count: Annotated[bool, typer.Option("--count", help="Only count the games.")] = False,
    drop_duplicates: Annotated[
        Same | None,
        typer.Option(
            help="copies: a copy of a game read before is left out (before the criteria, as "
            "a database stores a game once); moves: of the games chosen with the same moves, "
            "only the first too (as query --distinct-moves)."
        ),
    ] = None,
    to: Annotated[
        Target | None,
        typer.Option(
            "--to",
            "--format",
            "-f",
            help="Write the games converted: pdn, json or csv (as pdn convert).",
        ),
    ] = None,
    squares: Annotated[
        Notation | None, typer.Option(help="With --to: numeric or algebraic squares.")
    ] = None,
    captures: Annotated[
        Captures | None, typer.Option(help="With --to: short, long or full captures.")
    ] = None,
    separator: Annotated[Separator | None, typer.Option(help="With --to: x or ':'.")] = None,
    result_style: Annotated[
        ResultStyle | None, typer.Option(help="With --to: international or default results.")
    ] = None,
    gametype: Annotated[
        GameTypeForm | None, typer.Option(help="With --to: the GameType tag short or long.")
    ] = None,
    output: OutputOpt = None,
    replay_as: Annotated[
        str | None,
        typer.Option(help="Replay games without a GameType tag as this variant (import -v)."),
    ] = None,
    rules: RulesOpt = Rules.COMMON,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    max_game_size: MaxSizeOpt = None,
    encoding: EncodingOpt = None,  # set by its callback for every file read
) -> None:
    """The games of PDN files that match, written as they were read (or converted with --to),
    or counted; every criterion as in pdn query."""
    from pdn.archive.filtering import Output, filter_paths

    chosen = Criteria(**selection.criteria())  # type: ignore[arg-type]
    styled = any(o is not None for o in (squares, captures, separator, result_style, gametype))
    if styled and to is None:
        fail("--squares, --captures, --separator, --result-style and --gametype go with --to")
    if count and (to or output):
        fail("--count only counts: it takes no --to or --output")
    if output:
        check_output(output)
    style = Style(squares, captures or Captures.SHORT, separator, result_style,
                  gametype or GameTypeForm.SHORT)  # fmt: skip
    writing = None if to is None else Output(to, style)
    n = kept = 0
    with pipeline_run("filtering", paths, replay_as, workers, cluster, writes=[output]) as run:
        found = filter_paths(run.files, chosen, drop_duplicates, writing, replay_as, rules,
                             run.runner, run.progress, run.problem)  # fmt: skip
        if count:
            n = sum(1 for _ in found)
        else:
            with written(output, "" if to is Target.CSV else None) as sink:
                for seen in found:
                    n += 1
                    kept += seen.kept
                    _write(sink, seen, n, to)
    if count:
        say(str(n))
    else:
        say(f"{n} game{'' if n == 1 else 's'}", err=True)
    if kept:
        say(f"{kept} of them kept as written (they do not replay)", err=True)
    raise typer.Exit(1 if run.problems else 0)


def _write(sink: typing.TextIO, seen: Seen, n: int, to: Target | None) -> None:
    """One selected game, the *n*-th: a blank line between PDN games, a header before CSV."""
    if to is Target.CSV and n == 1:
        from pdn.archive.convert import CSV_COLUMNS

        csv.writer(sink, lineterminator="\n").writerow(CSV_COLUMNS)
    sink.write(("\n" if n > 1 and to in (None, Target.PDN) else "") + seen.text)
