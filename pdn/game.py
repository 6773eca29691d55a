"""The game model: ordered tags, the movetext tree, results, and where each game came from."""

from __future__ import annotations

import html
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from enum import StrEnum
from functools import cache, lru_cache

from pdn.rules.variants import GameType, Variant

# Case-insensitive tag names and their standard spelling (Italian names included, spec/pdn.md §2.3)
TAG_ALIASES = {
    "setup": "SetUp",
    "fen": "FEN",
    "gametype": "GameType",
    "event": "Event",
    "site": "Site",
    "date": "Date",
    "round": "Round",
    "white": "White",
    "black": "Black",
    "result": "Result",
    "bianco": "White",
    "nero": "Black",
    "risultato": "Result",
    "dati": "Event",  # "69° ASSOLUTO 1° TURNO": the event and round
    "anno": "Date",
    "evento": "Event",
    "luogo": "Site",
    "turno": "Round",
    "apertura": "Opening",
    "type de jeu": "GameType",
    "événement": "Event",
}


@lru_cache(maxsize=1024)
def _named_variant(gametype: str) -> Variant | None:
    """The variant a GameType tag's value names (an archive writes the same few values)."""
    gt = GameType.parse(gametype)
    return gt.variant() if gt else None


@cache
def canonical_tag(name: str) -> str:
    """The standard name of a tag written *name* (HTML entities decoded, any case)."""
    plain = html.unescape(name).strip()
    return TAG_ALIASES.get(plain.lower(), plain)


@dataclass(slots=True)
class Tag:
    """One tag pair as written, in file order."""

    name: str
    value: str


class Tags:
    """Ordered tags with case-insensitive, alias-aware lookup."""

    __slots__ = ("_first", "_items")

    def __init__(self, items: list[Tag] | None = None) -> None:
        self._items: list[Tag] = items or []
        self._first: dict[str, Tag] | None = None  # by standard name, the first (made on lookup)

    def __iter__(self):  # type: ignore[no-untyped-def]
        return iter(self._items)

    def __len__(self) -> int:
        return len(self._items)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tags):
            return NotImplemented
        return [(t.name, t.value) for t in self._items] == [(t.name, t.value) for t in other]

    def __repr__(self) -> str:
        return f"Tags({[(t.name, t.value) for t in self._items]!r})"

    def add(self, name: str, value: str) -> None:
        """Append a tag as written."""
        self._items.append(Tag(name, value))
        self._first = None

    def extend(self, pairs: Iterable[tuple[str, str]]) -> None:
        """Append (name, value) pairs as written."""
        self._items += [Tag(name, value) for name, value in pairs]
        self._first = None

    def _lookup(self, name: str) -> Tag | None:
        """The first tag whose standard name is *name*'s."""
        first = self._first
        if first is None:
            first = self._first = {}
            for t in reversed(self._items):
                first[canonical_tag(t.name)] = t
        return first.get(canonical_tag(name))

    def get(self, name: str, default: str | None = None) -> str | None:
        """The value of the first tag whose standard name is *name*'s."""
        tag = self._lookup(name)
        return default if tag is None else tag.value

    def set(self, name: str, value: str) -> None:
        """Replace the first tag called *name*, or append it."""
        tag = self._lookup(name)
        if tag is None:
            self.add(name, value)
        else:
            tag.value = value

    def items(self) -> list[tuple[str, str]]:
        """(name, value) pairs in file order."""
        return [(t.name, t.value) for t in self._items]


class DeclaredResult(StrEnum):
    """What a game's declared result means, whatever way it was written (how the rules ended
    the game is a pdn.rules.draw.Ending)."""

    FIRST = "first"  # the player who moves first at the start of the variant won
    SECOND = "second"
    DRAW = "draw"
    UNKNOWN = "unknown"


Outcome = DeclaredResult  # the former name (public in pdn)


_YEAR = re.compile(r"(1[5-9]\d\d|20\d\d)")
_FIRST_WINS = {"1-0", "2-0", "1:0", "2:0"}
_SECOND_WINS = {"0-1", "0-2", "0:1", "0:2"}
_DRAWS = {"1/2-1/2", "1-1", "1/2:1/2", "½-½", "0.5-0.5", "1:1"}


