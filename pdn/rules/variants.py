"""One row of rule parameters per variant (spec/rules.md) and the GameType tag (spec/pdn.md §3)."""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from enum import StrEnum


class Precedence(StrEnum):
    """How a player must choose among the available captures."""

    FREE = "free"
    MAJORITY = "majority"
    MAJORITY_KINGS = "majority-kings"
    CZECH = "czech"
    ITALIAN = "italian"
    FRISIAN = "frisian"


class Crowning(StrEnum):
    """What happens when a man reaches the last row during a capture."""

    STOP = "stop"  # crowned, the move ends there
    CONTINUE = "continue"  # crowned at once, goes on capturing as a king
    PASS = "pass"  # stays a man while it goes on; crowned only if it ends there


class Notation(StrEnum):
    """How squares are written."""

    NUMERIC = "numeric"
    ALGEBRAIC = "algebraic"


class Numbering(StrEnum):
    """Where square 1 lies on a numeric board (spec/pdn.md §6)."""

    TOP_LEFT = "top-left"  # International, English, pool, Frisian, Canadian, numeric Russian
    ITALIAN = "italian"  # a8 is square 1, a1 is not playable
    SPANISH = "spanish"  # h1 is square 1, numbered right to left, bottom to top
    THAI = "thai"  # g1 is square 1
    ROWS = "rows"  # Turkish: every square, 1 = a8 ... 64 = h1


@dataclass(frozen=True, slots=True)
class Variant:
    """The rules of one variant, as data the move generator reads."""

    name: str
    title: str
    gametype: int
    width: int
    height: int
    first: str  # "W" or "B": the side that moves first
    men_rows: int
    notation: Notation
    numbering: Numbering
    separator: str = "x"
    light_squares: bool = False  # a1 is not a playing square (Italian, Spanish, Portuguese)
    orthogonal: bool = False  # Turkish: all 64 squares, orthogonal moves
    men_capture_backwards: bool = False
    frisian_orthogonal_captures: bool = False
    flying_kings: bool = True
    king_lands_behind: bool = False  # Thai: a flying king lands directly behind the victim
    remove_at_once: bool = False  # captured pieces leave the board as they are jumped
    no_reversal: bool = False  # Turkish: no 180-degree turn between two jumps
    crowning: Crowning = Crowning.STOP
    precedence: Precedence = Precedence.FREE
    men_capture_kings: bool = True
    capture_optional: bool = False
    start_rank: int = 0  # first rank (0-based) of White's men; Turkish starts on rank 1
    result_style: str = "default"  # "international" for 2-0 / 1-1 / 0-2

    @property
    def squares(self) -> int:
        """Number of playing squares."""
        cells = self.width * self.height
        return cells if self.orthogonal else cells // 2

    def gametype_tag(self) -> str:
        """The long GameType tag value of PDN 3.0."""
        if self.notation is Notation.ALGEBRAIC:
            code = "A0"
        elif self.numbering is Numbering.TOP_LEFT:
            code = "N1" if self.first == "B" else "N2"  # square 1 seen from the side that starts
        else:
            code = _NUMERIC_CODE[self.numbering]
        return (
            f"{self.gametype},{self.first},{self.width},{self.height},{code},"
            f"{int(self.light_squares)}"
        )

    def without_capture_obligation(self) -> Variant:
        """The house rule: capturing is optional (8x8 variants only)."""
        if self.width != 8:
            raise ValueError(f"the no-capture-obligation rule is for 8x8 variants, not {self.name}")
        return replace(self, name=f"{self.name}-nco", capture_optional=True)


_NUMERIC_CODE = {
    Numbering.ITALIAN: "N2",
    Numbering.SPANISH: "N1",
    Numbering.THAI: "N2",
    Numbering.ROWS: "N2",
}

N, A = Notation.NUMERIC, Notation.ALGEBRAIC
TL = Numbering.TOP_LEFT

