"""Players in the database: the names as written with their games, and each player's results
by colour (under the names an alias file gives them), overall or against one opponent."""

from __future__ import annotations

from collections import Counter

import pandas as pd
from sqlalchemy import Engine, func, literal, select, union, union_all

from pdn.archive.criteria import text_matches
from pdn.archive.players import NO_NAME, Aliases
from pdn.db.questions import QuestionError, _result_where, _top, scores
from pdn.db.schema import GameRow
from pdn.rules.variants import get_variant

PLAYER_COLUMNS = [
    "player", "games", "won_white", "drew_white", "lost_white", "won_black", "drew_black",
    "lost_black", "no_result", "score", "draw_rate",
]  # fmt: skip


def player_names(engine: Engine) -> Counter[str]:
    """Games per player name as written (a game counts once for each name in it)."""
    sides = union(
        select(GameRow.white.label("name"), GameRow.id), select(GameRow.black, GameRow.id)
    ).subquery()
    query = select(sides.c.name, func.count()).where(sides.c.name.is_not(None))
    with engine.connect() as conn:
        return Counter(dict(conn.execute(query.group_by(sides.c.name)).all()))


def player_stats(
    engine: Engine,
    aliases: Aliases | None = None,
    player: str | None = None,
    vs: str | None = None,
    variant: str | None = None,
    result: str | None = None,
    min_games: int = 1,
    top: int | None = None,
) -> pd.DataFrame:
    """One row per player (players without a name left out): games, results with White and
    with Black, games without a known result, and the player's score (wins and half the draws)
    and draw rate over the games with a known result, by questions.scores. *player* and *vs*
    match names as `pdn query --player` does; with *vs* only the games against a matching
    opponent count."""
    games = _result_where(select(GameRow), result)
    if variant:
        games = games.where(GameRow.variant == get_variant(variant).name)
    g = games.subquery()
    sides = union_all(
        select(g.c.white.label("player"), g.c.black.label("opponent"),
               literal("white").label("colour"), g.c.winner),
        select(g.c.black, g.c.white, literal("black"), g.c.winner),
    ).subquery()  # fmt: skip
    keys = [sides.c.player, sides.c.opponent, sides.c.colour, sides.c.winner]
    with engine.connect() as conn:
        rows = pd.read_sql(select(*keys, func.count().label("n")).group_by(*keys), conn)
    name = (aliases or Aliases()).name
    rows = rows[rows["player"].notna() & ~rows["player"].str.strip().isin(NO_NAME)].copy()
    rows["player"] = rows["player"].map(name)
    if player:
        rows = rows[[text_matches(p, player) for p in rows["player"]]]
    if vs:
        rows = rows[[o is not None and text_matches(name(o), vs) for o in rows["opponent"]]]
    won = rows["winner"] == rows["colour"]
    lost = rows["winner"].isin(["white", "black"]) & ~won
    rows["outcome"] = "no_result"
    rows.loc[won, "outcome"] = "won_" + rows["colour"]
    rows.loc[lost, "outcome"] = "lost_" + rows["colour"]
    rows.loc[rows["winner"] == "draw", "outcome"] = "drew_" + rows["colour"]
    columns = PLAYER_COLUMNS[2:9]
    if rows.empty:
        return pd.DataFrame(columns=PLAYER_COLUMNS)
    frame = rows.pivot_table("n", "player", "outcome", aggfunc="sum", fill_value=0)
    frame = frame.reindex(columns=columns, fill_value=0).reset_index()
    frame["games"] = frame[columns].sum(axis=1)
    if min_games < 1:
        raise QuestionError(f"--min-games must be 1 or more, not {min_games}")
    frame = frame[frame["games"] >= min_games]
    frame["white_wins"] = frame["won_white"] + frame["won_black"]
    frame["draws"] = frame["drew_white"] + frame["drew_black"]
    frame["black_wins"] = frame["lost_white"] + frame["lost_black"]
    frame = scores(frame).rename(columns={"white_score": "score"})
    return _top(frame, ["player"], top)[PLAYER_COLUMNS]
