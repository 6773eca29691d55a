"""Questions asked of the database, each answered as a pandas DataFrame.

Every user value reaches SQL as a bound parameter; grouping and counting run in the database.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pandas as pd
from sqlalchemy import ColumnElement, Engine, Select, and_, case, func, or_, select
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


def _like(column: SQLCoreOperations[str | None], text: str) -> ColumnElement[bool]:
    """Case-insensitive "contains", with the text as a bound parameter."""
    return func.lower(column).like(f"%{text.lower()}%")


def _game_query(f: GameFilter) -> Select[*tuple[Any, ...]]:
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
    if f.variant:
        cond.append(GameRow.variant == get_variant(f.variant).name)
    if f.result:
        meaning = {"first": "first", "second": "second", "draw": "draw"}.get(f.result.lower())
        cond.append(GameRow.outcome == meaning if meaning else GameRow.result == f.result)
    if f.date_from is not None:
        cond.append(GameRow.year >= f.date_from)
    if f.date_to is not None:
        cond.append(GameRow.year <= f.date_to)
    if f.moves or f.fen:
        if not f.variant:
            raise QuestionError("--moves and --fen need --variant")
        h = position_digest(f.variant, f.moves, f.fen)
        reached = select(PlyRow.game_id).where(PlyRow.before == h)
        cond.append(or_(GameRow.id.in_(reached), GameRow.final_hash == h))
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
        .where(and_(True, *cond))
        .order_by(GameRow.id)
    )


def find_games(engine: Engine, where: GameFilter, limit: int | None = 100) -> pd.DataFrame:
    """The games matching *where*, in import order."""
    query = _game_query(where)
    if limit:
        query = query.limit(limit)
    with engine.connect() as conn:
        return pd.read_sql(query, conn)


def game_texts(engine: Engine, ids: list[int]) -> list[str]:
    """The games' PDN text exactly as read, in the order of *ids*."""
    with engine.connect() as conn:
        rows = dict(conn.execute(select(GameRow.id, GameRow.pdn).where(GameRow.id.in_(ids))).all())
    return [rows[i] for i in ids if i in rows]


_SCORE_COLUMNS = ["games", "first_wins", "draws", "second_wins", "score", "draw_rate"]


def _scores(frame: pd.DataFrame, key: str) -> pd.DataFrame:
    """Columns games, first_wins, draws, second_wins, score (first player, %) and draw_rate."""
    if frame.empty:
        return pd.DataFrame(columns=[key, *_SCORE_COLUMNS])
    table = frame.pivot_table(index=key, columns="outcome", values="n", aggfunc="sum", fill_value=0)
    for col in ("first", "second", "draw", "unknown"):
        if col not in table:
            table[col] = 0
    out = pd.DataFrame(
        {
            "games": table[["first", "second", "draw", "unknown"]].sum(axis=1),
            "first_wins": table["first"],
            "draws": table["draw"],
            "second_wins": table["second"],
        }
    )
    decided = out["first_wins"] + out["draws"] + out["second_wins"]
    out["score"] = (100 * (out["first_wins"] + out["draws"] / 2) / decided).round(1)
    out["draw_rate"] = (100 * out["draws"] / decided).round(1)
    out = out.reset_index().sort_values(["games", key], ascending=[False, True])
    return out.reset_index(drop=True)


