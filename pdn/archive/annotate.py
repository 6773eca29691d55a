"""Annotate games: comments added where something happens, existing comments kept."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from functools import partial
from itertools import pairwise
from pathlib import Path

from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, no_index, replay_paths
from pdn.game import Game
from pdn.read.movetext import plain_runs
from pdn.replay import Replay
from pdn.rules.fen import to_fen
from pdn.rules.geometry import WHITE
from pdn.rules.move import Counts
from pdn.rules.position import Position
from pdn.walk import SKIP, Line, SkipType, Status, Step, Visitor
from pdn.writer import PdnWriter, write_game


@dataclass(frozen=True, slots=True)
class Notes:
    """Which comments to add."""

    events: bool = True  # multiple captures, crowning, draws by rule, illegal moves, final FEN
    fen_every: int = 0  # the FEN after every N plies (0: never)
    material: bool = False  # the material after each capture or crowning


def _material(counts: Sequence[int]) -> str:
    wm, wk, bm, bk = counts
    return f"material: White {wm + wk} ({wk} kings), Black {bm + bk} ({bk} kings)"


class _Annotator(Visitor[None]):
    """Adds the comments to the main line's written moves."""

    def __init__(self, replay: Replay, notes: Notes) -> None:
        self.replay = replay
        self.notes = notes
        self.last = replay.plies  # the ply of the last move replayed

    def begin_variation(self, line: Line) -> SkipType:
        return SKIP

    def visit_move(self, step: Step) -> None:
        notes, ply = self.notes, step.ply
        added: list[str] = []
        move, after = step.move, step.after
        if move is not None and after is not None:
            changed = after.counts() if move.captured or move.crowns else None
            final = after if ply == self.last and not self.replay.errors else None
            added = _events(
                notes, self.replay, ply, len(move.captured), move.crowns, changed, final
            )
            if notes.fen_every and ply % notes.fen_every == 0:
                added.append(f"FEN {to_fen(after)}")
        if notes.events and step.status in (Status.ILLEGAL, Status.AMBIGUOUS):
            legal = f"; legal: {', '.join(step.legal)}" if step.legal else ""
            added.append(f"{step.reason}{legal}")
        step.written.comments_after.extend(added)

    def result(self) -> None:
        return None


def _events(
    notes: Notes,
    replay: Replay,
    ply: int,
    taken: int,
    crowns: bool,
    changed: Counts | None,
    final: Position | None,
) -> list[str]:
    """The comments after the move of *ply*, which took *taken* pieces and crowned or not:
    the material after it where it *changed*, and the *final* position after the last."""
    added: list[str] = []
    if notes.events:
        if taken >= 2:
            added.append(f"takes {taken} pieces")
        if crowns:
            added.append("crowns")
        if replay.ending is not None and replay.ending.ply == ply:
            added.append(f"game ends: {replay.termination}")
        if final is not None:
            added.append(f"final position {to_fen(final)}")
    if notes.material and changed is not None:
        added.append(_material(changed))
    return added


def annotate(game: Game, replay: Replay, notes: Notes) -> Game:
    """The game with comments added after its main line's moves (the model is changed in
    place)."""
    replay.accept(_Annotator(replay, notes))
    return game


def annotated_text(game: Game, replay: Replay | None, notes: Notes) -> str:
    """The game annotated as PDN text (a game that did not parse, as read)."""
    if replay is None:
        return game.raw.strip() + "\n"
    plain = _plain_notes(game, replay, notes)
    if plain is not None:
        return PdnWriter().plain_game(game, *plain)
    return write_game(annotate(game, replay, notes))


def _plain_notes(
    game: Game, replay: Replay, notes: Notes
) -> tuple[list[str], dict[int, list[str]]] | None:
    """The moves of a game whose movetext is runs of plain moves alone, fully played, and the
    comments the annotator adds after them, by ply: found from the kernel's runs of equal
    material and, for a FEN every N plies, its positions (Replay.line_rows), with no tree or
    board built. None where the annotator walks the game: other movetext, or an error."""
    final, start = replay.final, replay.first_position
    runs = plain_runs(game, bare=True)
    if replay.errors or final is None or start is None or runs is None:
        return None
    moves = [word for run in runs for word in run.split() if not word.endswith(".")]
    plies = replay.plies
    if len(moves) != plies:
        return None
    every = notes.fen_every
    rows = replay.line_rows(0, plies + 1 if every else 0)  # every position, when FENs are asked
    fens = range(every, plies + 1, every) if every else range(0)
    changed: dict[int, tuple[int, bool, Counts | None]] = {}  # ply: taken, a crowning, material
    for (_, _, before), (ply, _, counts) in pairwise(rows.runs):
        white = (start.turn == WHITE) == (ply % 2 == 1)  # the mover
        mine, theirs = (0, 2) if white else (2, 0)
        taken = before[theirs] + before[theirs + 1] - counts[theirs] - counts[theirs + 1]
        changed[ply] = (taken, counts[mine + 1] > before[mine + 1], counts)
    ending = replay.ending.ply if replay.ending is not None else None
    after: dict[int, list[str]] = {}
    for ply in sorted({*changed, *fens, *(p for p in (ending, plies) if p)}):
        taken, crowns, material = changed.get(ply) or (0, False, None)
        last = final if ply == plies else None
        added = _events(notes, replay, ply, taken, crowns, material, last)
        if ply in fens:
            added.append(f"FEN {to_fen(rows.first[ply])}")
        if added:
            after[ply] = added
    return moves, after


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
