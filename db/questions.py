"""Questions asked of the database, each answered as a pandas DataFrame.

Every user value reaches SQL as a bound parameter; grouping and counting run in the database.
Every statistics table counts games by result in the words of the board (White wins, draws,
Black wins, whatever side moves first in the variant) and games without a known result in a
column of their own; :func:`scores` adds White's score and the draw rate, both over the games
with a known result, to every one of them.
"""

from __future__ import annotations

from collections.abc import Generator, Iterator
from contextlib import closing
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any

import pandas as pd
from sqlalchemy import (
    ColumnElement,
    Connection,
    Engine,
    Exists,
    FromClause,
    Integer,
    Label,
    Row,
    Select,
    Subquery,
    Table,
    and_,
    case,
    exists,
    func,
    literal_column,
    or_,
    select,
)
from sqlalchemy.sql.elements import SQLCoreOperations
from sqlalchemy.sql.util import ClauseAdapter

from pdn.archive.ballots import three_move_ballots
from pdn.archive.criteria import RESULT_WORDS, Criteria
from pdn.archive.openings import OpeningNames, OpeningsError, play_moves
from pdn.archive.players import NO_NAME, Aliases
from pdn.archive.selection import Pattern
from pdn.db.analysis import judged_conditions
from pdn.db.names import player_condition, text_condition
from pdn.db.positions import at_ply, later_digests, opening_digests, reaching
from pdn.db.schema import (
    MOVE_TALLIES,
    OPENING_PLIES_KEPT,
    OPENING_TALLIES,
    PLAYED,
    PLAYER_TALLIES,
    TALLIES,
    GameRow,
    MoveText,
    OpeningRow,
    SourceFile,
    SquaresRow,
    opening_digest,
    opening_reaches,
)
from pdn.db.search import (
    folded_variants,
    material_games,
    material_numbers,
    one_piece,
    pattern_games,
    squares_allow,
)
from pdn.db.tallies import GROUPED, OPENING_PLIES_TALLIED, explored
from pdn.db.texts import unpack_moves
from pdn.rules.draw import LABELS, OLD_LABELS, Termination, termination_label
from pdn.rules.fen import parse_fen
from pdn.rules.position import Position
from pdn.rules.variants import get_variant

NAN = float("nan")  # a name not known: missing, as pandas writes missing values


class QuestionError(ValueError):
    """A question that cannot be asked as put (bad moves, missing variant, ...)."""


def position_digest(variant: str, moves: str | None = None, fen: str | None = None) -> int:
    """The digest of the position after *moves* (from *fen* or the start) in *variant*."""
    return _line(variant, moves, fen)[-1].digest()


def _line(variant: str, moves: str | None, fen: str | None) -> list[Position]:
    """The start (*fen* or the variant's) and the position after each move."""
    v = get_variant(variant)
    start = parse_fen(fen, v) if fen else Position.start(v)
    try:
        played = play_moves(variant, moves or "", start)
    except OpeningsError as exc:
        raise QuestionError(str(exc)) from None
    return [start, *played]


@dataclass(frozen=True, slots=True)
class GameFilter(Criteria):
    """What `pdn query` selects games by: the criteria of `pdn filter` (pdn.archive.criteria, of
    which this module is the SQL twin), and of games with the same moves only the first."""

    distinct_moves: bool = False


def result_condition(result: str, of: FromClause | None = None) -> ColumnElement[bool]:
    """Games with *result*: white, black or draw (read for the side that moves first in each
    game's variant: in English 1-0 is a Black win), unknown (no result), first or second (the
    player who moves first in the variant, or the other, won), or a result as written; *of*:
    the games table, or a table of its outcome, winner and result columns (the tallies)."""
    c = (GameRow.__table__ if of is None else of).c
    word = result.strip().lower()
    if word in ("first", "second"):
        return c.outcome == word
    if word in RESULT_WORDS:
        return c.winner == word
    return c.result == result.strip()


def _played_before(cond: list[ColumnElement[bool]]) -> Exists:
    """Whether a game that meets *cond* and comes before the game at hand in import order plays
    its moves: looked up by the index on moves_hash for each game of a page, where ranking the
    games of every set reads them all (6 s on a million)."""
    before = GameRow.__table__.alias("before")
    adapt = ClauseAdapter(before)
    return exists().where(
        before.c.moves_hash == GameRow.moves_hash,
        before.c.place < GameRow.place,
        *(adapt.traverse(c) for c in cond),
    )