def outcome(result: str | None) -> DeclaredResult:
    """The meaning of a result string (first-player-first convention, spec/pdn.md §7)."""
    if result is None:
        return DeclaredResult.UNKNOWN
    r = result.strip().replace(" ", "")
    if r in _FIRST_WINS:
        return DeclaredResult.FIRST
    if r in _SECOND_WINS:
        return DeclaredResult.SECOND
    if r in _DRAWS:
        return DeclaredResult.DRAW
    m = re.fullmatch(r"(\d+)-(\d+)", r)  # Delft scoring such as 4-6
    if m and int(m.group(1)) + int(m.group(2)) > 2:
        a, b = int(m.group(1)), int(m.group(2))
        if a == b:
            return DeclaredResult.DRAW
        return DeclaredResult.FIRST if a > b else DeclaredResult.SECOND
    return DeclaredResult.UNKNOWN


@dataclass(slots=True)
class MoveNode:
    """A written move with everything attached to it."""

    text: str  # normalised: no spaces, no leading zeros
    squares: list[str]
    capture: bool  # written with x, X or ':'
    strength: str = ""
    nags: list[int] = field(default_factory=list)
    comments_before: list[str] = field(default_factory=list)
    comments_after: list[str] = field(default_factory=list)
    variations: list[list[Node]] = field(default_factory=list)
    raw: str = field(default="", compare=False)
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(slots=True)
class SetupNode:
    """A /FEN "..."/ command: the position is replaced here."""

    fen: str
    line: int = field(default=0, compare=False)
    column: int = field(default=0, compare=False)


@dataclass(slots=True)
class CommentNode:
    """A comment that belongs to no move (game comments, or text after a setup)."""

    text: str


Node = MoveNode | SetupNode | CommentNode


@dataclass(slots=True)
class Source:
    """Where a game was read from."""

    file: str = "<string>"
    index: int = 0  # 0-based index of the game in the file
    line: int = 1  # first line of the game (1-based)
    offset: int = 0  # byte offset of that line
    encoding: str = "utf-8"


@dataclass(frozen=True, slots=True)
class GameWarning:
    """Something read or replayed that a user should know of, at a line of the game's file
    (and a column when known)."""

    line: int
    column: int | None
    message: str

    def __str__(self) -> str:
        where = f"{self.line}:{self.column}" if self.column is not None else str(self.line)
        return f"line {where}: {self.message}"


def located(line: int, column: int | None, message: str) -> GameWarning:
    """A warning at *line* (and *column*) of a game's file."""
    return GameWarning(line, column, message)


@dataclass(slots=True)
class PdnSyntaxError:
    """A game that could not be parsed, located in its file."""

    file: str
    line: int
    column: int
    game: int  # 0-based index of the game in the file
    text: str  # the offending text
    expected: list[str]
    message: str

    def __str__(self) -> str:
        return f"{self.file}:{self.line}:{self.column}: game {self.game + 1}: {self.message}"


def renumbered_error(text: str, file: str, by: int) -> str:
    """The text of a :class:`PdnSyntaxError` in *file* as it is for the game *by* places on."""
    at = text.index(": game ", len(file))  # after file:line:column, which hold no such text
    number, rest = text[at + 7 :].split(":", 1)
    return f"{text[:at]}: game {int(number) + by}:{rest}"


