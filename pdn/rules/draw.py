"""Draw rules as data, by federation, each with its source (docs/rules.md), and the endings they
give: the common rules (the default, spec/rules.md §2) and the official rules of each federation.

>>> from pdn.rules.variants import get_variant
>>> rules = draw_rules("official", get_variant("international"))
>>> [(r.label, r.ends_game) for r in rules.rules]  # doctest: +NORMALIZE_WHITESPACE
[('draw-repetition', True), ('draw-25-moves', True), ('draw-16-moves', True),
 ('draw-5-moves', True)]
"""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum

from pdn.rules.geometry import Color
from pdn.rules.variants import Variant


class Termination(StrEnum):
    """How a game ended: what kind of rule ended it (Ending.label names the rule itself)."""

    WIN = "win"  # the side to move has no legal move: it lost
    REPETITION = "repetition"  # the same position, same side to move, for the n-th time
    MOVES_RULE = "moves-rule"  # so many moves without a capture (and, per the rules, more)
    ENDGAME = "endgame"  # an ending of few pieces not won within so many moves
    RECORDED = "as-recorded"  # no rule ended it: the moves end and the result tag says how


@dataclass(frozen=True, slots=True)
class Ending:
    """How and when a game ended."""

    termination: Termination
    winner: Color | None  # None for a draw
    ply: int  # the number of plies played when it ended
    label: str  # as reports name it: "win", "draw-40-moves" (the rule's count), "draw-repetition"
    rule: DrawRule | None = field(default=None, compare=False)  # the draw rule, for a draw

    def text(self) -> str:
        """The ending as the CLI, the report and the page say it."""
        return ending_text(self.label)


class QuietReset(StrEnum):
    """What restarts the count of moves towards a moves-rule draw."""

    CAPTURE_OR_PROMOTION = "capture-or-promotion"  # common rules: 40 moves without either
    CAPTURE_OR_MAN_MOVE = "capture-or-man-move"  # WCDF, FMJD, Russian: only king moves count


@dataclass(frozen=True, slots=True)
class DrawRule:
    """One draw rule of a rule book.

    A repetition rule counts *repetitions*; a moves rule counts *moves* by each side without a
    capture (nor what *reset* names); an endgame rule applies while one side has a lone king
    and the other one of the *strong* material counts (men, kings), or, with *both_kings*, while
    both sides have kings and the pieces on the board number within *pieces*; its count starts
    where that material (and, with *main_diagonal*, the lone king standing on a1-h8) began and
    runs *moves* moves by each side, or by the stronger side with *by_strong_side*.
    """

    label: str  # the name reports give the draw: "draw-repetition", "draw-25-moves", ...
    kind: Termination
    source: str  # the rule book and its article
    ends_game: bool  # True: the game is drawn there by itself; False: a player may claim it
    moves: int = 0
    repetitions: int = 0
    reset: QuietReset = QuietReset.CAPTURE_OR_MAN_MOVE
    strong: frozenset[tuple[int, int]] = frozenset()
    both_kings: bool = False
    pieces: tuple[int, int] = (0, 0)
    main_diagonal: bool = False
    by_strong_side: bool = False

    def applies(self, material: tuple[int, int, int, int]) -> bool:
        """Whether this endgame rule counts in a position of *material*: white men, white
        kings, black men, black kings."""
        wm, wk, bm, bk = material
        if self.both_kings:
            low, high = self.pieces
            return bool(wk and bk) and low <= wm + wk + bm + bk <= high
        return ((bm, bk) == (0, 1) and (wm, wk) in self.strong) or (
            (wm, wk) == (0, 1) and (bm, bk) in self.strong
        )

    def deadline(self, start: int, material: tuple[int, int, int, int], turn: int) -> int:
        """The ply at which the count that began at ply *start* (*turn* to move there) draws."""
        if not self.by_strong_side:
            return start + 2 * self.moves
        strong = Color.BLACK if material[:2] == (0, 1) else Color.WHITE
        return start + 2 * self.moves - (1 if turn == strong else 0)


def _repetition(source: str, ends_game: bool, times: int = 3) -> DrawRule:
    return DrawRule("draw-repetition", Termination.REPETITION, source, ends_game, repetitions=times)


def _moves(source: str, ends_game: bool, moves: int, reset: QuietReset) -> DrawRule:
    return DrawRule(
        f"draw-{moves}-moves", Termination.MOVES_RULE, source, ends_game, moves, reset=reset
    )