def _conditions(engine: Engine, f: GameFilter, paged: bool = False) -> list[ColumnElement[bool]]:
    """The conditions of *f* (all but the pattern); *paged*: written for reading a page of games
    in import order."""
    cond = []
    if f.white:
        cond.append(player_condition(engine, GameRow.white, f.white, f.aliases))
    if f.black:
        cond.append(player_condition(engine, GameRow.black, f.black, f.aliases))
    if f.player:
        cond.append(
            or_(
                player_condition(engine, GameRow.white, f.player, f.aliases),
                player_condition(engine, GameRow.black, f.player, f.aliases),
            )
        )
    if f.event:
        cond.append(text_condition(engine, GameRow.event, f.event))
    if f.site:
        cond.append(text_condition(engine, GameRow.site, f.site))
    if f.result:
        cond.append(result_condition(f.result))
    if f.date_from is not None:
        cond.append(GameRow.year >= f.date_from)
    if f.date_to is not None:
        cond.append(GameRow.year <= f.date_to)
    if f.valid is not None:
        cond.append(GameRow.valid == f.valid)
    if f.moves or f.fen:
        if not f.variant:
            raise QuestionError("--moves and --fen need --variant")
        # the position's digest names its variant: a condition on the variant as well would
        # lead the database to read every game of the variant
        reached = select(reaching(engine, position_digest(f.variant, f.moves, f.fen)).c.game)
        # for a page, "number + 0" makes SQLite read the games in import order and stop after
        # the page, instead of looking up and sorting every game that reached the position
        cond.append((GameRow.number + 0 if paged else GameRow.number).in_(reached))
    elif f.variant:
        cond.append(GameRow.variant == get_variant(f.variant).name)
    if f.plies_min is not None:
        cond.append(GameRow.plies >= f.plies_min)
    if f.plies_max is not None:
        cond.append(GameRow.plies <= f.plies_max)
    if f.termination:
        cond.append(GameRow.termination == termination_label(f.termination))
    if f.material:
        runs = material_games(engine, f.material, f.material_plies)
        cond.append(GameRow.number.in_(runs))
    cond += judged_conditions(f)
    if f.distinct_moves and paged:  # the first of its set: no game chosen before it plays them
        return [*cond, or_(GameRow.moves_hash.is_(None), ~_played_before(cond))]
    if f.distinct_moves:  # the first game of each set with the same moves, among those chosen
        rank = func.row_number().over(partition_by=GameRow.moves_hash, order_by=GameRow.place)
        chosen = select(GameRow.id, GameRow.moves_hash, rank.label("rank"))
        ranked = chosen.where(and_(True, *cond)).subquery()
        firsts = select(ranked.c.id).where(or_(ranked.c.moves_hash.is_(None), ranked.c.rank == 1))
        cond = [GameRow.id.in_(firsts)]
    return cond


def _game_columns() -> Select[*tuple[Any, ...]]:
    """The columns `pdn query` shows, over the games and the files they came from."""
    return (
        select(
            GameRow.id,
            SourceFile.path.label("file"),
            GameRow.file_index.label("index"),
            GameRow.line,
            GameRow.white,
            GameRow.black,
            GameRow.event,
            GameRow.site,
            GameRow.date,
            GameRow.result,
            GameRow.winner,
            GameRow.variant,
            GameRow.plies,
            GameRow.valid,
            GameRow.termination,
        )
        .join(SourceFile, SourceFile.id == GameRow.file_id)
        .order_by(GameRow.place)
    )


def find_games(
    engine: Engine, where: GameFilter, limit: int | None = 100, offset: int = 0
) -> pd.DataFrame:
    """The games matching *where*, in import order (after skipping *offset* of them)."""
    query = _game_columns()
    if where.pattern is not None:  # the games that reach it among those the rest selects
        found = _with_pattern(
            engine, _conditions(engine, where), where.pattern, where.variant, page=bool(limit)
        )
        with closing(found):  # its connection closed before the next is opened (SQLite: a
            # writer's connection holds the write lock, and the next would wait for it)
            page = list(islice(found, offset, offset + limit if limit else None))
        query = query.where(GameRow.id.in_(page))
    elif limit or offset:  # the page's games first (by the index on place), then their rows
        page_ids = select(GameRow.id).where(and_(True, *_conditions(engine, where, paged=True)))
        page_ids = page_ids.order_by(GameRow.place).limit(limit).offset(offset)
        query = query.where(GameRow.id.in_(page_ids))
    else:
        query = query.where(and_(True, *_conditions(engine, where)))
    with engine.connect() as conn:
        return pd.read_sql(query, conn)


