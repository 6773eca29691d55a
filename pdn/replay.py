"""Replay a game under its variant: resolve each written move, detect how the game ended.

The variant comes from the GameType tag, else from the caller, else from the notation: where the
notation leaves several candidates the game is replayed under each and the one under which it is
legal is kept (spec/pdn.md §3.3).
"""

from __future__ import annotations

import itertools
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from pdn.board import BLACK, WHITE, Geometry, SquareError
from pdn.drawrules import SEED, DrawRules, QuietReset, draw_rules
from pdn.fen import FenError, parse_fen
from pdn.game import Game, MoveNode, Node, Outcome, SetupNode
from pdn.notation import MoveForm, move_text
from pdn.position import Move, Position
from pdn.variants import VARIANTS, Variant

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
    candidates: list[str] = field(default_factory=list)  # other variants the game also fits
    rules: DrawRules = SEED
    moves: list[Move] = field(default_factory=list)  # the main line as replayed
    nodes: list[MoveNode] = field(default_factory=list)  # the written move of each (its first part)
    plies: int = 0
    termination: str = "undecided"  # win, draw-40-moves (or other), draw-repetition, undecided
    termination_ply: int | None = None
    errors: list[MoveError] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    final: Position | None = None
    positions: list[Position] = field(default_factory=list)  # before each main-line ply, then final
    details: bool = True  # list the legal moves at an illegal move (off for trial replays)

    @property
    def valid(self) -> bool:
        """No syntax error and every move legal, in the main line and in the variations."""
        return self.game.syntax_error is None and not self.errors


# -- variant -------------------------------------------------------------------------------------


def _squares(nodes: Sequence[Node]) -> list[str]:
    out: list[str] = []
    for n in nodes:
        if isinstance(n, MoveNode):
            out.extend(n.squares)
            for v in n.variations:
                out.extend(_squares(v))
    return out


def candidate_variants(game: Game) -> list[str]:
    """Variants the notation allows, most likely first (spec/pdn.md §3.3)."""
    squares = _squares(game.body)
    fen = game.fen or ""
    fen_squares = re.findall(r"\d+", fen.split(":", 1)[1] if ":" in fen else "")
    if any(s[:1].isalpha() for s in squares) or re.search(r"[a-h][1-8]", fen):
        names = list(ALGEBRAIC_CANDIDATES)
    else:
        numbers = [int(s) for s in squares if s.isdigit()] + [int(s) for s in fen_squares]
        top = max(numbers, default=0)
        if top > 50:
            names = ["canadian"]
        elif top > 32:
            names = ["international", "frisian"]
        elif numbers:
            names = list(NUMERIC_CANDIDATES)
        else:  # no squares at all: any variant
            names = [*NUMERIC_CANDIDATES, *ALGEBRAIC_CANDIDATES[2:], "canadian"]
    if {t.lower() for t, _ in game.tags.items()} & _ITALIAN_TAGS:
        names.sort(key=lambda n: n != "italian")
    text = f"{game.event or ''} {game.site or ''}"
    for pattern, name in _HINTS:
        if name in names and pattern.search(text):
            names.sort(key=lambda n, want=name: n != want)  # type: ignore[misc]
            break
    return names


# -- moves ---------------------------------------------------------------------------------------


def _key_squares(g: Geometry, move: Move) -> list[int]:
    """The squares a capture path may be written with: per jump, the square behind the piece
    taken (PDN 3.0 writes it when the direction does not change) and the landing square."""
    out: list[int] = []
    path = move.path
    for i, (a, b) in enumerate(itertools.pairwise(path)):
        victim = move.captured[i]
        df, dr = g.direction_between(a, b)
        f, r = g.coords[victim]
        out.append((r + dr) * g.stride + f + df)
        out.append(b)
    return out


def _traversed(g: Geometry, move: Move) -> list[int]:
    """Every square the moving piece passes over or lands on, in order (start excluded)."""
    out: list[int] = []
    for a, b in itertools.pairwise(move.path):
        out.extend(s for s in g.between(a, b) if s not in move.captured)
        out.append(b)
    return out


def _is_subsequence(needle: list[int], haystack: list[int]) -> bool:
    it = iter(haystack)
    return all(any(x == y for y in it) for x in needle)