def _material(*counts: tuple[int, int]) -> frozenset[tuple[int, int]]:
    return frozenset(counts)


@dataclass(frozen=True, slots=True)
class DrawRules:
    """A rule set: its draw rules, as one federation's book (or the common rules) has them."""

    name: str  # "common" or "official"
    federation: str  # whose book: "FMJD", "Russian draughts federation", ...
    rules: tuple[DrawRule, ...] = ()
    _by_kind: dict[Termination, tuple[DrawRule, ...]] = field(
        default_factory=dict, compare=False, repr=False
    )

    def __post_init__(self) -> None:
        for kind in Termination:
            self._by_kind[kind] = tuple(r for r in self.rules if r.kind is kind)

    @property
    def repetition(self) -> DrawRule | None:
        """The repetition rule, if the set has one."""
        found = self._by_kind[Termination.REPETITION]
        return found[0] if found else None

    @property
    def moves_rule(self) -> DrawRule | None:
        """The moves rule, if the set has one."""
        found = self._by_kind[Termination.MOVES_RULE]
        return found[0] if found else None

    @property
    def endgame(self) -> tuple[DrawRule, ...]:
        """The endgame rules."""
        return self._by_kind[Termination.ENDGAME]

    @property
    def quiet_moves(self) -> int:
        """Moves by each side that the moves rule counts (0 without one)."""
        rule = self.moves_rule
        return rule.moves if rule else 0


def simple_rules(name: str, quiet_moves: int, reset: QuietReset, repetitions: int) -> DrawRules:
    """A rule set of a moves rule and a repetition rule, both ending the game by themselves."""
    source = f"rule set {name}"
    return DrawRules(
        name,
        name,
        (_repetition(source, True, repetitions), _moves(source, True, quiet_moves, reset)),
    )


_SPEC = "spec/rules.md §2 (the site's rules)"
COMMON = DrawRules(
    "common",
    "the common rules",
    (
        _repetition(_SPEC, True),
        _moves(_SPEC, True, 40, QuietReset.CAPTURE_OR_PROMOTION),
    ),
)

_FMJD = "FMJD Annex 1 (official rules of international draughts), art. 6"
FMJD = DrawRules(
    "official",
    "FMJD",
    (
        _repetition(f"{_FMJD}: the same position the third time", True),
        _moves(f"{_FMJD}: 25 moves by kings only", True, 25, QuietReset.CAPTURE_OR_MAN_MOVE),
        DrawRule(
            "draw-16-moves", Termination.ENDGAME, f"{_FMJD}: 3 pieces against a lone king", True,
            16, strong=_material((0, 3), (1, 2), (2, 1)),
        ),
        DrawRule(
            "draw-5-moves", Termination.ENDGAME, f"{_FMJD}: 2 pieces or 1 against a lone king",
            True, 5, strong=_material((0, 2), (1, 1), (0, 1)),
        ),
    ),
)  # fmt: skip

_RUS = "Russian draughts federation rules (Minsport «шашки»), drawn endings"
RUSSIAN = DrawRules(
    "official",
    "Russian draughts federation",
    (
        _repetition(f"{_RUS}: the same position the third time", True),
        _moves(f"{_RUS}: 15 moves by kings only", True, 15, QuietReset.CAPTURE_OR_MAN_MOVE),
        DrawRule(
            "draw-3-kings-main-diagonal", Termination.ENDGAME,
            f"{_RUS}: 3 kings or more against a lone king on the main diagonal", True, 5,
            strong=_material(*((0, k) for k in range(3, 13))), main_diagonal=True,
            by_strong_side=True,
        ),
        DrawRule(
            "draw-3-kings-15-moves", Termination.ENDGAME,
            f"{_RUS}: 3 kings or more against a lone king", True, 15,
            strong=_material(*((0, k) for k in range(3, 13))), by_strong_side=True,
        ),
        DrawRule(
            "draw-30-moves-4-5-pieces", Termination.ENDGAME,
            f"{_RUS}: both sides with kings, 4 or 5 pieces, the forces unchanged", True, 30,
            both_kings=True, pieces=(4, 5),
        ),
        DrawRule(
            "draw-60-moves-6-7-pieces", Termination.ENDGAME,
            f"{_RUS}: both sides with kings, 6 or 7 pieces, the forces unchanged", True, 60,
            both_kings=True, pieces=(6, 7),
        ),
    ),
)  # fmt: skip

