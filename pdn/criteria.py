"""What games are selected by: the criteria of `pdn filter` (games in files) and `pdn query`
(games in a database), defined once so that both select the same games.

Text criteria (players, event, site) match when the text occurs in the tag, case and accents
aside (Unicode case folding); with an alias file the players are matched under the names the
file gives them. Positions (``moves``, ``fen``, ``material``, ``pattern``) are looked for in the
main line as replayed: the start position and the position after each ply, up to the first
illegal move of an invalid game.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pdn.game import Game, Outcome
from pdn.players import Aliases
from pdn.replay import Replay
from pdn.search import Material, Pattern, has_material, material_runs, reaches_pattern


class Result(StrEnum):
    """A result asked for, in the words of the variant or of the PDN convention."""

    WHITE = "white"  # White won, whichever side moved first
    BLACK = "black"
    DRAW = "draw"
    UNKNOWN = "unknown"  # no result, "*", or one that is not understood
    FIRST = "first"  # the side that moves first in the variant won (1-0 in any file)
    SECOND = "second"


def winner(game: Game, replay: Replay | None) -> str:
    """ "white", "black", "draw" or "unknown": the result read first-player-first under the
    game's variant (spec/pdn.md §7); unknown for a game that did not parse."""
    outcome = game.outcome
    if outcome is Outcome.DRAW:
        return "draw"
    if replay is None or outcome is Outcome.UNKNOWN:
        return "unknown"
    return game.winner(replay.variant.first) or "unknown"


def contains(value: str | None, text: str) -> bool:
    """Whether *text* occurs in *value*, compared case-folded."""
    return value is not None and text.casefold() in value.casefold()


@dataclass(frozen=True, slots=True)
class Criteria:
    """Every criterion is optional; a game is selected when it meets all that are given."""

    white: str | None = None
    black: str | None = None
    player: str | None = None  # White or Black
    event: str | None = None
    site: str | None = None
    variant: str | None = None
    result: Result | None = None
    year_from: int | None = None  # the year of the Date tag
    year_to: int | None = None
    plies_min: int | None = None  # main-line plies replayed
    plies_max: int | None = None
    valid: bool | None = None
    termination: str | None = None  # win, draw-40-moves, draw-repetition, undecided, ...
    reaches: tuple[int, ...] = ()  # position digests (moves, fen): the game reaches all
    material: Material | None = None
    material_plies: int = 1
    pattern: Pattern | None = None
    aliases: Aliases = field(default_factory=Aliases)

    @property
    def replays(self) -> bool:
        """Whether selecting needs the games replayed (not only their tags)."""
        return bool(
            self.variant or self.plies_min is not None or self.plies_max is not None
            or self.valid is not None or self.termination or self.reaches or self.material
            or self.pattern or self.result
        )  # fmt: skip

    def players(self, game: Game) -> tuple[str | None, str | None]:
        """White and Black as the alias file names them."""
        w, b = game.white, game.black
        return (
            None if w is None else self.aliases.name(w),
            None if b is None else self.aliases.name(b),
        )

    def matches(self, game: Game, replay: Replay | None) -> bool:
        """Whether *game* (with *replay*, None when it did not parse) meets the criteria."""
        white, black = self.players(game)
        if self.white and not contains(white, self.white):
            return False
        if self.black and not contains(black, self.black):
            return False
        if self.player and not (contains(white, self.player) or contains(black, self.player)):
            return False
        if self.event and not contains(game.event, self.event):
            return False
        if self.site and not contains(game.site, self.site):
            return False
        year = game.year
        if self.year_from is not None and (year is None or year < self.year_from):
            return False
        if self.year_to is not None and (year is None or year > self.year_to):
            return False
        if self.result and not self._result(game, replay):
            return False
        if not self.replays:
            return True
        if self.variant and (replay is None or replay.variant.name != self.variant):
            return False
        plies = replay.plies if replay else 0
        if self.plies_min is not None and plies < self.plies_min:
            return False
        if self.plies_max is not None and plies > self.plies_max:
            return False
        if self.valid is not None and (replay is not None and replay.valid) != self.valid:
            return False
        termination = replay.termination if replay else "undecided"
        if self.termination and termination != self.termination:
            return False
        positions = replay.positions if replay else []
        if self.reaches:
            seen = {p.digest() for p in positions}
            if not all(h in seen for h in self.reaches):
                return False
        if self.material and not has_material(
            material_runs(positions), self.material, self.material_plies
        ):
            return False
        return not self.pattern or reaches_pattern(positions, self.pattern)

    def _result(self, game: Game, replay: Replay | None) -> bool:
        if self.result in (Result.FIRST, Result.SECOND):
            return game.outcome.value == self.result.value
        return winner(game, replay) == self.result
