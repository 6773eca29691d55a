"""An event's games from the database, for :func:`pdn.archive.standings.standings`."""

from __future__ import annotations

from sqlalchemy import Engine, func, select

from pdn.archive.standings import EventChoice, EventGame
from pdn.db.schema import GameRow


def stored_event_games(engine: Engine, choice: EventChoice) -> list[EventGame]:
    """The stored games of the event *choice* says (names compared as
    :class:`~pdn.archive.standings.EventChoice` does), in import order."""
    query = select(GameRow.white, GameRow.black, GameRow.winner, GameRow.result)
    for column, wanted in ((GameRow.event, choice.event), (GameRow.site, choice.site)):
        if wanted is not None:
            query = query.where(func.lower(func.trim(column)) == wanted.strip().casefold())
    if choice.year is not None:
        query = query.where(GameRow.year == choice.year)
    with engine.connect() as conn:
        rows = conn.execute(query.order_by(GameRow.place)).all()
    return [
        EventGame((w or "?").strip(), (b or "?").strip(), winner, (result or "*").replace(" ", ""))
        for w, b, winner, result in rows
    ]