def count_games(engine: Engine, where: GameFilter) -> int:
    """How many games match *where*."""
    if where == GameFilter(aliases=where.aliases):  # every game: as the tallies count them
        with engine.connect() as conn:
            return int(conn.execute(select(func.sum(TALLIES.c.games))).scalar() or 0)
    if where.material and replace(where, material=None, material_plies=1) == GameFilter(
        aliases=where.aliases
    ):  # by the material alone: from its runs
        return len(material_numbers(engine, where.material, where.material_plies))
    if where.pattern is not None:
        conditions = _conditions(engine, where)
        # one piece on one square: counted from the squares rows where they are exact (the
        # square's bit as those boards have it), and from the boards of the games of the others
        allowed = (
            squares_allow(where.pattern, where.variant, folded=False)
            if one_piece(where.pattern)
            else None
        )
        if allowed is None:
            return sum(1 for _ in _with_pattern(engine, conditions, where.pattern, where.variant))
        folded = GameRow.variant.in_(folded_variants())
        exact = (
            select(func.count())
            .select_from(GameRow)
            .join(SquaresRow, SquaresRow.game_id == GameRow.id)
        )
        with engine.connect() as conn:
            on_squares = conn.execute(exact.where(and_(True, *conditions, allowed, ~folded)))
            found = int(on_squares.scalar() or 0)
        ids = _with_pattern(engine, [*conditions, folded], where.pattern, where.variant)
        return found + sum(1 for _ in ids)
    query = select(func.count()).select_from(GameRow)
    with engine.connect() as conn:
        return int(conn.execute(query.where(and_(True, *_conditions(engine, where)))).scalar() or 0)


WALKED_FROM = 50_000  # games the squares allow from which a page walks the games in order


def _with_pattern(
    engine: Engine,
    conditions: list[ColumnElement[bool]],
    pattern: Pattern,
    variant: str | None,
    page: bool = False,
) -> Generator[int, None, None]:
    """The ids of the games that meet *conditions* (of *variant*'s games, if given) and reach
    *pattern*, in import order: the positions of the games whose squares allow it (by the
    squares table) are looked at. For a *page* (the first ids alone are read) with no other
    condition, when the squares allow many games, the games are walked in import order and
    each looked up in the squares, rather than all of them found and sorted first (a page of a
    pattern of men on a million games: 3.7 s to 0.2; with another condition the walk could
    pass over most games for a few)."""
    allowed = squares_allow(pattern, variant)
    with engine.connect() as conn:
        if allowed is not None:
            some = select(SquaresRow.game_id).where(allowed).limit(WALKED_FROM + 1).subquery()
            among = select(func.count()).select_from(some)  # counted up to WALKED_FROM + 1
            if page and not conditions and (conn.execute(among).scalar() or 0) > WALKED_FROM:
                squares: ColumnElement[bool] = exists().where(
                    SquaresRow.game_id == GameRow.id, allowed
                )
            else:
                squares = GameRow.id.in_(select(SquaresRow.game_id).where(allowed))
            conditions = [*conditions, squares]
        games = select(GameRow.id, GameRow.variant).where(and_(True, *conditions))
        streamed = conn.execution_options(stream_results=True)
        with streamed.execute(games.order_by(GameRow.place)) as rows:
            yield from pattern_games(conn, ((r[0], r[1]) for r in rows), pattern)


def game_texts(engine: Engine, ids: list[int]) -> list[str]:
    """The games' PDN text as read (their first copy), in the order of *ids*."""
    with engine.connect() as conn:
        rows = dict(conn.execute(select(GameRow.id, GameRow.pdn).where(GameRow.id.in_(ids))).all())
    return [rows[i] for i in ids if i in rows]


# -- statistics --------------------------------------------------------------------------------

