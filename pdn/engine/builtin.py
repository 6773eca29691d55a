"""The built-in engine: the search of pdn/engine/pysearch.py, run by the C kernel where it was
built (pdn/engine/_search.c, compiled into pdn.rules._kernel) and by its pure-Python twin otherwise
or under ``PDN_CORE=python`` (the same core choice as the move kernel's,
pdn.rules.position.core()).

>>> from pdn.board import Board
>>> from pdn.notation import move_text
>>> board = Board("english", "W:W18:B14")
>>> with BuiltinEngine() as engine:
...     info = engine.analyse(board, Limit(depth=4))[0]
>>> info.score.white().text(), move_text(board.position, info.pv[0])
('#1', '18x9')
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

import pdn
import pdn.engine.pysearch as pysearch
from pdn.engine.evaluation import evaluate, tables
from pdn.engine.pysearch import MAX_PLY, TT_BITS, WIN, Line, Result, Settings, TTable
from pdn.engine.types import Closing, EngineError, Info, Limit, PovScore, Score
from pdn.rules.draw import DrawRule, QuietReset
from pdn.rules.position import core

if TYPE_CHECKING:
    from pdn.board import Board
    from pdn.rules.geometry import Geometry
    from pdn.rules.position import Move

try:
    from pdn.rules import _kernel
except ImportError:  # no C compiler at install: the pure-Python twin searches
    _kernel = None  # type: ignore[assignment]


_NEVER = 1 << 30  # the count of a draw rule the set does not have (fits the C search's int)


def _kernel_tables(geo: Geometry) -> tuple[object, ...]:
    return tables(geo.variant).as_kernel()


if _kernel is not None:
    _kernel.search_setup(_kernel_tables)


def endgame_rule(rule: DrawRule) -> pysearch.EndgameRule:
    """*rule* (an endgame rule) as the search counts it."""
    strong = 0
    for men, kings in rule.strong:
        if men > 3 or kings > 15:
            raise ValueError(f"{rule.label}: the search counts 3 men and 15 kings at most")
        strong |= 1 << (16 * men + kings)
    return pysearch.EndgameRule(
        strong,
        rule.pieces if rule.both_kings else (0, 0),
        2 * rule.moves,
        rule.main_diagonal,
        rule.by_strong_side,
    )


def settings(board: Board) -> Settings:
    """What the search needs of *board* besides its position: its draw rules and counts."""
    rules = board.rules
    endgame = tuple(endgame_rule(r) for r in rules.endgame)
    most = diagonal = 0
    counts = (0, 0, 0)
    if board._eg is not None:  # (the Board's counts of its endgame rules; no public view)
        most, diagonal = board._eg.most, board._eg.diagonal
        counts = pysearch.endgame_counts(board.positions(), diagonal)
    reversible = 0
    for move in reversed(board.move_stack):
        if move.captured or not move.by_king:
            break
        reversible += 1
    repetition, quiet = rules.repetition, rules.moves_rule
    return Settings(
        repetition.repetitions if repetition else _NEVER,
        2 * quiet.moves if quiet else _NEVER,
        quiet is not None and quiet.reset is QuietReset.CAPTURE_OR_MAN_MOVE,
        board.variant.frisian_orthogonal_captures,
        board.quiet,
        reversible,
        board._king_runs,  # (the Board keeps them for its Frisian rule; no public view)
        endgame,
        most,
        diagonal,
        counts,
    )


@dataclass(slots=True)
class Table:
    """A transposition table kept between searches: the C search's (made at its first
    search) and the Python twin's entries."""

    c: object = None
    py: TTable = field(default_factory=dict)


def search(
    board: Board,
    limit: Limit,
    stop: bytearray,
    multipv: int = 1,
    compiled: bool | None = None,
    table: Table | None = None,
) -> Result:
    """Search *board*'s position to *limit* for *multipv* lines; *compiled*: the C search
    (True), the Python twin (False) or the one of the core in use (None); *table*: the
    transposition table kept from the searches before (None: a fresh one)."""
    use_c = core().name == "c" if compiled is None else compiled
    history = board.positions()[:-1]
    s = settings(board)
    args = (limit.depth, limit.nodes, limit.time, stop, multipv)
    if not use_c:
        return pysearch.search(
            board.position, history, s, *args, None if table is None else table.py
        )
    if _kernel is None:
        raise EngineError("the C search was not built here (no C compiler at install)")
    c_settings = (
        s.repetitions,
        s.quiet_limit,
        int(s.man_resets),
        int(s.king_run),
        s.quiet,
        s.reversible,
        s.runs,
        tuple(
            (r.strong, *r.pieces, r.plies, int(r.main_diagonal), int(r.by_strong_side))
            for r in s.endgame
        ),
        s.most,
        s.diagonal,
        s.counts,
    )
    if table is not None and table.c is None:
        table.c = _kernel.search_table(TT_BITS)
    kept = None if table is None else table.c
    depth, nodes, seconds, lines = _kernel.search(
        board.position, history, c_settings, *args, TT_BITS, kept
    )
    return Result(depth, tuple(Line(v, tuple(pv)) for v, pv in lines), nodes, seconds)


def score(value: int) -> Score:
    """A search's integer as a Score: hundredths of a man, or a win as WIN - plies."""
    if value > WIN - MAX_PLY:
        return Score.win(WIN - value)
    if value < MAX_PLY - WIN:
        return Score.win(-(WIN + value))
    return Score.of_men(value / 100)


class BuiltinEngine(Closing):
    """The built-in search behind the Engine protocol; *compiled* as search() takes it. The
    engine keeps its transposition table from one search to the next (a game's positions share
    much of their trees)."""

    name = "pdn builtin"
    # the package's version and the search's revision, raised whenever the same limit can give
    # other scores (stored analyses are labelled with it, and a label already stored is done)
    version = f"{pdn.__version__}+search4"

    def __init__(self, compiled: bool | None = None) -> None:
        self._compiled = compiled
        self._stop = bytearray(1)
        self._closed = False
        self._table = Table()

    def analyse(self, board: Board, limit: Limit, multipv: int = 1) -> list[Info]:
        """The *multipv* best lines of *board*'s position, best first."""
        if self._closed:
            raise EngineError(f"{self.name}: the engine was closed")
        self._stop[0] = 0
        start = time.monotonic()
        result = search(board, limit, self._stop, multipv, self._compiled, self._table)
        seconds = result.seconds
        lines = result.lines
        if not lines:  # stopped before the first iteration ended: the first move, evaluated
            moves = board.legal_moves
            value = evaluate(board.position) if moves else -WIN
            lines = (Line(value, tuple(moves[:1])),)
            seconds = time.monotonic() - start
        nps = int(result.nodes / seconds) if seconds > 0 else 0
        return [
            Info(
                PovScore(score(line.score), board.turn),
                line.pv,
                result.depth,
                result.nodes,
                nps,
                seconds,
                rank,
            )
            for rank, line in enumerate(lines, 1)
        ]

    def play(self, board: Board, limit: Limit) -> Move:
        """The move the engine plays: the first of the best line (at once when forced)."""
        moves = board.legal_moves
        if not moves:
            raise EngineError(f"{self.name}: no legal move: the game is over")
        if len(moves) == 1:
            return moves[0]
        pv = self.analyse(board, limit)[0].pv
        return pv[0] if pv else moves[0]

    def stop(self) -> None:
        """End the running search (from any thread); it returns the best line so far."""
        self._stop[0] = 1

    def close(self) -> None:
        """Release the transposition table; the engine is not used again."""
        self._closed = True
        self._table = Table()
