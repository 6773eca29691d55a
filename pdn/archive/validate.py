"""Validate archives: replay every game of every file, one report per game, and a summary."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass, field, fields
from pathlib import Path
from typing import Any

from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, replay_paths
from pdn.game import Game, GameWarning, renumbered_error
from pdn.replay import MoveError, Replay
from pdn.rules.draw import Termination
from pdn.rules.geometry import WHITE


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
    warnings: list[GameWarning] = field(default_factory=list)
    candidates: list[str] = field(default_factory=list)  # other variants it fits, when asked
    syntax_error: str | None = None
    ply_offset: int = 0  # 0 when the first player makes ply 1, else 1 (to number moves)
    encoding: str = "utf-8"  # how the game's text was decoded: utf-8, a UTF-16 form, a code page

    def __reduce__(self) -> tuple[type[GameReport], tuple[Any, ...]]:
        """Pickled as its fields in order, as workers send reports back: half the bytes and
        two thirds of the time of its slots by name (OCA_2.0.pdn: 1.9 MB, 1.0 MB)."""
        return GameReport, tuple(getattr(self, name) for name in _REPORT_FIELDS)

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

    def warning_lines(self) -> list[str]:
        """One line per warning: ``file:line:column: game N: warning: message`` (the column left
        out where the reader does not know it)."""
        out = []
        for w in self.warnings:
            where = f"{w.line}:{w.column}" if w.column else str(w.line)
            out.append(f"{self.file}:{where}: game {self.index}: warning: {w.message}")
        return out


_REPORT_FIELDS = tuple(f.name for f in fields(GameReport))


def renumber_report(report: GameReport, by: int) -> GameReport:
    """The report, changed in place, as it is for the game *by* places on in its file."""
    report.index += by
    if report.syntax_error:
        report.syntax_error = renumbered_error(report.syntax_error, report.file, by)
    return report


def report_game(game: Game, replay: Replay | None) -> GameReport:
    """The report of a game (replay None when it did not parse)."""
    src = game.source
    if replay is None:
        return GameReport(
            src.file, src.index + 1, src.line, None, None, False, 0, game.result,
            Termination.RECORDED.value,
            None, syntax_error=str(game.syntax_error), warnings=list(game.warnings),
            encoding=src.encoding,
        )  # fmt: skip
    first_is_white = replay.variant.first == "W"
    first = replay.first_position
    start_turn = first.turn if first is not None else WHITE
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
        encoding=src.encoding,
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


def validate_file(
    path: str | Path, variant: str | None = None, rules: str = "common", candidates: bool = False
) -> list[GameReport]:
    """Reports for every game of one file (*candidates*: see :func:`validate_paths`)."""
    return list(validate_paths([path], variant, rules, candidates=candidates))


def validate_paths(
    paths: Iterable[str | Path],
    variant: str | None = None,
    rules: str = "common",
    workers: int | Runner = 1,
    progress: Progress | None = None,
    candidates: bool = False,
    on_problem: OnProblem | None = None,
) -> Iterator[GameReport]:
    """Reports for every game under *paths*, in file order, the same whatever runs them: this
    process, *workers* local processes, or a Dask cluster's runner (see
    :mod:`pdn.archive.pipeline`); *progress* is told of the games and bytes done, *on_problem* of
    the files not read; with *candidates*, each report lists the other variants the game fits as
    well."""
    options = Options(variant, rules, candidates=candidates)
    yield from replay_paths(
        paths, report_game, options, workers, progress, on_problem, renumber_report
    )


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
