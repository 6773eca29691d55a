"""An event's standings and crosstable from its games: points in the event's own scoring,
games, wins, draws, losses, and the tie-breaks Sonneborn-Berger, head to head and wins.

Scoring: 2-1-0 where the event writes its results 2-0, 1-1, 0-2 (the FMJD's way, as most
10x10 events do), else 1-½-0; the form most of its results are written in decides. A game
without a result (``*``, ``?``) counts for nothing and is reported apart."""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

from pdn.archive.criteria import whole_key
from pdn.archive.identity import Same, game_identity
from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, no_index, replay_paths
from pdn.game import Game
from pdn.replay import Replay

TWO_POINT_RESULTS = frozenset({"2-0", "1-1", "0-2"})


@dataclass(frozen=True, slots=True)
class EventGame:
    """What standings need of one game: its players, who won (``white``, ``black``, ``draw``
    or ``unknown``) and its result as written."""

    white: str
    black: str
    winner: str
    result: str
    key: str = ""  # the record's identity: a copy of a game read before counts once


@dataclass(frozen=True, slots=True)
class EventChoice:
    """Which games make the event: by Event tag, Site tag and year (each None: any); names are
    compared without case and surrounding spaces."""

    event: str | None = None
    site: str | None = None
    year: int | None = None

    def matches(self, event: str | None, site: str | None, year: int | None) -> bool:
        """A game with these tags belongs to the event."""
        return (
            _same(self.event, event)
            and _same(self.site, site)
            and (self.year is None or self.year == year)
        )


def _same(wanted: str | None, value: str | None) -> bool:
    return wanted is None or whole_key(value) == whole_key(wanted)


@dataclass(slots=True)
class Entry:
    """One player's line of the standings."""

    player: str
    games: int = 0
    wins: int = 0
    draws: int = 0
    losses: int = 0
    points: float = 0.0
    sonneborn_berger: float = 0.0
    head_to_head: float = 0.0  # points against the players with as many points
    rank: int = 0
    against: dict[str, float] = field(default_factory=dict)  # points scored against each


@dataclass(slots=True)
class Standings:
    """The standings, best first, and the points a win and a draw are worth."""

    entries: list[Entry]
    win: float
    draw: float
    unfinished: int  # games without a result, not counted

    def crosstable(self) -> Iterator[list[float | str]]:
        """For each entry, what it scored against each entry by rank (``x`` on itself, empty
        where they did not meet)."""
        for e in self.entries:
            yield ["x" if o is e else e.against.get(o.player, "") for o in self.entries]


def points_text(points: float) -> str:
    """``3``, ``2½``, ``½``; a Sonneborn-Berger of quarters as ``57¾`` (as ``57.75`` before,
    beside ``40½``); any other fraction as a decimal."""
    whole, rest = int(points), points - int(points)
    fraction = _FRACTIONS.get(rest)
    if fraction is not None:
        return ("" if whole == 0 else str(whole)) + fraction
    return str(whole) if rest == 0 else f"{points:g}"


_FRACTIONS = {0.25: "¼", 0.5: "½", 0.75: "¾"}  # exact in binary: the sums of halves keep them


def event_game(game: Game, replay: Replay | None, choice: EventChoice) -> EventGame | None:
    """The game as standings need it, if it belongs to the event *choice* says."""
    if not choice.matches(game.event, game.site, game.year):
        return None
    first = replay.variant.first if replay else "W"
    outcome = game.outcome.value
    winner = "draw" if outcome == "draw" else game.winner(first) or "unknown"
    name = (game.white or "?").strip(), (game.black or "?").strip()
    key = game_identity(game, replay).key(Same.COPIES) or ""
    return EventGame(name[0], name[1], winner, (game.result or "*").replace(" ", ""), key)


def event_games(
    paths: Iterable[str | Path],
    choice: EventChoice,
    variant: str | None = None,
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
) -> list[EventGame]:
    """The games of the event under *paths*, each replayed to know its variant (whose first
    player a result's first score is for); a copy of a game read before (the same record, as
    import tells copies) is left out, as the database stores it once."""
    work = partial(event_game, choice=choice)
    found = replay_paths(paths, work, Options(variant), workers, progress, on_problem, no_index)
    seen: set[str] = set()
    out = []
    for g in found:
        if g is not None and (not g.key or g.key not in seen):
            seen.add(g.key)
            out.append(g)
    return out


def standings(games: Iterable[EventGame]) -> Standings:
    """The standings of an event's games, ranked by points, then Sonneborn-Berger (the points
    of the players beaten plus half those of the players drawn with), then head to head (the
    points scored against the players with as many points), then wins; equal on all four,
    equal rank."""
    every = list(games)
    played = [g for g in every if g.winner != "unknown"]
    forms = Counter(g.result in TWO_POINT_RESULTS for g in played)
    win, draw = (2.0, 1.0) if forms[True] > forms[False] else (1.0, 0.5)
    table: dict[str, Entry] = {}
    results: list[tuple[str, str, float, float]] = []  # white, black and what each scored
    for g in played:
        w = table.setdefault(g.white, Entry(g.white))
        b = table.setdefault(g.black, Entry(g.black))
        scores = {"white": (win, 0.0), "black": (0.0, win), "draw": (draw, draw)}[g.winner]
        for entry, mine, theirs in ((w, *scores), (b, scores[1], scores[0])):
            entry.games += 1
            entry.points += mine
            entry.wins += mine > theirs
            entry.draws += mine == theirs
            entry.losses += mine < theirs
        results.append((g.white, g.black, *scores))
    for white, black, sw, sb in results:
        for me, other, mine in ((white, black, sw), (black, white, sb)):
            entry = table[me]
            entry.against[other] = entry.against.get(other, 0.0) + mine
            entry.sonneborn_berger += mine / win * table[other].points
    level: dict[float, set[str]] = defaultdict(set)
    for e in table.values():
        level[e.points].add(e.player)
    for e in table.values():
        rivals = level[e.points] - {e.player}
        e.head_to_head = sum(p for o, p in e.against.items() if o in rivals)

    def key(e: Entry) -> tuple[float, float, float, int]:
        return (e.points, e.sonneborn_berger, e.head_to_head, e.wins)

    entries = sorted(table.values(), key=lambda e: (*(-k for k in key(e)), e.player))
    for i, e in enumerate(entries):
        e.rank = entries[i - 1].rank if i and key(entries[i - 1]) == key(e) else i + 1
    return Standings(entries, win, draw, len(every) - len(played))