def match_move(pos: Position, squares: list[str], legal: list[Move]) -> list[Move]:
    """The legal moves a written move can mean (empty when none); raises SquareError.

    Squares written between the first and the last must be landing squares or squares directly
    behind a piece taken, in order; failing that, any squares the piece passes.
    """
    g = pos.geometry
    if len(squares) == 2 and len(squares[0]) == 1 and squares[0].isalpha():  # Russian "ed4"
        file = ord(squares[0]) - 97
        end = g.parse_square(squares[1])
        return [m for m in legal if g.coords[m.start][0] == file and m.end == end]
    if len(squares) < 2:
        return []
    cells = [g.parse_square(s) for s in squares]
    start, end = cells[0], cells[-1]
    found = [m for m in legal if m.start == start and m.end == end]
    middle = cells[1:-1]
    if middle and found:
        captures = [m for m in found if m.captured]
        strict = [m for m in captures if _is_subsequence(middle, _key_squares(g, m)[:-1])]
        found = strict or [m for m in found if _is_subsequence(middle, _traversed(g, m)[:-1])]
    return found


def candidates(pos: Position, squares: list[str]) -> list[Move]:
    """The legal moves a written move can mean; a plain move is checked without generating
    every legal move (only the captures, which decide whether it may be played)."""
    if len(squares) != 2 or (len(squares[0]) == 1 and squares[0].isalpha()):
        return match_move(pos, squares, pos.legal_moves())
    g = pos.geometry
    a, b = g.parse_square(squares[0]), g.parse_square(squares[1])
    captures = pos.captures()
    found = [m for m in captures if m.start == a and m.end == b]
    if captures and not pos.variant.capture_optional:
        return found
    quiet = pos.quiet_move(a, b)
    return [*found, quiet] if quiet else found


def _legal_texts(pos: Position, legal: list[Move]) -> list[str]:
    return sorted(move_text(pos, m, MoveForm.SHORT, legal=legal) for m in legal)