COUNTS = ["games", "white_wins", "draws", "black_wins", "no_result"]
SCORES = [*COUNTS, "white_score", "draw_rate"]
DRAW_KINDS = ["by_moves_rule", "by_endgame_rule", "by_repetition", "by_agreement"]
DRAWS = ["games", "draws", "no_result", "draw_rate", *DRAW_KINDS]


ONE = literal_column("1", Integer)  # a row of the games table is one game


def _counts(winner: SQLCoreOperations[str], games: ColumnElement[int] = ONE) -> list[Label[int]]:
    """Columns games, white_wins, draws, black_wins and no_result counted in a group of rows,
    each of *games* games (a tally's count; a game's row is one)."""

    def of(cond: ColumnElement[bool]) -> ColumnElement[int]:
        return func.sum(case((cond, games), else_=0))

    return [
        func.sum(games).label("games"),
        of(winner == "white").label("white_wins"),
        of(winner == "draw").label("draws"),
        of(winner == "black").label("black_wins"),
        of(winner == "unknown").label("no_result"),
    ]


def scores(frame: pd.DataFrame) -> pd.DataFrame:
    """White's score (wins and half the draws) and the draw rate, in percent to one decimal,
    added to counted groups: both over the games with a known result, games without one apart
    (empty when no game of a group has a result). Every statistics table is made by this."""
    known = (frame["games"] - frame["no_result"]).where(lambda n: n > 0)
    frame["white_score"] = (100 * (frame["white_wins"] + frame["draws"] / 2) / known).round(1)
    frame["draw_rate"] = (100 * frame["draws"] / known).round(1)
    return frame


def _top(frame: pd.DataFrame, keys: list[str], top: int | None) -> pd.DataFrame:
    """Most games first (then by *keys*), at most *top* rows."""
    if top is not None and top < 1:
        raise QuestionError(f"--top must be 1 or more, not {top}")
    frame = frame.sort_values(["games", *keys], ascending=[False] + [True] * len(keys))
    return frame.head(top).reset_index(drop=True) if top else frame.reset_index(drop=True)


def _result_where(
    query: Select[*tuple[Any, ...]], result: str | None, of: FromClause | None = None
) -> Select[*tuple[Any, ...]]:
    return query.where(result_condition(result, of)) if result else query


def _as_written(result: str | None) -> bool:
    """Whether *result* is a result as written (``2-0``), not a word of RESULT_WORDS."""
    return result is not None and result.strip().lower() not in RESULT_WORDS


def _tallied(table: Table, result: str | None, by_event: bool = False) -> Subquery:
    """The rows of a tallies table (pdn.db.tallies) of the games with *result* (all: None),
    each a count of games. What ``tallies`` do not keep (a result as written, the events,
    *by_event*) is counted from the games, each row one game at its place, in their columns."""
    if table is not TALLIES or not (_as_written(result) or by_event):
        return _result_where(select(table), result, table).subquery()
    g = GameRow.__table__.c
    games = select(*(g[c] for c in GROUPED), g.event, ONE.label("games"), g.place.label("first"))
    return _result_where(games, result).subquery()


def explore(
    engine: Engine,
    variant: str,
    moves: str | None = None,
    fen: str | None = None,
    result: str | None = None,
    top: int | None = None,
    names: OpeningNames | None = None,
    where: GameFilter | None = None,
) -> pd.DataFrame:
    """The moves played from a position across the database, transpositions included, each
    game counted once per move, with the name of the opening each move plays (*names*, default
    the shipped ones): the name of the position it leads to, else of the deepest named one of
    the line to it, as `stats openings` names a line; *where*: only the games it selects (as
    `pdn query` does)."""
    line = _line(variant, moves, fen)
    digests = [p.digest() for p in line]
    chosen = _conditions(engine, where) if where is not None else []
    tallied = not chosen and explored(line[-1])
    if tallied and (result is None or result.strip().lower() in WINNERS):
        query = _tallied_moves(digests[-1], result)
    else:
        query = _played_moves(engine, digests[-1], chosen, result)
    with engine.connect() as conn:
        frame = pd.read_sql(query, conn, dtype_backend="numpy_nullable")
    frame = frame.astype({c: "int64" for c in COUNTS})
    named = names or OpeningNames.shipped()
    after = [play_moves(variant, move, line[-1])[-1].digest() for move in frame["move"]]
    frame["name"] = [named.deepest([*digests, a]) or NAN for a in after]
    return _top(scores(frame), ["move"], top)[["move", *SCORES, "name"]]


