"""The built-in engine's search in pure Python: the twin and reference of the C search
(pdn/engine/_search.c), node for node.

Iterative deepening over a principal variation search (negamax alpha-beta, the first move with
the full window, the others with a null window and searched again when they beat it):

- a transposition table of ``2 ** TT_BITS`` entries indexed by the position's Zobrist hash
  with the counts of the draw rules (:func:`table_key`; always replaced; probed and written
  where depth > 0; its bound cuts off outside the principal variation only), fresh or kept
  from the engine's searches before (a game's);
- captures searched to quiet positions (at depth 0 a position with a capture goes on with its
  captures; under the house rule, where capturing is optional, the side to move may also stand
  on the evaluation); a quiet position at depth 0 where the other side could capture gets one
  more ply, every move, its children ending on the evaluation (the threat extension);
- a forced move (the only legal one) searched without reducing the depth; from the fourth
  move on, at depth 3 or more, a quiet move that does not crown searched first a ply
  shallower, and again at full depth when it beats alpha (late move reductions);
- move ordering: the table's move, then captures (most pieces first), two killer moves per ply,
  then the history of quiet moves that cut off (depth squared); a stable sort, so equal moves
  keep the kernel's order;
- the draw rules of the board's rule set at every node below the root: the moves rule (so many
  plies without a capture, a crowning or, per the rules, a man's move) and repetition (a
  position seen again since the root, or seen so often in the game before it that this time
  makes the rules' count); the endgame rules (:class:`EndgameRule`: a count of moves from
  where the material, or the lone king's standing on the main diagonal, began); the Frisian
  limit of three idle king moves in a row;
- scores in hundredths of a man for the side to move (pdn.engine.evaluation), a win ``WIN - n``
  where the side to move wins n plies from the root.

Both twins run this same algorithm on the same integers and the same move order, so at the
same depth they give the same best move, score, principal variation and node count.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass

from pdn.engine.evaluation import evaluate
from pdn.rules import pykernel
from pdn.rules.geometry import BLACK, WHITE
from pdn.rules.move import Move
from pdn.rules.position import Position

INF = 32000
WIN = 31000  # a position won at ply n from the root scores WIN - n
MAX_PLY = 120  # deeper lines end on the evaluation
TT_BITS = 20
MAX_LINES = 64  # lines of a multi-line search, at most
LMR_AFTER, LMR_DEPTH = 3, 3  # late quiet moves searched a ply shallower first
KING_RUN = 3  # Frisian: at most three idle king moves in a row while the side has men
EXACT, LOWER, UPPER = 0, 1, 2
_M64 = (1 << 64) - 1


def _splitmix(x: int) -> int:
    """SplitMix64's output for seed *x* (the Zobrist keys: the C search computes the same)."""
    x = (x + 0x9E3779B97F4A7C15) & _M64
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _M64
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _M64
    return x ^ (x >> 31)


_ZOBRIST = tuple(tuple(_splitmix(p * 256 + s + 1) for s in range(256)) for p in range(4))
_BLACK_KEY = _splitmix(1024 + 1)
_QUIET_SEED, _RUNS_SEED, _ENDGAME_SEED = 4096, 8192, 16384  # the table's key: see table_key
ENDGAME_COUNT = 4095  # a key tells the endgame counts apart up to this (no rule counts as far)


def table_key(
    h: int, quiet: int, runs: tuple[int, int] | None, endgame: tuple[int, int, int] | None = None
) -> int:
    """A node's key in the transposition table: its position's hash *h* with the plies counted
    towards the moves rule, where the Frisian limit holds (*runs* not None) each side's idle
    king moves in a row (up to the limit), and where an endgame rule counts (*endgame* not
    None) the plies since the material and since the lone king's standing on the main
    diagonal began, and their skew (see :func:`endgame_counts`). Each decides what the node
    is worth: a win 11 plies away is a draw where the moves rule ends the game in 7 (FMJD
    Annex 1, art. 6: 25 moves by kings only)."""
    key = h ^ _splitmix(_QUIET_SEED + quiet)
    if runs is not None:
        key ^= _splitmix(_RUNS_SEED + 4 * min(runs[0], KING_RUN) + min(runs[1], KING_RUN))
    if endgame is not None:
        count = min(endgame[0], ENDGAME_COUNT) << 12 | min(endgame[1], ENDGAME_COUNT)
        count |= endgame[2] << 24
        key ^= _splitmix(_ENDGAME_SEED + count)
    return key


