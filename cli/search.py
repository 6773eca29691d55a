"""Finding games: `pdn filter` (files), the criteria `pdn query` shares with it, `pdn players`
and `pdn stats players`."""

from __future__ import annotations

import csv
import typing
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from pdn.archive.convert import Captures, GameTypeForm, ResultStyle, Separator, Style, Target
from pdn.archive.criteria import Criteria
from pdn.archive.identity import Same
from pdn.archive.players import AliasError, Aliases
from pdn.archive.selection import SpecError, parse_material, parse_pattern
from pdn.cli.common import (
    ClusterOpt,
    DbOpt,
    EncodingOpt,
    FrameFormatOpt,
    MaxSizeOpt,
    OutputOpt,
    Paths,
    Rules,
    RulesOpt,
    WorkersOpt,
    check_inputs,
    check_output,
    fail,
    pipeline_run,
    say,
)
from pdn.cli.output import written
from pdn.game import Game
from pdn.read.files import FileProblem
from pdn.rules.variants import Notation

if TYPE_CHECKING:
    from pdn.archive.filtering import Seen

# -- the criteria, as options shared by filter and query --------------------------------------

WhiteOpt = Annotated[
    str | None, typer.Option(help="White contains this (case aside); with * a pattern.")
]
BlackOpt = Annotated[
    str | None, typer.Option(help="Black contains this (case aside); with * a pattern.")
]
PlayerOpt = Annotated[str | None, typer.Option(help="White or Black contains this.")]
EventOpt = Annotated[str | None, typer.Option(help="Event contains this.")]
SiteOpt = Annotated[str | None, typer.Option(help="Site contains this.")]
SelectVariantOpt = Annotated[
    str | None, typer.Option("--variant", "-v", help="Games (replayed) under this variant.")
]
ResultOpt = Annotated[
    str | None,
    typer.Option(
        help="white, black, draw or unknown (no result), each game's result read for its "
        "variant (in English Black moves first and 1-0 is a Black win); first or second (the "
        "side that moves first won, or the other); or a result as written (1-0).",
    ),
]
DateFromOpt = Annotated[int | None, typer.Option(help="The Date tag's year is this or later.")]
DateToOpt = Annotated[int | None, typer.Option(help="The Date tag's year is this or earlier.")]
PliesMinOpt = Annotated[
    int | None, typer.Option(help="At least this many plies in the main line (as replayed).")
]
PliesMaxOpt = Annotated[int | None, typer.Option(help="At most this many plies.")]
ValidOpt = Annotated[
    bool | None,
    typer.Option(
        "--valid/--invalid", help="Only games whose every move is legal, or only the others."
    ),
]
TerminationOpt = Annotated[
    str | None,
    typer.Option(help="How the game ended: win, draw-repetition, draw-40-moves (or the "
                 "rules' other draws, see docs/rules.md), as-recorded."),
]  # fmt: skip
MovesOpt = Annotated[
    str | None,
    typer.Option(
        help='Games that reach the position after these moves, e.g. "32-28 19-23" (any order '
        "of them; from --fen if given); needs --variant."
    ),
]
FenPositionOpt = Annotated[
    str | None, typer.Option("--fen", help="Games that reach this position; needs --variant.")
]
MaterialOpt = Annotated[
    str | None,
    typer.Option(
        help='Men and kings per side, e.g. "W:3K1,B:1K" (White 3 men and a king, Black a '
        "king); counts as 2, 2-4, 2+ or *; a side not given: any."
    ),
]
MaterialPliesOpt = Annotated[
    int, typer.Option(help="The material stands in this many positions in a row.", min=1)
]
PatternOpt = Annotated[
    str | None,
    typer.Option(
        help='Squares that hold these pieces, the rest any: "W:W28,K45:B12:E23" (White to '
        "move, white man on 28, king on 45, black man on 12, 23 empty; *12 man or king)."
    ),
]
AliasesOpt = Annotated[
    Path | None,
    typer.Option(help="Alias file (CSV: alias,name): players matched under these names."),
]


def unreadable(exc: OSError) -> str:
    """A file that cannot be read, in one line."""
    return f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc)


def load_aliases(path: Path | None) -> Aliases | None:
    """The alias file, or a one-line usage error."""
    if path is None:
        return None
    try:
        return Aliases.load(path)
    except OSError as exc:
        fail(unreadable(exc))
    except AliasError as exc:
        fail(str(exc))


