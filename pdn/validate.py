"""Validate archives: replay every game of every file, one report per game, and a summary."""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from pdn.board import WHITE
from pdn.files import pdn_files
from pdn.game import Game
from pdn.reader import Span, game_spans, read_games
from pdn.replay import MoveError, Replay, choose, replay_options
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
    candidates: list[str] = field(default_factory=list)
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


Options = list[GameReport]  # the reports a game could get, one per fitting variant


def game_options(game: Game, variant: Variant | None = None, rules: str = "seed") -> Options:
    """The reports of one game under each variant it could be (see replay_options)."""
    if game.syntax_error is not None:
        return [report_game(game, None)]
    return [report_game(game, r) for r in replay_options(game, variant, rules)]


def _span_options(path: Path, span: Span | None, variant: str | None, rules: str) -> list[Options]:
    """Options for every game of a file or of one span of it (runs in worker processes)."""
    v = get_variant(variant) if variant else None
    return [game_options(g, v, rules) for g in read_games(path, span=span)]


class Chooser:
    """Picks each game's report in file order: where several variants fit, the one the games
    before it in the same file were (archives hold one variant); numbers games across spans."""

    def __init__(self) -> None:
        self.prefer: str | None = None
        self.index = 0

    def __call__(self, options: Options) -> GameReport:
        pick, others = choose(options, lambda r: r.variant or "", lambda r: not r.errors,
                              self.prefer)  # fmt: skip
        pick.candidates = others
        self.index += 1
        pick.index = self.index
        if pick.variant_source == "notation" and pick.plies:
            self.prefer = pick.variant
        return pick


def validate_games(
    games: Iterable[Game], variant: Variant | None = None, rules: str = "seed"
) -> Iterator[GameReport]:
    """Reports for the games of one file, in order."""
    chooser = Chooser()
    for game in games:
        report = chooser(game_options(game, variant, rules))
        report.index = game.source.index + 1
        yield report


def validate_file(
    path: str | Path, variant: str | None = None, rules: str = "seed"
) -> list[GameReport]:
    """Reports for every game of one file."""
    return list(validate_games(read_games(path), get_variant(variant) if variant else None, rules))


SPAN_BYTES = 1 << 20  # files larger than this are cut into spans when there are workers


def validate_paths(
    paths: Iterable[str | Path],
    variant: str | None = None,
    rules: str = "seed",
    workers: int = 1,
    on_file: Callable[[Path], None] | None = None,
) -> Iterator[GameReport]:
    """Reports for every game under *paths*, in file order, the same for any number of workers
    (they share files, and large files by spans of whole games)."""
    files = list(pdn_files(paths))
    if variant:
        get_variant(variant)  # fail early on a bad name
    if workers <= 1:
        for f in files:
            chooser = Chooser()
            for options in _span_options(f, None, variant, rules):
                yield chooser(options)
            if on_file:
                on_file(f)
        return
    tasks: list[tuple[Path, Span | None]] = []
    for f in files:
        if f.stat().st_size > SPAN_BYTES:
            tasks.extend((f, s) for s in game_spans(f, 4 * workers))
        else:
            tasks.append((f, None))
    with ProcessPoolExecutor(max_workers=workers) as pool:
        results = pool.map(
            _span_options,
            [f for f, _ in tasks],
            [s for _, s in tasks],
            [variant] * len(tasks),
            [rules] * len(tasks),
        )
        chooser = Chooser()
        for (f, span), span_options in zip(tasks, results, strict=True):
            if span is None or span.start == 0:
                chooser = Chooser()
            for options in span_options:
                yield chooser(options)
            if on_file and (span is None or span.end == f.stat().st_size):
                on_file(f)


@dataclass(slots=True)
class Summary:
    """Counts over many game reports."""

    games: int = 0
    valid: int = 0
    invalid: int = 0
    syntax_errors: int = 0
    warnings: int = 0
    terminations: Counter[str] = field(default_factory=Counter)
    variants: Counter[str] = field(default_factory=Counter)
    invalid_by_variant: Counter[str] = field(default_factory=Counter)

    def add(self, report: GameReport) -> None:
        """Count one game."""
        self.games += 1
        self.warnings += len(report.warnings)
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


def default_workers() -> int:
    """One worker per core."""
    return os.cpu_count() or 1
