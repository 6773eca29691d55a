"""An event's games from the database, for :func:`pdn.archive.standings.standings`."""

from __future__ import annotations

from sqlalchemy import Engine, func, select

from pdn.archive.criteria import whole_key
from pdn.archive.standings import EventChoice, EventGame
from pdn.db.names import spellings
from pdn.db.schema import GameRow


def stored_event_games(engine: Engine, choice: EventChoice) -> list[EventGame]:
    """The stored games of the event *choice* says (names compared as
    :class:`~pdn.archive.standings.EventChoice` does), in import order."""
    query = select(GameRow.white, GameRow.black, GameRow.winner, GameRow.result)
    with engine.connect() as conn:
        for column, wanted in ((GameRow.event, choice.event), (GameRow.site, choice.site)):
            if wanted is not None:
                query = query.where(column.in_(spellings(conn, column, wanted)))
        if choice.year is not None:
            query = query.where(GameRow.year == choice.year)
        rows = conn.execute(query.order_by(GameRow.place)).all()
    return [
        EventGame((w or "?").strip(), (b or "?").strip(), winner, (result or "*").replace(" ", ""))
        for w, b, winner, result in rows
    ]


def stored_events(engine: Engine, limit: int | None = None) -> list[tuple[str, int | None, int]]:
    """The events of the database as :func:`stored_event_games` tells them apart (Event tags
    compared as EventChoice compares them) in each year, with their games, under the event's
    most written spelling that year, the most played first; at most *limit*. A name played in
    several years is an event of each (a yearly championship is not one crosstable)."""
    query = (
        select(GameRow.event, GameRow.year, func.count())
        .where(func.trim(GameRow.event).not_in(["", "?"]))
        .group_by(GameRow.event, GameRow.year)
    )
    with engine.connect() as conn:
        rows = conn.execute(query).all()
    found: dict[tuple[str, int | None], tuple[str, int, int]] = {}  # spelling, its games, all
    for name, year, n in rows:
        if name is None:  # a NULL event is not selected; for the type checker
            continue
        spelling, most, games = found.get((whole_key(name), year), (name, 0, 0))
        if int(n) > most or (int(n) == most and name < spelling):
            spelling, most = name, int(n)
        found[whole_key(name), year] = (spelling, most, games + int(n))
    ranked = sorted(
        ((spelling, year, games) for (_, year), (spelling, _, games) in found.items()),
        key=lambda e: (-e[2], e[0].casefold(), e[1] or 0),
    )
    return ranked[:limit] if limit is not None else ranked
