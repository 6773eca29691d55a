"""`pdn stats`: openings, draws and players of a game database, and how they score."""

from __future__ import annotations

from typing import Annotated

import typer

from pdn.cli.asking import asking, print_frame
from pdn.cli.common import DbOpt, FrameFormatOpt, OutputOpt, TopOpt, fail
from pdn.cli.connect import open_db
from pdn.cli.openings import OpeningsOpt, load_openings
from pdn.cli.selection import AliasesOpt, ResultOpt, load_aliases
from pdn.db.connection import DEFAULT_DB
from pdn.db.questions import DRAW_GROUPS, OPENING_STATS_PLIES, draw_stats, opening_stats


def stats_openings(
    db: DbOpt = DEFAULT_DB,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Only this variant.")
    ] = None,
    plies: Annotated[
        int | None,
        typer.Option(help=f"Openings by their first N plies (default {OPENING_STATS_PLIES})."),
    ] = None,
    min_games: Annotated[int, typer.Option(help="Openings played at least this often.")] = 1,
    ballots: Annotated[
        bool, typer.Option("--ballots", help="English: by three-move ballot.")
    ] = False,
    result: ResultOpt = None,
    top: TopOpt = None,
    openings: OpeningsOpt = None,
    fmt: FrameFormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """Openings: their name, games, White wins, draws, Black wins, no result; White's score and
    the draw rate over the games with a result."""
    if ballots and plies is not None:  # (it was read as 3 in silence)
        fail("--ballots groups by the three-move ballot: it takes no --plies")
    names = load_openings(openings)
    engine = open_db(db)
    with asking(db, engine):
        shown = OPENING_STATS_PLIES if plies is None else plies
        frame = opening_stats(engine, variant, shown, min_games, ballots, result, top, names)
    print_frame(frame, fmt, output, "openings")


def stats_draws(
    db: DbOpt = DEFAULT_DB,
    by: Annotated[str, typer.Option(help=f"Group by: {', '.join(DRAW_GROUPS)}.")] = "variant",
    result: ResultOpt = None,
    top: TopOpt = None,
    aliases: AliasesOpt = None,
    fmt: FrameFormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """Draw rates (over the games with a result) and how the draws came about: moves rule,
    repetition, agreement; --by player under the names of an alias file."""
    names = load_aliases(aliases)
    engine = open_db(db)
    with asking(db, engine):
        frame = draw_stats(engine, by, result, top, names)
    print_frame(frame, fmt, output, f"draws by {by}")


def stats_players(
    db: DbOpt = "draughts.db",
    aliases: AliasesOpt = None,
    player: Annotated[str | None, typer.Option(help="Players whose name contains this.")] = None,
    vs: Annotated[
        str | None, typer.Option("--vs", help="Only the games against this opponent.")
    ] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Only this variant.")
    ] = None,
    result: ResultOpt = None,
    min_games: Annotated[int, typer.Option(help="Players with at least this many games.")] = 1,
    top: TopOpt = None,
    accuracy: Annotated[
        bool,
        typer.Option(
            "--accuracy",
            help="Instead: average loss and marks per player, with "
            "White and with Black, from the stored analysis (pdn analyse --db).",
        ),
    ] = False,
    analysed_by: Annotated[
        str | None,
        typer.Option(help="With --accuracy: the analysis whose engine and limit contain this."),
    ] = None,
    fmt: FrameFormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """Players: games, won, drawn and lost with White and with Black, games without a result,
    score and draw rate (over the games with a result); --vs for a head-to-head record."""
    from pdn.db.players import player_stats

    names = load_aliases(aliases)
    engine = open_db(db)
    if accuracy:
        if vs or variant or result:
            fail("--accuracy takes --player, --aliases, --min-games and --top")
        from pdn.db.analysis import AnalysisQuestionError, player_accuracy

        with asking(db, engine):
            try:
                frame = player_accuracy(engine, names, player, analysed_by, min_games, top)
            except AnalysisQuestionError as exc:
                fail(str(exc))
        print_frame(frame, fmt, output, "accuracy")
        return
    with asking(db, engine):
        frame = player_stats(engine, names, player, vs, variant, result, min_games, top)
    print_frame(frame, fmt, output, "players")
