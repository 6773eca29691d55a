"""`pdn players`: player names written in several ways that look like one person."""

from __future__ import annotations

import csv
from pathlib import Path
from typing import Annotated

import typer

from pdn.cli.asking import asking, print_frame
from pdn.cli.common import (
    DbOpt,
    EncodingOpt,
    FrameFormatOpt,
    OutputOpt,
    check_inputs,
    check_output,
    say,
)
from pdn.cli.connect import open_db
from pdn.cli.output import written
from pdn.game import Game
from pdn.read.files import FileProblem


def _players(game: Game, _replay: object) -> tuple[str | None, str | None]:
    return game.white, game.black


def players_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="PDN files or folders (tags only are read); none: the database."),
    ] = None,
    db: DbOpt = "draughts.db",
    encoding: EncodingOpt = None,  # set by its callback for every file read
    every: Annotated[
        bool, typer.Option("--all", help="Every name, also those that look like no other.")
    ] = False,
    write_aliases: Annotated[
        Path | None,
        typer.Option(help="Write an alias file (alias,name) of the groups shown, to edit."),
    ] = None,
    fmt: FrameFormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """Player names written in several ways that look like one person ("Sijbrands, Ton",
    "T. Sijbrands", "Sijbrands,T."), with their games: a start for an alias file."""
    import pandas as pd

    from pdn.archive.players import alias_rows, group_names, player_counts

    if write_aliases is not None:
        check_output(write_aliases)
    unread: list[FileProblem] = []  # files not read, or without games: told, exit 1
    if paths:
        from pdn.archive.pipeline import Options, replay_paths

        check_inputs(paths)
        counts = player_counts(
            replay_paths(paths, _players, Options(replay=False), on_problem=unread.append)
        )
        for problem in unread:
            say(str(problem), err=True)
    else:
        from pdn.db.players import player_names

        engine = open_db(db)
        with asking(db, engine):
            counts = player_names(engine)
    groups = [g for g in group_names(counts) if every or len(g.variants) > 1]
    rows = [(g.name, name, n) for g in groups for name, n in g.variants]
    frame = pd.DataFrame(rows, columns=["player", "written", "games"])
    if write_aliases is not None:
        with written(write_aliases, newline="") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(["alias", "name"])
            writer.writerows(alias_rows(groups, every))
    print_frame(frame, fmt, output, "names that look like one player")
    raise typer.Exit(1 if unread else 0)
