"""Replay a game under its variant: push each written move on a Board, record what happened.

The variant comes from the GameType tag, else from the caller, else from the file's preference,
else from the notation's most likely candidate; the other candidates the notation allows are
replayed only when that one fails (spec/pdn.md §3.3), or when asked which of them fit as well.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import PurePath
from typing import Any

from pdn.board import AmbiguousMoveError, Board, IllegalMoveError, MoveTextError, one_written
from pdn.game import DeclaredResult, Game, GameWarning, MoveNode, Node, SetupNode, located
from pdn.mainline import LineRows, main_line, square_labels
from pdn.notation import MoveForm, move_text, written_moves
from pdn.read.movetext import plain_moves, plain_runs
from pdn.rules.draw import COMMON, DrawRules, Ending, Termination, draw_rules, ending_text
from pdn.rules.fen import FenError, parse_fen
from pdn.rules.geometry import BLACK, WHITE, Color
from pdn.rules.position import Move, Position, core
from pdn.rules.variants import VARIANTS, Variant
from pdn.walk import Item, Line, Status, Step, T, Visitor, unplayed, walk

# 1-32: the 8x8 numberings first, then a 10x10 game that stays on low squares, then numeric Russian
NUMERIC_CANDIDATES = (
    "english",
    "italian",
    "spanish",
    "pool",
    "international",
    "frisian",
    "russian",
    "brazilian",
)
ALGEBRAIC_CANDIDATES = ("russian", "brazilian", "czech")

# Words in Event or Site that name a variant's country (tie-breakers between candidates)
_HINTS = (
    (re.compile(r"ital|campionat", re.I), "italian"),
    (re.compile(r"russ|ussr|sssr|ссср|росси|moscow|москв", re.I), "russian"),
    (re.compile(r"bras|brazil", re.I), "brazilian"),
    (re.compile(r"czech|česk|cesk", re.I), "czech"),
    (re.compile(r"espa|spain|spanish", re.I), "spanish"),
    (re.compile(r"pool", re.I), "pool"),
)
_ANY_HINT = re.compile("|".join(p.pattern for p, _ in _HINTS), re.I)
_ALGEBRAIC = re.compile(r"[a-h][1-8]")  # a square named by letter and digit, in a FEN
_NUMBER = re.compile(r"\d+")
_ITALIAN_TAGS = {"bianco", "nero", "risultato", "dati", "anno", "apertura"}


@dataclass(slots=True)
class MoveError:
    """One problem with a written move, located in the file."""

    ply: int  # 1-based ply of the line the move stands in
    move: str  # as written
    line: int
    column: int
    reason: str
    legal: list[str] = field(default_factory=list)  # the legal moves there, for illegal moves
    variation: bool = False  # the move stands in a variation, not in the main line
    kind: str = "move"  # "move", "result" (the declared result) or "fen" (the FEN tag)


@dataclass(slots=True)
class Replay:
    """What replaying one game found."""

    game: Game
    variant: Variant
    variant_source: str  # "gametype", "option" or "notation"
    candidates: list[str] = field(default_factory=list)  # other variants it fits (when asked)
    rules: DrawRules = COMMON
    _moves: list[Move] = field(default_factory=list)  # the main line as replayed (see moves)
    _tree: Line | None = None  # the main line as replayed (see tree)
    _items: list[Any] | None = None  # what the replay added of the main line (see _Line.run)
    plies: int = 0
    # How the game really ended (pdn.rules.draw.Termination): a draw by rule where the written
    # moves end there or the rule ended the game by itself (and the result does not say a win),
    # else "win" when the side to move has no legal move, else "as-recorded"
    termination: str = Termination.RECORDED.value
    termination_ply: int | None = None
    ending: Ending | None = None  # the ending termination names (None: as recorded)
    rules_ending: Ending | None = None  # where the rules end the game, whatever the moves do
    draw: Ending | None = None  # the first draw by rule the moves reached (claimed or not)
    errors: list[MoveError] = field(default_factory=list)
    warnings: list[GameWarning] = field(default_factory=list)
    final: Position | None = None  # the last position, when the main line replayed to its end
    _positions: list[Position] = field(default_factory=list)  # see positions
    _board: Board | None = None  # see board
    # a main line of plain moves checked without a board (Board.check_written, check_runs): its
    # start and its moves' squares (None: plain_moves of the game), pushed on a board when
    # moves, positions or the board are first asked
    _start: Position | None = None
    _written: list[Sequence[str]] | None = None

    def _written_moves(self) -> list[Sequence[str]]:
        """The squares of each move of a main line checked without a board (_start set)."""
        written = self._written or plain_moves(self.game)
        if written is None:  # the movetext tree was built since: its moves are the same
            written = [n.squares for n in self.game.mainline()]
        return written

    def _push_written(self) -> None:
        """Push the checked main line on a board: the moves, positions and board it leaves."""
        assert self._start is not None
        board = Board.from_position(self._start, self.rules)
        played = board.push_written(self._written_moves())
        assert played == self.plies, "the check and push_written disagree"
        self._board, self._moves, self._positions = board, board.move_stack, board.positions()
        self._start = self._written = None

    def line_rows(self, words: int, keep: int) -> LineRows:
        """The main line as the database stores it (see LineRows), its first *keep* positions
        with it: a line checked without a board played by the kernel at once, from its runs
        of plain moves where it has them, no object made for a ply (Kernel.line_rows: the
        board would make a move, a position and a key of each), else read from the board's
        moves and positions."""
        if self.first_position is None:
            return LineRows([], [], b"", [], (0, 0, 0, 0), [])
        start = self._start
        if start is not None:
            g = start.geometry
            how = (g._names, one_written, self.plies, words, square_labels(g),
                   self.variant.separator, keep)  # fmt: skip
            plain = plain_runs(self.game) if self._written is None else None
            if plain is not None:
                out = core().line_rows_runs(start, plain, *how)
            else:
                out = core().line_rows(start, self._written_moves(), *how)
            texts, digests, packed, runs, reached, kept = out
            assert len(texts) == self.plies, "the check and line_rows disagree"
            return LineRows(texts, digests, packed, runs, reached, kept)
        texts = main_line(self)
        line = self.positions[: len(texts) + 1]
        return LineRows(texts, *core().scan(line, words, True), line[:keep])

    @property
    def moves(self) -> list[Move]:
        """The main line as replayed."""
        if self._start is not None:
            self._push_written()
        return self._moves

    @property
    def positions(self) -> list[Position]:
        """The position before each main-line ply, then the last."""
        if self._start is not None:
            self._push_written()
        return self._positions

    @property
    def board(self) -> Board | None:
        """The main line's board as the replay left it (None where the start was not set)."""
        if self._start is not None:
            self._push_written()
        return self._board

    @property
    def first_position(self) -> Position | None:
        """The position before the main line's first ply (the last one where none was played);
        None where the start could not be set."""
        if self._start is not None:
            return self._start
        return self._positions[0] if self._positions else None

    @property
    def tree(self) -> Line:
        """The main line as replayed, with its variations (see pdn.walk): built while replaying
        a game with variations, setups or moves that need more than a look-up, else (the main
        line of plain moves) when first asked."""
        if self._tree is None:
            self._tree = _main_tree(self)
        return self._tree

    @property
    def nodes(self) -> list[MoveNode]:
        """The written move of each main-line ply replayed (its first part, for a capture
        written in parts)."""
        return [s.written for s in self.tree.steps if s.status.played]

    def accept(self, visitor: Visitor[T]) -> T:
        """Walk the game as replayed in PDN order (pdn.walk.walk); the visitor's result."""
        return walk(self.game, self.tree, visitor)

    @property
    def valid(self) -> bool:
        """No syntax error and every move legal, in the main line and in the variations."""
        return self.game.syntax_error is None and not self.errors