WINNERS = ("white", "black", "draw", "unknown")  # the results move_tallies tell apart


def _tallied_moves(digest: int, result: str | None) -> Select[*tuple[Any, ...]]:
    """The moves from a position of the openings counted by move_tallies (pdn.db.tallies)."""
    t = _tallied(MOVE_TALLIES, result)
    counted = select(t.c.move, *_counts(t.c.winner, t.c.games)).where(t.c.digest == digest)
    return counted.group_by(t.c.move)


def _played_moves(
    engine: Engine, digest: int, chosen: list[ColumnElement[bool]], result: str | None
) -> Select[*tuple[Any, ...]]:
    """The moves from a position counted from the positions of the games chosen."""
    at = reaching(engine, digest)
    played = (  # each game once per move: a game may pass a position twice
        _result_where(
            select(at.c.move, at.c.game, GameRow.winner)
            .join(GameRow, GameRow.number == at.c.game)
            .where(at.c.move.is_not(None), *chosen),
            result,
        )
        .distinct()
        .subquery()
    )
    written = select(MoveText.text).where(MoveText.id == played.c.move).scalar_subquery()
    return select(written.label("move"), *_counts(played.c.winner)).group_by(played.c.move)


OPENING_STATS_PLIES = 6  # the plies stats openings groups by, unless told


def opening_stats(
    engine: Engine,
    variant: str | None = None,
    plies: int = OPENING_STATS_PLIES,
    min_games: int = 1,
    ballots: bool = False,
    result: str | None = None,
    top: int | None = None,
    names: OpeningNames | None = None,
) -> pd.DataFrame:
    """Openings of the games that begin at their variant's start position, by the position after
    their first *plies* plies (or, for English, by three-move ballot), with the moves of the
    first game that reached it and the name of the opening they play (*names*, default the
    shipped ones)."""
    if plies < 1:
        raise QuestionError("--plies must be 1 or more")
    if ballots and variant and get_variant(variant).name != "english":
        raise QuestionError(f"--ballots are English three-move ballots, not {variant} openings")
    ballot = three_move_ballots() if ballots else {}
    query: Select[*tuple[Any, ...]]
    if (ballots or plies <= OPENING_PLIES_TALLIED) and not _as_written(result):  # tallied
        t = _tallied(OPENING_TALLIES, result)
        query = (
            select(t.c.digest.label("position"), func.min(t.c.first).label("first"),
                   *_counts(t.c.winner, t.c.games))
            .where(t.c.ply == (3 if ballots else plies))
            .group_by(t.c.digest)
            .having(func.sum(t.c.games) >= min_games)
        )  # fmt: skip
        if ballots:
            query = query.where(t.c.variant == "english", t.c.digest.in_(list(ballot)))
            plies = 3
        elif variant:
            query = query.where(t.c.variant == get_variant(variant).name)
    elif ballots or plies == 3:  # a result as written: the position after three plies
        t = _tallied(TALLIES, result)
        query = (
            select(t.c.opening_hash.label("position"), func.min(t.c.first).label("first"),
                   *_counts(t.c.winner, t.c.games))
            .where(t.c.from_start, t.c.opening_hash.is_not(None))
            .group_by(t.c.opening_hash)
            .having(func.sum(t.c.games) >= min_games)
        )  # fmt: skip
        if ballots:
            query = query.where(t.c.variant == "english", t.c.opening_hash.in_(list(ballot)))
        elif variant:
            query = query.where(t.c.variant == get_variant(variant).name)
        plies = 3
    else:
        query = _by_position_after(engine, plies)
        if variant:
            query = query.where(GameRow.variant == get_variant(variant).name)
        query = _result_where(query, result).having(func.count() >= min_games)
    frame = scores(_with_first_game(engine, query))
    frame["opening"] = [opening_line(m, plies) for m in frame["moves"]]
    found = _opening_names(engine, [int(p) for p in frame["first"]], plies, names)
    frame["name"] = [name or NAN for name in found]
    if ballots:
        frame["ballot"] = frame["position"].map(OpeningNames.shipped().ballots)
        return _top(frame, ["ballot"], top)[["ballot", "opening", *SCORES, "name"]]
    return _top(frame, ["opening", "variant"], top)[["opening", "variant", *SCORES, "name"]]