@dataclass(frozen=True, slots=True)
class EndgameRule:
    """An endgame rule as the search counts it (pdn.rules.draw.DrawRule of kind ENDGAME): it
    holds while one side has a lone king and the other a material of *strong* (bit
    16 * men + kings), or, with *pieces* not (0, 0), while both sides have kings and the
    pieces number within *pieces*; the position is drawn once *plies* have been played since
    that material began (with *main_diagonal*, since that material with the lone king on the
    main diagonal began, and only while it stands there), one ply fewer where
    *by_strong_side* and the stronger side moved first in the count."""

    strong: int
    pieces: tuple[int, int]
    plies: int
    main_diagonal: bool
    by_strong_side: bool

    def applies(self, wm: int, wk: int, bm: int, bk: int) -> bool:
        """Whether the rule counts in a position of this material (men and kings a side)."""
        if self.pieces[1]:
            return bool(wk and bk) and self.pieces[0] <= wm + wk + bm + bk <= self.pieces[1]
        return (bm == 0 and bk == 1 and self._strong(wm, wk)) or (
            wm == 0 and wk == 1 and self._strong(bm, bk)
        )

    def _strong(self, men: int, kings: int) -> bool:
        return men < 4 and kings < 16 and bool(self.strong >> (16 * men + kings) & 1)

    def drawn(self, count: int, turn: int, lone_white: bool, skew: int) -> bool:
        """Whether *count* plies since the rule's count began (*turn* to move now; *skew* 1
        where a setup handed the move over since) draw."""
        strong = BLACK if lone_white else WHITE
        first = (turn if count % 2 == 0 else 1 - turn) ^ skew  # who moved first in the count
        return count >= self.plies - (1 if self.by_strong_side and first == strong else 0)


def zobrist(pos: Position) -> int:
    """The position's 64-bit Zobrist hash (pieces and side to move)."""
    h = _BLACK_KEY if pos.turn != WHITE else 0
    for p, board in enumerate((pos.white_men, pos.white_kings, pos.black_men, pos.black_kings)):
        keys = _ZOBRIST[p]
        while board:
            low = board & -board
            h ^= keys[low.bit_length() - 1]
            board ^= low
    return h


@dataclass(frozen=True, slots=True)
class Settings:
    """What the search needs of the game besides the position: the draw rules and the counts
    the board holds at the root."""

    repetitions: int  # the same position this many times is a draw
    quiet_limit: int  # so many plies towards the moves rule is a draw
    man_resets: bool  # a man's move restarts the count (official rules)
    king_run: bool  # Frisian: idle king moves are limited
    quiet: int  # plies counted towards the moves rule at the root
    reversible: int  # plies since the last capture or man's move at the root
    runs: tuple[int, int]  # Frisian idle king moves in a row of White, of Black, at the root
    endgame: tuple[EndgameRule, ...] = ()  # the endgame rules of the rule set
    most: int = 0  # no endgame rule counts with more pieces on the board
    diagonal: int = 0  # the main diagonal's squares, where a rule needs them
    counts: tuple[int, int, int] = (0, 0, 0)  # at the root: see endgame_counts


@dataclass(frozen=True, slots=True)
class Line:
    """One line of a search: its score (hundredths of a man or a win as WIN - plies) and its
    principal variation."""

    score: int
    pv: tuple[Move, ...]


@dataclass(frozen=True, slots=True)
class Result:
    """A search's outcome: the depth of the last iteration completed, its lines (best
    first; with one line, when the limit cut the next iteration short, that iteration's best
    line so far, though the depth stays the last completed), the nodes searched, the seconds
    taken."""

    depth: int
    lines: tuple[Line, ...]
    nodes: int
    seconds: float


TTable = dict[int, tuple[int, int, int, int, int]]  # index: (key, depth, flag, score, move)


class _Abort(Exception):
    """The search ran out of time or nodes, or was stopped."""


def _key(m: Move) -> tuple[int, int, int]:
    return (m.path[0], m.path[-1], m.captured_mask)


@dataclass(frozen=True, slots=True)
class EndgameAt:
    """The endgame rules that count in a position, and where its lone kings stand."""

    rules: tuple[EndgameRule, ...]
    lone_white: bool  # White has a lone king
    lone_black: bool
    on_diagonal: bool  # a lone king stands on the main diagonal
    tracked: bool  # a main-diagonal rule counts: the standing's count matters


