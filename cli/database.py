"""Commands that ask a game database (or read files into one): query, explore, duplicates,
report."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer
from sqlalchemy import Engine

from pdn.archive.identity import Same
from pdn.archive.openings import OpeningNames
from pdn.cli.asking import asking, print_frame
from pdn.cli.common import (
    DbOpt,
    EncodingOpt,
    FenOpt,
    FrameFormat,
    FrameFormatOpt,
    GameVariantOpt,
    OutputOpt,
    QueryFormat,
    TopOpt,
    VariantOpt,
    check_inputs,
    check_output,
    fail,
    say,
    variant_named,
)
from pdn.cli.connect import import_into, open_db
from pdn.cli.openings import OpeningsOpt, load_openings
from pdn.cli.output import written
from pdn.cli.selection import (
    EVERY,
    AliasesOpt,
    EventOpt,
    PlayerOpt,
    ResultOpt,
    Selection,
    load_aliases,
    selection_options,
)
from pdn.db.connection import DEFAULT_DB, masked
from pdn.db.duplicates import database_duplicates, file_duplicates
from pdn.db.questions import (
    GameFilter,
    count_games,
    find_games,
    game_texts,
    position_digest,
)
from pdn.db.questions import explore as explore_position
from pdn.db.report import html_report


@selection_options
def query(
    db: DbOpt = DEFAULT_DB,
    selection: Selection = EVERY,
    distinct_moves: Annotated[
        bool,
        typer.Option("--distinct-moves", help="Of games with the same moves, only the first."),
    ] = False,
    count: Annotated[bool, typer.Option("--count", help="Only count the games.")] = False,
    limit: Annotated[int, typer.Option(help="At most this many games (0: all).")] = 100,
    fmt: Annotated[
        QueryFormat | None,
        typer.Option("--format", "-f", help="table, tsv, csv, json, parquet or pdn."),
    ] = None,
    output: OutputOpt = None,
) -> None:
    """The games that match; --format pdn exports them as a PDN archive, exactly as read. Every
    criterion selects as in pdn filter: text filters match any part of the value, case aside,
    every character as typed; with * the value must match the whole pattern (--white "Wyl*":
    White starts with Wyl); after = the text is the whole value (--event "=Open")."""
    if count and (fmt or output):  # as pdn filter says it
        fail("--count only counts: it takes no --format or --output")
    if output:
        check_output(output)
    where = GameFilter(**selection.criteria(), distinct_moves=distinct_moves)  # type: ignore[arg-type]
    engine = open_db(db)
    if count:
        with asking(db, engine):
            say(str(count_games(engine, where)))
        return
    with asking(db, engine):
        frame = find_games(engine, where, limit or None)
        pdn = fmt is QueryFormat.PDN
        texts = game_texts(engine, [int(i) for i in frame["id"]]) if pdn else []
    if pdn:
        with written(output) as sink:
            sink.write("\n\n".join(t.strip() for t in texts) + ("\n" if texts else ""))
        if not texts:
            say("no games match", err=True)
        return
    table = fmt in (None, QueryFormat.TABLE)
    shown = frame.drop(columns="id") if table else frame
    print_frame(shown, FrameFormat(fmt) if fmt else None, output, "games", heading="file")


def explore(
    variant: VariantOpt,
    db: DbOpt = DEFAULT_DB,
    moves: Annotated[str | None, typer.Option(help='Moves from the start ("32-28 19-23").')] = None,
    fen: FenOpt = None,
    result: ResultOpt = None,
    player: PlayerOpt = None,
    event: EventOpt = None,
    year_from: Annotated[
        int | None, typer.Option(help="Games whose Date tag's year is this or later.")
    ] = None,
    year_to: Annotated[int | None, typer.Option(help="... this or earlier.")] = None,
    aliases: AliasesOpt = None,
    top: TopOpt = None,
    openings: OpeningsOpt = None,
    fmt: FrameFormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """The moves played from a position (transpositions too): games, White wins, draws, Black
    wins, no result; White's score and the draw rate over the games with a result; the name of
    the opening each move leads to. --player, --event, --year-from/--year-to select the games
    as query's --player, --event, --date-from/--date-to do."""
    names = load_openings(openings)
    where = GameFilter(player=player, event=event, date_from=year_from, date_to=year_to,
                       aliases=load_aliases(aliases))  # fmt: skip
    engine = open_db(db)
    with asking(db, engine):
        frame = explore_position(engine, variant, moves, fen, result, top, names, where)
        named = names.name(position_digest(variant, moves, fen))
    print_frame(frame, fmt, output, f"moves played from {named}" if named else "moves played")