def explore(
    engine: Engine, variant: str, moves: str | None = None, fen: str | None = None
) -> pd.DataFrame:
    """The moves played from a position across the database, transpositions included."""
    h = position_digest(variant, moves, fen)
    query = (
        select(PlyRow.move, GameRow.outcome, func.count(func.distinct(GameRow.id)).label("n"))
        .join(GameRow, GameRow.id == PlyRow.game_id)
        .where(PlyRow.before == h)
        .group_by(PlyRow.move, GameRow.outcome)
    )
    with engine.connect() as conn:
        frame = pd.read_sql(query, conn)
    return _scores(frame, "move")


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
    if ballots:  # the position after three plies is stored with each game
        key = GameRow.opening_hash
        query = (
            select(
                key.label("position"),
                GameRow.outcome,
                func.count().label("n"),
                func.min(GameRow.id).label("game"),
            )
            .where(GameRow.variant == "english", key.is_not(None))
            .group_by(key, GameRow.outcome)
        )
        variant, plies = "english", 3
    else:
        query = (
            select(
                PlyRow.after.label("position"),
                GameRow.outcome,
                func.count().label("n"),
                func.min(PlyRow.game_id).label("game"),
            )
            .join(GameRow, GameRow.id == PlyRow.game_id)
            .where(PlyRow.ply == plies)
            .group_by(PlyRow.after, GameRow.outcome)
        )
        if variant:
            query = query.where(GameRow.variant == get_variant(variant).name)
    with engine.connect() as conn:
        frame = pd.read_sql(query, conn)
        examples = frame.groupby("position", as_index=False)["game"].min()
        moves = pd.read_sql(
            select(GameRow.id.label("game"), GameRow.moves, GameRow.variant).where(
                GameRow.id.in_(examples["game"].tolist())
            ),
            conn,
        )
    scores = _scores(frame.drop(columns="game"), "position")
    scores = scores[scores["games"] >= min_games]
    named = examples.merge(moves, on="game")
    named["opening"] = named["moves"].str.split().str[:plies].str.join(" ")
    out = scores.merge(named[["position", "opening", "variant"]], on="position", how="left")
    if ballots:
        names = three_move_ballots()
        out["ballot"] = out["position"].map(names)
        out = out[out["ballot"].notna()].sort_values(["games", "ballot"], ascending=[False, True])
        return out[["ballot", "opening", *_SCORE_COLUMNS]].reset_index(drop=True)
    out = out.sort_values(["games", "opening"], ascending=[False, True])
    return out[["opening", "variant", *_SCORE_COLUMNS]].reset_index(drop=True)


DRAW_GROUPS = ("variant", "year", "event", "opening", "player", "termination")


def draw_stats(engine: Engine, by: str = "variant") -> pd.DataFrame:
    """Draw rates and how the draws came about (40-move rule, repetition, agreement)."""
    if by not in DRAW_GROUPS:
        raise QuestionError(f"--by must be one of {', '.join(DRAW_GROUPS)}, not {by!r}")
    is_draw = GameRow.outcome == "draw"
    counts = [
        func.count().label("games"),
        func.sum(case((is_draw, 1), else_=0)).label("draws"),
        func.sum(case((and_(is_draw, GameRow.termination.like("draw-%-moves")), 1), else_=0)).label(
            "by_moves_rule"
        ),
        func.sum(case((and_(is_draw, GameRow.termination == "draw-repetition"), 1), else_=0)).label(
            "by_repetition"
        ),
        func.sum(case((and_(is_draw, GameRow.termination == "undecided"), 1), else_=0)).label(
            "by_agreement"
        ),
    ]
    with engine.connect() as conn:
        if by == "player":
            frames = []
            for side in (GameRow.white, GameRow.black):
                q = select(side.label("player"), *counts).group_by(side)
                frames.append(pd.read_sql(q, conn))
            frame = pd.concat(frames).groupby("player", as_index=False).sum()
        elif by == "opening":  # the position after three plies: a ballot, or its first moves
            q = select(
                GameRow.opening_hash.label("position"),
                func.min(GameRow.id).label("game"),
                *counts,
            ).group_by(GameRow.opening_hash)
            frame = pd.read_sql(q, conn)
            ids = frame["game"].tolist()
            first = dict(
                conn.execute(select(GameRow.id, GameRow.moves).where(GameRow.id.in_(ids))).all()
            )
            ballot = three_move_ballots()
            frame["opening"] = [
                ballot.get(h) or " ".join(first.get(g, "").split()[:3]) or "(none)"
                for h, g in zip(frame["position"], frame["game"], strict=True)
            ]
            grouped = frame.drop(columns=["position", "game"]).groupby("opening", as_index=False)
            frame = grouped.sum()
        else:
            column = getattr(GameRow, by)
            frame = pd.read_sql(select(column.label(by), *counts).group_by(column), conn)
    frame["draw_rate"] = (100 * frame["draws"] / frame["games"]).round(1)
    key = frame.columns[0]
    frame = frame.sort_values(["games", key], ascending=[False, True]).reset_index(drop=True)
    return frame[[key, "games", "draws", "draw_rate", "by_moves_rule", "by_repetition",
                  "by_agreement"]]  # fmt: skip
