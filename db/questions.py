"""Questions asked of the database, each answered as a pandas DataFrame.

Every user value reaches SQL as a bound parameter; grouping and counting run in the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
from sqlalchemy import (
    ColumnElement,
    Engine,
    Label,
    Select,
    and_,
    case,
    func,
    or_,
    select,
    union,
    union_all,
)
from sqlalchemy.sql.elements import SQLCoreOperations

from pdn.ballots import three_move_ballots
from pdn.db.schema import GameRow, PlyRow, SourceFile
from pdn.fen import parse_fen
from pdn.position import Position
from pdn.reader import make_move
from pdn.replay import candidates
from pdn.variants import get_variant


class QuestionError(ValueError):
    """A question that cannot be asked as put (bad moves, missing variant, ...)."""


def position_digest(variant: str, moves: str | None = None, fen: str | None = None) -> int:
    """The digest of the position after *moves* (from *fen* or the start) in *variant*."""
    v = get_variant(variant)
    pos = parse_fen(fen, v) if fen else Position.start(v)
    for i, text in enumerate((moves or "").split()):
        if text.rstrip(".").isdigit():
            continue  # a move number
        node = make_move(text)
        found = candidates(pos, node.squares)
        if len(found) != 1:
            why = "illegal" if not found else "ambiguous"
            raise QuestionError(f"move {i + 1} ({text}) is {why} in {variant}")
        pos = pos.play(found[0])
    return pos.digest()


@dataclass(frozen=True, slots=True)
class GameFilter:
    """What `pdn query` selects games by (every field optional)."""

    white: str | None = None
    black: str | None = None
    player: str | None = None
    event: str | None = None
    site: str | None = None
    variant: str | None = None
    result: str | None = None  # as written (1-0) or by meaning (first, second, draw)
    date_from: int | None = None  # years
    date_to: int | None = None
    moves: str | None = None  # games that reach the position after these moves
    fen: str | None = None  # games that reach this position
    valid: bool | None = None  # only the valid (True) or the invalid (False) games


def _like(column: SQLCoreOperations[str | None], text: str) -> ColumnElement[bool]:
    """Case-insensitive "contains", with the text as a bound parameter."""
    return func.lower(column).like(f"%{text.lower()}%")


def _conditions(f: GameFilter, paged: bool = False) -> list[ColumnElement[bool]]:
    """The conditions of *f*; *paged*: written for reading a page of games in import order."""
    cond = []
    if f.white:
        cond.append(_like(GameRow.white, f.white))
    if f.black:
        cond.append(_like(GameRow.black, f.black))
    if f.player:
        cond.append(or_(_like(GameRow.white, f.player), _like(GameRow.black, f.player)))
    if f.event:
        cond.append(_like(GameRow.event, f.event))
    if f.site:
        cond.append(_like(GameRow.site, f.site))
    if f.result:
        meaning = {"first": "first", "second": "second", "draw": "draw"}.get(f.result.lower())
        cond.append(GameRow.outcome == meaning if meaning else GameRow.result == f.result)
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
        h = position_digest(f.variant, f.moves, f.fen)
        reached = union(
            select(PlyRow.game_id).where(PlyRow.before == h),
            select(GameRow.id).where(GameRow.final_hash == h),
        )
        # for a page, "id + 0" makes SQLite read the games in import order and stop after the
        # page, instead of looking up and sorting every game that reached the position
        cond.append((GameRow.id + 0 if paged else GameRow.id).in_(reached))
    elif f.variant:
        cond.append(GameRow.variant == get_variant(f.variant).name)
    return cond


def _game_columns() -> Select[*tuple[Any, ...]]:
    """The columns `pdn query` shows, over the games and the files they came from."""
    return (
        select(
            GameRow.id,
            SourceFile.path.label("file"),
            GameRow.file_index.label("index"),
            GameRow.white,
            GameRow.black,
            GameRow.event,
            GameRow.site,
            GameRow.date,
            GameRow.result,
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
    if limit or offset:  # the page's games first (by the index on place), then their rows
        page = select(GameRow.id).where(and_(True, *_conditions(where, paged=True)))
        page = page.order_by(GameRow.place).limit(limit).offset(offset)
        query = query.where(GameRow.id.in_(page))
    else:
        query = query.where(and_(True, *_conditions(where)))
    with engine.connect() as conn:
        return pd.read_sql(query, conn)


def count_games(engine: Engine, where: GameFilter) -> int:
    """How many games match *where*."""
    query = select(func.count()).select_from(GameRow).where(and_(True, *_conditions(where)))
    with engine.connect() as conn:
        return int(conn.execute(query).scalar() or 0)


def game_texts(engine: Engine, ids: list[int]) -> list[str]:
    """The games' PDN text exactly as read, in the order of *ids*."""
    with engine.connect() as conn:
        rows = dict(conn.execute(select(GameRow.id, GameRow.pdn).where(GameRow.id.in_(ids))).all())
    return [rows[i] for i in ids if i in rows]