def _is_database(sources: list[str]) -> bool:
    """Whether the one source is a database: a URL, a .db or .sqlite name, or a file that
    starts as every SQLite database does (a database named otherwise was read as PDN, which
    found no game in it)."""
    first = sources[0]
    if len(sources) != 1:
        return False
    if "://" in first or first.endswith((".db", ".sqlite")):
        return True
    try:
        with open(first, "rb") as fh:
            return fh.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    except OSError:  # a folder, or no such file: the reader says so
        return False


SQLITE_HEADER = b"SQLite format 3\x00"  # the first 16 bytes of an SQLite database file
SOURCES_HELP = "A database (a URL, or an SQLite file of any name), or PDN files and folders."


def duplicates(
    sources: Annotated[list[str], typer.Argument(help=SOURCES_HELP)],
    by: Annotated[
        Same,
        typer.Option(
            help="copies: the same game (headers, variant, start, moves) read more than once; "
            "moves: games with the same moves, whatever their headers (copies among them)."
        ),
    ] = Same.COPIES,
    variant: GameVariantOpt = None,
    encoding: EncodingOpt = None,
    fmt: FrameFormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """Groups of duplicates, each game named by file, index and line: in a database, or in
    files (every game replayed)."""
    if _is_database(sources):
        engine = open_db(sources[0])
        with asking(sources[0], engine):
            frame = database_duplicates(engine, by)
    else:
        check_inputs([Path(s) for s in sources])
        if variant:
            variant_named(variant)
        try:
            frame = file_duplicates([Path(s) for s in sources], by, variant)
        except OSError as exc:
            fail(str(exc), 1)
    print_frame(frame, fmt, output, f"duplicates by {by.value}", heading="file")
    groups = int(frame["group"].max()) if len(frame) else 0
    say(f"{groups} groups, {len(frame)} games", err=True)


def report(
    sources: Annotated[list[str], typer.Argument(help=SOURCES_HELP)],
    output: Annotated[Path, typer.Option("--output", "-o", help="The HTML file.")],
    openings: OpeningsOpt = None,
) -> None:
    """One self-contained HTML page about an archive: counts, results and draw rates, openings
    with their names, a diagram."""
    check_output(output)
    names = load_openings(openings)
    if _is_database(sources):
        engine = open_db(sources[0])
        _write_report(engine, sources[0], f"Archive report: {masked(sources[0])}", output, names)
        return
    with tempfile.TemporaryDirectory() as tmp:
        check_inputs([Path(s) for s in sources])
        db = str(Path(tmp) / "report.db")
        stats, problems = import_into(db, [Path(s) for s in sources])
        if not stats.games:  # nothing to report on: no page (the files told of above)
            raise typer.Exit(1)
        engine = open_db(db)
        _write_report(engine, db, f"Archive report: {', '.join(sources)}", output, names)
        engine.dispose()
    if problems:
        raise typer.Exit(1)


def _write_report(engine: Engine, db: str, title: str, output: Path, names: OpeningNames) -> None:
    with asking(db, engine):
        page = html_report(engine, title, names)
    with written(output) as sink:
        sink.write(page)
    say(f"wrote {output}", err=True)
