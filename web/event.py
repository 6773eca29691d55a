"""The page's event view: an event's standings and crosstable, made by the functions behind
`pdn stats event --db` (so its numbers are theirs), and the events to choose from."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from sqlalchemy import Engine

from pdn.archive.players import Aliases
from pdn.archive.standings import EventChoice, points_text, standings
from pdn.db.standings import stored_event_games, stored_events

MAX_EVENTS = 500


class NoEvent(LookupError):
    """No stored game belongs to the event asked for."""


def games_search(player: str, choice: EventChoice) -> dict[str, str] | None:
    """The games view's search for *player*'s games in the event: whole names (``=``, as the
    standings tell events apart, not the names that contain them); None for an unknown player
    (``?``: White or Black missing or unknown)."""
    if player == "?":
        return None
    search = {"player": f"={player}"}
    search |= {k: f"={v}" for k, v in (("event", choice.event), ("site", choice.site)) if v}
    if choice.year is not None:
        search |= {"from": str(choice.year), "to": str(choice.year)}
    return search


def event(engine: Engine, choice: EventChoice, aliases: Aliases | None = None) -> dict[str, Any]:
    """The standings of the event *choice* says: each player's line best first (under the name
    *aliases* give him, if any), with the points as numbers and as `pdn stats event` writes them
    in a table (``2½``), the crosstable by rank (``x`` on the diagonal, None where two players
    did not meet), and the search for the player's games (:func:`games_search`)."""
    games = stored_event_games(engine, choice)
    if not games:
        raise NoEvent("no game of that event")
    if aliases is not None:  # the players as the page matches them: one line for each
        games = [
            replace(g, white=aliases.name(g.white), black=aliases.name(g.black)) for g in games
        ]
    table = standings(games)
    entries = []
    for e, cross in zip(table.entries, table.crosstable(), strict=True):
        entries.append(
            {
                "rank": e.rank, "player": e.player, "games": e.games, "wins": e.wins,
                "draws": e.draws, "losses": e.losses, "points": e.points,
                "sonneborn_berger": e.sonneborn_berger, "head_to_head": e.head_to_head,
                "shown": {name: points_text(v) for name, v in (("points", e.points),
                          ("sonneborn_berger", e.sonneborn_berger),
                          ("head_to_head", e.head_to_head))},
                "against": [None if c == "" else c if isinstance(c, str) else points_text(c)
                            for c in cross],
                "games_search": games_search(e.player, choice),
            }
        )  # fmt: skip
    return {
        "event": choice.event,
        "site": choice.site,
        "year": choice.year,
        "scoring": f"{points_text(table.win)}-{points_text(table.draw)}-0",
        "games": len(games),
        "unfinished": table.unfinished,
        "entries": entries,
    }


def events(engine: Engine) -> dict[str, Any]:
    """The events of the database (an event a name in a year) with their games, the most played
    first, told apart as the standings tell them (:func:`pdn.db.standings.stored_events`), at
    most :data:`MAX_EVENTS`."""
    found = stored_events(engine, MAX_EVENTS + 1)
    rows = [{"event": name, "year": year, "games": n} for name, year, n in found[:MAX_EVENTS]]
    return {"events": rows, "more": len(found) > MAX_EVENTS}