_WCDF_BOOK = "WCDF rules of checkers, the drawn game"
WCDF = DrawRules(
    "official",
    "WCDF",
    (
        _repetition(f"{_WCDF_BOOK}: the same position the third time, on a claim", False),
        _moves(
            f"{_WCDF_BOOK}: 40 moves each without a capture or a man advancing, on a claim",
            False, 40, QuietReset.CAPTURE_OR_MAN_MOVE,
        ),
    ),
)  # fmt: skip

_FID = "FID (Italian federation) rules, as spec/rules.md §2 gives them"
FID = DrawRules(
    "official",
    "FID",
    (
        _repetition(f"{_FID}: the same position the fourth time", True, 4),
        _moves(f"{_FID}: 40 moves without a capture or a man moving", True, 40,
               QuietReset.CAPTURE_OR_MAN_MOVE),
    ),
)  # fmt: skip

_KNDB = "KNDB Frisian rules"
FRISIAN = DrawRules(
    "official",
    "KNDB (Frisian)",
    (
        _repetition(f"{_KNDB}: the same position the third time", True),
        _moves(f"{_KNDB}: 25 moves by kings only (as FMJD)", True, 25,
               QuietReset.CAPTURE_OR_MAN_MOVE),
        DrawRule(
            "draw-2-kings-7-moves", Termination.ENDGAME,
            f"{_KNDB}: 2 kings against a lone king, 7 moves of the stronger side", True, 7,
            strong=_material((0, 2)), by_strong_side=True,
        ),
    ),
)  # fmt: skip

_OFFICIAL = {
    "international": FMJD,
    "canadian": FMJD,
    "brazilian": FMJD,
    "frisian": FRISIAN,
    "russian": RUSSIAN,
    "italian": FID,
}

RULE_SETS = ("common", "official")
ALIASES = {"seed": "common"}  # the common rules were first called after the project's seeds
OLD_LABELS = {"undecided": Termination.RECORDED.value}  # the former name of "as-recorded"

# Every label a rule set here can give, by kind (a report groups the draws by these)
_SETS = (COMMON, FMJD, RUSSIAN, WCDF, FID, FRISIAN)
LABELS: dict[Termination, frozenset[str]] = {
    kind: frozenset(r.label for rules in _SETS for r in rules.rules if r.kind is kind)
    for kind in Termination
}
LABELS[Termination.WIN] = frozenset({Termination.WIN.value})
LABELS[Termination.RECORDED] = frozenset({Termination.RECORDED.value})
EVERY_LABEL = frozenset().union(*LABELS.values())


def termination_label(name: str) -> str:
    """A termination as reports and the database name it: a former name read as today's."""
    return OLD_LABELS.get(name, name)


def draw_rules(name: str, variant: Variant) -> DrawRules:
    """The rule set called *name* (``common``, its old name ``seed``, or ``official``) for
    *variant*; variants whose federation's book is not read here get WCDF's rules."""
    name = ALIASES.get(name, name)
    if name == "common":
        return COMMON
    if name == "official":
        return _OFFICIAL.get(variant.name.removesuffix("-nco"), WCDF)
    choices = ", ".join((*RULE_SETS, *ALIASES))
    raise ValueError(f"unknown rule set {name!r}; choose one of: {choices}")


def ending_text(label: str) -> str:
    """How the CLI, the report and the page say the ending *label* (one vocabulary)."""
    if label == Termination.WIN:
        return "won: the side to move has no legal move"
    if label == Termination.RECORDED:
        return "as recorded: no rule ended the game, the result tag says how it ended"
    for rule in (r for rules in _SETS for r in rules.rules if r.label == label):
        if rule.kind is Termination.REPETITION:
            return "draw by repetition of the position"
        if rule.kind is Termination.ENDGAME:
            return f"draw by the endgame rule ({rule.source.split(': ', 1)[-1]})"
    moves = label.removeprefix("draw-").removesuffix("-moves")
    if moves.isdigit():
        return f"draw by the {moves}-move rule"
    return label


def endings() -> dict[str, str]:
    """Every ending label a rule set here gives, with the words that say it."""
    return {label: ending_text(label) for kind in Termination for label in sorted(LABELS[kind])}
