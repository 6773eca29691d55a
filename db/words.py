"""The games table's columns of a few known words (a game's variant, its result, its ending),
stored as small numbers: each word's place in its column's list (schema 15; a SMALLINT, which
SQLite's records hold in a byte or none, where the word took 4 to 26 bytes, in the table and
in the indexes on variant and year). The lists only grow: a word keeps its number."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Dialect, SmallInteger, TypeDecorator
from sqlalchemy.sql.operators import OperatorType

OUTCOMES = ("first", "second", "draw", "unknown")  # pdn.game.DeclaredResult
WINNERS = ("white", "black", "draw", "unknown")  # pdn.archive.criteria.winner
SOURCES = ("gametype", "option", "notation")  # pdn.replay.Replay.variant_source
RULES = ("common", "official")  # pdn.rules.draw.RULE_SETS
ENDINGS = (  # pdn.rules.draw.LABELS: the rule that ended a game
    "as-recorded", "win", "draw-repetition", "draw-40-moves", "draw-25-moves", "draw-15-moves",
    "draw-16-moves", "draw-5-moves", "draw-2-kings-7-moves", "draw-3-kings-15-moves",
    "draw-3-kings-main-diagonal", "draw-30-moves-4-5-pieces", "draw-60-moves-6-7-pieces",
)  # fmt: skip
_BOARDS = (  # pdn.rules.variants.VARIANTS, each also without capture obligation (-nco)
    "international", "english", "italian", "pool", "spanish", "russian", "brazilian",
    "canadian", "portuguese", "czech", "turkish", "thai", "frisian",
)  # fmt: skip
VARIANT_NAMES = (*_BOARDS, *(f"{name}-nco" for name in _BOARDS))
OLD_WORDS = {"undecided": "as-recorded", "seed": "common"}  # written by schemas before 15


class UnknownWord(ValueError):
    """A word a coded column has no number for."""


class Coded(TypeDecorator[str]):
    """A column of the *words* given, each stored as its place among them. Writing another
    word raises UnknownWord; comparing the column with one finds no row (a filter of a word
    no game has). A word read as it is (a row of a schema before 15, which the migration's
    earlier steps read) is given as it is."""

    impl = SmallInteger
    cache_ok = True

    def __init__(self, words: tuple[str, ...], strict: bool = True) -> None:
        super().__init__()
        self.words = words
        self.strict = strict
        self.numbers = {word: i for i, word in enumerate(words)}

    def process_bind_param(self, value: str | None, dialect: Dialect) -> int | None:
        """The number of the word *value*."""
        if value is None:
            return None
        number = self.numbers.get(value)
        if number is not None:
            return number
        if self.strict:
            raise UnknownWord(f"{value!r} is not one of the words the column holds")
        return -1  # no row holds it

    def process_result_value(self, value: Any, dialect: Dialect) -> str | None:
        """The word stored as *value*."""
        return value if value is None or isinstance(value, str) else self.words[value]

    def coerce_compared_value(self, op: OperatorType | None, value: Any) -> Coded:
        """A word compared with the column: one no row holds matches none."""
        return Coded(self.words, strict=False)


def coded(row: dict[str, Any], columns: dict[str, Coded]) -> dict[str, Any]:
    """*row* with the words of *columns* as their numbers (for writing through the driver,
    which no column type sees)."""
    out = dict(row)
    for name, kind in columns.items():
        if name in out:
            out[name] = kind.process_bind_param(out[name], None)  # type: ignore[arg-type]
    return out