class Game:
    """One game: tags, movetext, the result written after it, and its source.

    The movetext tree is built on first access of :attr:`body`, so that a reader that only needs
    the tags (listing, indexing, selecting) does not pay for it.
    """

    __slots__ = (
        "_body",
        "_loader",
        "_plies",
        "raw",
        "source",
        "syntax_error",
        "tags",
        "terminator",
        "warnings",
    )

    def __init__(
        self,
        tags: Tags | None = None,
        body: list[Node] | None = None,
        terminator: str | None = None,
        source: Source | None = None,
        loader: Callable[[Game], list[Node]] | None = None,
    ) -> None:
        self.tags = tags if tags is not None else Tags()
        self._body = body if body is not None or loader is not None else []
        self._loader = loader
        # main-line moves: counted while reading, or by the reader when first asked
        self._plies: int | Callable[[], int] | None = None
        self.terminator = terminator  # the result or "*" that ended the movetext
        self.source = source or Source()
        self.warnings: list[GameWarning] = []
        self.syntax_error: PdnSyntaxError | None = None
        self.raw = ""  # the game's text as read, from its first tag to its terminator

    @property
    def body(self) -> list[Node]:
        """The movetext: moves (with their comments and variations), setups, comments."""
        if self._body is None:
            assert self._loader is not None
            self._body = self._loader(self)
            self._loader = None
            if not isinstance(self._plies, int):
                self._plies = None  # counted on the tree from now on: its tokens are let go
        return self._body

    @body.setter
    def body(self, nodes: list[Node]) -> None:
        self._body = nodes
        self._loader = None
        self._plies = None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        # a missing terminator and "*" say the same: the movetext gives no result
        return (self.tags, self.body, self.terminator or "*") == (
            other.tags,
            other.body,
            other.terminator or "*",
        )

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"Game({self.tags!r}, terminator={self.terminator!r}, source={self.source!r})"

    # -- typed accessors ------------------------------------------------------------------

    @property
    def white(self) -> str | None:
        """The White tag."""
        return self.tags.get("White")

    @property
    def black(self) -> str | None:
        """The Black tag."""
        return self.tags.get("Black")

    @property
    def event(self) -> str | None:
        """The Event tag."""
        return self.tags.get("Event")

    @property
    def site(self) -> str | None:
        """The Site tag."""
        return self.tags.get("Site")

    @property
    def round(self) -> str | None:
        """The Round tag."""
        return self.tags.get("Round")

    @property
    def date(self) -> str | None:
        """The Date tag as written."""
        return self.tags.get("Date")

    @property
    def fen(self) -> str | None:
        """The FEN tag."""
        return self.tags.get("FEN")

    @property
    def gametype(self) -> GameType | None:
        """The GameType tag, parsed."""
        raw = self.tags.get("GameType")
        return GameType.parse(raw) if raw else None

    @property
    def declared_variant(self) -> Variant | None:
        """The variant the GameType tag names, if any."""
        raw = self.tags.get("GameType")
        return _named_variant(raw) if raw else None

    @property
    def result(self) -> str | None:
        """The result as written: the Result tag, else the movetext terminator."""
        tag = self.tags.get("Result")
        if tag is not None and tag.strip() not in ("", "?", "*"):
            return tag.strip()
        if self.terminator and self.terminator != "*":
            return self.terminator
        return tag.strip() if tag is not None else None

    @property
    def outcome(self) -> DeclaredResult:
        """What the declared result means: first player won, second player won, draw, unknown."""
        return outcome(self.result)

    def winner(self, first: str) -> str | None:
        """ "white" or "black" for a won game, where *first* ("W" or "B") is the side that moves
        first in the variant: results are read first-player-first (spec/pdn.md §7), so 1-0 in an
        English file is a Black win."""
        second = "W" if first == "B" else "B"
        side = {DeclaredResult.FIRST: first, DeclaredResult.SECOND: second}.get(self.outcome)
        return {"W": "white", "B": "black"}.get(side or "")

    @property
    def year(self) -> int | None:
        """The year of the Date tag, best effort."""
        m = _YEAR.search(self.date or "")
        return int(m.group(1)) if m else None

    def mainline(self) -> list[MoveNode]:
        """The moves of the main line."""
        return [n for n in self.body if isinstance(n, MoveNode)]

    def ply_count(self) -> int:
        """How many moves the main line holds: ``len(self.mainline())``, counted while reading
        when the movetext has not been built (or was not kept: ``headers_only``)."""
        if self._plies is None or (self._loader is None and self._body):
            return len(self.mainline())
        if not isinstance(self._plies, int):
            self._plies = self._plies()
        return self._plies