_SCORE_COLUMNS = ["games", "first_wins", "draws", "second_wins", "score", "draw_rate"]


def _outcomes(game: SQLCoreOperations[int], outcome: SQLCoreOperations[str]) -> list[Label[int]]:
    """Columns games, first_wins, draws and second_wins counted in a group."""
    return [
        func.count(game).label("games"),
        func.count(case((outcome == "first", game))).label("first_wins"),
        func.count(case((outcome == "draw", game))).label("draws"),
        func.count(case((outcome == "second", game))).label("second_wins"),
    ]


def _scores(frame: pd.DataFrame, key: str) -> pd.DataFrame:
    """Score (first player, %) and draw rate added to counted groups, most games first."""
    decided = frame["first_wins"] + frame["draws"] + frame["second_wins"]
    frame["score"] = (100 * (frame["first_wins"] + frame["draws"] / 2) / decided).round(1)
    frame["draw_rate"] = (100 * frame["draws"] / decided).round(1)
    frame = frame.sort_values(["games", key], ascending=[False, True])
    return frame.reset_index(drop=True)


def explore(
    engine: Engine, variant: str, moves: str | None = None, fen: str | None = None
) -> pd.DataFrame:
    """The moves played from a position across the database, transpositions included."""
    h = position_digest(variant, moves, fen)
    played = (  # each game once per move: a game may pass a position twice
        select(PlyRow.move, PlyRow.game_id, GameRow.outcome)
        .join(GameRow, GameRow.id == PlyRow.game_id)
        .where(PlyRow.before == h)
        .distinct()
        .subquery()
    )
    query = select(played.c.move, *_outcomes(played.c.game_id, played.c.outcome)).group_by(
        played.c.move
    )
    with engine.connect() as conn:
        frame = pd.read_sql(query, conn)
    return _scores(frame, "move")[["move", *_SCORE_COLUMNS]]


def opening_stats(
    engine: Engine,
    variant: str | None = None,
    plies: int = 6,
    min_games: int = 1,
    ballots: bool = False,
) -> pd.DataFrame:
    """Openings by the position after their first *plies* plies (or, for English, by three-move
    ballot), with the moves of the first game that reached it and its score."""
    if plies < 1:
        raise QuestionError("--plies must be 1 or more")
    names = three_move_ballots() if ballots else {}
    if ballots:  # the position after three plies is stored with each game
        key = GameRow.opening_hash
        query = (
            select(key.label("position"), func.min(GameRow.place).label("first"),
                   *_outcomes(GameRow.id, GameRow.outcome))
            .where(GameRow.variant == "english", key.in_(list(names)))
            .group_by(key)
        )  # fmt: skip
        plies = 3
    else:
        query = (
            select(PlyRow.after.label("position"), func.min(GameRow.place).label("first"),
                   *_outcomes(GameRow.id, GameRow.outcome))
            .join(GameRow, GameRow.id == PlyRow.game_id)
            .where(PlyRow.ply == plies)
            .group_by(PlyRow.after)
        )  # fmt: skip
        if variant:
            query = query.where(GameRow.variant == get_variant(variant).name)
    frame = _with_first_game(engine, query.having(func.count() >= min_games))
    frame["opening"] = frame["moves"].str.split().str[:plies].str.join(" ")
    if ballots:
        frame["ballot"] = frame["position"].map(names)
        frame = _scores(frame, "ballot")
        return frame[["ballot", "opening", *_SCORE_COLUMNS]]
    frame = _scores(frame, "opening")
    return frame[["opening", "variant", *_SCORE_COLUMNS]]