# -- variant -------------------------------------------------------------------------------------


def _squares(nodes: Sequence[Node], out: set[str]) -> set[str]:
    """Add every square written in *nodes* (variations included) to *out*."""
    moves = [n for n in nodes if n.__class__ is MoveNode]
    out.update(*[n.squares for n in moves])
    for n in moves:
        for v in n.variations:
            _squares(v, out)
    return out


def candidate_variants(game: Game, moves: list[Sequence[str]] | None = None) -> list[str]:
    """Variants the notation allows, most likely first (spec/pdn.md §3.3); *moves*: the squares
    of every move of the game, when known (see pdn.read.movetext.plain_moves)."""
    return _candidates(game, moves)[0]


def _candidates(
    game: Game, moves: list[Sequence[str]] | None, runs: list[str] | None = None
) -> tuple[list[str], str | None]:
    """candidate_variants() (*runs*: the game's plain_runs, when it has them, read by the
    kernel), and what put the first one first when something did: Italian tag names, or a
    country's name in Event, Site or the file's name."""
    if runs is not None:  # squares 1-99 (the lexer's PLAIN_RUN): only their largest counts
        letters, written = False, [top] if (top := core().top_square(runs)) else []
    else:
        squares = _squares(game.body, set()) if moves is None else set().union(*moves)
        digits = set(filter(str.isdigit, squares))
        letters = any(s[:1].isalpha() for s in squares - digits)
        written = [int(d) for d in digits]
    fen = game.fen or ""
    if letters or (fen and _ALGEBRAIC.search(fen)):
        names = list(ALGEBRAIC_CANDIDATES)
    else:
        numbers = [*written, *map(int, _NUMBER.findall(fen.split(":", 1)[1]) if ":" in fen else ())]
        top = max(numbers, default=0)
        if top > 50:
            names = ["canadian"]
        elif top > 32:
            names = ["international", "frisian"]
        elif numbers:
            names = list(NUMERIC_CANDIDATES)
        else:  # no squares at all: any variant
            names = [*NUMERIC_CANDIDATES, *ALGEBRAIC_CANDIDATES[2:], "canadian"]
    if any(t.name.lower() in _ITALIAN_TAGS for t in game.tags) and "italian" in names:
        names.sort(key=lambda n: n != "italian")
        return names, "its Italian tag names"
    for text, where in ((f"{game.event or ''} {game.site or ''}", "its Event or Site"),
                        (_file_name(game.source.file), "the file's name")):  # fmt: skip
        for name in _hints(text):
            if name in names:
                names.sort(key=lambda n, want=name: n != want)  # type: ignore[misc]
                return names, where
    return names, None


