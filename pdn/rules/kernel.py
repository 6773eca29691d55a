"""The move kernel's interface: what the compiled C module (pdn/rules/_kernel.c) and its
pure-Python twin (pdn/rules/pykernel.py) both provide, under the same names, and the rule tables
the C module is set up with. pdn/rules/position.py chooses the one in use.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeAlias

from pdn.rules.geometry import BLACK, WHITE, Direction, Geometry
from pdn.rules.move import Counts, Duplicates, HashKey, Move, Squares
from pdn.rules.placement import P
from pdn.rules.variants import Crowning, Precedence

# A move the kernel played for a board (Kernel.push_plain), as Board keeps it to take it back:
# the move, the position before it, the quiet plies before it, the key of the position after it
Pushed: TypeAlias = tuple[Move, P, int, HashKey]


class Kernel(Protocol[P]):
    """Move generation, counting, perft, playing a move, the digest, and a game's rows at once,
    for positions of one class (*P*: Position, which the C kernel is set up with)."""

    name: str  # "c" or "python"
    title: str  # as `pdn --version` says it

    def generate(self, pos: P, duplicates: Duplicates = ..., /) -> list[Move]:
        """Legal moves of *pos* under its variant's rules."""

    def captures(self, pos: P, duplicates: Duplicates = ..., /) -> list[Move]:
        """The captures the rules allow (precedence applied); empty when there is none."""

    def count_moves(self, pos: P, duplicates: Duplicates = ..., /) -> int:
        """len(generate(pos)), counting quiet moves without building them."""

    def perft(self, pos: P, depth: int, duplicates: Duplicates = ..., /) -> int:
        """Number of move sequences of length *depth* from *pos* (draw rules ignored)."""

    def has_moves(self, pos: P, /) -> bool:
        """Whether the side to move has any legal move."""

    def has_captures(self, pos: P, /) -> bool:
        """Whether the side to move can capture."""

    def quiet_move(self, pos: P, start: int, end: int, /) -> Move | None:
        """The non-capturing move from *start* to *end*, if the piece there may make it."""

    def moves_between(self, pos: P, start: int, end: int, /) -> list[Move]:
        """The legal moves from *start* to *end*: what ``a-b`` or ``axb`` can mean."""

    def play(self, pos: P, move: Move, /) -> P:
        """The position after *move*."""

    def digest(self, pos: P, /) -> int:
        """A stable signed 64-bit hash of variant, pieces and side to move."""

    def push_plain(
        self,
        pos: P,
        moves: list[Sequence[str]],
        i: int,
        names: dict[str, int],
        history: dict[HashKey, int],
        quiet: int,
        watch: bool,
        settings: tuple[bool, int, int],
        /,
    ) -> tuple[P, int, int, bool, list[Pushed[P]]]:
        """Board.push_written's loop over moves written with two squares: the records of the
        moves played, for the board to keep (see pykernel.push_plain)."""

    def check_plain(
        self,
        pos: P,
        moves: list[Sequence[str]],
        names: dict[str, int],
        settings: tuple[bool, int, int],
        resolve: Callable[[P, Sequence[str]], Move | None],
        /,
    ) -> tuple[P, int, int, int, int]:
        """Board.push_written's loop from a new board, keeping no record: where it got and the
        first draw by rule (see pykernel.check_plain)."""

    def check_runs(
        self,
        pos: P,
        runs: list[str],
        names: dict[str, int],
        settings: tuple[bool, int, int],
        resolve: Callable[[P, Sequence[str]], Move | None],
        /,
    ) -> tuple[P, int, int, int, int, int]:
        """check_plain over the moves of runs of plain moves, then the number of moves (see
        pykernel.check_runs)."""

    def line_rows(
        self,
        pos: P,
        moves: list[Sequence[str]],
        names: dict[str, int],
        resolve: Callable[[P, Sequence[str]], Move | None],
        count: int,
        words: int,
        labels: Sequence[str],
        separator: str,
        keep: int,
        /,
    ) -> tuple[list[str], list[int], bytes, list[tuple[int, int, Counts]], Squares, list[P]]:
        """A checked main line played and what the database stores of it, no object made for a
        ply (see pykernel.line_rows)."""

    def line_rows_runs(
        self,
        pos: P,
        runs: list[str],
        names: dict[str, int],
        resolve: Callable[[P, Sequence[str]], Move | None],
        count: int,
        words: int,
        labels: Sequence[str],
        separator: str,
        keep: int,
        /,
    ) -> tuple[list[str], list[int], bytes, list[tuple[int, int, Counts]], Squares, list[P]]:
        """line_rows over runs of plain moves (see pykernel.line_rows_runs)."""

    def top_square(self, runs: list[str], /) -> int:
        """The largest square number the moves of runs of plain moves write (see
        pykernel.top_square)."""

    def plain_run(self, text: str, pos: int, /) -> tuple[int, int] | None:
        """Where the reader's lexer finds a PLAIN_RUN token at *pos* (see pyreader.plain_run)."""

    def plain_lines(
        self, lines: list[bytes], odd: bytes | bytearray, i: int, movetext: bool, ended: bool,
        size: int, limit: int, /,
    ) -> tuple[int, bool, bool, int]:  # fmt: skip
        """How far the reader's chunker adds lines to a game's chunk as they are (see
        pyreader.plain_lines)."""

    def scan(
        self, positions: Sequence[P], words: int, digests: bool, /
    ) -> tuple[list[int], bytes, list[tuple[int, int, Counts]], Squares]:
        """A game's positions as the database stores them (see pykernel.scan)."""

    def move_texts(
        self,
        positions: Sequence[P],
        moves: Sequence[Move],
        labels: Sequence[str],
        separator: str,
        /,
    ) -> list[str]:
        """Each move in its PDN 3.0 short form (see pykernel.move_texts)."""


_CROWNING = (Crowning.STOP, Crowning.CONTINUE, Crowning.PASS)  # as numbered in _kernel.c
_PRECEDENCE = (
    Precedence.FREE,
    Precedence.MAJORITY,
    Precedence.MAJORITY_KINGS,
    Precedence.CZECH,
    Precedence.ITALIAN,
    Precedence.FRISIAN,
)


def compiled_tables(g: Geometry) -> tuple[object, ...]:
    """The board and rule row of *g* as the tables the C kernel reads (see rules_parse there).

    Directions are numbered as in g.king_capture_dirs, which holds every direction of travel.
    """
    v = g.variant
    dirs = g.king_capture_dirs
    index = {d.vector: i for i, d in enumerate(dirs)}

    def numbers(ds: tuple[Direction, ...]) -> tuple[int, ...]:
        return tuple(index[d.vector] for d in ds)

    flags = (
        v.flying_kings,
        v.king_lands_behind,
        v.remove_at_once,
        v.no_reversal,
        _CROWNING.index(v.crowning),
        _PRECEDENCE.index(v.precedence),
        v.men_capture_kings,
        v.capture_optional,
    )
    return (
        g.size,
        tuple(d.step for d in dirs),
        tuple(d.offset for d in dirs),
        tuple(index.get(d.reverse, -1) for d in dirs),
        numbers(g.king_dirs),
        numbers(dirs),
        (numbers(g.man_dirs[WHITE]), numbers(g.man_dirs[BLACK])),
        (numbers(g.man_capture_dirs[WHITE]), numbers(g.man_capture_dirs[BLACK])),
        g.mask,
        g.crown_rows,
        tuple(int(f) for f in flags),
    )
