"""Moves as the kernel makes them, which capture paths count as moves of their own, and the
squares PDN 3.0 writes for a capture."""

from __future__ import annotations

from enum import StrEnum
from typing import NamedTuple

from pdn.rules.geometry import Geometry


class Move(NamedTuple):
    """A move: every square it stands on, the pieces it takes in order, whether it crowns."""

    path: tuple[int, ...]  # from, each landing square, to (bit indices)
    captured: tuple[int, ...] = ()  # in the order they are jumped
    crowns: bool = False
    by_king: bool = False
    captured_mask: int = 0  # the captured squares as a bitboard
    kings_mask: int = 0  # the captured kings as a bitboard

    @property
    def start(self) -> int:
        """The square the piece leaves."""
        return self.path[0]

    @property
    def end(self) -> int:
        """The square the piece stops on."""
        return self.path[-1]

    @property
    def is_capture(self) -> bool:
        """Whether the move takes pieces."""
        return bool(self.captured)

    @property
    def kings_taken(self) -> tuple[bool, ...]:
        """Per captured piece, in order: was it a king."""
        return tuple(bool(self.kings_mask >> s & 1) for s in self.captured)

    @property
    def key(self) -> tuple[int, int, int]:
        """Start, end and captured set: moves with the same key reach the same position."""
        return (self.path[0], self.path[-1], self.captured_mask)


class Duplicates(StrEnum):
    """Which of several capture paths with the same start and end count as moves of their own."""

    DROP = "drop"  # one per captured set: they reach the same position (perft's default, replay)
    KEEP = "keep"  # one per order of the pieces taken (the published "keep" perft counts)
    PATHS = "paths"  # every path with its own landing squares (matching a move written in full)


Counts = tuple[int, int, int, int]  # white men, white kings, black men, black kings
Squares = tuple[int, int, int, int]  # the same four as bitboards (a bit per square)
HashKey = tuple[int, int, int, int, int]  # Position.hash_key(): the pieces and the side to move


def pdn_path(g: Geometry, move: Move) -> list[int]:
    """The squares PDN 3.0 writes for a capture: the turning squares, else the square behind."""
    path = move.path
    out = [path[0]]
    for i in range(1, len(path) - 1):
        here = g.direction_between(path[i - 1], path[i])
        nxt = g.direction_between(path[i], path[i + 1])
        if here == nxt:
            victim = move.captured[i - 1]
            fv, rv = g.coords[victim]
            behind = (rv + here[1]) * g.stride + fv + here[0]
            out.append(behind)
        else:
            out.append(path[i])
    out.append(path[-1])
    return out