@lru_cache(maxsize=256)  # an archive's games share their files, and many their events
def _hints(text: str) -> tuple[str, ...]:
    """The variants whose country *text* names, in the order of _HINTS."""
    if not _ANY_HINT.search(text):
        return ()
    return tuple(name for pattern, name in _HINTS if pattern.search(text))


@lru_cache(maxsize=64)
def _file_name(file: str) -> str:
    return PurePath(file).name


def candidates(pos: Position, squares: list[str]) -> list[Move]:
    """The legal moves of *pos* a move written with *squares* can mean (pdn.notation.written_moves;
    Board.find_moves adds what depends on the moves before, such as Frisian idle king moves)."""
    return written_moves(pos, squares)


# -- one line of moves ---------------------------------------------------------------------------


class _Line:
    """Replays one line of moves (the main line or a variation) on a board."""

    def __init__(self, replay: Replay, variation: bool) -> None:
        self.replay = replay
        self.variation = variation

    def error(self, ply: int, exc: MoveTextError) -> None:
        legal = exc.legal if isinstance(exc, IllegalMoveError) else []
        self.replay.errors.append(
            MoveError(ply, exc.text, exc.line, exc.column, exc.reason, legal, self.variation)
        )

    def run(self, board: Board, nodes: Sequence[Node], first_ply: int, items: list[Any]) -> bool:
        """Push the moves of *nodes* on *board*, adding a step for each to *items*; False once a
        move failed (it and the moves after it stay unplayed). In the main line a move that
        means one legal move and has no variation is added as its node: its step is made from
        ``Replay.moves`` when the tree is first asked for (see Replay.tree)."""
        replay = self.replay
        lazy = not self.variation
        ply = first_ply
        i, n = 0, len(nodes)
        while i < n:
            node = nodes[i]
            i += 1
            if node.__class__ is not MoveNode:
                if isinstance(node, SetupNode):
                    _setup(board, node, replay)
                items.append(node)
                continue
            variations = node.variations
            before = board.copy() if variations else board
            pos = board.position
            step = None
            try:
                move = board.push(node)
            except AmbiguousMoveError as exc:
                step = Step(node, ply, Status.LEGAL, pos)
                move = board.push(self._disambiguate(board, exc, nodes[i:], step))
            except IllegalMoveError as exc:
                step = Step(node, ply, Status.LEGAL, pos)
                joined = self._join_parts(board, step, nodes, i)
                if joined is None:
                    return self._fail(step, exc, items, nodes[i:])
                whole, i = joined
                try:
                    move = board.push(whole)
                except AmbiguousMoveError as again:
                    move = board.push(self._disambiguate(board, again, nodes[i:], step))
            except MoveTextError as exc:
                return self._fail(Step(node, ply, before=pos), exc, items, nodes[i:])
            if step is None:
                if lazy and not variations:
                    items.append(node)
                    ply += 1
                    continue
                step = Step(node, ply, Status.LEGAL, pos)
            step.move, step.after = move, board.position
            items.append(step)
            if variations:
                step.variations = [self._variation(before, board, v, step) for v in variations]
            ply += 1
        return True

    def _fail(self, step: Step, exc: MoveTextError, items: list[Any], rest: Sequence[Node]) -> bool:
        """*step* failed with *exc*: it and the moves after it are put in the line unplayed."""
        self.error(step.ply, exc)
        step.status, step.reason = Status.ILLEGAL, exc.reason
        step.legal = exc.legal if isinstance(exc, IllegalMoveError) else []
        step.variations = [unplayed(v, step.ply) for v in step.written.variations]
        items.append(step)
        items += unplayed(rest, step.ply + 1).items
        return False

    def _join_parts(
        self, board: Board, step: Step, nodes: Sequence[Node], i: int
    ) -> tuple[MoveNode, int] | None:
        """A capture written in several parts (``11x18 18x25``) starting at *step*: the parts
        joined into one move node (its later parts put in ``step.parts``) and the index after
        its last part."""
        node = step.written
        first = i
        squares = list(node.squares)
        texts = [node.text]
        while i < len(nodes):
            nxt = nodes[i]
            if not (isinstance(nxt, MoveNode) and nxt.squares[:1] == squares[-1:]):
                return None
            squares += nxt.squares[1:]
            texts.append(nxt.text)
            i += 1
            try:
                found = board.find_moves(squares)
            except ValueError:
                return None
            if found:
                text = " ".join(texts)
                self.replay.warnings.append(
                    located(node.line, node.column, f"capture written in parts ({text}) joined")
                )
                whole = MoveNode(
                    text,
                    squares,
                    True,
                    raw=node.raw or node.text,
                    line=node.line,
                    column=node.column,
                )
                step.parts = list(nodes[first:i])  # type: ignore[arg-type]
                return whole, i
        return None

    def _variation(self, before: Board, after: Board, nodes: list[Node], step: Step) -> Line:
        """Replay a variation: an alternative to *step*, or else a continuation after it (the
        one place where this rule is written)."""
        node, ply = step.written, step.ply
        if not _replays(before, nodes) and _replays(after, nodes):
            self.replay.warnings.append(
                located(
                    node.line,
                    node.column,
                    f"the variation after {node.raw or node.text} is not an alternative to it; "
                    "read as a continuation",
                )
            )
            line = Line([], after.position, ply + 1, continuation=True)
            _Line(self.replay, True).run(after.copy(), nodes, ply + 1, line.items)
        else:
            line = Line([], before.position, ply)
            _Line(self.replay, True).run(before.copy(), nodes, ply, line.items)
        return line

    def _disambiguate(
        self, board: Board, exc: AmbiguousMoveError, rest: Sequence[Node], step: Step
    ) -> Move:
        """Pick among moves a short capture fits: the one that lets the rest of the line replay
        (*step* says which was picked and why)."""
        node = step.written
        pos = board.position
        texts = ", ".join(move_text(pos, m, MoveForm.FULL, legal=exc.moves) for m in exc.moves)
        working = []
        for m in exc.moves:
            board.push(m)
            if _replays(board, rest):
                working.append(m)
            board.pop()
        if len(working) == 1:
            step.status = Status.RESOLVED
            step.reason = (
                f"{node.raw} is ambiguous ({texts}); "
                f"only {move_text(pos, working[0], MoveForm.FULL)} lets the game go on"
            )
            self.replay.warnings.append(located(node.line, node.column, step.reason))
            return working[0]
        self.error(step.ply, exc)
        step.status, step.reason = Status.AMBIGUOUS, exc.reason
        return (working or exc.moves)[0]