class _Line:
    """Replays one line of moves (the main line or a variation) from a position."""

    def __init__(self, replay: Replay, variation: bool) -> None:
        self.replay = replay
        self.variation = variation

    def error(self, ply: int, node: MoveNode, reason: str, legal: list[str] | None = None) -> None:
        self.replay.errors.append(
            MoveError(ply, node.raw or node.text, node.line, node.column, reason, legal or [],
                      self.variation)
        )  # fmt: skip

    def run(self, pos: Position, nodes: Sequence[Node], first_ply: int) -> Position | None:
        """Replay *nodes* from *pos*; return the last position (None once a move failed)."""
        replay = self.replay
        main = not self.variation
        ply = first_ply
        i = 0
        history: dict[tuple[int, ...], int] = {}
        quiet = 0
        rules = replay.rules
        ended: str | None = None
        late: list[MoveNode] = []  # main-line moves played after a rule ended the game
        king_limit = pos.variant.frisian_orthogonal_captures  # Frisian: idle kings are limited
        king_run = [0, 0]  # consecutive non-capturing king moves, per side
        if main:
            history[pos.hash_key()] = 1
        while i < len(nodes):
            node = nodes[i]
            i += 1
            if isinstance(node, SetupNode):
                pos = _setup(pos, node, replay)
                continue
            if not isinstance(node, MoveNode):
                continue
            before = pos
            if node.text == "-":
                self.error(ply, node, "unknown move: the record does not say which move")
                return None
            try:
                found = candidates(pos, node.squares)
                merged = node
                while not found and i < len(nodes):  # a capture written in several parts
                    nxt = nodes[i]
                    if not (isinstance(nxt, MoveNode) and nxt.squares[:1] == merged.squares[-1:]):
                        break
                    merged = MoveNode(
                        f"{merged.text} {nxt.text}", merged.squares + nxt.squares[1:],
                        merged.capture or nxt.capture, raw=merged.raw, line=node.line,
                        column=node.column,
                    )  # fmt: skip
                    found = match_move(pos, merged.squares, pos.legal_moves())
                    if found:
                        i += 1
                        replay.warnings.append(
                            f"line {node.line}: capture written in parts ({merged.text}) joined"
                        )
            except SquareError as exc:
                self.error(ply, node, str(exc))
                return None
            if found and king_limit and king_run[pos.turn] >= KING_RUN:
                found = [m for m in found if not _idle_king_move(pos, m)]
            if not found:
                legal = pos.legal_moves()
                if king_limit and king_run[pos.turn] >= KING_RUN:
                    legal = [m for m in legal if not _idle_king_move(pos, m)]
                if not legal:
                    reason = "the game is already over: the side to move has no legal move"
                else:
                    reason = "illegal move"
                self.error(ply, node, reason, _legal_texts(pos, legal) if replay.details else [])
                return None
            if len(found) > 1:
                move = self._disambiguate(pos, found, nodes[i:], ply, node)
            else:
                move = found[0]
            if main and ended:
                late.append(node)
            if king_limit:
                king_run[pos.turn] = (
                    king_run[pos.turn] + 1 if move.by_king and not move.captured else 0
                )
            pos = pos.play(move)
            for alt in node.variations:
                self._variation(before, pos, alt, ply, node)
            if main:
                replay.moves.append(move)
                replay.nodes.append(node)
                replay.positions.append(before)
                quiet = _quiet_count(quiet, move, before, rules)
                key = pos.hash_key()
                history[key] = history.get(key, 0) + 1
                if not ended:  # a win can only be the last move: it is looked for at the end
                    if history[key] >= rules.repetitions:
                        ended = "draw-repetition"
                    elif quiet >= 2 * rules.quiet_moves:
                        ended = rules.termination
                    if ended:
                        replay.termination = ended
                        replay.termination_ply = ply
            ply += 1
        if main and not ended and ply > first_ply and not pos.has_moves():
            replay.termination, replay.termination_ply = "win", ply - 1
        if late:
            replay.warnings.append(
                f"line {late[0].line}: {len(late)} moves played after the game ended "
                f"({replay.termination} at ply {replay.termination_ply}), from "
                f"{late[0].raw or late[0].text}"
            )
        return pos

    def _variation(
        self, before: Position, after: Position, nodes: list[Node], ply: int, node: MoveNode
    ) -> None:
        """Replay a variation: an alternative to *node*, or else a continuation after it."""
        if not _replays(before, nodes) and _replays(after, nodes):
            self.replay.warnings.append(
                f"line {node.line}: the variation after {node.raw or node.text} is not an "
                "alternative to it; read as a continuation"
            )
            _Line(self.replay, True).run(after, nodes, ply + 1)
        else:
            _Line(self.replay, True).run(before, nodes, ply)

    def _disambiguate(
        self, pos: Position, found: list[Move], rest: Sequence[Node], ply: int, node: MoveNode
    ) -> Move:
        """Pick among moves a short capture fits: the one that lets the rest of the line replay."""
        texts = ", ".join(move_text(pos, m, MoveForm.FULL, legal=found) for m in found)
        working = [m for m in found if _replays(pos.play(m), rest)]
        if len(working) == 1:
            self.replay.warnings.append(
                f"line {node.line}:{node.column}: {node.raw} is ambiguous ({texts}); "
                f"only {move_text(pos, working[0], MoveForm.FULL)} lets the game go on"
            )
            return working[0]
        self.error(ply, node, f"ambiguous move: it fits {texts}")
        return (working or found)[0]


KING_RUN = 3  # Frisian: a king moves at most three times in a row without capturing


def _idle_king_move(pos: Position, move: Move) -> bool:
    """A non-capturing king move while the side still has men (Frisian limits these)."""
    men, _ = pos.pieces(pos.turn)
    return move.by_king and not move.captured and bool(men)


def _quiet_count(count: int, move: Move, before: Position, rules: DrawRules) -> int:
    """The moves-rule count after *move*."""
    if move.captured or move.crowns:
        return 0
    if rules.reset is QuietReset.CAPTURE_OR_MAN_MOVE:
        men, _ = before.pieces(before.turn)
        if men >> move.start & 1:
            return 0
    return count + 1


def _replays(pos: Position, nodes: Sequence[Node]) -> bool:
    """Whether the main-line moves of *nodes* are legal from *pos* (no reports)."""
    for node in nodes:
        if isinstance(node, SetupNode):
            return True  # a new position: what follows no longer depends on the choice
        if not isinstance(node, MoveNode):
            continue
        try:
            found = candidates(pos, node.squares)
        except SquareError:
            return False
        if not found:
            return False
        pos = pos.play(found[0])
    return True


