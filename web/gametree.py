"""A game laid out for the board: every move of the main line and of its variations, with the
position it leads to.

A visitor over the replay's tree (pdn.walk): each step's position, move, status and reason, and
the ply where a rule ended the game; variations as the replay read them (an alternative to their
move, else a continuation after it).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pdn.game import Game, MoveNode, SetupNode
from pdn.notation import MoveForm, move_text
from pdn.replay import Replay
from pdn.rules.fen import to_fen
from pdn.rules.geometry import WHITE, SquareError
from pdn.rules.position import Move, Position
from pdn.walk import Line, Status, Step, Visitor, unplayed, walk


@dataclass(slots=True)
class Ply:
    """One written move: where it stands in the tree and the position it leads to."""

    id: int
    parent: int  # the node before it; -1: the start position
    ply: int  # 1-based, counted from the start position
    text: str  # as written, with its strength mark
    state: str  # played, illegal, unplayed (after an illegal move), joined (a capture's 2nd part)
    line: int  # where it is written in the game's text
    column: int
    fen: str | None = None  # the position after the move (when played)
    path: list[str] = field(default_factory=list)  # every square the piece stands on
    marks: list[str] = field(default_factory=list)  # the squares written, for an illegal move
    reason: str = ""  # why the move is wrong (illegal, ambiguous)
    legal: list[str] = field(default_factory=list)  # the legal moves where it is illegal
    ended: str = ""  # the termination a rule gave the game after this move
    nags: list[int] = field(default_factory=list)
    comments_before: list[str] = field(default_factory=list)
    comments_after: list[str] = field(default_factory=list)
    variations: list[list[Item]] = field(default_factory=list)


@dataclass(slots=True)
class Item:
    """One thing of a line as written: a move (its node id), a comment or a setup."""

    kind: str  # move, comment, setup
    node: int = -1
    text: str = ""


@dataclass(slots=True)
class Tree:
    """The nodes of a game and its main line."""

    start: str | None  # FEN of the start position (None: the FEN tag cannot be read)
    offset: int  # 1 when the second player makes ply 1 (for move numbers)
    nodes: list[Ply] = field(default_factory=list)
    line: list[Item] = field(default_factory=list)


def game_tree(game: Game, replay: Replay | None) -> Tree:
    """The tree of *game* as *replay* played it (None: the game did not parse)."""
    if replay is None or not replay.positions or _bad_start(replay):
        tree = Tree(None, 0)
        walk(game, unplayed(game.body, 1), _Builder(tree, None))
        return tree
    start = replay.positions[0]
    first_is_white = replay.variant.first == "W"
    tree = Tree(to_fen(start), 0 if (start.turn == WHITE) == first_is_white else 1)
    replay.accept(_Builder(tree, replay))
    return tree


def _bad_start(replay: Replay) -> bool:
    return any(e.kind == "fen" for e in replay.errors)


def _node(tree: Tree, n: MoveNode, parent: int, ply: int, state: str) -> Ply:
    node = Ply(len(tree.nodes), parent, ply, n.text + n.strength, state, n.line, n.column)
    node.nags = list(n.nags)
    node.comments_before, node.comments_after = list(n.comments_before), list(n.comments_after)
    tree.nodes.append(node)
    return node


def _path(pos: Position, move: Move) -> list[str]:
    return [pos.geometry.label(s) for s in move.path]


def _marks(pos: Position, n: MoveNode) -> list[str]:
    """The squares of a written move that stand on the board (to mark an illegal move)."""
    g = pos.geometry
    out = []
    for s in n.squares:
        try:
            out.append(g.label(g.parse_square(s)))
        except SquareError:
            continue
    return out


def _legal_texts(pos: Position) -> list[str]:
    legal = pos.legal_moves()
    return sorted(move_text(pos, m, MoveForm.SHORT, legal=legal) for m in legal)


@dataclass(slots=True)
class _Frame:
    """A line being laid out: its items, the node its next move follows, its last move."""

    items: list[Item]
    parent: int
    last: Ply | None = None


_STATES = {
    Status.LEGAL: "played",
    Status.RESOLVED: "played",
    Status.AMBIGUOUS: "played",
    Status.ILLEGAL: "illegal",
    Status.UNPLAYED: "unplayed",
}


class _Builder(Visitor[None]):
    """Lays out the replayed tree (pdn.walk) as nodes and items, line by line."""

    def __init__(self, tree: Tree, replay: Replay | None) -> None:
        self.tree = tree
        self.replay = replay
        self.frames = [_Frame(tree.line, -1)]

    def visit_move(self, step: Step) -> None:
        tree, frame = self.tree, self.frames[-1]
        node = _node(tree, step.written, frame.parent, step.ply, _STATES[step.status])
        before, move, after = step.before, step.move, step.after
        main = len(self.frames) == 1
        if before is not None and move is not None and after is not None:
            node.fen, node.path = to_fen(after), _path(before, move)
            if step.status is Status.AMBIGUOUS:
                node.reason = step.reason
            replay = self.replay
            if main and replay is not None and replay.termination_ply == step.ply:
                node.ended = replay.termination
        elif step.status is Status.ILLEGAL and before is not None:
            node.marks = _marks(before, step.written)
            node.reason = step.reason
            node.legal = list(step.legal) or _legal_texts(before)  # ("-" names none: [])
        frame.items.append(Item("move", node.id))
        for n in step.parts:  # the later parts of a capture written in parts, joined to it
            part = _node(tree, n, node.id, step.ply, "joined")
            part.fen = node.fen
            frame.items.append(Item("move", part.id))
        if node.state == "played":
            frame.parent = node.id
        frame.last = node

    def visit_comment(self, text: str, step: Step | None = None) -> None:
        if step is None:  # a move's comments are copied with it (_node)
            self.frames[-1].items.append(Item("comment", text=text))

    def visit_setup(self, setup: SetupNode) -> None:
        self.frames[-1].items.append(Item("setup", text=setup.fen))

    def begin_variation(self, line: Line) -> None:
        at = self.frames[-1].last
        assert at is not None
        items: list[Item] = []
        at.variations.append(items)
        self.frames.append(_Frame(items, at.id if line.continuation else at.parent))

    def end_variation(self, line: Line) -> None:
        self.frames.pop()

    def result(self) -> None:
        return None
