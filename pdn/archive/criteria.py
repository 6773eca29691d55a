"""What games are selected by: the criteria of `pdn filter` (games in files) and `pdn query`
(games in a database), defined once so that both select the same games.

Text criteria (players, event, site) match when the text occurs in the tag, case aside, every
character taken literally; a text with ``*`` is a pattern the whole tag must match (``*`` any
run of characters); a text after ``=`` is the whole tag, spaces around it and case aside (as
the standings tell events apart: :func:`whole_key`). With an alias file the players are matched
under the names it gives them.
Positions (``moves``, ``fen``, ``material``, ``pattern``) are looked for in the main line as
replayed: the start position and the position after each ply, up to the first
illegal move of an invalid game.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields
from functools import cache
from typing import Any, Self

from pdn.archive.judgement import judged_moves, meets, side_checked
from pdn.archive.openings import play_moves
from pdn.archive.players import Aliases
from pdn.archive.selection import Material, MaterialRun, Pattern, has_material, reaches_pattern
from pdn.game import DeclaredResult, Game
from pdn.replay import Replay
from pdn.rules.draw import EVERY_LABEL, Termination, termination_label
from pdn.rules.fen import parse_fen
from pdn.rules.position import Position
from pdn.rules.variants import VARIANTS, get_variant

RESULT_WORDS = ("white", "black", "draw", "unknown", "first", "second")


def result_refused(text: str) -> str | None:
    """Why *text* is no result to select by, or None: a word of letters alone that is none of
    RESULT_WORDS is a misspelling (read as a result as written, it matched no game, silently);
    anything else is a result as written (1-0, 1/2-1/2, *)."""
    word = text.strip().lower()
    if word.isalpha() and word not in RESULT_WORDS:
        return f"give {', '.join(RESULT_WORDS)}, or a result as written (1-0)"
    return None


def winner(game: Game, variant: str | None) -> str:
    """ "white", "black", "draw" or "unknown": the result read for the side that moves first in
    the game's variant (spec/pdn.md §7: in English 1-0 is a Black win); where the variant is not
    known, the GameType's, else White's."""
    declared = game.declared_variant
    first = get_variant(variant).first if variant else declared.first if declared else "W"
    outcome = game.outcome
    if outcome in (DeclaredResult.DRAW, DeclaredResult.UNKNOWN):
        return outcome.value
    return game.winner(first) or DeclaredResult.UNKNOWN.value


def result_matches(game: Game, variant: str | None, result: str) -> bool:
    """Whether the game has *result*: white, black, draw or unknown (see winner), first or
    second (the side that moves first in the variant, or the other, won), or a result as
    written."""
    word = result.strip().lower()
    if word in ("first", "second"):
        return game.outcome.value == word
    if word in RESULT_WORDS:
        return winner(game, variant) == word
    return game.result == result.strip()


def whole_key(value: str | None) -> str:
    """What a tag is compared by as a whole: without case (Unicode's case folding) and
    surrounding spaces."""
    return (value or "").strip().casefold()


def text_matches(value: str | None, text: str) -> bool:
    """Whether *text* occurs in *value*, case aside; with ``*``, whether *value* matches the
    pattern *text* (``*`` any run of characters); after ``=``, whether *value* is the rest of
    *text* (:func:`whole_key`)."""
    if value is None:
        return False
    if text.startswith("="):
        return whole_key(value) == whole_key(text[1:])
    low, want = value.lower(), text.lower()
    if "*" not in want:
        return want in low
    return re.fullmatch(".*".join(map(re.escape, want.split("*"))), low, re.DOTALL) is not None


@cache
def reached(variant: str, moves: str | None, fen: str | None) -> int:
    """The digest of the position after *moves* from *fen* (or the start) in *variant*;
    raises ValueError (an unknown variant, a bad FEN, an illegal or ambiguous move)."""
    v = get_variant(variant)
    start = parse_fen(fen, v) if fen else Position.start(v)
    played = play_moves(v.name, moves or "", start)
    return (played[-1] if played else start).digest()


_TEXTS = ("white", "black", "player", "event", "site", "variant", "result", "moves", "fen",
          "termination")  # fmt: skip


@dataclass(frozen=True, slots=True)
class Criteria:
    """Every criterion is optional; a game is selected when it meets all that are given.
    ``moves`` and ``fen`` need ``variant``."""

    white: str | None = None
    black: str | None = None
    player: str | None = None  # White or Black
    event: str | None = None
    site: str | None = None
    variant: str | None = None
    result: str | None = None  # see result_matches
    date_from: int | None = None  # the year of the Date tag
    date_to: int | None = None
    moves: str | None = None  # the game reaches the position after these moves (from fen)
    fen: str | None = None  # the game reaches this position (or the one after moves from it)
    plies_min: int | None = None  # main-line plies replayed
    plies_max: int | None = None
    valid: bool | None = None
    termination: str | None = None  # a label of pdn.rules.draw: win, draw-40-moves, as-recorded...
    material: Material | None = None
    material_plies: int = 1
    pattern: Pattern | None = None
    aliases: Aliases | None = None  # players matched under the names these give them
    blunders: str | None = None  # white, black, any: an engine analysis marked such a blunder
    mistakes: str | None = None  # the same for a mistake
    loss_min: float | None = None  # a move that lost at least this many men (in men)

    def __post_init__(self) -> None:
        """A criterion of the wrong kind is a TypeError at once, not a wrong query later:
        ``GameFilter(Criteria(...))`` passes the criteria as the White player's name."""
        for name in _TEXTS:
            value = getattr(self, name)
            if value is not None and not isinstance(value, str):
                kind = type(self).__name__
                hint = (f"; to make a {kind} of Criteria c, {kind}.of(c)"
                        if isinstance(value, Criteria) else "")  # fmt: skip
                raise TypeError(f"{kind}({name}=...) takes a str, not {type(value).__name__}{hint}")

    @classmethod
    def of(cls, criteria: Criteria, **more: Any) -> Self:
        """The criteria of *criteria* in this class (``GameFilter.of(c, distinct_moves=True)``)."""
        given = {f.name: getattr(criteria, f.name) for f in fields(Criteria)}
        return cls(**given, **more)

    @property
    def replays(self) -> bool:
        """Whether selecting needs the games replayed (not only their tags): a game's variant
        decides who won too."""
        return bool(
            self.variant or self.result or self.plies_min is not None
            or self.plies_max is not None or self.valid is not None or self.termination
            or self.moves or self.fen or self.material or self.pattern or self.judged
        )  # fmt: skip

    @property
    def judged(self) -> bool:
        """Whether the criteria ask for an engine's judgement (pdn.archive.judgement)."""
        return bool(self.blunders or self.mistakes or self.loss_min is not None)

    def reached(self) -> int | None:
        """The digest of the position asked for by ``moves`` and ``fen`` (None: no such
        criterion); raises ValueError where they cannot be played."""
        if not (self.moves or self.fen):
            return None
        if not self.variant:
            raise ValueError("--moves and --fen need --variant")
        return reached(self.variant, self.moves, self.fen)

    def check(self) -> None:
        """Raise ValueError (SpecError) for criteria no game can meet as written: --moves or
        --fen that cannot be played, a pattern square or a material count the variant does
        not have, a termination no rule set gives."""
        if self.termination and termination_label(self.termination) not in EVERY_LABEL:
            known = ", ".join(sorted(EVERY_LABEL))
            raise ValueError(f"unknown termination {self.termination!r}; one of: {known}")
        self.reached()
        variant = get_variant(self.variant) if self.variant else None
        if self.pattern is not None:
            self.pattern.check(variant, VARIANTS.values())
        if self.material is not None and variant is not None:
            self.material.check(variant)

    def players(self, game: Game) -> tuple[str | None, str | None]:
        """White and Black as the alias file names them."""
        w, b = game.white, game.black
        if self.aliases is None:
            return w, b
        return (
            None if w is None else self.aliases.name(w),
            None if b is None else self.aliases.name(b),
        )

    def matches(self, game: Game, replay: Replay | None) -> bool:
        """Whether *game* (with *replay*, None when it did not parse; it may be None for any
        game when the criteria need no replay) meets the criteria."""
        white, black = self.players(game)
        if self.white and not text_matches(white, self.white):
            return False
        if self.black and not text_matches(black, self.black):
            return False
        if self.player and not (
            text_matches(white, self.player) or text_matches(black, self.player)
        ):
            return False
        if self.event and not text_matches(game.event, self.event):
            return False
        if self.site and not text_matches(game.site, self.site):
            return False
        year = game.year
        if self.date_from is not None and (year is None or year < self.date_from):
            return False
        if self.date_to is not None and (year is None or year > self.date_to):
            return False
        if not self.replays:
            return True
        variant = replay.variant.name if replay else None
        if self.result and not result_matches(game, variant, self.result):
            return False
        if self.variant and variant != get_variant(self.variant).name:
            return False
        plies = replay.plies if replay else 0
        if self.plies_min is not None and plies < self.plies_min:
            return False
        if self.plies_max is not None and plies > self.plies_max:
            return False
        if self.valid is not None and (replay is not None and replay.valid) != self.valid:
            return False
        termination = replay.termination if replay else Termination.RECORDED.value
        if self.termination and termination != termination_label(self.termination):
            return False
        if self.material and not has_material(
            _material_runs(replay), self.material, self.material_plies
        ):
            return False
        wanted = self.reached()
        positions = replay.positions if replay and (wanted is not None or self.pattern) else []
        if wanted is not None and all(p.digest() != wanted for p in positions):
            return False
        if self.pattern and not reaches_pattern(positions, self.pattern):
            return False
        if not self.judged:
            return True
        found = judged_moves(replay) if replay else []
        return meets(found, side_checked(self.blunders, "--blunders"),
                     side_checked(self.mistakes, "--mistakes"), self.loss_min)  # fmt: skip


def _material_runs(replay: Replay | None) -> list[MaterialRun]:
    """The main line's runs of equal material, as selection.material_runs cuts its positions,
    from the kernel's play (Replay.line_rows): no board built for a game checked without one
    (the board took 0.03 ms of the material filter's 0.12 ms a game of OCA_2.0.pdn)."""
    return [MaterialRun(*run) for run in replay.line_rows(0, 0).runs] if replay else []