def _by_position_after(engine: Engine, plies: int) -> Select[*tuple[Any, ...]]:
    """The games from the start counted by the position after their first *plies* plies."""
    counted = select(func.min(GameRow.place).label("first"), *_counts(GameRow.winner))
    if plies <= OPENING_PLIES_KEPT:  # in each game's opening (bytes: not a column of the frame)
        key = opening_digest(plies)
        counted = counted.join_from(GameRow, OpeningRow, PLAYED).where(opening_reaches(plies))
        return counted.where(GameRow.from_start).group_by(key)
    at = at_ply(engine, plies)
    counted = counted.join(at, GameRow.number == at.c.game)
    return counted.where(GameRow.from_start).group_by(at.c.digest)


def opening_line(moves: str, plies: int) -> str:
    """How every table writes an opening: the first *plies* of a game's stored moves (the
    replayed main line in PDN 3.0 short form, pdn.archive.identity.main_line)."""
    return " ".join(moves.split()[:plies])


def _opening_names(
    engine: Engine, firsts: list[int], plies: int, names: OpeningNames | None
) -> list[str | None]:
    """The name of the opening the first *plies* plies of each game (by place) play."""
    named = names or OpeningNames.shipped()
    lines: dict[int, list[int]] = {}
    numbers: dict[int, int] = {}
    query = select(GameRow.place, GameRow.number, OpeningRow.digests).join_from(
        GameRow, OpeningRow, PLAYED, isouter=True
    )
    with engine.connect() as conn:
        for at, number, opening in _at_places(conn, query, firsts):
            lines[at] = opening_digests(opening or b"")[:plies]
            numbers[number] = at
        if plies > OPENING_PLIES_KEPT:  # past the digests kept: from the postings
            for number, deeper in later_digests(conn, list(numbers), plies).items():
                lines[numbers[number]] += deeper
    return [named.deepest(lines.get(at, [])) for at in firsts]


PLACES_AT_ONCE = 1000  # games asked for by place in one statement


def _at_places(
    conn: Connection, query: Select[*tuple[Any, ...]], places: list[int]
) -> Iterator[Row[*tuple[Any, ...]]]:
    """The rows of *query* (on the games table) of the games at *places*, a slice at a time."""
    for i in range(0, len(places), PLACES_AT_ONCE):
        yield from conn.execute(query.where(GameRow.place.in_(places[i : i + PLACES_AT_ONCE])))


def _with_first_game(engine: Engine, groups: Select[*tuple[Any, ...]]) -> pd.DataFrame:
    """Counted groups (with column ``first``, the lowest place in each) and the moves and
    variant of that first game (positions as exact integers, missing ones as NA)."""
    counted = groups.subquery()
    query = select(counted, GameRow.variant).join(GameRow, GameRow.place == counted.c.first)
    with engine.connect() as conn:
        frame = pd.read_sql(query, conn, dtype_backend="numpy_nullable")
        firsts = [int(p) for p in frame["first"]]
        chosen = select(GameRow.place, GameRow.moves, GameRow.pdn)
        moves = {at: unpack_moves(m, t) for at, m, t in _at_places(conn, chosen, firsts)}
    frame.insert(len(frame.columns) - 1, "moves", [moves[at] for at in firsts])
    counts = [c for c in frame.columns if c in COUNTS or c in DRAW_KINDS]
    return frame.astype({c: "int64" for c in counts})


DRAW_GROUPS = ("variant", "year", "event", "opening", "player", "termination")


def _some(rows: Subquery) -> ColumnElement[bool]:
    """A group of tallied *rows* counts a game (a game stored anew may have left it: another
    name, another ending under other rules)."""
    return func.sum(rows.c.games) > 0


def _results(rows: Subquery) -> list[Label[int]]:
    """The counts of a statistics table over tallied *rows* (:func:`_tallied`)."""
    games = rows.c.games
    return [*_counts(rows.c.winner, games), *_draw_kinds(rows.c.winner, rows.c.termination, games)]