def _played_past(replay: Replay, last: int, draw: Ending) -> None:
    """Warn of main-line moves played after a draw by rule (the main line has *last* plies):
    the rule, its ply, and, when the rule ends the game by itself, a declared win that
    contradicts it."""
    rule = draw.rule
    first = replay.nodes[draw.ply]
    after = f"the game goes on {last - draw.ply} plies, from {first.raw or first.text}"
    if rule is not None and not rule.ends_game:
        text = f"{draw.text()} could be claimed at ply {draw.ply} ({rule.source}); {after}"
    else:
        source = f" ({rule.source})" if rule else ""
        text = f"{draw.text()} at ply {draw.ply}{source} ended the game; {after}"
        if replay.game.outcome in (DeclaredResult.FIRST, DeclaredResult.SECOND):
            text += f"; the result {replay.game.result} says it was won"
    replay.warnings.append(located(first.line, first.column, text))


def _main_tree(replay: Replay) -> Line:
    """The main line's tree: the replay's items (or, when the replay did not build the movetext
    tree, the game's nodes), each move node that stands for a legal move made a step from
    ``Replay.moves``; the whole game unplayed where its start could not be set."""
    items: Sequence[Any] = replay.game.body if replay._items is None else replay._items
    if not replay.positions:
        return unplayed(items, 1)
    moves, positions = replay.moves, replay.positions
    out: list[Item] = []
    k = 0
    for item in items:
        if item.__class__ is MoveNode:
            out.append(Step(item, k + 1, Status.LEGAL, positions[k], moves[k], positions[k + 1]))
            k += 1
        else:
            out.append(item)
            k += item.__class__ is Step and item.status.played
    return Line(out, positions[0], 1)


