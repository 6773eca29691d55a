"""Annotate games: comments added where something happens, existing comments kept."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, replay_paths
from pdn.game import Game, MoveNode
from pdn.replay import Replay
from pdn.rules.fen import to_fen
from pdn.rules.position import Position
from pdn.writer import write_game


@dataclass(frozen=True, slots=True)
class Notes:
    """Which comments to add."""

    events: bool = True  # multiple captures, crowning, draws by rule, illegal moves, final FEN
    fen_every: int = 0  # the FEN after every N plies (0: never)
    material: bool = False  # the material after each capture or crowning


def _material(pos: Position) -> str:
    wm, wk, bm, bk = pos.counts()
    return f"material: White {wm + wk} ({wk} kings), Black {bm + bk} ({bk} kings)"


def annotate(game: Game, replay: Replay, notes: Notes) -> Game:
    """The game with comments added after its moves (the model is changed in place)."""
    for i, (move, node) in enumerate(zip(replay.moves, replay.nodes, strict=True)):
        ply, after = i + 1, replay.positions[i + 1]
        added: list[str] = []
        if notes.events:
            if len(move.captured) >= 2:
                added.append(f"takes {len(move.captured)} pieces")
            if move.crowns:
                added.append("crowns")
            if replay.ending is not None and replay.ending.ply == ply:
                added.append(f"game ends: {replay.termination}")
            if ply == len(replay.moves) and not replay.errors:
                added.append(f"final position {to_fen(after)}")
        if notes.material and (move.captured or move.crowns):
            added.append(_material(after))
        if notes.fen_every and ply % notes.fen_every == 0:
            added.append(f"FEN {to_fen(after)}")
        node.comments_after.extend(added)
    if notes.events:
        moves = game.mainline()
        for e in replay.errors:
            if e.kind == "move" and not e.variation and 1 <= e.ply <= len(moves):
                legal = f"; legal: {', '.join(e.legal)}" if e.legal else ""
                _node(moves, e.ply, replay).comments_after.append(f"{e.reason}{legal}")
    return game


def _node(moves: list[MoveNode], ply: int, replay: Replay) -> MoveNode:
    """The written move at *ply*: the one after the last replayed move's node."""
    if ply - 1 < len(replay.nodes):
        return replay.nodes[ply - 1]
    last = replay.nodes[-1] if replay.nodes else None
    index = moves.index(last) + 1 if last is not None else 0
    return moves[min(index, len(moves) - 1)]


def annotated_text(game: Game, replay: Replay | None, notes: Notes) -> str:
    """The game annotated as PDN text (a game that did not parse, as read)."""
    if replay is None:
        return game.raw.strip() + "\n"
    return write_game(annotate(game, replay, notes))


def annotate_paths(
    paths: Iterable[str | Path],
    notes: Notes,
    variant: str | None = None,
    rules: str = "common",
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
) -> Iterator[str]:
    """Each game of the files, annotated, as PDN text (games that did not parse as read), the
    same whatever runs it (see :mod:`pdn.archive.pipeline`)."""
    work = partial(annotated_text, notes=notes)
    first = True
    texts = replay_paths(paths, work, Options(variant, rules), workers, progress, on_problem)
    for text in texts:
        yield ("" if first else "\n") + text
        first = False