# fmt: off
VARIANTS: dict[str, Variant] = {
    v.name: v
    for v in (
        Variant(
            "international", "International draughts", 20, 10, 10, "W", 4, N, TL,
            men_capture_backwards=True, crowning=Crowning.PASS, precedence=Precedence.MAJORITY,
            result_style="international",
        ),
        Variant(
            "english", "English draughts / American checkers", 21, 8, 8, "B", 3, N, TL,
            flying_kings=False, remove_at_once=True,
        ),
        Variant(
            "italian", "Italian draughts", 22, 8, 8, "W", 3, N, Numbering.ITALIAN,
            light_squares=True, flying_kings=False, precedence=Precedence.ITALIAN,
            men_capture_kings=False,
        ),
        Variant(
            "pool", "American pool checkers", 23, 8, 8, "B", 3, N, TL,
            men_capture_backwards=True, crowning=Crowning.PASS,
        ),
        Variant(
            "spanish", "Spanish draughts", 24, 8, 8, "W", 3, N, Numbering.SPANISH,
            light_squares=True, precedence=Precedence.MAJORITY_KINGS,
        ),
        Variant(
            "russian", "Russian draughts", 25, 8, 8, "W", 3, A, TL, separator=":",
            men_capture_backwards=True, crowning=Crowning.CONTINUE,
        ),
        Variant(
            "brazilian", "Brazilian draughts", 26, 8, 8, "W", 3, A, TL,
            men_capture_backwards=True, crowning=Crowning.PASS, precedence=Precedence.MAJORITY,
        ),
        Variant(
            "canadian", "Canadian draughts", 27, 12, 12, "W", 5, N, TL,
            men_capture_backwards=True, crowning=Crowning.PASS, precedence=Precedence.MAJORITY,
            result_style="international",
        ),
        Variant(
            "portuguese", "Portuguese draughts", 28, 8, 8, "W", 3, N, Numbering.SPANISH,
            light_squares=True, precedence=Precedence.MAJORITY_KINGS,
        ),
        Variant("czech", "Czech draughts", 29, 8, 8, "W", 3, A, TL, precedence=Precedence.CZECH),
        Variant(
            "turkish", "Turkish draughts", 30, 8, 8, "W", 2, A, TL, orthogonal=True,
            remove_at_once=True, no_reversal=True, crowning=Crowning.PASS,
            precedence=Precedence.MAJORITY, start_rank=1,
        ),
        Variant(
            "thai", "Thai draughts", 31, 8, 8, "B", 2, N, Numbering.THAI, separator="-",
            king_lands_behind=True, remove_at_once=True,
        ),
        Variant(
            "frisian", "Frisian draughts", 40, 10, 10, "W", 4, N, TL,
            men_capture_backwards=True, frisian_orthogonal_captures=True,
            crowning=Crowning.PASS, precedence=Precedence.FRISIAN,
        ),
    )
}
# fmt: on

ALIASES = {
    "american": "english",
    "checkers": "english",
    "draughts": "english",
    "10x10": "international",
    "standard": "international",
    "american-pool": "pool",
    "shashki": "russian",
}

# Numbers from earlier drafts of the GameType table (spec/pdn.md §3.2, damforum 2009).
_OLD_GAMETYPES = {32: "czech"}


class UnknownVariantError(ValueError):
    """A variant name or GameType that this toolkit does not know."""


def get_variant(name: str) -> Variant:
    """The variant called *name* (case-insensitive; aliases and a ``-nco`` suffix accepted).

    >>> russian = get_variant("Russian")  # spec/pdn.md §3.2: GameType 25,W,8,8,A0,0, ':' captures
    >>> russian.gametype, russian.first, russian.width, russian.height, russian.separator
    (25, 'W', 8, 8, ':')
    >>> get_variant("english-nco").capture_optional, get_variant("english").first
    (True, 'B')
    """
    key = name.strip().lower().replace("_", "-").replace(" ", "-")
    optional = key.endswith("-nco") or key.endswith("-no-capture-obligation")
    if optional:
        key = key.removesuffix("-nco").removesuffix("-no-capture-obligation")
    key = ALIASES.get(key, key)
    if key not in VARIANTS:
        known = ", ".join(sorted(VARIANTS))
        raise UnknownVariantError(f"unknown variant {name!r}; known variants: {known}")
    variant = VARIANTS[key]
    return variant.without_capture_obligation() if optional else variant


_GAMETYPE_RE = re.compile(
    r"^\s*(\d+)\s*(?:,\s*([WB?])\s*,\s*(\d+)\s*,\s*(\d+)\s*,\s*([ANS])([0-3])\s*(?:,\s*([01]))?)?"
)


@dataclass(frozen=True, slots=True)
class GameType:
    """A parsed GameType tag value (spec/pdn.md §3.1)."""

    number: int
    start: str | None = None
    width: int | None = None
    height: int | None = None
    notation: str | None = None  # "A0", "N2", ...
    invert: int | None = None

    @classmethod
    def parse(cls, text: str) -> GameType | None:
        """Parse a GameType value; None when it does not start with a number."""
        m = _GAMETYPE_RE.match(text)
        if not m:
            return None
        number, start, width, height, letter, digit, invert = m.groups()
        return cls(
            int(number),
            start,
            int(width) if width else None,
            int(height) if height else None,
            f"{letter}{digit}" if letter else None,
            int(invert) if invert else None,
        )

    def variant(self) -> Variant | None:
        """The variant this GameType names, or None for an unknown number."""
        if self.number == 23 and self.notation and self.notation.startswith("A"):
            return None  # unified or Jamaican pool: not modelled
        if self.number == 21 and self.width == 10:
            return VARIANTS["english"]  # the mistyped "21,B,10,10" of old files
        for v in VARIANTS.values():
            if v.gametype == self.number:
                return v
        old = _OLD_GAMETYPES.get(self.number)
        return VARIANTS[old] if old else None
