"""Draw rules: the seed rules (the default) and the official federation rules (spec/rules.md §2)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from pdn.rules.variants import Variant


class QuietReset(StrEnum):
    """What restarts the count of moves towards a moves-rule draw."""

    CAPTURE_OR_PROMOTION = "capture-or-promotion"  # seeds: 40 moves without either
    CAPTURE_OR_MAN_MOVE = "capture-or-man-move"  # WCDF, FMJD, Russian: only king moves count


@dataclass(frozen=True, slots=True)
class DrawRules:
    """When a game is drawn by rule."""

    name: str
    quiet_moves: int  # moves by each side; the draw comes after twice as many plies
    reset: QuietReset
    repetitions: int  # the same position, same side to move, this many times

    @property
    def termination(self) -> str:
        """The termination name of a moves-rule draw, e.g. ``draw-40-moves``."""
        return f"draw-{self.quiet_moves}-moves"


SEED = DrawRules("seed", 40, QuietReset.CAPTURE_OR_PROMOTION, 3)

_OFFICIAL = {
    # FMJD: 25 moves by each side with only kings moving and nothing taken
    "international": DrawRules("official", 25, QuietReset.CAPTURE_OR_MAN_MOVE, 3),
    "frisian": DrawRules("official", 25, QuietReset.CAPTURE_OR_MAN_MOVE, 3),
    "canadian": DrawRules("official", 25, QuietReset.CAPTURE_OR_MAN_MOVE, 3),
    "brazilian": DrawRules("official", 25, QuietReset.CAPTURE_OR_MAN_MOVE, 3),
    # Russian federation: 15 moves with only kings moving and nothing taken
    "russian": DrawRules("official", 15, QuietReset.CAPTURE_OR_MAN_MOVE, 3),
    # FID: repetition counts to four
    "italian": DrawRules("official", 40, QuietReset.CAPTURE_OR_MAN_MOVE, 4),
}
# WCDF (English, pool and the rest): 40 moves without a capture and without a man advancing
_WCDF = DrawRules("official", 40, QuietReset.CAPTURE_OR_MAN_MOVE, 3)

RULE_SETS = ("seed", "official")


def draw_rules(name: str, variant: Variant) -> DrawRules:
    """The rule set called *name* (``seed`` or ``official``) for *variant*."""
    if name == "seed":
        return SEED
    if name == "official":
        base = variant.name.removesuffix("-nco")
        return _OFFICIAL.get(base, _WCDF)
    raise ValueError(f"unknown rule set {name!r}; choose one of: {', '.join(RULE_SETS)}")