def _lone_on_diagonal(pos: Position, lone_white: bool, lone_black: bool, diagonal: int) -> bool:
    lone = (pos.white_kings if lone_white else 0) | (pos.black_kings if lone_black else 0)
    return bool(lone & diagonal)


def endgame_at(s: Settings, pos: Position) -> EndgameAt | None:
    """The endgame rules of *s* that count in *pos*, or None where none does."""
    if (pos.white_men | pos.white_kings | pos.black_men | pos.black_kings).bit_count() > s.most:
        return None
    wm, wk, bm, bk = _material(pos)
    rules = tuple(r for r in s.endgame if r.applies(wm, wk, bm, bk))
    if not rules:
        return None
    lone_white, lone_black = wm == 0 and wk == 1, bm == 0 and bk == 1
    on = _lone_on_diagonal(pos, lone_white, lone_black, s.diagonal)
    tracked = any(r.main_diagonal for r in rules)
    return EndgameAt(rules, lone_white, lone_black, on, tracked)


def endgame_drawn(e: EndgameAt, turn: int, count: int, standing: int, skew: int) -> bool:
    """Whether an endgame rule draws the node: *count* plies since its material began,
    *standing* since its lone kings' standing on the main diagonal began, *skew* as
    :func:`endgame_counts` gives it."""
    for r in e.rules:
        if r.main_diagonal:
            if e.on_diagonal and r.drawn(standing, turn, e.lone_white, skew >> 1):
                return True
        elif r.drawn(count, turn, e.lone_white, skew & 1):
            return True
    return False


def child_counts(
    ending: EndgameAt | None,
    move: Move,
    child: Position,
    counts: tuple[int, int, int],
    diagonal: int,
) -> tuple[int, int, int]:
    """The endgame counts (as :func:`endgame_counts`) after *move*, played where *ending*
    holds with *counts*, in *child*: begun again where the material changes (a capture, a
    crowning), the standing's where a lone king a main-diagonal rule counts steps on or off
    the diagonal."""
    count, standing, skew = counts
    if move.captured or move.crowns:
        return 0, 0, 0
    if ending is not None and ending.tracked:
        lone = (ending.lone_white, ending.lone_black)
        if _lone_on_diagonal(child, *lone, diagonal) != ending.on_diagonal:
            return count + 1, 0, skew & 1
    return count + 1, standing + 1, skew


def _material(pos: Position) -> tuple[int, int, int, int]:
    """The men and kings of each side: white men, white kings, black men, black kings."""
    return (
        pos.white_men.bit_count(),
        pos.white_kings.bit_count(),
        pos.black_men.bit_count(),
        pos.black_kings.bit_count(),
    )


def endgame_counts(positions: Sequence[Position], diagonal: int) -> tuple[int, int, int]:
    """The endgame counts at the last of *positions* (a game's, in order): the plies since its
    material began, since its lone kings' standing on the main diagonal began, and their
    skew: bit 0 (the first count's) and bit 1 (the second's) set where the side to move at
    the count's start is not the one the count's parity tells (a setup handed the move
    over)."""
    last = positions[-1]
    kind = _material(last)
    lone_white, lone_black = kind[:2] == (0, 1), kind[2:] == (0, 1)
    on = _lone_on_diagonal(last, lone_white, lone_black, diagonal)
    count = standing = 0
    began = standing_began = last.turn  # the side to move where each count began
    alike = True  # the standing unchanged so far
    for p in reversed(positions[:-1]):
        if _material(p) != kind:
            break
        count += 1
        began = p.turn
        alike = alike and _lone_on_diagonal(p, lone_white, lone_black, diagonal) == on
        if alike:
            standing += 1
            standing_began = p.turn
    skew = int(began != (last.turn if count % 2 == 0 else 1 - last.turn))
    skew |= int(standing_began != (last.turn if standing % 2 == 0 else 1 - last.turn)) << 1
    return count, standing, skew


def _moves(pos: Position, s: Settings, runs: tuple[int, int]) -> list[Move]:
    """The legal moves, quiet king moves left out where the Frisian limit bars them."""
    moves = pykernel.generate(pos)
    if s.king_run and runs[pos.turn] >= KING_RUN and pos._sides()[0]:
        return [m for m in moves if not (m.by_king and not m.captured)]
    return moves


