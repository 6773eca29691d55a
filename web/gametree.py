"""A game laid out for the board: every move of the main line and of its variations, with the
position it leads to.

The main line is the replay's: its positions, moves, errors and the ply where a rule ended the
game. Variations are played from the position they branch from, as the replay reads them (an
alternative to their move, else a continuation after it).
"""

from __future__ import annotations

import contextlib
from collections.abc import Sequence
from dataclasses import dataclass, field

from pdn.game import CommentNode, Game, MoveNode, Node, SetupNode
from pdn.notation import MoveForm, move_text
from pdn.replay import MoveError, Replay, candidates
from pdn.rules.fen import FenError, parse_fen, to_fen
from pdn.rules.geometry import WHITE, SquareError
from pdn.rules.position import Move, Position


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
        tree.line = _unplayed(tree, game.body, -1, 1)
        return tree
    start = replay.positions[0]
    first_is_white = replay.variant.first == "W"
    tree = Tree(to_fen(start), 0 if (start.turn == WHITE) == first_is_white else 1)
    errors = {(e.line, e.column): e for e in replay.errors if e.kind == "move"}
    _MainLine(tree, replay, errors).run(game.body)
    return tree


def _bad_start(replay: Replay) -> bool:
    return any(e.kind == "fen" for e in replay.errors)


def _unplayed(tree: Tree, nodes: Sequence[Node], parent: int, ply: int) -> list[Item]:
    """Items for moves that were not played, with their variations."""
    items: list[Item] = []
    for n in nodes:
        if isinstance(n, MoveNode):
            node = _node(tree, n, parent, ply, "unplayed")
            node.variations = [_unplayed(tree, v, parent, ply) for v in n.variations]
            items.append(Item("move", node.id))
            ply += 1
        else:
            items.append(_other(n))
    return items


def _node(tree: Tree, n: MoveNode, parent: int, ply: int, state: str) -> Ply:
    node = Ply(len(tree.nodes), parent, ply, n.text + n.strength, state, n.line, n.column)
    node.nags = list(n.nags)
    node.comments_before, node.comments_after = list(n.comments_before), list(n.comments_after)
    tree.nodes.append(node)
    return node


def _other(n: Node) -> Item:
    if isinstance(n, SetupNode):
        return Item("setup", text=n.fen)
    assert isinstance(n, CommentNode)
    return Item("comment", text=n.text)


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


class _MainLine:
    """The main line from the replay's moves; its variations played from where they branch."""

    def __init__(self, tree: Tree, replay: Replay, errors: dict[tuple[int, int], MoveError]):
        self.tree = tree
        self.replay = replay
        self.errors = errors

    def run(self, body: list[Node]) -> None:
        replay, tree = self.replay, self.tree
        k = 0  # main-line plies matched so far
        parent = -1
        failed = 0  # the ply of the next move once the replay stopped
        for n in body:
            if not isinstance(n, MoveNode):
                tree.line.append(_other(n))
                continue
            if failed:
                tree.line.extend(_unplayed(tree, [n], parent, failed))
                failed += 1
                continue
            error = self.errors.get((n.line, n.column))
            if k < len(replay.nodes) and n is replay.nodes[k]:
                before, move = replay.positions[k], replay.moves[k]
                after = before.play(move)
                node = _node(tree, n, parent, k + 1, "played")
                node.fen, node.path = to_fen(after), _path(before, move)
                if replay.termination_ply == k + 1:
                    node.ended = replay.termination
                node.variations = [self._variation(v, node, before, after) for v in n.variations]
                k += 1
            elif error is not None or parent < 0:  # the replay stopped here
                before = replay.positions[k]
                node = _node(tree, n, parent, k + 1, "illegal")
                node.marks = _marks(before, n)
                node.reason = error.reason if error else "not played"
                node.legal = list(error.legal) if error else []
                node.variations = [_unplayed(tree, v, parent, k + 1) for v in n.variations]
                failed = k + 2
            else:  # the second part of a capture written in parts, joined to the move before
                node = _node(tree, n, parent, k, "joined")
                node.fen = tree.nodes[parent].fen
            if error is not None and node.state == "played":  # ambiguous, yet played
                node.reason = error.reason
            tree.line.append(Item("move", node.id))
            if node.state == "played":
                parent = node.id

    def _variation(
        self, nodes: list[Node], at: Ply, before: Position, after: Position
    ) -> list[Item]:
        """A variation of the move *at*: an alternative to it, else a continuation after it."""
        if not _fits(before, nodes) and _fits(after, nodes):
            return self._line(nodes, at.id, at.ply + 1, after)
        return self._line(nodes, at.parent, at.ply, before)

    def _line(self, nodes: list[Node], parent: int, ply: int, pos: Position) -> list[Item]:
        """Play a variation's moves from *pos*; after a move that cannot be played, the rest
        are shown unplayed."""
        tree = self.tree
        items: list[Item] = []
        i = 0
        while i < len(nodes):
            n = nodes[i]
            i += 1
            if isinstance(n, SetupNode):
                with contextlib.suppress(FenError):
                    pos = parse_fen(n.fen, pos.variant)
            if not isinstance(n, MoveNode):
                items.append(_other(n))
                continue
            found, parts = _find(pos, n, nodes[i:])
            if len(found) > 1:
                found = [m for m in found if _fits(pos.play(m), nodes[i + parts :])] or found
            error = self.errors.get((n.line, n.column))
            if not found or (error is not None and error.reason.startswith("illegal")):
                node = _node(tree, n, parent, ply, "illegal")
                node.marks = _marks(pos, n)
                node.reason = error.reason if error else "illegal move"
                node.legal = list(error.legal) if error and error.legal else _legal_texts(pos)
                node.variations = [_unplayed(tree, v, parent, ply) for v in n.variations]
                items.append(Item("move", node.id))
                items.extend(_unplayed(tree, nodes[i:], parent, ply + 1))
                return items
            move = found[0]
            after = pos.play(move)
            node = _node(tree, n, parent, ply, "played")
            node.fen, node.path = to_fen(after), _path(pos, move)
            if error is not None:
                node.reason = error.reason
            node.variations = [self._variation(v, node, pos, after) for v in n.variations]
            items.append(Item("move", node.id))
            for joined in nodes[i : i + parts]:
                assert isinstance(joined, MoveNode)
                part = _node(tree, joined, node.id, ply, "joined")
                part.fen = node.fen
                items.append(Item("move", part.id))
            i += parts
            parent, ply, pos = node.id, ply + 1, after
        return items


def _find(pos: Position, n: MoveNode, rest: Sequence[Node]) -> tuple[list[Move], int]:
    """The legal moves *n* can mean, and how many of the moves after it were joined to it (a
    capture written in parts)."""
    try:
        found = candidates(pos, n.squares)
        squares = list(n.squares)
        parts = 0
        while not found and parts < len(rest):
            nxt = rest[parts]
            if not (isinstance(nxt, MoveNode) and nxt.squares[:1] == squares[-1:]):
                break
            squares += nxt.squares[1:]
            parts += 1
            found = candidates(pos, squares)
    except SquareError:
        return [], 0
    return found, parts if found else 0


def _fits(pos: Position, nodes: Sequence[Node]) -> bool:
    """Whether the moves of *nodes* can be played from *pos* (up to a setup)."""
    for n in nodes:
        if isinstance(n, SetupNode):
            return True
        if not isinstance(n, MoveNode):
            continue
        try:
            found = candidates(pos, n.squares)
        except SquareError:
            return False
        if not found:
            return False
        pos = pos.play(found[0])
    return True
