"""Annotate games: comments added where something happens, existing comments kept."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, no_index, replay_paths
from pdn.game import Game
from pdn.replay import Replay
from pdn.rules.fen import to_fen
from pdn.rules.position import Position
from pdn.walk import SKIP, Line, SkipType, Status, Step, Visitor
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


class _Annotator(Visitor[None]):
    """Adds the comments to the main line's written moves."""

    def __init__(self, replay: Replay, notes: Notes) -> None:
        self.replay = replay
        self.notes = notes
        self.last = len(replay.moves)  # the ply of the last move replayed

    def begin_variation(self, line: Line) -> SkipType:
        return SKIP

    def visit_move(self, step: Step) -> None:
        notes, replay, ply = self.notes, self.replay, step.ply
        added: list[str] = []
        move, after = step.move, step.after
        if move is not None and after is not None:
            if notes.events:
                if len(move.captured) >= 2:
                    added.append(f"takes {len(move.captured)} pieces")
                if move.crowns:
                    added.append("crowns")
                if replay.ending is not None and replay.ending.ply == ply:
                    added.append(f"game ends: {replay.termination}")
                if ply == self.last and not replay.errors:
                    added.append(f"final position {to_fen(after)}")
            if notes.material and (move.captured or move.crowns):
                added.append(_material(after))
            if notes.fen_every and ply % notes.fen_every == 0:
                added.append(f"FEN {to_fen(after)}")
        if notes.events and step.status in (Status.ILLEGAL, Status.AMBIGUOUS):
            legal = f"; legal: {', '.join(step.legal)}" if step.legal else ""
            added.append(f"{step.reason}{legal}")
        step.written.comments_after.extend(added)

    def result(self) -> None:
        return None


def annotate(game: Game, replay: Replay, notes: Notes) -> Game:
    """The game with comments added after its main line's moves (the model is changed in
    place)."""
    replay.accept(_Annotator(replay, notes))
    return game


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
    options = Options(variant, rules)
    texts = replay_paths(paths, work, options, workers, progress, on_problem, no_index)
    for text in texts:
        yield ("" if first else "\n") + text
        first = False
