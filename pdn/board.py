"""The Board a game is played on, as python-chess has one: a position and the moves that led to
it, moves read in every written form, the draw rules, and how the game ended.

>>> board = Board("english")
>>> for text in ("11-15", "23-19"):
...     move = board.push(text)
>>> board.fen()
'B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15'
>>> board.pop().is_capture, board.ply, board.outcome()
(False, 1, None)
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from pdn.game import MoveNode
from pdn.notation import (
    MoveForm,
    illegal_reason,
    legal_texts,
    move_text,
    named_moves,
    written_moves,
)
from pdn.read.movetext import make_move
from pdn.render.diagram import svg_diagram
from pdn.render.textboard import text_board
from pdn.rules.draw import COMMON, DrawRule, DrawRules, Ending, QuietReset, Termination, draw_rules
from pdn.rules.fen import parse_fen, to_fen
from pdn.rules.geometry import WHITE, Color, SquareError
from pdn.rules.kernel import Pushed
from pdn.rules.move import HashKey
from pdn.rules.position import Duplicates, Move, Position, core
from pdn.rules.variants import Notation, Variant, get_variant

KING_RUN = 3  # Frisian: a king moves at most three times in a row without capturing


class MoveTextError(ValueError):
    """A written move that cannot be played on the board (the base of the three kinds below).

    *text* is the move as written, *reason* says what is wrong, *line* and *column* locate it in
    its file (0 when it was not read from one).
    """

    def __init__(self, text: str, reason: str, line: int = 0, column: int = 0) -> None:
        super().__init__(f"{text}: {reason}" if text else reason)
        self.text = text
        self.reason = reason
        self.line = line
        self.column = column


class InvalidMoveError(MoveTextError):
    """Text that names no move on this board: a square it does not have, an unknown move ``-``,
    parts that do not join into one move."""


class IllegalMoveError(MoveTextError):
    """No legal move fits the written move; *moves* are the legal moves, *legal* their texts as a
    report shows them (every landing square written when the move was written in full)."""

    def __init__(
        self,
        text: str,
        reason: str,
        moves: list[Move],
        legal: list[str],
        line: int = 0,
        column: int = 0,
    ) -> None:
        super().__init__(text, reason, line, column)
        self.moves = moves
        self.legal = legal


class AmbiguousMoveError(MoveTextError):
    """Several legal moves, reaching different positions, fit the written move (*moves*)."""

    def __init__(
        self, text: str, reason: str, moves: list[Move], line: int = 0, column: int = 0
    ) -> None:
        super().__init__(text, reason, line, column)
        self.moves = moves


class Board:
    """A position with its history: the moves pushed, the count towards the moves rule, the
    repetitions, Frisian idle king moves, and the first draw by rule.

    *variant* is a Variant or a name; *fen* the start (the variant's initial position when None);
    *rules* a DrawRules or the name of a set (``common``: 40 moves and threefold repetition;
    ``official``: the federation's, see pdn.rules.draw).
    """

    __slots__ = (
        "_eg",
        "_ended",
        "_history",
        "_king_runs",
        "_limit",
        "_man_resets",
        "_quiet_limit",
        "_repetitions",
        "_runs",
        "_stack",
        "position",
        "quiet",
        "rules",
        "variant",
    )

    def __init__(
        self, variant: Variant | str, fen: str | None = None, rules: DrawRules | str = COMMON
    ) -> None:
        v = get_variant(variant) if isinstance(variant, str) else variant
        self._reset(Position.start(v) if fen is None else parse_fen(fen, v), rules)

    @classmethod
    def from_position(cls, position: Position, rules: DrawRules | str = COMMON) -> Board:
        """A board that starts from *position*."""
        board = cls.__new__(cls)
        board._reset(position, rules)
        return board

    def _reset(self, position: Position, rules: DrawRules | str) -> None:
        self.variant: Variant = position.variant
        if isinstance(rules, str):
            rules = draw_rules(rules, self.variant)
        self.rules: DrawRules = rules
        self._man_resets, self._repetitions, self._quiet_limit = _counts(rules)
        self._eg = _Endgame.of(rules.endgame, position) if rules.endgame else None
        self.position: Position = position
        self.quiet = 0  # plies counted towards the moves rule
        self._stack: list[Pushed[Position]] = []  # the moves pushed, as pop() takes them back
        self._runs: list[tuple[int, int]] = []  # idle king moves before each (Frisian only)
        self._history: dict[HashKey, int] = {position.hash_key(): 1}
        self._king_runs = (0, 0)  # consecutive idle king moves of White, of Black
        self._limit = self.variant.frisian_orthogonal_captures
        self._ended: Ending | None = None

    # -- the position ------------------------------------------------------------------------

    @property
    def turn(self) -> Color:
        """The side to move."""
        return Color(self.position.turn)

    @property
    def ply(self) -> int:
        """The number of moves pushed."""
        return len(self._stack)

    @property
    def move_stack(self) -> list[Move]:
        """The moves pushed, in order."""
        return [s[0] for s in self._stack]

    def fen(self) -> str:
        """The position as PDN 3.0 FEN."""
        return to_fen(self.position)

    def positions(self) -> list[Position]:
        """The position before each move pushed, then the current one."""
        return [s[1] for s in self._stack] + [self.position]

    def set_position(self, position: Position) -> None:
        """Put *position* on the board, as a ``/FEN "..."/`` setup in the movetext does: the moves
        pushed, the counts towards the draw rules and the repetitions carry on (pop() undoes the
        move before it, not the setup)."""
        self.position = position
        if self._eg is not None:
            self._eg.setup = True
            self._eg.cut(self.ply - 1)

    def copy(self) -> Board:
        """An independent board with the same position and history."""
        board = Board.__new__(Board)
        board.variant = self.variant
        board.rules = self.rules
        board._man_resets = self._man_resets
        board._quiet_limit = self._quiet_limit
        board._repetitions = self._repetitions
        board.position = self.position
        board.quiet = self.quiet
        board._stack = self._stack.copy()
        board._runs = self._runs.copy()
        board._history = self._history.copy()
        board._king_runs = self._king_runs
        board._limit = self._limit
        board._ended = self._ended
        board._eg = self._eg.copy() if self._eg else None
        return board

    def __repr__(self) -> str:
        return f"Board({self.variant.name!r}, {self.fen()!r})"

    def __str__(self) -> str:
        side = Color.of(self.position.turn)
        return f"{text_board(self.position)}\n{side} to move"

    # -- moves -------------------------------------------------------------------------------

    def _idle_kings_barred(self) -> bool:
        """Frisian: the side to move made three idle king moves in a row and still has men."""
        pos = self.position
        return (
            self._limit and self._king_runs[pos.turn] >= KING_RUN and bool(pos.pieces(pos.turn)[0])
        )

    def generate_moves(self, duplicates: Duplicates = Duplicates.DROP) -> list[Move]:
        """The legal moves, capture paths counted as *duplicates* says."""
        moves = self.position.legal_moves(duplicates)
        if self._idle_kings_barred():
            moves = [m for m in moves if not (m.by_king and not m.captured)]
        return moves

    @property
    def legal_moves(self) -> list[Move]:
        """The legal moves (one per position they reach), each printing as its PDN text
        (:class:`pdn.notation.NamedMove`)."""
        return named_moves(self.position, self.generate_moves())

    def move_text(
        self, move: Move, form: MoveForm | str = MoveForm.SHORT, notation: Notation | None = None
    ) -> str:
        """A legal move's text here: ``short`` (PDN 3.0) or ``full`` (every landing square), in
        the variant's own square names or the *notation* asked for."""
        legal = self.generate_moves()
        return move_text(self.position, move, MoveForm(form), notation, legal=legal)

    def _repr_svg_(self) -> str:
        """The position as SVG, for notebooks."""
        return svg_diagram(self.position)

    def find_moves(self, squares: Sequence[str]) -> list[Move]:
        """The legal moves the move written with *squares* can mean, one per position reached
        (see pdn.notation.written_moves); raises SquareError for a square not on the board."""
        found = written_moves(self.position, squares)
        if found and self._idle_kings_barred():
            found = [m for m in found if not (m.by_king and not m.captured)]
        return found

    def parse_move(self, move: str | MoveNode) -> Move:
        """The legal move a written move means: numeric or algebraic, Russian short ``ed4``,
        captures short, PDN 3.0 long or with every landing square, in parts (``11x18 18x25``).

        A MoveNode (as the reader makes) gives its line and column to the errors. Raises
        InvalidMoveError, IllegalMoveError or AmbiguousMoveError.
        """
        node = _written(move) if isinstance(move, str) else move
        squares = node.squares
        if len(squares) == 2:  # the common case, a-b or axb: its squares looked up directly
            pos = self.position
            names = pos.geometry._names
            start, end = names.get(squares[0]), names.get(squares[1])
            if start is not None and end is not None:
                found = pos.moves_between(start, end)
                if len(found) == 1 and not (self._limit and self._idle_kings_barred()):
                    return found[0]
        return self._parse_node(node)

    def _parse_node(self, node: MoveNode) -> Move:
        """parse_move() of a move node, every written form."""
        if node.text == "-":
            reason = "unknown move: the record does not say which move"
            raise InvalidMoveError(node.raw or node.text, reason, node.line, node.column)
        try:
            found = written_moves(self.position, node.squares)
        except SquareError as exc:
            raise InvalidMoveError(
                node.raw or node.text, str(exc), node.line, node.column
            ) from None
        if self._limit and found and self._idle_kings_barred():
            found = [m for m in found if not (m.by_king and not m.captured)]
        if len(found) == 1:
            return found[0]
        text = node.raw or node.text
        if not found:
            raise self._illegal(text, node.squares, node.line, node.column)
        fits = ", ".join(move_text(self.position, m, MoveForm.FULL, legal=found) for m in found)
        raise AmbiguousMoveError(
            text, f"ambiguous move: it fits {fits}", found, node.line, node.column
        )

    def _illegal(
        self, text: str, squares: Sequence[str], line: int, column: int
    ) -> IllegalMoveError:
        """The error for *text*, a move no legal move fits, saying why where it can; written
        with squares between its first and last, the legal captures are listed with every
        landing square."""
        full = len(squares) > 2
        moves = self.generate_moves(Duplicates.PATHS if full else Duplicates.DROP)
        if moves:
            reason = illegal_reason(self.position, squares, moves)
        else:
            reason = "the game is already over: the side to move has no legal move"
        return IllegalMoveError(
            text, reason, moves, legal_texts(self.position, moves, full), line, column
        )

    def push(self, move: Move | str | MoveNode) -> Move:
        """Play *move* (a Move is played as given; text is read by parse_move) and return it."""
        if move.__class__ is not Move and isinstance(move, (str, MoveNode)):
            move = self.parse_move(move)
        before = self.position
        self._record(move, before, before.play(move))
        return move

    def push_written(self, moves: list[Sequence[str]]) -> int:
        """Play moves given by their written squares (MoveNode.squares) for as long as each
        means exactly one legal move, as push() reads it; the number played.

        Moves written ``a-b`` or ``axb`` are played by the core's push_plain (its loop keeps
        the same records as push()); any other form by push().
        """
        if self._limit:  # Frisian idle king moves: push() reads each move
            return 0
        push_plain = core().push_plain
        pos, quiet, ended = self.position, self.quiet, self._ended
        names = pos.geometry._names
        stack, history = self._stack, self._history
        settings = (self._man_resets, self._repetitions, self._quiet_limit)
        i, n = 0, len(moves)
        while i < n:
            pos, i, quiet, draw, pushed = push_plain(
                pos, moves, i, names, history, quiet, ended is None, settings
            )
            stack += pushed
            if draw:
                ended = self._draw(history[stack[-1][3]], len(stack))
                continue
            if i == n:
                break
            move = one_written(pos, moves[i])  # another written form, or no single move
            if move is None:
                break
            self.position, self.quiet, self._ended = pos, quiet, ended
            self.push(move)
            pos, quiet, ended = self.position, self.quiet, self._ended
            i += 1
        self.position, self.quiet, self._ended = pos, quiet, ended
        return i

    @staticmethod
    def check_written(
        start: Position, rules: DrawRules, moves: list[Sequence[str]]
    ) -> Checked | None:
        """What push_written(*moves*) finds on a new board at *start* under *rules*, found by
        the core's check_plain without keeping the moves (replay them to have the board): how
        far it got while each move meant exactly one legal move, the position there, and the
        first draw by rule. None where a board needs more than that loop: Frisian idle king
        moves, endgame rules (read from the positions)."""
        if start.variant.frisian_orthogonal_captures or rules.endgame:
            return None
        counts = _counts(rules)
        names = start.geometry._names
        checked = core().check_plain(start, moves, names, counts, one_written)
        return _checked(rules, counts, *checked, len(moves))

    @staticmethod
    def check_runs(start: Position, rules: DrawRules, runs: list[str]) -> Checked | None:
        """check_written() of the moves of *runs*, PLAIN_RUN tokens (see
        pdn.read.movetext.plain_runs), read by the core; None also where a run holds anything
        but moves and move numbers."""
        if start.variant.frisian_orthogonal_captures or rules.endgame:
            return None
        counts = _counts(rules)
        try:
            checked = core().check_runs(start, runs, start.geometry._names, counts, one_written)
        except ValueError:
            return None
        return _checked(rules, counts, *checked)

    def _record(self, move: Move, before: Position, after: Position) -> None:
        """Put *after*, reached by *move* from *before*, on the board: the stack, the count
        towards the moves rule, Frisian idle king moves, the repetitions, the first draw."""
        self.position = after
        runs = self._king_runs
        key = (after.white_men, after.white_kings, after.black_men, after.black_kings, after.turn)
        self._stack.append((move, before, self.quiet, key))
        if move.captured or move.crowns or (self._man_resets and _man_moves(before, move)):
            self.quiet = 0
        else:
            self.quiet += 1
        if self._limit:
            self._runs.append(runs)
            run = runs[before.turn] + 1 if move.by_king and not move.captured else 0
            self._king_runs = (run, runs[1]) if before.turn == WHITE else (runs[0], run)
        history = self._history
        seen = history[key] = history.get(key, 0) + 1
        if (seen >= self._repetitions or self.quiet >= self._quiet_limit) and self._ended is None:
            self._ended = self._draw(seen, len(self._stack))

    def _draw(self, seen: int, ply: int) -> Ending:
        """The draw reached at *ply* by a position seen *seen* times, or by the moves rule."""
        return _draw_ending(self.rules, seen >= self._repetitions, ply)

    def pop(self) -> Move:
        """Take back the last move pushed and return it; IndexError when there is none."""
        move, position, quiet, key = self._stack.pop()
        seen = self._history[key] - 1
        if seen:
            self._history[key] = seen
        else:
            del self._history[key]
        self.position = position
        self.quiet = quiet
        if self._limit:
            self._king_runs = self._runs.pop()
        if self._ended is not None and self._ended.ply > len(self._stack):
            self._ended = None  # it was reached by a move taken back
        if self._eg:
            self._eg.cut(len(self._stack))
        return move

    def peek(self) -> Move:
        """The last move pushed; IndexError when there is none."""
        return self._stack[-1][0]

    # -- the end -----------------------------------------------------------------------------

    @property
    def draw(self) -> Ending | None:
        """The first draw by rule the moves pushed reached (the game may have gone on after it;
        whether the rule ended the game by itself or a player could claim it: Ending.rule)."""
        ended = self._ended
        if self._eg is not None:
            found = self._eg.scan(self._stack, self.position)
            if found is not None and (ended is None or found.ply < ended.ply):
                return found
        return ended

    def is_repetition(self, count: int = 3) -> bool:
        """Whether the current position (same side to move) has stood on the board *count* times."""
        return self._history.get(self.position.hash_key(), 0) >= count

    def has_legal_moves(self) -> bool:
        """Whether the side to move has a legal move (any(legal_moves), found faster)."""
        return self.position.has_moves() and not (
            self._idle_kings_barred() and not self.legal_moves
        )

    def outcome(self) -> Ending | None:
        """How the game ended: the first draw by rule reached (the moves rule, repetition or an
        endgame rule), else a win when the side to move has no legal move; None while it goes
        on."""
        ended = self.draw
        if ended is not None:
            return ended
        if self.has_legal_moves():
            return None
        winner = Color.of(self.position.turn).other
        return Ending(Termination.WIN, winner, self.ply, "win")


_NEVER = 1 << 40  # the count of a rule the set does not have


def _counts(rules: DrawRules) -> tuple[bool, int, int]:
    """What the core's loops read of *rules*: whether a man's move resets the quiet count, the
    repetitions and the quiet plies that end a game (_NEVER for a rule the set does not have)."""
    quiet, repetition = rules.moves_rule, rules.repetition
    man_resets = quiet is not None and quiet.reset is QuietReset.CAPTURE_OR_MAN_MOVE
    quiet_limit = 2 * quiet.moves if quiet else _NEVER  # plies
    return man_resets, repetition.repetitions if repetition else _NEVER, quiet_limit


def one_written(pos: Position, squares: Sequence[str]) -> Move | None:
    """The one legal move a move written with *squares* means in *pos* (how push_written reads
    a move the core's loop does not play), else None."""
    try:
        found = written_moves(pos, squares)
    except SquareError:
        return None
    return found[0] if len(found) == 1 else None


def _checked(
    rules: DrawRules,
    counts: tuple[bool, int, int],
    pos: Position,
    plies: int,
    quiet: int,
    ply: int,
    seen: int,
    moves: int,
) -> Checked:
    """What a check of the core found (see Board.check_written)."""
    return Checked(pos, plies, _draw_ending(rules, seen >= counts[1], ply) if ply else None, moves)


def _draw_ending(rules: DrawRules, repeated: bool, ply: int) -> Ending:
    """The draw reached at *ply*: by repetition where the position was *repeated* as often as
    the rule asks, else by the moves rule."""
    rule = rules.repetition if repeated else rules.moves_rule
    assert rule is not None
    return Ending(rule.kind, None, ply, rule.label, rule)


@dataclass(frozen=True, slots=True)
class Checked:
    """What Board.check_written found: the position reached, the plies played, the first draw
    by rule on the way, the moves written (all played when as many as the plies)."""

    position: Position
    plies: int
    draw: Ending | None
    moves: int


# One change of the material: the ply, the material (white men, white kings, black men, black
# kings; None for more pieces than any rule counts), whether a lone king stands on the main
# diagonal, the side to move there, and the ply and side to move where that material began
_Mark = tuple[int, tuple[int, int, int, int] | None, bool, int, int, int]


class _Endgame:
    """The counts of the endgame rules, found from the positions of the board as they are asked
    for (the first endgame draw is looked for only when Board.draw is read)."""

    __slots__ = ("diagonal", "found", "marks", "most", "rules", "scanned", "setup")

    def __init__(self, rules: tuple[DrawRule, ...], diagonal: int, most: int) -> None:
        self.rules = rules
        self.diagonal = diagonal  # the main diagonal's squares, when a rule needs them
        self.most = most  # no rule counts with more pieces on the board
        self.marks: list[_Mark] = []
        self.scanned = -1  # the last ply looked at
        self.found: Ending | None = None
        self.setup = False  # a position was set mid-game: pieces may have come on the board

    @classmethod
    def of(cls, rules: tuple[DrawRule, ...], position: Position) -> _Endgame:
        """The counts of *rules* on a board of *position*'s variant."""
        diagonal = 0
        if any(r.main_diagonal for r in rules):
            names = position.geometry._names
            for i, file in enumerate("abcdefgh"):
                square = names.get(f"{file}{i + 1}")
                diagonal |= 1 << square if square is not None else 0
        most = max(
            r.pieces[1] if r.both_kings else 1 + max(m + k for m, k in r.strong) for r in rules
        )
        return cls(rules, diagonal, most)

    def copy(self) -> _Endgame:
        twin = _Endgame(self.rules, self.diagonal, self.most)
        twin.marks, twin.scanned, twin.found = self.marks.copy(), self.scanned, self.found
        twin.setup = self.setup
        return twin

    def cut(self, ply: int) -> None:
        """Forget what was found after *ply*."""
        if self.scanned > ply:
            self.scanned = ply
            while self.marks and self.marks[-1][0] > ply:
                self.marks.pop()
            if self.found is not None and self.found.ply > ply:
                self.found = None

    def scan(self, stack: list[Pushed[Position]], position: Position) -> Ending | None:
        """The first endgame draw up to the last ply of *stack* (*position* after it)."""
        n = len(stack)
        marks = self.marks
        most = self.most
        end = position
        pieces = end.white_men | end.white_kings | end.black_men | end.black_kings
        if not self.setup and pieces.bit_count() > most and self.found is None:
            # moves never add pieces: no position of the game had few enough for a rule
            if not marks or marks[-1][1] is not None:
                marks.append((n, None, False, n, position.turn, position.turn))
            self.scanned = n
            return None
        while self.scanned < n and self.found is None:
            ply = self.scanned = self.scanned + 1
            pos = stack[ply][1] if ply < n else position
            wm, wk, bm, bk = pos.white_men, pos.white_kings, pos.black_men, pos.black_kings
            if (wm | wk | bm | bk).bit_count() > most:  # no rule counts: one mark for the run
                if not marks or marks[-1][1] is not None:
                    marks.append((ply, None, False, ply, pos.turn, pos.turn))
                continue
            material = (wm.bit_count(), wk.bit_count(), bm.bit_count(), bk.bit_count())
            lone = bk if material[2:] == (0, 1) else 0
            lone |= wk if material[:2] == (0, 1) else 0
            diagonal = bool(lone & self.diagonal)
            last = marks[-1] if marks else None
            if last is None or last[1] != material or last[2] != diagonal:
                began, turn = (
                    (last[3], last[4]) if last and last[1] == material else (ply, pos.turn)
                )
                last = (ply, material, diagonal, began, turn, pos.turn)
                marks.append(last)
            for rule in self.rules:
                if not rule.applies(material) or (rule.main_diagonal and not diagonal):
                    continue
                start, turn = (last[0], last[5]) if rule.main_diagonal else (last[3], last[4])
                if rule.deadline(start, material, turn) <= ply:
                    self.found = Ending(Termination.ENDGAME, None, ply, rule.label, rule)
                    break
        return self.found


def _man_moves(before: Position, move: Move) -> bool:
    """Whether *move*, played in *before*, moves a man."""
    return bool(before.pieces(before.turn)[0] >> move.path[0] & 1)


def _written(text: str) -> MoveNode:
    """The move node of *text*, joining a capture written in parts (``11x18 18x25``)."""
    joined = re.sub(r"\s*([-xX:])\s*", r"\1", text.strip())
    parts = [make_move(p) for p in joined.split()]
    if not parts:
        return make_move("")
    node = parts[0]
    squares = list(node.squares)
    for part in parts[1:]:
        if not (squares and part.squares[:1] == squares[-1:]):
            raise InvalidMoveError(text, "the parts do not join into one move")
        squares += part.squares[1:]
    if len(parts) == 1:
        return node
    capture = any(p.capture for p in parts)
    return MoveNode(" ".join(p.text for p in parts), squares, capture, raw=text)
