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


def stored_events(engine: Engine, limit: int | None = None) -> list[tuple[str, int]]:
    """The events of the database as :func:`stored_event_games` tells them apart (Event tags
    compared without case and surrounding spaces), each with its games and under its most
    written spelling, the most played first; at most *limit*."""
    key = func.lower(func.trim(GameRow.event))
    spellings = (
        select(key.label("key"), GameRow.event, func.count().label("n"))
        .where(func.trim(GameRow.event).not_in(["", "?"]))
        .group_by(key, GameRow.event)
        .subquery()
    )
    with engine.connect() as conn:
        rows = conn.execute(
            select(spellings.c.key, spellings.c.event, spellings.c.n).order_by(
                spellings.c.key, spellings.c.n.desc(), spellings.c.event
            )
        ).all()
    found: dict[str, tuple[str, int]] = {}
    for k, name, n in rows:  # a key's first row: its most written spelling
        spelling, games = found.get(k, (name, 0))
        found[k] = (spelling, games + int(n))
    ranked = sorted(found.values(), key=lambda e: (-e[1], e[0].casefold()))
    return ranked[:limit] if limit is not None else ranked