def _replays(board: Board, nodes: Sequence[Node]) -> bool:
    """Whether the main-line moves of *nodes* can be pushed on *board* (left as it was)."""
    pushed = 0
    try:
        for node in nodes:
            if isinstance(node, SetupNode):
                return True  # a new position: what follows no longer depends on the choice
            if not isinstance(node, MoveNode):
                continue
            try:
                found = board.find_moves(node.squares)
            except ValueError:
                return False
            if not found:
                return False
            board.push(found[0])
            pushed += 1
        return True
    finally:
        for _ in range(pushed):
            board.pop()


def _setup(board: Board, node: SetupNode, replay: Replay) -> None:
    """Put the position a /FEN "..."/ command sets (a FEN with no pieces only sets the side)."""
    pos = board.position
    text = node.fen.strip()
    if re.fullmatch(r"[WB?]\s*:*\s*:*", text, re.I):
        side = text[:1].upper()
        board.set_position(
            pos.with_turn(BLACK if side == "B" else WHITE if side == "W" else 1 - pos.turn)
        )
        return
    try:
        board.set_position(parse_fen(text, pos.variant))
    except FenError as exc:
        replay.warnings.append(located(node.line, None, f"setup ignored: {exc}"))


def _start(game: Game, variant: Variant) -> tuple[Position | None, str | None]:
    fen = game.fen
    if not fen or not fen.strip():
        return Position.start(variant), None
    try:
        pos = parse_fen(fen, variant)
    except FenError as exc:
        return None, str(exc)
    if not pos.occupied:
        return None, f"FEN {fen!r} holds no pieces"
    return pos, None


