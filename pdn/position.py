"""Bitboard positions, legal move generation for every variant, making moves, perft.

Two cores implement the move kernel (generation, counting, perft, playing a move, the digest):
the compiled C kernel (pdn/_kernel.c, built by ``pip install`` where a C compiler is present) and
the pure Python below, its twin and reference. The C kernel runs when it was built;
``PDN_CORE=python`` in the environment, or use_core("python"), selects the twin. Tests hold them
to identical results.
"""

from __future__ import annotations

import hashlib
import os
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from enum import StrEnum
from functools import cache
from typing import Any, NamedTuple

from pdn.board import BLACK, WHITE, Direction, Geometry, geometry
from pdn.variants import Crowning, Precedence, Variant


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


def _bits(x: int) -> Iterator[int]:
    while x:
        low = x & -x
        yield low.bit_length() - 1
        x ^= low


class Position:
    """Men and kings of both sides, the side to move, and the variant (treated as immutable)."""

    __slots__ = ("black_kings", "black_men", "geo", "turn", "variant", "white_kings", "white_men")

    def __init__(
        self,
        variant: Variant,
        white_men: int,
        white_kings: int,
        black_men: int,
        black_kings: int,
        turn: int,
        geo: Geometry | None = None,
    ) -> None:
        self.variant = variant
        self.white_men = white_men
        self.white_kings = white_kings
        self.black_men = black_men
        self.black_kings = black_kings
        self.turn = turn  # WHITE (0) or BLACK (1)
        self.geo = geo or geometry(variant)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Position):
            return NotImplemented
        same = self.variant is other.variant or self.variant == other.variant
        return same and self.hash_key() == other.hash_key()

    def __hash__(self) -> int:
        return hash(self.hash_key())

    def __repr__(self) -> str:
        return f"Position({self.variant.name}, {self.hash_key()})"

    @classmethod
    def start(cls, variant: Variant) -> Position:
        """The variant's initial position."""
        return _start_position(variant)

    @classmethod
    def _initial(cls, variant: Variant) -> Position:
        g = geometry(variant)
        lo, rows = variant.start_rank, variant.men_rows
        white = black = 0
        for s, (_, r) in g.coords.items():
            if lo <= r < lo + rows:
                white |= 1 << s
            elif g.height - lo - rows <= r < g.height - lo:
                black |= 1 << s
        return cls(variant, white, 0, black, 0, WHITE if variant.first == "W" else BLACK)

    @property
    def geometry(self) -> Geometry:
        """The board this position stands on."""
        return self.geo

    @property
    def occupied(self) -> int:
        """Every occupied square."""
        return self.white_men | self.white_kings | self.black_men | self.black_kings

    def pieces(self, color: int) -> tuple[int, int]:
        """Men and kings of one side."""
        if color == WHITE:
            return self.white_men, self.white_kings
        return self.black_men, self.black_kings

    def counts(self) -> Counts:
        """White men, white kings, black men, black kings."""
        return (
            self.white_men.bit_count(),
            self.white_kings.bit_count(),
            self.black_men.bit_count(),
            self.black_kings.bit_count(),
        )

    def digest(self) -> int:
        """A stable signed 64-bit hash of variant, pieces and side to move (for databases)."""
        return _core.digest(self)

    def hash_key(self) -> tuple[int, int, int, int, int]:
        """Everything that identifies the position for repetition."""
        return (self.white_men, self.white_kings, self.black_men, self.black_kings, self.turn)

    def play(self, move: Move) -> Position:
        """The position after *move* (the receiver is unchanged: keep it to unmake)."""
        return _core.play(self, move)

    def legal_moves(self, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
        """Every legal move; captures with the same start and end counted as *duplicates* says."""
        return _core.generate(self, duplicates)

    def _sides(self) -> tuple[int, int, int, int]:
        """Men and kings of the side to move, then of the other side."""
        if self.turn == WHITE:
            return self.white_men, self.white_kings, self.black_men, self.black_kings
        return self.black_men, self.black_kings, self.white_men, self.white_kings

    def captures(self, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
        """The captures the rules allow (precedence applied); empty when there is none."""
        return _core.captures(self, duplicates)

    def has_captures(self) -> bool:
        """Whether the side to move can capture: exactly ``bool(self.captures())``, decided
        without building a move (precedence only chooses among captures, never removes them all).
        """
        return _core.has_captures(self)

    def quiet_move(self, start: int, end: int) -> Move | None:
        """The non-capturing move from *start* to *end*, if the piece there may make it.

        Whether a capture is compulsory instead is for the caller to check (see captures()).
        """
        return _core.quiet_move(self, start, end)

    def moves_between(self, start: int, end: int) -> list[Move]:
        """The legal moves from *start* to *end*: what a move written ``a-b`` or ``axb`` can
        mean. The captures from start to end the rules allow (one per captured set, in generation
        order), then the quiet move, where there is one and capturing is not compulsory.
        """
        return _core.moves_between(self, start, end)

    def has_moves(self) -> bool:
        """Whether the side to move has any legal move."""
        return _core.has_moves(self)

    def with_turn(self, turn: int) -> Position:
        """The same pieces with another side to move."""
        return Position(
            self.variant,
            self.white_men,
            self.white_kings,
            self.black_men,
            self.black_kings,
            turn,
            self.geo,
        )


@cache
def _start_position(variant: Variant) -> Position:
    return Position._initial(variant)


def _shift(x: int, offset: int) -> int:
    return x << offset if offset > 0 else x >> -offset


# -- the pure-Python twin: the reference the C kernel is held to ---------------------------------


def _py_generate(pos: Position, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
    """Legal moves of *pos* under its variant's rules."""
    v = pos.variant
    g = pos.geo
    me = pos.turn
    men, kings, opp_men, opp_kings = pos._sides()
    occupied = men | kings | opp_men | opp_kings
    captures = _captures(g, v, me, men, kings, opp_men, opp_kings, duplicates)
    if captures and not v.capture_optional:
        return captures
    return captures + _quiet(g, me, men, kings, occupied)


def _capturing_men(g: Geometry, me: int, men: int, opp: int, empty: int) -> int:
    """Men that have a short jump: an enemy next to them and an empty square behind it."""
    found = 0
    for o in g.man_jump_offsets[me]:
        if o > 0:
            found |= men & (opp >> o) & (empty >> (o + o))
        else:
            found |= men & (opp << -o) & (empty << -(o + o))
    return found


def _quiet(g: Geometry, me: int, men: int, kings: int, occupied: int) -> list[Move]:
    empty = g.mask & ~occupied
    crown = g.crown_rows[me]
    moves: list[Move] = []
    for d in g.man_dirs[me]:
        o = d.offset
        for t in _bits(_shift(men, o) & empty):
            moves.append(Move((t - o, t), crowns=bool(crown >> t & 1)))
    flying = g.variant.flying_kings
    for s in _bits(kings):
        for d in g.king_dirs:
            for t in d.rays[s]:
                if occupied >> t & 1:
                    break
                moves.append(Move((s, t), by_king=True))
                if not flying:
                    break
    return moves


def _captures(
    g: Geometry,
    v: Variant,
    me: int,
    men: int,
    kings: int,
    opp_men: int,
    opp_kings: int,
    duplicates: Duplicates,
) -> list[Move]:
    opp = opp_men | opp_kings
    occupied = men | kings | opp
    jumpers = _capturing_men(g, me, men, opp, g.mask & ~occupied)
    if not jumpers and not kings:
        return []
    found: list[Move] = []
    crown_row = g.crown_rows[me]
    flying = v.flying_kings
    behind_only = v.king_lands_behind
    at_once = v.remove_at_once
    no_reversal = v.no_reversal
    crowning = v.crowning
    stops = crowning is Crowning.STOP
    promotes = crowning is not Crowning.PASS
    men_take_kings = v.men_capture_kings
    king_dirs = g.king_capture_dirs
    man_dirs = g.man_capture_dirs[me]

    def search(
        sq: int,
        king: bool,
        occ: int,
        alive: int,
        cap: int,
        path: list[int],
        taken: list[int],
        last: Direction | None,
        from_king: bool,
    ) -> bool:
        """Extend a capture from *sq*; record finished moves; True if any jump was possible."""
        any_jump = False
        for d in king_dirs if king else man_dirs:
            if no_reversal and last is not None and d.vector == last.reverse:
                continue
            if king and flying:
                ray = d.rays[sq]
                i, n = 0, len(ray)
                while i < n and not (occ >> ray[i] & 1):
                    i += 1
                if i >= n - 1:
                    continue
                victim = ray[i]
                if not (alive >> victim & 1):
                    continue
                landings = []
                for t in ray[i + 1 :]:
                    if occ >> t & 1:
                        break
                    landings.append(t)
                    if behind_only:
                        break
                if not landings:
                    continue
            else:
                victim = d.step[sq]
                if victim < 0 or not (alive >> victim & 1):
                    continue
                if not king and not men_take_kings and opp_kings >> victim & 1:
                    continue
                land = d.step[victim]
                if land < 0 or occ >> land & 1:
                    continue
                landings = [land]
            any_jump = True
            vbit = 1 << victim
            n_occ = occ & ~vbit if at_once else occ
            n_alive = alive & ~vbit
            n_cap = cap | vbit
            taken.append(victim)
            ends = []
            for land in landings:
                path.append(land)
                if not king and promotes and crown_row >> land & 1:
                    go_on = not stops and search(
                        land, True, n_occ, n_alive, n_cap, path, taken, d, from_king
                    )
                else:
                    go_on = search(land, king, n_occ, n_alive, n_cap, path, taken, d, from_king)
                path.pop()
                if not go_on:
                    ends.append(land)
            if len(ends) == len(landings):  # no landing square lets the capture go on
                order = tuple(taken)
                for land in ends:
                    crowns = not from_king and (king or bool(crown_row >> land & 1))
                    found.append(
                        Move((*path, land), order, crowns, from_king, n_cap, n_cap & opp_kings)
                    )
            taken.pop()
        return any_jump

    for s in _bits(jumpers):
        search(s, False, occupied & ~(1 << s), opp, 0, [s], [], None, False)
    for s in _bits(kings):
        search(s, True, occupied & ~(1 << s), opp, 0, [s], [], None, True)
    if not found:
        return found
    found = _apply_precedence(v.precedence, found)
    if duplicates is Duplicates.PATHS:  # a path and its landing squares determine its victims
        return found
    seen: set[object] = set()
    unique = []
    keep = duplicates is Duplicates.KEEP
    for m in found:
        path = m.path
        k = (path[0], path[-1], m.captured if keep else m.captured_mask)
        if k not in seen:
            seen.add(k)
            unique.append(m)
    return unique


def _frisian_rank(m: Move) -> tuple[int, int, int]:
    """Value first (a king weighs almost two men), then fewer kings, then a king capturing."""
    kings = m.kings_mask.bit_count()
    return (len(m.captured) + kings, -kings, int(m.by_king))


def _italian_rank(m: Move) -> tuple[int, int, int, tuple[int, ...]]:
    """Most pieces, then with a king, then most kings, then the kings met earliest."""
    first_kings = tuple(-i for i, k in enumerate(m.kings_taken) if k)
    return (len(m.captured), int(m.by_king), m.kings_mask.bit_count(), first_kings)


_RANKS: dict[Precedence, Callable[[Move], object]] = {
    Precedence.MAJORITY: lambda m: len(m.captured),
    Precedence.MAJORITY_KINGS: lambda m: (len(m.captured), m.kings_mask.bit_count()),
    Precedence.CZECH: lambda m: int(m.by_king),
    Precedence.ITALIAN: _italian_rank,
    Precedence.FRISIAN: _frisian_rank,
}


def _apply_precedence(rule: Precedence, moves: list[Move]) -> list[Move]:
    rank = _RANKS.get(rule)
    if rank is None:
        return moves
    ranks = [rank(m) for m in moves]
    best = max(ranks)  # type: ignore[type-var]
    return [m for m, r in zip(moves, ranks, strict=True) if r == best]


def _py_count_moves(pos: Position, duplicates: Duplicates = Duplicates.DROP) -> int:
    """len(pos.legal_moves()), counting quiet moves without building them."""
    g = pos.geo
    me = pos.turn
    men, kings, opp_men, opp_kings = pos._sides()
    occupied = men | kings | opp_men | opp_kings
    n = 0
    if kings or _capturing_men(g, me, men, opp_men | opp_kings, g.mask & ~occupied):
        v = pos.variant
        n = len(_captures(g, v, me, men, kings, opp_men, opp_kings, duplicates))
        if n and not v.capture_optional:
            return n
        if kings:
            n += len(_quiet(g, me, 0, kings, occupied))
    empty = g.mask & ~occupied
    for o in g.man_step_offsets[me]:
        n += ((men << o if o > 0 else men >> -o) & empty).bit_count()
    return n


def _py_perft(pos: Position, depth: int, duplicates: Duplicates = Duplicates.DROP) -> int:
    """Number of move sequences of length *depth* from *pos* (draw rules ignored)."""
    if depth <= 0:
        return 1
    if depth == 1:
        return _py_count_moves(pos, duplicates)
    return sum(
        _py_perft(_py_play(pos, m), depth - 1, duplicates) for m in _py_generate(pos, duplicates)
    )


def _py_play(pos: Position, move: Move) -> Position:
    """The position after *move*."""
    a, b = 1 << move.path[0], 1 << move.path[-1]
    cap = move.captured_mask
    men, kings, om, ok = pos._sides()
    if kings & a:
        kings = (kings & ~a) | b
    else:
        men &= ~a
        if move.crowns:
            kings |= b
        else:
            men |= b
    om &= ~cap
    ok &= ~cap
    if pos.turn == WHITE:
        return Position(pos.variant, men, kings, om, ok, BLACK, pos.geo)
    return Position(pos.variant, om, ok, men, kings, WHITE, pos.geo)


def _py_captures(pos: Position, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
    """The captures the rules allow (precedence applied); empty when there is none."""
    men, kings, opp_men, opp_kings = pos._sides()
    if not kings:  # the common case: a man can only take what stands next to it
        g = pos.geo
        opp = opp_men | opp_kings
        if not _capturing_men(g, pos.turn, men, opp, g.mask & ~(men | opp)):
            return []
    return _captures(pos.geo, pos.variant, pos.turn, men, kings, opp_men, opp_kings, duplicates)


def _py_has_captures(pos: Position) -> bool:
    """Whether the side to move can capture (see Position.has_captures).

    A capture exists when a man stands next to an enemy piece it may take (Italian men: not
    a king) in one of its capture directions with the square behind empty, or when the first
    piece along one of a king's capture lines (the next square only, for kings that step) is
    an enemy piece with the square behind it empty.
    """
    men, kings, opp_men, opp_kings = pos._sides()
    g = pos.geo
    v = pos.variant
    opp = opp_men | opp_kings
    occupied = men | kings | opp
    empty = g.mask & ~occupied
    prey = opp if v.men_capture_kings else opp_men
    if men and _capturing_men(g, pos.turn, men, prey, empty):
        return True
    if not kings:
        return False
    if not v.flying_kings:
        for d in g.king_capture_dirs:
            o = d.offset
            if o > 0:
                if kings & (opp >> o) & (empty >> (o + o)):
                    return True
            elif kings & (opp << -o) & (empty << -(o + o)):
                return True
        return False
    for s in _bits(kings):
        for d in g.king_capture_dirs:
            ray = d.rays[s]
            for i, t in enumerate(ray):
                if occupied >> t & 1:
                    if opp >> t & 1 and i + 1 < len(ray) and empty >> ray[i + 1] & 1:
                        return True
                    break
    return False


def _py_quiet_move(pos: Position, start: int, end: int) -> Move | None:
    """The non-capturing move from *start* to *end*, if the piece there may make it."""
    men, kings, opp_men, opp_kings = pos._sides()
    g = pos.geo
    occupied = men | kings | opp_men | opp_kings
    if occupied >> end & 1 or not g.mask >> end & 1:
        return None
    if men >> start & 1:
        if end - start in g.man_step_offsets[pos.turn]:  # ghost columns stop wrap-arounds
            return Move((start, end), crowns=bool(g.crown_rows[pos.turn] >> end & 1))
        return None
    if kings >> start & 1:
        for d in g.king_dirs:
            for t in d.rays[start]:
                if occupied >> t & 1:
                    break
                if t == end:
                    return Move((start, end), by_king=True)
                if not pos.variant.flying_kings:
                    break
    return None


def _py_moves_between(pos: Position, start: int, end: int) -> list[Move]:
    """The legal moves from *start* to *end* (see Position.moves_between)."""
    captures = _py_captures(pos)
    found = [m for m in captures if m.path[0] == start and m.path[-1] == end]
    if captures and not pos.variant.capture_optional:
        return found
    quiet = _py_quiet_move(pos, start, end)
    return found if quiet is None else [*found, quiet]


def _py_digest(pos: Position) -> int:
    """The first 8 bytes of blake2b over "name:(white men, white kings, ..., turn)", signed."""
    text = f"{pos.variant.name}:{pos.hash_key()}".encode()
    return int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big", signed=True)


def _py_has_moves(pos: Position) -> bool:
    """Whether the side to move has any legal move."""
    men, kings, opp_men, opp_kings = pos._sides()
    g = pos.geo
    empty = g.mask & ~(men | kings | opp_men | opp_kings)
    for o in g.man_step_offsets[pos.turn]:
        if (men << o if o > 0 else men >> -o) & empty:
            return True
    for s in _bits(kings):
        for d in g.king_dirs:
            t = d.step[s]
            if t >= 0 and empty >> t & 1:
                return True
    return bool(_py_captures(pos))


def _py_scan(
    positions: Sequence[Position], words: int, digests: bool
) -> tuple[list[int], bytes, list[tuple[int, int, Counts]]]:
    """A game's positions as the database stores them: their digests (where *digests* asks,
    else none); their bitboards packed, per position its white men, white kings, black men and
    black kings as *words* little-endian 64-bit words each, then one byte per position for the
    side to move (none for 0 words); their runs of equal material, (first, length, counts)."""
    hashes = [_py_digest(p) for p in positions] if digests else []
    packed = b""
    if words:
        size = 8 * words
        parts = [
            b"".join(
                board.to_bytes(size, "little")
                for board in (p.white_men, p.white_kings, p.black_men, p.black_kings)
            )
            for p in positions
        ]
        parts.append(bytes(p.turn for p in positions))
        packed = b"".join(parts)
    runs: list[tuple[int, int, Counts]] = []
    for i, pos in enumerate(positions):
        c = pos.counts()
        if runs and runs[-1][2] == c:
            runs[-1] = (runs[-1][0], runs[-1][1] + 1, c)
        else:
            runs.append((i, 1, c))
    return hashes, packed, runs


def _py_move_texts(
    positions: Sequence[Position], moves: Sequence[Move], labels: Sequence[str], separator: str
) -> list[str]:
    """Each move, played in the position before it, in its PDN 3.0 short form: ``a-b`` for a
    quiet move, ``a<separator>b`` for a capture, every square notation.pdn_path writes where
    another capture the rules allow goes from a to b too. *labels*: each square's name, by bit
    index."""
    from pdn.notation import pdn_path  # (notation reads this module)

    texts = []
    for pos, move in zip(positions, moves, strict=False):
        a, b = move.path[0], move.path[-1]
        if not move.captured:
            texts.append(f"{labels[a]}-{labels[b]}")
        elif any(
            m.path[0] == a and m.path[-1] == b and m.captured_mask != move.captured_mask
            for m in _py_captures(pos)
        ):
            texts.append(separator.join(labels[s] for s in pdn_path(pos.geo, move)))
        else:
            texts.append(f"{labels[a]}{separator}{labels[b]}")
    return texts


def _py_push_plain(
    pos: Position,
    moves: list[Sequence[str]],
    i: int,
    names: dict[str, int],
    stack: list[Any],
    history: dict[Any, int],
    quiet: int,
    ended: object,
    runs: object,
    settings: tuple[bool, int, int],
) -> tuple[Position, int, int, bool]:
    """The loop of Board.push_written: from moves[i] on, play each move written with two squares
    *names* knows while exactly one legal move goes between them, recording it as Board.push
    does: ``(move, position before, quiet plies before, runs, ended, key of the position after)``
    on *stack*, the key counted in *history*. *settings*: whether a man's move resets the quiet
    count, the repetitions and the quiet plies that end a game. Returns the position, the index
    of the first move not played, the quiet count, and whether the last move played reached a
    draw (looked for while *ended* is None; the loop stops there).
    """
    man_resets, repetitions, quiet_limit = settings
    n = len(moves)
    while i < n:
        squares = moves[i]
        if len(squares) != 2:
            break
        start, end = names.get(squares[0]), names.get(squares[1])
        if start is None or end is None:
            break
        found = _py_moves_between(pos, start, end)
        if len(found) != 1:
            break
        move = found[0]
        after = _py_play(pos, move)
        key = after.hash_key()
        stack.append((move, pos, quiet, runs, ended, key))
        if (
            move.captured
            or move.crowns
            or (man_resets and pos.pieces(pos.turn)[0] >> move.path[0] & 1)
        ):
            quiet = 0
        else:
            quiet += 1
        seen = history[key] = history.get(key, 0) + 1
        pos = after
        i += 1
        if ended is None and (seen >= repetitions or quiet >= quiet_limit):
            return pos, i, quiet, True
    return pos, i, quiet, False


# -- the cores -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Core:
    """One implementation of the move kernel: the C kernel or its pure-Python twin."""

    name: str  # "c" or "python"
    title: str  # as `pdn --version` says it
    generate: Callable[[Position, Duplicates], list[Move]]
    captures: Callable[[Position, Duplicates], list[Move]]
    count_moves: Callable[[Position, Duplicates], int]
    perft: Callable[[Position, int, Duplicates], int]
    has_moves: Callable[[Position], bool]
    has_captures: Callable[[Position], bool]
    quiet_move: Callable[[Position, int, int], Move | None]
    moves_between: Callable[[Position, int, int], list[Move]]
    play: Callable[[Position, Move], Position]
    digest: Callable[[Position], int]
    push_plain: Callable[
        [
            Position,
            list[Sequence[str]],
            int,
            dict[str, int],
            list[Any],
            dict[Any, int],
            int,
            object,
            object,
            tuple[bool, int, int],
        ],
        tuple[Position, int, int, bool],
    ]
    scan: Callable[
        [Sequence[Position], int, bool], tuple[list[int], bytes, list[tuple[int, int, Counts]]]
    ]
    move_texts: Callable[[Sequence[Position], Sequence[Move], Sequence[str], str], list[str]]


PYTHON = Core(
    "python",
    "pure-Python core",
    _py_generate,
    _py_captures,
    _py_count_moves,
    _py_perft,
    _py_has_moves,
    _py_has_captures,
    _py_quiet_move,
    _py_moves_between,
    _py_play,
    _py_digest,
    _py_push_plain,
    _py_scan,
    _py_move_texts,
)

_CROWNING = (Crowning.STOP, Crowning.CONTINUE, Crowning.PASS)  # as numbered in _kernel.c
_PRECEDENCE = (
    Precedence.FREE,
    Precedence.MAJORITY,
    Precedence.MAJORITY_KINGS,
    Precedence.CZECH,
    Precedence.ITALIAN,
    Precedence.FRISIAN,
)


def _kernel_rules(g: Geometry) -> tuple[object, ...]:
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


def _compiled() -> Core | None:
    """The C kernel, or None when it was not built."""
    try:
        from pdn import _kernel
    except ImportError:
        return None
    _kernel.setup(Move, Position, Duplicates.KEEP, Duplicates.PATHS, _kernel_rules)
    return Core(
        "c",
        "C kernel",
        _kernel.generate,
        _kernel.captures,
        _kernel.count_moves,
        _kernel.perft,
        _kernel.has_moves,
        _kernel.has_captures,
        _kernel.quiet_move,
        _kernel.moves_between,
        _kernel.play,
        _kernel.digest,
        _kernel.push_plain,
        _kernel.scan,
        _kernel.move_texts,
    )


C = _compiled()
CORES: dict[str, Core] = {c.name: c for c in (C, PYTHON) if c is not None}
_core: Core = PYTHON if os.environ.get("PDN_CORE", "").lower() == "python" else C or PYTHON


def core() -> Core:
    """The core in use."""
    return _core


def use_core(name: str) -> Core:
    """Select the core by name ("c" or "python") and return the one it replaces."""
    global _core
    if name not in CORES:
        raise ValueError(f"no {name!r} core here; available: {', '.join(CORES)}")
    previous, _core = _core, CORES[name]
    return previous


def generate(pos: Position, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
    """Legal moves of *pos* under its variant's rules."""
    return _core.generate(pos, duplicates)


def count_moves(pos: Position, duplicates: Duplicates = Duplicates.DROP) -> int:
    """len(pos.legal_moves()), counting quiet moves without building them."""
    return _core.count_moves(pos, duplicates)


def perft(pos: Position, depth: int, duplicates: Duplicates = Duplicates.DROP) -> int:
    """Number of move sequences of length *depth* from *pos* (draw rules ignored).

    >>> from pdn.variants import get_variant
    >>> english = Position.start(get_variant("english"))
    >>> [perft(english, depth) for depth in (1, 2, 3)]  # spec/perft.md: 7, 49, 302
    [7, 49, 302]
    """
    return _core.perft(pos, depth, duplicates)