def criteria(
    *,
    white: str | None = None,
    black: str | None = None,
    player: str | None = None,
    event: str | None = None,
    site: str | None = None,
    variant: str | None = None,
    result: str | None = None,
    date_from: int | None = None,
    date_to: int | None = None,
    plies_min: int | None = None,
    plies_max: int | None = None,
    valid: bool | None = None,
    termination: str | None = None,
    moves: str | None = None,
    fen: str | None = None,
    material: str | None = None,
    material_plies: int = 1,
    pattern: str | None = None,
    aliases: Path | None = None,
) -> dict[str, object]:
    """The criteria given on the command line as Criteria fields, specs read and checked (a
    mistake is one line and exit 2)."""
    try:
        fields: dict[str, object] = dict(
            white=white, black=black, player=player, event=event, site=site, variant=variant,
            result=result, date_from=date_from, date_to=date_to, plies_min=plies_min,
            plies_max=plies_max, valid=valid, termination=termination, moves=moves, fen=fen,
            material=parse_material(material) if material else None,
            material_plies=material_plies,
            pattern=parse_pattern(pattern) if pattern else None,
            aliases=load_aliases(aliases),
        )  # fmt: skip
        Criteria(**fields).check()  # type: ignore[arg-type]
    except (SpecError, ValueError) as exc:
        fail(str(exc))
    return fields


# -- pdn filter ------------------------------------------------------------------------------


def filter_command(
    paths: Paths,
    white: WhiteOpt = None,
    black: BlackOpt = None,
    player: PlayerOpt = None,
    event: EventOpt = None,
    site: SiteOpt = None,
    variant: SelectVariantOpt = None,
    result: ResultOpt = None,
    date_from: DateFromOpt = None,
    date_to: DateToOpt = None,
    plies_min: PliesMinOpt = None,
    plies_max: PliesMaxOpt = None,
    valid: ValidOpt = None,
    termination: TerminationOpt = None,
    moves: MovesOpt = None,
    fen: FenPositionOpt = None,
    material: MaterialOpt = None,
    material_plies: MaterialPliesOpt = 1,
    pattern: PatternOpt = None,
    aliases: AliasesOpt = None,
    encoding: EncodingOpt = None,
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
        typer.Option(help="Write the games converted: pdn, json or csv (as pdn convert)."),
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
) -> None:
    """The games of PDN files that match, written as they were read (or converted with --to),
    or counted; every criterion as in pdn query."""
    from pdn.archive.filtering import Output, filter_paths

    chosen = Criteria(**criteria(  # type: ignore[arg-type]
        white=white, black=black, player=player, event=event, site=site, variant=variant,
        result=result, date_from=date_from, date_to=date_to, plies_min=plies_min,
        plies_max=plies_max, valid=valid, termination=termination, moves=moves, fen=fen,
        material=material, material_plies=material_plies, pattern=pattern, aliases=aliases,
    ))  # fmt: skip
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
    with pipeline_run("filtering", paths, replay_as, workers, cluster) as run:
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


# -- players ---------------------------------------------------------------------------------


def _players(game: Game, _replay: object) -> tuple[str | None, str | None]:
    return game.white, game.black


def players_command(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="PDN files or folders (tags only are read); none: the database."),
    ] = None,
    db: DbOpt = "draughts.db",
    encoding: EncodingOpt = None,
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
        from pdn.cli.connect import open_db
        from pdn.cli.database import _asking
        from pdn.db.players import player_names

        engine = open_db(db)
        with _asking(db, engine):
            counts = player_names(engine)
    groups = [g for g in group_names(counts) if every or len(g.variants) > 1]
    rows = [(g.name, name, n) for g in groups for name, n in g.variants]
    frame = pd.DataFrame(rows, columns=["player", "written", "games"])
    if write_aliases is not None:
        with written(write_aliases, newline="") as fh:
            writer = csv.writer(fh, lineterminator="\n")
            writer.writerow(["alias", "name"])
            writer.writerows(alias_rows(groups, every))
    from pdn.cli.database import _emit

    _emit(frame, fmt, output, "names that look like one player")
    raise typer.Exit(1 if unread else 0)


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
    top: Annotated[int | None, typer.Option("--top", help="Only the N with most games.")] = None,
    fmt: FrameFormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """Players: games, won, drawn and lost with White and with Black, games without a result,
    score and draw rate (over the games with a result); --vs for a head-to-head record."""
    from pdn.cli.connect import open_db
    from pdn.cli.database import _asking, _emit
    from pdn.db.players import player_stats

    names = load_aliases(aliases)
    engine = open_db(db)
    with _asking(db, engine):
        frame = player_stats(engine, names, player, vs, variant, result, min_games, top)
    _emit(frame, fmt, output, "players")