class _Search:
    def __init__(
        self,
        history: Sequence[int],
        s: Settings,
        nodes: int | None,
        seconds: float | None,
        stop: bytearray,
        table: TTable,
    ) -> None:
        self.keys = list(history)
        self.root_index = len(self.keys)
        self.s = s
        self.max_nodes = nodes or 0
        self.start = time.monotonic()
        self.deadline = self.start + seconds if seconds is not None else 0.0
        self.stop = stop
        self.nodes = 0
        self.tt = table
        self.mask = (1 << TT_BITS) - 1
        self.history: dict[tuple[int, int, int], int] = {}
        self.killers = [[0, 0] for _ in range(MAX_PLY + 1)]
        self.pv: list[list[Move]] = [[] for _ in range(MAX_PLY + 2)]
        self.excluded: set[tuple[int, int, int]] = set()
        self.root_score = 0  # the root's best score so far in the iteration running
        self.timed = False  # time and node limits apply (from depth 2 on)

    def check(self) -> None:
        self.nodes += 1
        if self.stop[0]:
            raise _Abort
        if self.timed:
            if self.max_nodes and self.nodes >= self.max_nodes:
                raise _Abort
            if self.deadline and not self.nodes & 255 and time.monotonic() >= self.deadline:
                raise _Abort

    def drawn(self, h: int, quiet: int, rev: int) -> bool:
        """Whether the node, at ply > 0, is drawn by rule (keys holds the positions before)."""
        if quiet >= self.s.quiet_limit:
            return True
        keys = self.keys
        n = len(keys)
        seen = 0
        i = n - 2
        while i >= 0 and n - i <= rev:
            if keys[i] == h:
                if i >= self.root_index:
                    return True
                seen += 1
            i -= 2
        return seen + 1 >= self.s.repetitions

    def node(
        self,
        pos: Position,
        depth: int,
        alpha: int,
        beta: int,
        ply: int,
        quiet: int,
        rev: int,
        runs: tuple[int, int],
        counts: tuple[int, int, int],
    ) -> int:
        self.check()
        self.pv[ply] = []
        h = zobrist(pos)
        ending = endgame_at(self.s, pos) if self.s.endgame else None
        if ply and (
            self.drawn(h, quiet, rev)
            or (ending is not None and endgame_drawn(ending, pos.turn, *counts))
        ):
            return 0
        if ply >= MAX_PLY:
            return evaluate(pos)
        tt_move = key = -1  # key: the node's in the table, where depth > 0
        best = -INF
        threat = False
        if depth <= 0:
            moves = pykernel.captures(pos)
            if not moves:
                if depth < 0 or not pykernel.has_captures(pos.with_turn(1 - pos.turn)):
                    return evaluate(pos) if pykernel.has_moves(pos) else ply - WIN
                moves = _moves(pos, self.s, runs)  # threatened: every move, one ply more
                if not moves:
                    return ply - WIN
                threat = True
            elif pos.variant.capture_optional:
                best = evaluate(pos)  # the side to move may stand instead of capturing
                if best >= beta:
                    return best
                alpha = max(alpha, best)
            depth = 0
        else:
            moves = _moves(pos, self.s, runs)
            if not moves:
                return ply - WIN
            keyed = None
            if ending is not None:
                count, standing, skew = counts
                if not (ending.tracked and ending.on_diagonal):
                    standing, skew = 0, skew & 1
                keyed = (count, standing, skew)
            key = table_key(h, quiet, runs if self.s.king_run else None, keyed)
            entry = self.tt.get(key & self.mask)
            if entry is not None and entry[0] == key:
                _, e_depth, flag, score, tt_move = entry
                if beta - alpha == 1 and e_depth >= depth:
                    if score > WIN - MAX_PLY:
                        score -= ply
                    elif score < MAX_PLY - WIN:
                        score += ply
                    if (
                        flag == EXACT
                        or (flag == LOWER and score >= beta)
                        or (flag == UPPER and score <= alpha)
                    ):
                        return score
        order = self.order(moves, tt_move, ply, pos.turn)
        best_i, flag = -1, UPPER
        searched = 0
        self.keys.append(h)
        man_resets = self.s.man_resets
        for i in order:
            m = moves[i]
            if ply == 0 and _key(m) in self.excluded:
                continue
            child = pykernel.play(pos, m)
            irreversible = bool(m.captured) or not m.by_king
            c_quiet = 0 if m.captured or m.crowns or (man_resets and not m.by_king) else quiet + 1
            c_rev = 0 if irreversible else rev + 1
            run = runs[pos.turn] + 1 if m.by_king and not m.captured else 0
            c_runs = (run, runs[1]) if pos.turn == WHITE else (runs[0], run)
            c_counts = child_counts(ending, m, child, counts, self.s.diagonal)
            # a forced move costs no depth; a threatened node's children end on the evaluation
            d = -1 if threat else depth - 1 if len(moves) > 1 else depth
            after = (ply + 1, c_quiet, c_rev, c_runs, c_counts)
            if not searched:
                score = -self.node(child, d, -beta, -alpha, *after)
            else:
                cut = searched >= LMR_AFTER and depth >= LMR_DEPTH and not (m.captured or m.crowns)
                score = -self.node(child, d - cut, -alpha - 1, -alpha, *after)
                if cut and score > alpha:
                    score = -self.node(child, d, -alpha - 1, -alpha, *after)
                if alpha < score < beta:
                    score = -self.node(child, d, -beta, -alpha, *after)
            searched += 1
            if score > best:
                best, best_i = score, i
                if score > alpha:
                    alpha = score
                    flag = EXACT
                    self.pv[ply] = [m, *self.pv[ply + 1]]
                    if not ply:
                        self.root_score = score
                    if alpha >= beta:
                        flag = LOWER
                        if not m.captured:
                            self.cutoff(m, depth, ply, pos.turn)
                        break
        self.keys.pop()
        if depth > 0 and not (ply == 0 and self.excluded):
            stored = best
            if stored > WIN - MAX_PLY:
                stored += ply
            elif stored < MAX_PLY - WIN:
                stored -= ply
            self.tt[key & self.mask] = (key, depth, flag, stored, best_i)
        return best

    def order(self, moves: list[Move], tt_move: int, ply: int, turn: int) -> list[int]:
        killers = self.killers[ply]
        history = self.history
        scores = []
        for i, m in enumerate(moves):
            if i == tt_move:
                scores.append(1 << 30)
            elif m.captured:
                scores.append((1 << 20) + len(m.captured))
            else:
                k = (m.path[0] << 8 | m.path[-1]) + 1
                if k == killers[0]:
                    scores.append(1 << 19)
                elif k == killers[1]:
                    scores.append(1 << 18)
                else:
                    scores.append(history.get((turn, m.path[0], m.path[-1]), 0))
        return sorted(range(len(moves)), key=lambda i: -scores[i])

    def cutoff(self, m: Move, depth: int, ply: int, turn: int) -> None:
        k = (m.path[0] << 8 | m.path[-1]) + 1
        killers = self.killers[ply]
        if k != killers[0]:
            killers[1], killers[0] = killers[0], k
        key = (turn, m.path[0], m.path[-1])
        self.history[key] = self.history.get(key, 0) + depth * depth