def _with_first_game(engine: Engine, groups: Select[*tuple[Any, ...]]) -> pd.DataFrame:
    """Counted groups (with column ``first``, the lowest place in each) and the moves and
    variant of that first game."""
    counted = groups.subquery()
    query = select(counted, GameRow.moves, GameRow.variant).join(
        GameRow, GameRow.place == counted.c.first
    )
    with engine.connect() as conn:
        return pd.read_sql(query, conn)


DRAW_GROUPS = ("variant", "year", "event", "opening", "player", "termination")


def _draws(
    outcome: SQLCoreOperations[str], termination: SQLCoreOperations[str]
) -> list[Label[int]]:
    """Columns games, draws and draws by the moves rule, by repetition and by agreement."""
    is_draw = outcome == "draw"

    def draws(cond: ColumnElement[bool]) -> Label[int]:
        return func.sum(case((and_(is_draw, cond), 1), else_=0))  # type: ignore[return-value]

    return [
        func.count().label("games"),
        func.sum(case((is_draw, 1), else_=0)).label("draws"),
        draws(termination.like("draw-%-moves")).label("by_moves_rule"),
        draws(termination == "draw-repetition").label("by_repetition"),
        draws(termination == "undecided").label("by_agreement"),
    ]


def draw_stats(engine: Engine, by: str = "variant") -> pd.DataFrame:
    """Draw rates and how the draws came about (40-move rule, repetition, agreement)."""
    if by not in DRAW_GROUPS:
        raise QuestionError(f"--by must be one of {', '.join(DRAW_GROUPS)}, not {by!r}")
    if by == "player":  # each game counts for both of its players
        sides = union_all(
            *(
                select(side.label("player"), GameRow.outcome, GameRow.termination)
                for side in (GameRow.white, GameRow.black)
            )
        ).subquery()
        query = select(sides.c.player, *_draws(sides.c.outcome, sides.c.termination)).group_by(
            sides.c.player
        )
        with engine.connect() as conn:
            frame = pd.read_sql(query, conn)
    elif by == "opening":  # the position after three plies: a ballot, or its first moves
        groups = select(
            GameRow.opening_hash.label("position"),
            func.min(GameRow.place).label("first"),
            *_draws(GameRow.outcome, GameRow.termination),
        ).group_by(GameRow.opening_hash)
        frame = _with_first_game(engine, groups)
        ballot = three_move_ballots()
        frame["opening"] = [
            ballot.get(h) or " ".join(m.split()[:3]) or "(none)"
            for h, m in zip(frame["position"], frame["moves"], strict=True)
        ]
        counts = ["games", "draws", "by_moves_rule", "by_repetition", "by_agreement"]
        # the same first moves in several variants (their numbers read alike) make one row
        frame = frame.groupby("opening", as_index=False)[counts].sum()
    else:
        column = getattr(GameRow, by)
        query = select(column.label(by), *_draws(GameRow.outcome, GameRow.termination))
        with engine.connect() as conn:
            frame = pd.read_sql(query.group_by(column), conn)
    frame["draw_rate"] = (100 * frame["draws"] / frame["games"]).round(1)
    key = frame.columns[0]
    frame = frame.sort_values(["games", key], ascending=[False, True]).reset_index(drop=True)
    return frame[[key, "games", "draws", "draw_rate", "by_moves_rule", "by_repetition",
                  "by_agreement"]]  # fmt: skip
