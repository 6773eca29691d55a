"""What the page asks about engine analysis: a game's judgement for its graph, the games sorted
by their biggest loss, and the analysis board's moves, positions and engine lines (nothing of
which is written to the database)."""

from __future__ import annotations

from typing import Any

import pandas as pd
from sqlalchemy import Engine, and_, func, select

from pdn.db.analysis import biggest_losses, game_judgement
from pdn.db.questions import GameFilter, _conditions, _game_columns
from pdn.db.schema import AnalysisRow, GameRow
from pdn.engine.analysis import score_of_text, winning_chances
from pdn.web import api
from pdn.web.api import GAME_COLUMNS, Page, _records


def judgement(engine: Engine, gid: int) -> dict[str, Any] | None:
    """A game's stored judgement, each ply with White's winning chances after it (-1 to 1, as
    the marks are judged by), for the graph; None without analysis."""
    found = game_judgement(engine, gid)
    if found is None:
        return None
    for row in found["plies"]:
        row["chances"] = round(winning_chances(score_of_text(row["eval"])), 4)
    return found


def games(engine: Engine, where: GameFilter, page: Page, by_loss: bool) -> dict[str, Any]:
    """One page of the games matching *where*, each with its biggest loss (None: not analysed):
    in import order, or (*by_loss*) the biggest loss first, games without analysis last."""
    if not by_loss:
        answer = api.games(engine, where, page)
        losses = biggest_losses(engine, [int(g["id"]) for g in answer["games"]])
        for g in answer["games"]:
            g["biggest_loss"] = losses.get(int(g["id"]))
        return answer
    biggest = (
        select(AnalysisRow.game_id, func.max(AnalysisRow.loss).label("biggest_loss"))
        .group_by(AnalysisRow.game_id)
        .subquery()
    )
    query = (
        _game_columns()
        .add_columns(biggest.c.biggest_loss)
        .outerjoin(biggest, biggest.c.game_id == GameRow.id)
        .where(and_(True, *_conditions(engine, where)))
        .order_by(None)
        .order_by(biggest.c.biggest_loss.desc().nulls_last(), GameRow.place)
        .limit(page.size + 1)
        .offset(page.offset)
    )
    with engine.connect() as conn:
        frame = pd.read_sql(query, conn)
    return {
        "page": page.number,
        "size": page.size,
        "more": len(frame) > page.size,
        "games": _records(frame.head(page.size), [*GAME_COLUMNS, "biggest_loss"]),
    }