# -- one game under one variant -------------------------------------------------------------------


def replay_as(
    game: Game,
    variant: Variant,
    source: str = "option",
    rules: DrawRules = COMMON,
    moves: list[Sequence[str]] | None = None,
    runs: list[str] | None = None,
) -> Replay:
    """Replay *game* under *variant* (*moves*: see pdn.read.movetext.plain_moves, or *runs*,
    plain_runs: when each move means one legal move, they are played without building the
    movetext tree)."""
    replay = Replay(game, variant, source, rules=rules)
    start, problem = _start(game, variant)
    if start is None:
        replay.errors.append(
            MoveError(0, game.fen or "", game.source.line, 1, f"bad FEN tag: {problem}", kind="fen")
        )
        return replay
    if moves is not None or runs is not None:
        if runs is not None:
            checked = Board.check_runs(start, rules, runs)
        else:
            assert moves is not None
            checked = Board.check_written(start, rules, moves)
        if checked is not None and checked.plies == checked.moves:  # no board: see moves
            replay._start, replay._written = start, moves
            replay.plies = checked.plies
            final = replay.final = checked.position
            _end(replay, checked.draw, checked.plies, final.turn, not final.has_moves())
            return replay
    if runs is not None:
        moves = plain_moves(game)
    board = Board.from_position(start, rules)
    plain = moves is not None and board.push_written(moves) == len(moves)
    completed = plain
    if not plain:
        if moves is not None:
            board = Board.from_position(start, rules)
        replay._items = []
        completed = _Line(replay, False).run(board, game.body, 1, replay._items)
    replay._board = board
    replay._moves = board.move_stack
    replay.plies = board.ply
    replay._positions = board.positions()
    if completed:
        replay.final = board.position
    stuck = completed and not board.has_legal_moves()
    _end(replay, board.draw, board.ply, board.position.turn, stuck)
    return replay


def _end(replay: Replay, draw: Ending | None, last: int, turn: int, stuck: bool) -> None:
    """Where the rules end the game, where its written moves end, and how it really ended:
    *draw* the first draw by rule the main line reached, *last* its plies, *turn* the side to
    move after them, *stuck* whether it replayed to its end and that side has no legal move."""
    replay.draw = draw
    won = replay.game.outcome in (DeclaredResult.FIRST, DeclaredResult.SECOND)
    loser = Color(turn) if stuck else None  # the side to move, who has no move
    win = None
    if loser is not None:
        win = Ending(Termination.WIN, loser.other, last, Termination.WIN.value)
    by_itself = draw is not None and (draw.rule is None or draw.rule.ends_game)
    replay.rules_ending = draw if by_itself else win
    if draw is not None and draw.ply < last:
        _played_past(replay, last, draw)
    if draw is not None and not won and (by_itself or draw.ply == last):
        replay.ending = draw
    elif win is not None and last:
        replay.ending = win
    if loser is not None and (
        replay.ending is None or replay.ending.termination is Termination.WIN
    ):
        _check_result(replay, loser)
    if replay.ending is not None:
        replay.termination, replay.termination_ply = replay.ending.label, replay.ending.ply


