"""Commands that ask a game database: query, explore, statistics, duplicates, report."""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Annotated

import pandas as pd
import typer
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from pdn.archive.identity import Same
from pdn.archive.openings import OpeningNames, OpeningsError, opening_names
from pdn.cli.common import (
    DbOpt,
    EncodingOpt,
    FenOpt,
    FrameFormat,
    FrameFormatOpt,
    GameVariantOpt,
    OutputOpt,
    QueryFormat,
    VariantOpt,
    check_inputs,
    check_output,
    fail,
    print_table,
    say,
    variant_named,
)
from pdn.cli.connect import db_reason, open_db
from pdn.cli.output import Format, written, written_path
from pdn.cli.search import (
    AliasesOpt,
    BlackOpt,
    DateFromOpt,
    DateToOpt,
    EventOpt,
    FenPositionOpt,
    MaterialOpt,
    MaterialPliesOpt,
    MovesOpt,
    PatternOpt,
    PlayerOpt,
    PliesMaxOpt,
    PliesMinOpt,
    ResultOpt,
    SelectVariantOpt,
    SiteOpt,
    TerminationOpt,
    ValidOpt,
    WhiteOpt,
    criteria,
    load_aliases,
    unreadable,
)
from pdn.db.connection import (
    DEFAULT_DB,
    REBUILD,
    damage,
    masked,
)
from pdn.db.duplicates import database_duplicates, file_duplicates
from pdn.db.questions import (
    DRAW_GROUPS,
    GameFilter,
    QuestionError,
    count_games,
    draw_stats,
    find_games,
    game_texts,
    opening_stats,
    position_digest,
)
from pdn.db.questions import explore as explore_position
from pdn.db.report import html_report
from pdn.db.store import import_paths
from pdn.rules.fen import FenError
from pdn.rules.variants import UnknownVariantError

OpeningsOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--openings",
        help="A CSV of opening names (variant,moves,name), besides the shipped English "
        "three-move ballots; may be given more than once.",
    ),
]


def load_openings(files: list[Path] | None) -> OpeningNames:
    """The shipped opening names with the user's files, or a one-line usage error."""
    try:
        return opening_names(files or [])
    except OSError as exc:
        fail(unreadable(exc))
    except OpeningsError as exc:
        fail(str(exc))


TopOpt = Annotated[int | None, typer.Option("--top", help="Only the N rows with most games.")]


@contextmanager
def _asking(db: str, engine: Engine) -> Iterator[None]:
    """Questions to the database: a user's mistake is one line and exit 2; a database error
    one line (saying so when the file is damaged) and exit 1."""
    try:
        yield
    except (QuestionError, UnknownVariantError, FenError) as exc:
        fail(str(exc))
    except (SQLAlchemyError, pd.errors.DatabaseError) as exc:
        found = damage(engine)
        if found:
            fail(f"{masked(db)}: the database file is damaged ({found}); {REBUILD}", 1)
        wrapped = exc.__cause__ if isinstance(exc, pd.errors.DatabaseError) else None
        fail(f"{masked(db)}: {db_reason(wrapped or exc, db)}", 1)  # pandas wraps the error


def _emit(frame: pd.DataFrame, fmt: FrameFormat | None, output: Path | None, title: str) -> None:
    """Print a frame as a table (see :func:`print_table`), or write it as Parquet."""
    if output:
        check_output(output)
    if frame.empty:
        say(f"{title}: nothing found", err=True)
    if fmt is FrameFormat.PARQUET:
        if output is None:
            fail("--format parquet needs --output FILE")
        try:
            with written_path(output) as part:
                frame.to_parquet(part, index=False)
        except ImportError:
            fail("--format parquet needs pyarrow: pip install 'pdn-toolkit[parquet]'")
        return
    rows = frame.itertuples(index=False, name=None)
    print_table([str(c) for c in frame.columns], rows, Format(fmt) if fmt else None, output, title)


def query(
    db: DbOpt = DEFAULT_DB,
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
    White starts with Wyl)."""
    if output:
        check_output(output)
    where = GameFilter(
        **criteria(  # type: ignore[arg-type]
            white=white, black=black, player=player, event=event, site=site, variant=variant,
            result=result, date_from=date_from, date_to=date_to, plies_min=plies_min,
            plies_max=plies_max, valid=valid, termination=termination, moves=moves, fen=fen,
            material=material, material_plies=material_plies, pattern=pattern, aliases=aliases,
        ),
        distinct_moves=distinct_moves,
    )  # fmt: skip
    engine = open_db(db)
    if count:
        with _asking(db, engine):
            say(str(count_games(engine, where)))
        return
    with _asking(db, engine):
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
    _emit(frame.drop(columns="id") if table else frame, FrameFormat(fmt) if fmt else None,
          output, "games")  # fmt: skip


def explore(
    variant: VariantOpt,
    db: DbOpt = DEFAULT_DB,
    moves: Annotated[str | None, typer.Option(help='Moves from the start ("32-28 19-23").')] = None,
    fen: FenOpt = None,
    result: ResultOpt = None,
    top: TopOpt = None,
    openings: OpeningsOpt = None,
    fmt: FrameFormatOpt = None,
    output: OutputOpt = None,
) -> None:
    """The moves played from a position (transpositions too): games, White wins, draws, Black
    wins, no result; White's score and the draw rate over the games with a result; the name of
    the opening each move leads to."""
    names = load_openings(openings)
    engine = open_db(db)
    with _asking(db, engine):
        frame = explore_position(engine, variant, moves, fen, result, top, names)
        named = names.name(position_digest(variant, moves, fen))
    _emit(frame, fmt, output, f"moves played from {named}" if named else "moves played")


def stats_openings(
    db: DbOpt = DEFAULT_DB,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Only this variant.")
    ] = None,
    plies: Annotated[int, typer.Option(help="Openings by their first N plies.")] = 6,
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
    names = load_openings(openings)
    engine = open_db(db)
    with _asking(db, engine):
        frame = opening_stats(engine, variant, plies, min_games, ballots, result, top, names)
    _emit(frame, fmt, output, "openings")


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
    with _asking(db, engine):
        frame = draw_stats(engine, by, result, top, names)
    _emit(frame, fmt, output, f"draws by {by}")


def _is_database(sources: list[str]) -> bool:
    first = sources[0]
    return len(sources) == 1 and ("://" in first or first.endswith((".db", ".sqlite")))


def duplicates(
    sources: Annotated[
        list[str], typer.Argument(help="A database (file.db or URL), or PDN files and folders.")
    ],
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
        with _asking(sources[0], engine):
            frame = database_duplicates(engine, by)
    else:
        check_inputs([Path(s) for s in sources])
        if variant:
            variant_named(variant)
        try:
            frame = file_duplicates([Path(s) for s in sources], by, variant)
        except OSError as exc:
            fail(str(exc), 1)
    _emit(frame, fmt, output, f"duplicates by {by.value}")
    groups = int(frame["group"].max()) if len(frame) else 0
    say(f"{groups} groups, {len(frame)} games", err=True)


def report(
    sources: Annotated[
        list[str], typer.Argument(help="A database (file.db or URL), or PDN files and folders.")
    ],
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
        engine = open_db(db, create=True)
        import_paths(engine, [Path(s) for s in sources])
        _write_report(engine, db, f"Archive report: {', '.join(sources)}", output, names)
        engine.dispose()


def _write_report(engine: Engine, db: str, title: str, output: Path, names: OpeningNames) -> None:
    with _asking(db, engine):
        page = html_report(engine, title, names)
    with written(output) as sink:
        sink.write(page)
    say(f"wrote {output}", err=True)