def _draw_kinds(
    winner: SQLCoreOperations[str],
    termination: SQLCoreOperations[str],
    games: ColumnElement[int] = ONE,
) -> list[Label[int]]:
    """Columns counting the draws by the moves rule, by an endgame rule, by repetition and
    those no rule made (as recorded: agreed or adjudicated), by the labels of pdn.rules.draw,
    in a group of rows each of *games* games (as :func:`_counts`)."""
    is_draw = winner == "draw"

    def draws(cond: ColumnElement[bool]) -> Label[int]:
        return func.sum(case((and_(is_draw, cond), games), else_=0))  # type: ignore[return-value]

    return [
        draws(termination.in_(sorted(LABELS[Termination.MOVES_RULE]))).label("by_moves_rule"),
        draws(termination.in_(sorted(LABELS[Termination.ENDGAME]))).label("by_endgame_rule"),
        draws(termination.in_(sorted(LABELS[Termination.REPETITION]))).label("by_repetition"),
        draws(termination.in_([Termination.RECORDED.value, *OLD_LABELS])).label("by_agreement"),
    ]


def draw_stats(
    engine: Engine,
    by: str = "variant",
    result: str | None = None,
    top: int | None = None,
    aliases: Aliases | None = None,
) -> pd.DataFrame:
    """Games, draws, games without a result, the draw rate and how the draws came about (moves
    rule, repetition, agreement), grouped as :func:`result_stats` groups them."""
    frame = result_stats(engine, by, result, top, aliases)
    keys = list(frame.columns[: list(frame.columns).index("games")])
    return frame[[*keys, *DRAWS]]


def result_stats(
    engine: Engine,
    by: str = "variant",
    result: str | None = None,
    top: int | None = None,
    aliases: Aliases | None = None,
) -> pd.DataFrame:
    """Games by result and how the draws came about (moves rule, repetition, agreement),
    grouped *by* variant, year (in year order), event, opening (the position after three plies
    in each variant: a ballot, or its first moves; games set up from another position than the
    start make one group), player (each game counts for both, under the names *aliases* give
    them) or how the game ended."""
    if by not in DRAW_GROUPS:
        raise QuestionError(f"--by must be one of {', '.join(DRAW_GROUPS)}, not {by!r}")
    keys = [by]
    if by == "player":  # each game counts for both of its players
        t = _tallied(PLAYER_TALLIES, result)
        named = t.c.player.is_not(None) & func.trim(t.c.player).not_in(NO_NAME)  # as players
        query = select(t.c.player, *_results(t)).where(named).group_by(t.c.player)
        query = query.having(_some(t))
        with engine.connect() as conn:
            frame = pd.read_sql(query, conn)
        if aliases:  # the counts of the names of one player added up
            frame["player"] = frame["player"].map(lambda n: n if n is None else aliases.name(n))
            frame = frame.groupby("player", as_index=False, dropna=False).sum()
    elif by == "opening":  # the position after three plies: a ballot, or its first moves
        t = _tallied(TALLIES, result)
        position = case((t.c.from_start, t.c.opening_hash))  # set-up games: one group
        groups = (
            select(
                position.label("position"),
                t.c.from_start,
                func.min(t.c.first).label("first"),
                *_results(t),
            )
            .group_by(t.c.variant, t.c.from_start, position)
            .having(_some(t))
        )
        frame = _with_first_game(engine, groups)
        names = OpeningNames.shipped()
        frame["opening"] = [
            "(set up from a position)" if not start
            else "(fewer than 3 plies)" if pd.isna(h)
            else opening_line(m, 3)
            for h, start, m in zip(frame["position"], frame["from_start"], frame["moves"],
                                   strict=True)
        ]  # fmt: skip
        frame["name"] = [
            NAN if pd.isna(h) or not start else names.name(int(h)) or NAN
            for h, start in zip(frame["position"], frame["from_start"], strict=True)
        ]
        keys = ["opening", "variant", "name"]
    else:
        t = _tallied(TALLIES, result, by_event=by == "event")
        query = select(t.c[by], *_results(t)).group_by(t.c[by]).having(_some(t))
        with engine.connect() as conn:
            frame = pd.read_sql(query, conn)
    frame = _top(scores(frame), keys, top)
    if by == "year":
        frame["year"] = frame["year"].astype("Int64")
        frame = frame.sort_values("year", na_position="last").reset_index(drop=True)
    return frame[[*keys, *SCORES, *DRAW_KINDS]]