def ending_line(replay: Replay) -> str:
    """How the game ended, in the words of the CLI, the report and the page."""
    ending = replay.ending
    if ending is None:
        return f"{ending_text(Termination.RECORDED)} ({replay.game.result or 'no result'})"
    return f"{ending.label} at ply {ending.ply}: {ending.text()}"


def _check_result(replay: Replay, loser: Color) -> None:
    """Compare the declared result with the final position, where the side to move (*loser*)
    has no move."""
    outcome = replay.game.outcome
    if outcome is DeclaredResult.UNKNOWN:
        return
    first = Color.of(replay.variant.first)
    winner_declared = {DeclaredResult.FIRST: first, DeclaredResult.SECOND: first.other}.get(outcome)
    side = Color.of(loser)
    result = replay.game.result or ""
    if winner_declared == loser:
        hint = " (the file may follow the White-first result convention)" if first == BLACK else ""
        reason = f"result {result} says {side} won, but {side} has no legal move{hint}"
    elif outcome is DeclaredResult.DRAW:
        reason = f"result {result} is a draw, but {side} has no legal move and lost"
    else:
        return
    replay.errors.append(
        MoveError(replay.plies, result, replay.game.source.line, 1, reason, kind="result")
    )


# -- public entry ---------------------------------------------------------------------------------


def replay_game(
    game: Game,
    variant: Variant | None = None,
    rules: str = "common",
    prefer: str | None = None,
    candidates: bool = False,
) -> Replay:
    """Replay *game* under its GameType's variant, else *variant*, else *prefer* (the variant of
    the file, say) if the notation allows it, else the notation's most likely candidate; the
    other candidates are replayed in turn only while the game fails: the first under which it
    replays without error is kept, else the one that got furthest.

    With *candidates*, the other variants the notation allows are replayed too, and those under
    which the game is legal as well are listed in ``Replay.candidates``.
    """

    declared = game.declared_variant
    runs = plain_runs(game)  # the moves read by the core, from the runs or their squares
    moves = None if runs is not None else plain_moves(game)
    if declared is not None or variant is not None:  # one variant
        v = declared or variant
        assert v is not None
        source = "gametype" if declared is not None else "option"
        return replay_as(game, v, source, draw_rules(rules, v), moves, runs)

    def run(v: Variant, source: str) -> Replay:
        return replay_as(game, v, source, draw_rules(rules, v), moves, runs)

    names, evidence = _candidates(game, moves, runs)
    order = [prefer, *(n for n in names if n != prefer)] if prefer in names else names
    tried: dict[str, Replay] = {}
    chosen = None
    for name in order:
        replay = tried[name] = run(VARIANTS[name], "notation")
        if not replay.errors:
            chosen = replay
            break
    if chosen is None:
        return max(tried.values(), key=_progress)  # the first that got furthest
    if not chosen.plies and len(names) > 1 and chosen.variant.name != prefer and not evidence:
        chosen.warnings.append(_guessed(game, chosen.variant.name, names))
    if candidates and chosen.plies:  # a record without moves fits any variant: says nothing
        others = [n for n in names if n != chosen.variant.name]
        fits = (tried.get(n) or run(VARIANTS[n], "notation") for n in others)
        chosen.candidates = [r.variant.name for r in fits if not r.errors]
    return chosen


def _guessed(game: Game, name: str, names: list[str]) -> GameWarning:
    """The warning that the variant of a game without moves was guessed."""
    others = ", ".join(n for n in names if n != name)
    return located(
        game.source.line,
        None,
        f"variant guessed: read as {name}, but the game has no moves and its position fits "
        f"{others} as well; say which with a GameType tag or --variant",
    )


def _progress(replay: Replay) -> tuple[int, int]:
    """How far a failed replay got: main-line plies, then fewer errors."""
    return (replay.plies, -len(replay.errors))
