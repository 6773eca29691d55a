"""`pdn stats event`: an event's standings and crosstable, from files or the database."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Annotated

import typer

from pdn.archive.standings import EventChoice, Standings, event_games, points_text, standings
from pdn.cli.common import FormatOpt, GameVariantOpt, OutputOpt, fail, print_table, say
from pdn.cli.output import Format


def _rows(table: Standings, text: bool) -> Iterator[list[object]]:
    """The rows: points written 10½ in a table, as numbers (10.5) in the other formats."""

    def shown(v: float | str) -> object:
        return points_text(v) if text and isinstance(v, float) else v

    for e, cross in zip(table.entries, table.crosstable(), strict=True):
        points = (e.points, e.sonneborn_berger, e.head_to_head, *cross)
        yield [e.rank, e.player, e.games, e.wins, e.draws, e.losses, *map(shown, points)]


COLUMNS = ["rank", "player", "games", "wins", "draws", "losses", "points", "Sonneborn-Berger",
           "head to head"]  # fmt: skip


def stats_event(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(
            help="PDN files or folders (else --db).", show_default=False, metavar="PATH"
        ),
    ] = None,
    db: Annotated[
        str | None, typer.Option("--db", help="SQLite file, or PostgreSQL URL, instead of files.")
    ] = None,
    event: Annotated[str | None, typer.Option("--event", help="The Event tag.")] = None,
    site: Annotated[str | None, typer.Option("--site", help="The Site tag.")] = None,
    year: Annotated[int | None, typer.Option("--year", help="The year of the Date tag.")] = None,
    variant: GameVariantOpt = None,
    fmt: FormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """Standings and crosstable of an event: points (2-1-0 where its results are written 2-0,
    else 1-½-0), then the tie-breaks Sonneborn-Berger, head to head and wins; one column per
    opponent by rank."""
    if (db is None) == (not paths):
        fail("give the event's files, or --db")
    if event is None and site is None and year is None:
        fail("say which event: --event NAME, --site NAME or --year YEAR")
    choice = EventChoice(event, site, year)
    if db is not None:
        from pdn.cli.connect import open_db
        from pdn.db.standings import stored_event_games

        games = stored_event_games(open_db(db), choice)
    else:
        from pdn.cli.common import pipeline_run

        with pipeline_run("reading", paths or [], variant, bar=False) as run:
            games = event_games(run.files, choice, variant, run.runner, on_problem=run.problem)
    if not games:
        fail("no game of that event", 1)
    table = standings(games)
    columns = [*COLUMNS, *(str(e.rank) for e in table.entries)]
    scoring = f"{points_text(table.win)}-{points_text(table.draw)}-0"
    text = fmt is Format.TABLE or (fmt is None and output is None and sys.stdout.isatty())
    print_table(columns, _rows(table, text), fmt, output, title=f"Standings ({scoring})")
    if table.unfinished:
        say(f"{table.unfinished} games without a result not counted", err=True)