def _setup(pos: Position, node: SetupNode, replay: Replay) -> Position:
    """The position a /FEN "..."/ command sets (a FEN with no pieces only sets the side)."""
    text = node.fen.strip()
    if re.fullmatch(r"[WB?]\s*:*\s*:*", text, re.I):
        side = text[:1].upper()
        return pos.with_turn(BLACK if side == "B" else WHITE if side == "W" else 1 - pos.turn)
    try:
        return parse_fen(text, pos.variant)
    except FenError as exc:
        replay.warnings.append(f"line {node.line}: setup ignored: {exc}")
        return pos


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
    rules: DrawRules = SEED,
    details: bool = True,
) -> Replay:
    """Replay *game* under *variant* (*details*: list legal moves at an illegal one)."""
    replay = Replay(game, variant, source, rules=rules, details=details)
    start, problem = _start(game, variant)
    if start is None:
        replay.errors.append(
            MoveError(0, game.fen or "", game.source.line, 1, f"bad FEN tag: {problem}", kind="fen")
        )
        return replay
    final = _Line(replay, False).run(start, game.body, 1)
    replay.plies = len(replay.moves)
    replay.final = final
    if final is not None:
        replay.positions.append(final)
        _check_result(replay, final)
    elif replay.moves:  # stopped at an error: the position reached before it
        replay.positions.append(replay.positions[-1].play(replay.moves[-1]))
    else:
        replay.positions.append(start)
    return replay


def _check_result(replay: Replay, final: Position) -> None:
    """Compare the declared result with a final position that decides the game."""
    outcome = replay.game.outcome
    if outcome is Outcome.UNKNOWN or final.legal_moves():
        return
    loser = final.turn
    first = WHITE if replay.variant.first == "W" else BLACK
    winner_declared = {Outcome.FIRST: first, Outcome.SECOND: 1 - first}.get(outcome)
    side = "White" if loser == WHITE else "Black"
    result = replay.game.result or ""
    if winner_declared == loser:
        hint = " (the file may follow the White-first result convention)" if first == BLACK else ""
        reason = f"result {result} says {side} won, but {side} has no legal move{hint}"
    elif outcome is Outcome.DRAW:
        reason = f"result {result} is a draw, but {side} has no legal move and lost"
    else:
        return
    replay.errors.append(
        MoveError(replay.plies, result, replay.game.source.line, 1, reason, kind="result")
    )


# -- public entry ---------------------------------------------------------------------------------


def replay_options(game: Game, variant: Variant | None = None, rules: str = "seed") -> list[Replay]:
    """The replays to choose from: one when GameType or *variant* decides, else every candidate
    variant under which the game is legal (notation order), else the ones that got furthest."""

    def run(v: Variant, source: str, details: bool = True) -> Replay:
        return replay_as(game, v, source, draw_rules(rules, v), details)

    declared = game.declared_variant
    if declared is not None:
        return [run(declared, "gametype")]
    if variant is not None:
        return [run(variant, "option")]
    tried = [run(VARIANTS[n], "notation", details=False) for n in candidate_variants(game)]
    fitting = [r for r in tried if not r.errors]
    if fitting:
        return fitting
    furthest = max(_progress(r) for r in tried)  # none fits: report these in full
    return [run(r.variant, "notation") for r in tried if _progress(r) == furthest]


def replay_game(
    game: Game,
    variant: Variant | None = None,
    rules: str = "seed",
    prefer: str | None = None,
) -> Replay:
    """Replay *game*: its GameType, else *variant*, else the notation decides the variant.

    Where the notation leaves several variants under which the game is legal, *prefer* (the
    variant of the games before it in the same file, say) is taken if it is one of them.
    """
    options = replay_options(game, variant, rules)
    best = next((r for r in options if r.variant.name == prefer), options[0])
    best.candidates = [r.variant.name for r in options if r is not best and not r.errors]
    return best


def _progress(replay: Replay) -> tuple[int, int]:
    """How far a failed replay got: main-line plies, then fewer errors."""
    return (replay.plies, -len(replay.errors))
