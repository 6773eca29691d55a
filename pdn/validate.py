"""Validate archives: replay every game of every file, one report per game, and a summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from dataclasses import asdict, dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

from pdn.board import WHITE
from pdn.files import pdn_files
from pdn.game import Game
from pdn.parallel import Runner, Task, as_runner, file_tasks, run_tasks
from pdn.reader import read_games
from pdn.replay import MoveError, Replay, replay_game
from pdn.variants import Variant, get_variant


@dataclass(slots=True)
class GameReport:
    """The outcome of validating one game (one line of a JSON Lines report)."""

    file: str
    index: int  # 1-based
    line: int
    variant: str | None
    variant_source: str | None  # gametype, option, notation; None after a syntax error
    valid: bool
    plies: int
    result: str | None  # as written
    termination: str
    termination_ply: int | None
    errors: list[dict[str, Any]] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)  # other variants it fits, when asked
    syntax_error: str | None = None
    ply_offset: int = 0  # 0 when the first player makes ply 1, else 1 (to number moves)

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready fields."""
        data = asdict(self)
        del data["ply_offset"]
        return data

    def problems(self) -> list[str]:
        """One line per problem: ``file:line:column: game N, move M (ply P) "TEXT": reason``."""
        if self.syntax_error:
            return [self.syntax_error]
        out = []
        for e in self.errors:
            where = f"{self.file}:{e['line']}:{e['column']}: game {self.index}"
            if e["kind"] == "fen":
                out.append(f"{where}: {e['reason']}")
            elif e["kind"] == "result":
                out.append(f'{where}, result "{e["move"]}": {e["reason"]}')
            else:
                number = (e["ply"] - 1 + self.ply_offset) // 2 + 1
                kind = "variation move" if e["variation"] else "move"
                line = f'{where}, {kind} {number} (ply {e["ply"]}) "{e["move"]}": {e["reason"]}'
                if e["legal"]:
                    line += f"; legal: {', '.join(e['legal'])}"
                out.append(line)
        return out


def report_game(game: Game, replay: Replay | None) -> GameReport:
    """The report of a game (replay None when it did not parse)."""
    src = game.source
    if replay is None:
        return GameReport(
            src.file, src.index + 1, src.line, None, None, False, 0, game.result, "undecided",
            None, syntax_error=str(game.syntax_error), warnings=list(game.warnings),
        )  # fmt: skip
    first_is_white = replay.variant.first == "W"
    start_turn = replay.positions[0].turn if replay.positions else WHITE
    offset = 0 if (start_turn == WHITE) == first_is_white else 1
    return GameReport(
        file=src.file,
        index=src.index + 1,
        line=src.line,
        variant=replay.variant.name,
        variant_source=replay.variant_source,
        valid=replay.valid,
        plies=replay.plies,
        result=game.result,
        termination=replay.termination,
        termination_ply=replay.termination_ply,
        errors=[_error(e) for e in replay.errors],
        warnings=list(game.warnings) + replay.warnings,
        candidates=replay.candidates,
        ply_offset=offset,
    )


def _error(e: MoveError) -> dict[str, Any]:
    return {
        "ply": e.ply,
        "move": e.move,
        "line": e.line,
        "column": e.column,
        "reason": e.reason,
        "legal": e.legal,
        "variation": e.variation,
        "kind": e.kind,
    }


def file_preference(path: Path, variant: str | None, rules: str, look: int = 50) -> str | None:
    """The variant of the first game in the file that its notation alone decides (and that has
    moves): taken for the other games where several variants fit (archives hold one variant)."""
    if variant:
        return None
    for i, game in enumerate(read_games(path)):
        if i >= look:
            break
        if game.syntax_error is None and game.declared_variant is None and game.mainline():
            first = replay_game(game, None, rules)
            if first.plies:
                return first.variant.name
    return None


def validate_games(
    games: Iterable[Game],
    variant: Variant | None = None,
    rules: str = "seed",
    prefer: str | None = None,
    candidates: bool = False,
) -> Iterator[GameReport]:
    """Reports for *games*; where the notation leaves several variants, *prefer* is tried first;
    with *candidates*, each report lists the other variants the game fits as well."""
    for game in games:
        if game.syntax_error is not None:
            yield report_game(game, None)
        else:
            yield report_game(game, replay_game(game, variant, rules, prefer, candidates))


def _task_reports(
    task: Task, variant: str | None, rules: str, candidates: bool = False
) -> list[GameReport]:
    """Reports for a file or one span of it (runs in worker processes)."""
    v = get_variant(variant) if variant else None
    games = read_games(task.path, span=task.span)
    return list(validate_games(games, v, rules, task.prefer, candidates))


def validate_file(
    path: str | Path, variant: str | None = None, rules: str = "seed", candidates: bool = False
) -> list[GameReport]:
    """Reports for every game of one file."""
    path = Path(path)
    return list(
        validate_games(
            read_games(path),
            get_variant(variant) if variant else None,
            rules,
            file_preference(path, variant, rules),
            candidates,
        )
    )


def validate_paths(
    paths: Iterable[str | Path],
    variant: str | None = None,
    rules: str = "seed",
    workers: int | Runner = 1,
    on_done: Callable[[Task], None] | None = None,
    candidates: bool = False,
) -> Iterator[GameReport]:
    """Reports for every game under *paths*, in file order, the same whatever runs them: this
    process, *workers* local processes, or a Dask cluster's runner (they share files, and large
    files by spans of whole games); *on_done* is told of each task as it is done; with
    *candidates*, each report lists the other variants the game fits as well."""
    files = list(pdn_files(paths))
    if variant:
        get_variant(variant)  # fail early on a bad name
    runner = as_runner(workers)
    tasks = file_tasks(files, runner.workers, lambda f: file_preference(f, variant, rules))
    index = 0
    work = partial(_task_reports, variant=variant, rules=rules, candidates=candidates)
    for task, reports in run_tasks(work, tasks, runner, on_done):
        if task.first:
            index = 0
        for report in reports:  # spans number their games from 1: count across the file
            index += 1
            report.index = index
            yield report


@dataclass(slots=True)
class Summary:
    """Counts over many game reports."""

    games: int = 0
    valid: int = 0
    invalid: int = 0
    syntax_errors: int = 0
    warnings: int = 0
    also_fit: int = 0  # games that fit other variants as well (counted when asked)
    terminations: Counter[str] = field(default_factory=Counter)
    variants: Counter[str] = field(default_factory=Counter)
    invalid_by_variant: Counter[str] = field(default_factory=Counter)

    def add(self, report: GameReport) -> None:
        """Count one game."""
        self.games += 1
        self.warnings += len(report.warnings)
        self.also_fit += bool(report.candidates)
        if report.syntax_error:
            self.syntax_errors += 1
            self.invalid += 1
            return
        variant = report.variant or "?"
        self.variants[variant] += 1
        self.terminations[report.termination] += 1
        if report.valid:
            self.valid += 1
        else:
            self.invalid += 1
            self.invalid_by_variant[variant] += 1

    @property
    def ok(self) -> bool:
        """Every game parsed and replayed without error."""
        return self.invalid == 0