def search(
    pos: Position,
    history: Sequence[Position],
    settings: Settings,
    depth: int | None,
    nodes: int | None,
    seconds: float | None,
    stop: bytearray,
    multipv: int = 1,
    table: TTable | None = None,
) -> Result:
    """Search *pos* (reached after the positions *history*) to *depth* plies, *nodes* nodes or
    *seconds* (the first iteration always completes unless stopped), for *multipv* lines; with
    *table*, the transposition table kept between searches (else a fresh one). The lines are
    those of the last iteration completed; for one line, an iteration cut short gives its best
    move once its first move is searched."""
    tt = {} if table is None else table
    s = _Search([zobrist(p) for p in history], settings, nodes, seconds, stop, tt)
    done: tuple[Line, ...] = ()
    reached = 0
    n_moves = len(_moves(pos, settings, settings.runs))
    lines = max(1, min(multipv, n_moves, MAX_LINES))
    target = min(depth, MAX_PLY) if depth else MAX_PLY
    try:
        for d in range(1, target + 1):
            found: list[Line] = []
            s.excluded = set()
            for _ in range(lines):
                score = s.node(
                    pos,
                    d,
                    -INF,
                    INF,
                    0,
                    settings.quiet,
                    settings.reversible,
                    settings.runs,
                    settings.counts,
                )
                found.append(Line(score, tuple(s.pv[0])))
                if s.pv[0]:
                    s.excluded.add(_key(s.pv[0][0]))
            found.sort(key=lambda line: -line.score)  # stable: a later line may score higher
            done, reached = tuple(found), d
            s.timed = True
            if all(abs(line.score) > WIN - MAX_PLY and WIN - abs(line.score) <= d for line in done):
                break  # every line is a win or loss proved within the depth
    except _Abort:
        if lines == 1 and reached and s.pv[0]:  # the best move so far of the iteration cut short
            done = (Line(s.root_score, tuple(s.pv[0])),)
    return Result(reached, done, s.nodes, time.monotonic() - s.start)
