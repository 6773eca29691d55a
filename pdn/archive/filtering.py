"""`pdn filter`: the games of PDN files that meet some criteria (pdn.archive.criteria), written as
they were read or converted, or only counted.

With *drop* set, duplicates are left out as the database leaves them out: copies of a game read
before (the same record, pdn.archive.identity) are dropped before the criteria are applied, as a
database stores a record once; with *drop* moves, of the games selected with the same moves only
the first is kept too, as `pdn query --distinct-moves` does.
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path

from pdn.archive.convert import Style, Target, convert_one, csv_text
from pdn.archive.criteria import Criteria
from pdn.archive.identity import Same, game_identity
from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, replay_paths
from pdn.game import Game
from pdn.replay import Replay


@dataclass(frozen=True, slots=True)
class Output:
    """How selected games are written: as read (None), or converted (pdn.archive.convert) to
    *to*."""

    to: str = "pdn"  # pdn, json or csv
    style: Style | None = None  # None: the variant's own notation


@dataclass(slots=True)
class Seen:
    """What filtering found of one game: where it is, whether it is selected, its keys for
    dropping duplicates, and what is written for it."""

    file: str
    index: int  # in its file, from 1
    line: int
    selected: bool
    record: str | None = None
    moves: str | None = None
    text: str = ""  # PDN text, a JSON line, or CSV rows (without the header)
    kept: bool = False  # converted output asked for, but the game does not replay: as read


def see(
    game: Game, replay: Replay | None, criteria: Criteria, drop: Same | None, output: Output | None
) -> Seen:
    """The filter's view of one game (runs where the game is replayed)."""
    src = game.source
    seen = Seen(src.file, src.index + 1, src.line, criteria.matches(game, replay))
    if drop is not None:
        identity = game_identity(game, replay)
        seen.record, seen.moves = identity.record, identity.moves
    if seen.selected:
        seen.text, seen.kept = _written(game, replay, output)
    return seen


def _written(game: Game, replay: Replay | None, output: Output | None) -> tuple[str, bool]:
    """The text written for a selected game, and whether it is kept as read although a
    conversion was asked for (as `pdn convert` writes it:
    :func:`pdn.archive.convert.convert_one`)."""
    if output is None:
        return game.raw.strip() + "\n", False
    done = convert_one(game, replay, Target(output.to), output.style or Style())
    if done.data is not None:
        return json.dumps(done.data, ensure_ascii=False) + "\n", done.kept
    if done.rows is not None:
        return csv_text(done.rows, header=False), done.kept
    return done.text, done.kept


def filter_paths(
    paths: Iterable[str | Path],
    criteria: Criteria,
    drop: Same | None = None,
    output: Output | None = None,
    variant: str | None = None,
    rules: str = "common",
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
) -> Iterator[Seen]:
    """The selected games under *paths*, in file order (duplicates dropped as *drop* says),
    the same whatever runs them (see :mod:`pdn.archive.pipeline`; *progress* and *on_problem* as
    there)."""
    criteria.reached()  # a bad --moves or --fen fails here, before any file is read
    work = partial(see, criteria=criteria, drop=drop, output=output)
    needed = criteria.replays or drop is not None or output is not None
    options = Options(variant, rules, replay=needed)
    records: set[str] = set()
    moves: set[str] = set()
    for seen in replay_paths(paths, work, options, workers, progress, on_problem):
        if drop is not None and seen.record is not None:
            if seen.record in records:
                continue
            records.add(seen.record)
        if not seen.selected:
            continue
        if drop is Same.MOVES and seen.moves is not None:
            if seen.moves in moves:
                continue
            moves.add(seen.moves)
        yield seen
