"""Judging games with an engine: every position of the main line evaluated, each move's loss
and its mark by the fall in winning chances, as lidraughts judges them, and the game written
back with the judgement in it (the pipeline job under ``pdn analyse``).

Each move gets a comment ``[%eval 0.35] [%loss 0.12]``: the evaluation of the position after
it seen by White, in men, or ``#7`` / ``#-7`` for a win of White / Black in 7 moves (the form
lichess and lidraughts write), and what the move lost, in men, for the side that played it.
A marked move gets its NAG (inaccuracy $6 ``?!``, mistake $2 ``?``, blunder $4 ``??``) and the
words lidraughts writes ("Mistake. Best move was 32-28."); mistakes and blunders get the
engine's line as a variation. The game's own comments, NAGs and variations stay.

The numbers are lidraughts's (github.com/RoepStoep/lidraughts):

- winning chances, ui/ceval/src/winningChances.ts: ``2 / (1 + exp(-0.004 * cp)) - 1`` with
  *cp* in centi-men clamped to +-1000, and a win in N moves counted as
  ``cp = +-(21 - min(10, N)) * 100``;
- the marks, modules/analyse/src/main/Advice.scala: a fall in winning chances of at least 0.3
  is a blunder, 0.15 a mistake, 0.075 an inaccuracy;
- the loss, modules/analyse/src/main/Accuracy.scala: the fall of the evaluation, each side
  clamped to +-1000 centi-men (a win counts as the ceiling), never below 0.

A move the engine itself gives as best in the position before it loses nothing and is not
marked (at a fixed depth, the evaluation one ply on may differ by the horizon alone).

Each game gets its own engine (opened and closed around it), so no table carries one game's
search into the next: the output does not depend on how games are spread over workers.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pdn.archive.judgement import MARKS, loss_shown
from pdn.archive.judgement import Mark as Mark  # re-exported: a mark is part of a judgement
from pdn.archive.parallel import Runner, Task, as_runner
from pdn.archive.pipeline import (
    OnProblem,
    Options,
    Progress,
    file_preference,
    find_files,
    plan,
    replay_tasks,
)
from pdn.board import Board
from pdn.engine import EngineError, Limit, Score, open_engine
from pdn.engine.types import Engine
from pdn.game import Game, Node
from pdn.notation import move_text
from pdn.read.movetext import make_move
from pdn.read.reader import game_spans
from pdn.replay import Replay
from pdn.rules.geometry import Color
from pdn.rules.position import Move
from pdn.writer import write_game

CEILING = 10.0  # men: lidraughts's Cp.CEILING, 1000 centi-men
LINE_PLIES = 14  # plies of the engine's line kept (lidraughts's Info.LineMaxPlies)


def winning_chances(score: Score) -> float:
    """The winning chances of the side *score* is seen by, from -1 (lost) to 1 (won), as
    lidraughts computes them (ui/ceval/src/winningChances.ts)."""
    moves = score.moves()
    if moves is None:
        assert score.men is not None
        cp = max(-1000.0, min(1000.0, score.men * 100))
    else:
        won = score.is_win
        cp = (21 - min(10, abs(moves))) * 100 * (1 if won else -1)
    return 2 / (1 + math.exp(-0.004 * cp)) - 1


def ceiled_men(score: Score) -> float:
    """The score in men, clamped to +-CEILING, a win or loss counting as the ceiling
    (lidraughts's Accuracy.scala)."""
    if score.men is None:
        return CEILING if score.is_win else -CEILING
    return max(-CEILING, min(CEILING, score.men))


def judge(before: Score, after: Score) -> Mark | None:
    """The mark of a move that takes its side from *before* to *after* (both seen by the side
    that moved): by the fall in winning chances (Advice.scala's thresholds)."""
    fall = winning_chances(before) - winning_chances(after)
    return next((m for m in MARKS if fall >= m.fall), None)


def eval_text(score: Score) -> str:
    """The ``[%eval]`` form of *score* (no ``-0.00``: an even position has no sign)."""
    text = score.text()
    return "0.00" if text == "-0.00" else text


def score_of_text(text: str) -> Score:
    """The score an ``[%eval]`` text stands for (the inverse of :func:`eval_text`: ``#7`` a win
    in 7 moves, 13 plies; ``#-7`` a loss in 7 moves, 14 plies); ValueError if it is none."""
    if not text.startswith("#"):
        return Score.of_men(float(text))
    moves = int(text[1:])
    if moves == 0:
        return Score.win(0) if text.startswith("#-") else -Score.win(0)
    return Score.win(2 * moves - 1) if moves > 0 else Score.win(2 * moves)


@dataclass(frozen=True, slots=True)
class Evaluation:
    """A position's judgement: its score seen by the side to move, and the engine's line."""

    score: Score
    line: tuple[Move, ...] = ()
    depth: int = 0
    nodes: int = 0


@dataclass(frozen=True, slots=True)
class PlyAnalysis:
    """The judgement of one move of the main line (what a database row per ply holds)."""

    ply: int  # 1 for the first move
    move: str  # as written in the game
    mover: Color
    score: Score  # the position after the move, seen by White
    best_score: Score  # the position before it, seen by White (the engine's best play)
    best_line: tuple[str, ...]  # the engine's line from the position before, as written moves
    loss: float  # men the move lost, for the side that played it
    mark: Mark | None

    def as_dict(self) -> dict[str, Any]:
        """The row as JSON values."""
        return {
            "ply": self.ply,
            "move": self.move,
            "side": self.mover.name.lower(),
            "eval": eval_text(self.score),
            "best_eval": eval_text(self.best_score),
            "best_line": list(self.best_line),
            "loss": loss_shown(self.loss),
            "mark": self.mark.name.lower() if self.mark else None,
        }


@dataclass(slots=True)
class SideSummary:
    """One side's moves judged: how many, their average loss, the marks."""

    moves: int = 0
    loss: float = 0.0
    marks: dict[Mark, int] = field(default_factory=lambda: dict.fromkeys(Mark, 0))

    @property
    def average_loss(self) -> float:
        """Men lost per move (0 without moves)."""
        return self.loss / self.moves if self.moves else 0.0

    def as_dict(self) -> dict[str, Any]:
        """The summary as JSON values."""
        counts = {m.plural: n for m, n in self.marks.items()}
        return {"moves": self.moves, "average_loss": round(self.average_loss, 3), **counts}


@dataclass(slots=True)
class GameAnalysis:
    """A game's judgement: one row per move analysed, and why it stopped short if it did."""

    engine: str
    limit: Limit
    plies: list[PlyAnalysis] = field(default_factory=list)
    error: str | None = None  # the engine failed, or the game did not replay further
    where: tuple[int, int] = (0, 0)  # the line and column of the move the error is about

    def sides(self) -> dict[Color, SideSummary]:
        """Per side, its moves, average loss and marks."""
        sides = {Color.WHITE: SideSummary(), Color.BLACK: SideSummary()}
        for p in self.plies:
            side = sides[p.mover]
            side.moves += 1
            side.loss += p.loss
            if p.mark:
                side.marks[p.mark] += 1
        return sides

    def summary(self) -> dict[str, Any]:
        """The per-game summary the report holds."""
        limit = {k: v for k, v in (("depth", self.limit.depth), ("nodes", self.limit.nodes),
                                   ("time", self.limit.time)) if v is not None}  # fmt: skip
        sides = self.sides()
        return {
            "engine": self.engine,
            "limit": limit,
            "plies": len(self.plies),
            "error": self.error,
            "error_at": list(self.where) if self.error else None,
            "sides": {"white": sides[Color.WHITE].as_dict(), "black": sides[Color.BLACK].as_dict()},
        }


def evaluate(engine: Engine, board: Board, limit: Limit) -> Evaluation:
    """The position of *board* judged: a game over without asking the engine (a loss for the
    side to move, or 0 for a draw by rule), else the engine's best line."""
    ending = board.outcome()
    if ending is not None:
        return Evaluation(Score.win(0) if ending.winner is not None else Score.of_men(0.0))
    info = engine.analyse(board, limit)[0]
    return Evaluation(info.score.relative, info.pv, info.depth, info.nodes)


def boards(replay: Replay) -> Iterator[Board]:
    """A board at each position of the replayed main line, with its history (for repetitions
    and the moves rules): the start, then after each move."""
    if not replay.positions:
        return
    board = Board.from_position(replay.positions[0], replay.rules)
    yield board.copy()
    for move, after in zip(replay.moves, replay.positions[1:], strict=False):
        board.push(move)
        if board.position != after:  # a setup in the movetext
            board.set_position(after)
        yield board.copy()


def written_line(board: Board, line: Iterable[Move]) -> tuple[str, ...]:
    """The moves of *line*, played from *board*, as the variant writes them."""
    texts = []
    replay = board.copy()
    for move in list(line)[:LINE_PLIES]:
        texts.append(move_text(replay.position, move, legal=replay.legal_moves))
        replay.push(move)
    return tuple(texts)


def analyse_replay(replay: Replay, engine: Engine, limit: Limit, name: str) -> GameAnalysis:
    """The judgement of every replayed move of the main line (up to the first error, or the
    engine's failure: the rows before it are kept)."""
    result = GameAnalysis(name, limit)
    played = list(boards(replay))
    try:
        evals = [evaluate(engine, played[0], limit)] if played else []
        for i, move in enumerate(replay.moves):
            before, after = played[i], played[i + 1]
            evals.append(evaluate(engine, after, limit))
            result.plies.append(_ply(i + 1, replay.nodes[i].text, move, before, evals[i],
                                     evals[i + 1]))  # fmt: skip
    except EngineError as exc:
        result.error = str(exc)
        result.where = (replay.game.source.line, 1)
        return result
    stops = [e for e in replay.errors if e.kind in ("fen", "move") and not e.variation]
    if stops:  # (a bad FEN tag stopped it before its first move, silently, as no error)
        stop = stops[0]
        if stop.kind == "fen":
            result.error = f"not analysed: {stop.reason}"
        else:
            result.error = f"analysed up to ply {stop.ply - 1}: {stop.move}: {stop.reason}"
        result.where = (stop.line, stop.column)
    return result


def _ply(ply: int, written: str, move: Move, board: Board, before: Evaluation,
         after: Evaluation) -> PlyAnalysis:  # fmt: skip
    mover = board.turn
    best, played = before.score, -after.score  # both seen by the mover
    chosen = bool(before.line) and before.line[0].key == move.key
    loss = 0.0 if chosen else max(0.0, ceiled_men(best) - ceiled_men(played))
    mark = None if chosen else judge(best, played)
    white = mover is Color.WHITE
    return PlyAnalysis(
        ply, written, mover,
        score=played if white else -played,
        best_score=best if white else -best,
        best_line=written_line(board, before.line),
        loss=loss, mark=mark,
    )  # fmt: skip


def annotate(game: Game, replay: Replay, analysis: GameAnalysis) -> Game:
    """The game with its judgement written in (the model is changed in place)."""
    for row, node in zip(analysis.plies, replay.nodes, strict=False):
        words = [f"[%eval {eval_text(row.score)}]", f"[%loss {row.loss:.2f}]"]
        if row.mark:
            words.append(f"{row.mark.title}.")
            if row.best_line:
                words.append(f"Best move was {row.best_line[0]}.")
            if row.mark.nag not in node.nags:
                node.nags.append(row.mark.nag)
        node.comments_after.append(" ".join(words))
        if row.mark in (Mark.MISTAKE, Mark.BLUNDER) and row.best_line:
            line: list[Node] = [make_move(text) for text in row.best_line]
            node.variations.append(line)
    return game


@dataclass(frozen=True, slots=True)
class Analysed:
    """What analysing one game gives: its PDN text and its report line."""

    text: str
    report: dict[str, Any]
    analysis: GameAnalysis | None  # None for a game that did not parse

    def problem(self) -> str | None:
        """Why the game was not analysed to its end, as ``file:line:column: reason``."""
        error = self.report.get("error")
        if not error:
            return None
        line, column = self.report["error_at"]
        return f"{self.report['file']}:{line}:{column}: {error}"


def analyse_game(game: Game, replay: Replay | None, engine: str, limit: Limit) -> Analysed:
    """One game analysed with the engine *engine* names (opened for it and closed after), as
    PDN text and a report line (a game that did not parse is written as read)."""
    where = {"file": game.source.file, "line": game.source.line, "index": game.source.index + 1,
             "white": game.white, "black": game.black}  # fmt: skip
    if replay is None:
        bad = game.syntax_error
        error = f"game {game.source.index + 1}: {bad.message}" if bad else "not replayed"
        at = [bad.line, bad.column] if bad else [game.source.line, 1]
        return Analysed(game.raw.strip() + "\n", {**where, "error": error, "error_at": at}, None)
    try:
        opened = open_engine(engine, replay.variant)
    except EngineError as exc:
        analysis = GameAnalysis(engine, limit, error=str(exc), where=(game.source.line, 1))
    else:
        with opened:
            label = f"{opened.name} {opened.version}".strip()
            analysis = analyse_replay(replay, opened, limit, label)
    report = {**where, "variant": replay.variant.name, **analysis.summary(),
              "moves": [p.as_dict() for p in analysis.plies]}  # fmt: skip
    return Analysed(write_game(annotate(game, replay, analysis)), report, analysis)


def analysis_tasks(files: list[Path], options: Options, runner: Runner) -> list[Task]:
    """The tasks for *files*: whole files in this process; one game each for workers elsewhere
    (a game's analysis is long enough to be worth a task of its own)."""
    if not runner.elsewhere:
        return plan(files, options, runner)
    tasks: list[Task] = []
    for f in files:
        prefer = file_preference(f, options.variant, options.rules)
        spans = game_spans(f, max(1, f.stat().st_size))
        tasks.extend(Task(f, s, prefer, s.end - s.start) for s in spans)
    return tasks


def analyse_paths(
    paths: Iterable[str | Path],
    engine: str,
    limit: Limit,
    variant: str | None = None,
    rules: str = "common",
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
) -> Iterator[Analysed]:
    """Each game of the files analysed (see :func:`analyse_game`), in file order, the same
    whatever runs it."""
    options = Options(variant, rules)
    runner = as_runner(workers)
    tasks = analysis_tasks(find_files(paths, on_problem), options, runner)
    work = partial(analyse_game, engine=engine, limit=limit)
    for _, results in replay_tasks(tasks, work, options, runner, progress, on_problem):
        yield from results
