"""Opening names, recognised by the position an opening's moves lead to (so transpositions
find them too).

Two sources: the English three-move ballots shipped with the package (``ballot 001`` ...,
pdn/data/3move_english.json), and names a user keeps in a CSV file with the header
``variant,moves,name`` (moves from the variant's start position; lines starting with ``#``
are comments)::

    variant,moves,name
    english,11-15 24-20,Ayrshire Lassie

No table of the traditional opening names (English two-move names, International opening
names) was found under a licence that allows shipping it, so those names come from such a file.
"""

from __future__ import annotations

import csv
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from pdn.archive.ballots import three_move_ballots
from pdn.board import Board, MoveTextError
from pdn.rules.position import Position
from pdn.rules.variants import UnknownVariantError, get_variant


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


@dataclass(slots=True)
class OpeningNames:
    """Names of positions (by digest): a user's, and the labels of the shipped ballots."""

    names: dict[int, str] = field(default_factory=dict)
    ballots: dict[int, str] = field(default_factory=dict)

    @classmethod
    def shipped(cls) -> OpeningNames:
        """The names shipped with the package: the English three-move ballots."""
        return cls(
            {}, {h: f"ballot {label.split()[0]}" for h, label in three_move_ballots().items()}
        )

    def name(self, digest: int) -> str | None:
        """The name of the position with this digest, if it has one."""
        return self.names.get(digest) or self.ballots.get(digest)

    def deepest(self, digests: Sequence[int]) -> str | None:
        """The name of the opening a line plays, from *digests* (its positions in order): the
        name a user gave its last named position, else the label of its ballot."""
        for table in (self.names, self.ballots):
            for digest in reversed(digests):
                if digest in table:
                    return table[digest]
        return None

    def add(self, variant: str, moves: str, name: str) -> None:
        """Name the position after *moves* in *variant*."""
        positions = play_moves(variant, moves)
        if not positions:
            raise OpeningsError(f"no moves for {name!r}")
        self.names[positions[-1].digest()] = name

    def load(self, path: Path) -> OpeningNames:
        """These names with the names of a CSV file added (see the module docstring)."""
        try:
            with path.open(encoding="utf-8-sig", newline="") as fh:
                lines = [(n, row) for n, row in enumerate(csv.reader(fh), 1)]
        except UnicodeDecodeError as exc:
            raise OpeningsError(f"{path}: not UTF-8 text ({exc.reason})") from None
        rows = [(n, r) for n, r in lines if r and any(r) and not r[0].lstrip().startswith("#")]
        if not rows or [c.strip().lower() for c in rows[0][1]] != ["variant", "moves", "name"]:
            raise OpeningsError(f"{path}: the first line must be the header variant,moves,name")
        for n, row in rows[1:]:
            if len(row) != 3 or not all(c.strip() for c in row):
                raise OpeningsError(f"{path}:{n}: expected a variant, moves and a name")
            try:
                self.add(row[0].strip(), row[1], row[2].strip())
            except (OpeningsError, UnknownVariantError) as exc:
                raise OpeningsError(f"{path}:{n}: {exc}") from None
        return self


def opening_names(files: Iterable[Path] = ()) -> OpeningNames:
    """The shipped names with those of the user's files."""
    names = OpeningNames.shipped()
    for path in files:
        names.load(path)
    return names
