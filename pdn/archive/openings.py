"""Opening names, recognised by the position an opening's moves lead to (so transpositions
find them too).

Three sources, in this order: names a user keeps in a CSV file with the header
``variant,moves,name`` (moves from the variant's start position; lines starting with ``#``
are comments)::

    variant,moves,name
    english,11-15 24-20,My line

the traditional English opening names shipped with the package, each read in a public-domain
source recorded on its line (pdn/data/english_openings.csv: the 1911 Encyclopaedia Britannica,
"Ayrshire Lassie" and "Kelso-Cross"), and the English three-move ballots (``ballot 001`` ...,
pdn/data/3move_english.json). No public-domain source of International opening names was
found, so those come from a user's file.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from functools import cache
from importlib import resources
from pathlib import Path

from pdn.archive.ballots import three_move_ballots
from pdn.board import Board, MoveTextError
from pdn.rules.position import Position
from pdn.rules.variants import UnknownVariantError, get_variant

COLUMNS = ("variant", "moves", "name")
SOURCE_COLUMNS = ("source", "page", "url")  # where each shipped name was read


class OpeningsError(ValueError):
    """An opening-names file that cannot be read, or moves that cannot be played."""


def play_moves(variant: str, moves: str, start: Position | None = None) -> list[Position]:
    """The positions after each move of *moves* (move numbers allowed) from *start* (default:
    the variant's start position), the moves read as a game's are (pdn.board.Board)."""
    board = Board.from_position(start or Position.start(get_variant(variant)))
    for i, text in enumerate(t for t in moves.split() if not t.rstrip(".").isdigit()):
        try:
            board.push(text)
        except MoveTextError as exc:
            raise OpeningsError(f"move {i + 1} ({text}) in {variant}: {exc.reason}") from None
    return board.positions()[1:]


def _named_lines(text: str, where: str, columns: Sequence[str]) -> dict[int, str]:
    """Position digest → name, from the CSV *text* of an opening-names file with *columns*
    (comment lines and blank lines skipped); *where* names it in errors."""
    lines = list(enumerate(csv.reader(io.StringIO(text)), 1))
    rows = [(n, r) for n, r in lines if r and any(r) and not r[0].lstrip().startswith("#")]
    if not rows or [c.strip().lower() for c in rows[0][1]] != list(columns):
        raise OpeningsError(f"{where}: the first line must be the header {','.join(columns)}")
    named: dict[int, str] = {}
    for n, row in rows[1:]:
        if len(row) != len(columns) or not all(c.strip() for c in row[:3]):
            raise OpeningsError(f"{where}:{n}: expected a variant, moves and a name")
        try:
            positions = play_moves(row[0].strip(), row[1])
        except (OpeningsError, UnknownVariantError) as exc:
            raise OpeningsError(f"{where}:{n}: {exc}") from None
        if not positions:
            raise OpeningsError(f"{where}:{n}: no moves for {row[2].strip()!r}")
        named[positions[-1].digest()] = row[2].strip()
    return named


@cache
def traditional_names() -> dict[int, str]:
    """Position digest → traditional opening name, from pdn/data/english_openings.csv."""
    text = resources.files("pdn").joinpath("data/english_openings.csv").read_text("utf-8")
    return _named_lines(text, "pdn/data/english_openings.csv", COLUMNS + SOURCE_COLUMNS)


@dataclass(slots=True)
class OpeningNames:
    """Names of positions (by digest): a user's, the shipped traditional names, and the labels
    of the shipped ballots."""

    names: dict[int, str] = field(default_factory=dict)
    traditional: dict[int, str] = field(default_factory=dict)
    ballots: dict[int, str] = field(default_factory=dict)

    @classmethod
    def shipped(cls) -> OpeningNames:
        """The names shipped with the package: the traditional English names and the English
        three-move ballots."""
        ballots = {h: f"ballot {label.split()[0]}" for h, label in three_move_ballots().items()}
        return cls({}, dict(traditional_names()), ballots)

    def name(self, digest: int) -> str | None:
        """The name of the position with this digest, if it has one."""
        return self.names.get(digest) or self.traditional.get(digest) or self.ballots.get(digest)

    def deepest(self, digests: Sequence[int]) -> str | None:
        """The name of the opening a line plays, from *digests* (its positions in order): the
        name a user gave its last named position, else the traditional name of its last named
        position (the longest that applies), else the label of its ballot."""
        for table in (self.names, self.traditional, self.ballots):
            for digest in reversed(digests):
                if digest in table:
                    return table[digest]
        return None

    def load(self, path: Path) -> OpeningNames:
        """These names with the names of a CSV file added (see the module docstring)."""
        try:
            text = path.read_bytes().decode("utf-8-sig")
        except UnicodeDecodeError as exc:
            raise OpeningsError(f"{path}: not UTF-8 text ({exc.reason})") from None
        self.names.update(_named_lines(text, str(path), COLUMNS))
        return self


def opening_names(files: Iterable[Path] = ()) -> OpeningNames:
    """The shipped names with those of the user's files."""
    names = OpeningNames.shipped()
    for path in files:
        names.load(path)
    return names
