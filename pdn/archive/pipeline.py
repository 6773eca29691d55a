"""One pipeline under every command that reads archives (list, validate, convert, annotate, import):
find the files, decide each file's variant preference, cut the work into tasks of whole games, then
read and replay every game and hand it to a per-game function, in this process, in local worker
processes or on a Dask cluster (:mod:`pdn.archive.parallel`). Whatever runs it, the results come
back in file order. A file that cannot be read, or holds no game, is told to the caller's
*on_problem* (one :class:`pdn.read.files.FileProblem` each) and the other files are read; without
*on_problem* it raises.

The per-game function runs where the game is replayed (in a worker, for a runner elsewhere), so
it must be picklable there: a module-level function, or a :func:`functools.partial` of one.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, replace
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Generic, TypeVar

from pdn.archive.parallel import Runner, Task, as_runner, file_tasks, run_tasks, whole_task
from pdn.game import Game
from pdn.read.files import FileProblem, pdn_files, shown_name
from pdn.read.reader import Seam, Span, game_files, read_games
from pdn.rules.variants import get_variant

if TYPE_CHECKING:
    from pdn.replay import Replay

R = TypeVar("R")

PerGame = Callable[[Game, "Replay | None"], R]
Renumber = Callable[[R, int], R]  # a result as it is when its game's index is that much more
Progress = Callable[[int, int], None]  # told (games, bytes) as games are done
OnProblem = Callable[[FileProblem], None]  # told of each file not read, or without games

PAYING_BYTES = 4 << 20  # below this much input, one worker is as fast as several (benchmarks/)


@dataclass(frozen=True, slots=True)
class Options:
    """How games are replayed: *variant* for games without a GameType tag (None: from the
    notation), the draw *rules*, whether to *replay* at all (False: only the headers are read
    and the main line counted), and whether to replay games under every variant their notation
    allows, to list the *candidates* they fit."""

    variant: str | None = None
    rules: str = "common"
    replay: bool = True
    candidates: bool = False


def find_files(paths: Iterable[str | Path], on_problem: OnProblem | None = None) -> list[Path]:
    """The PDN files under *paths*: each file named, and the ``*.pdn`` files of each folder;
    with *on_problem*, those that hold a game, the others told to it. A missing path raises
    :class:`pdn.read.files.MissingPathError` before anything is read."""
    if on_problem is None:
        return pdn_files(paths)
    problems: list[FileProblem] = []
    files = game_files(paths, problems)
    for problem in problems:
        on_problem(problem)
    return files


def workers_that_pay(files: Iterable[Path], workers: int) -> int:
    """*workers*, or 1 where the input is too small for more to be faster."""
    return workers if sum(f.stat().st_size for f in files) >= PAYING_BYTES else 1


def file_preference(path: Path, variant: str | None, rules: str, look: int = 50) -> str | None:
    """The variant of the first game in the file that its notation alone decides (and that has
    moves): taken for the other games where several variants fit (archives hold one variant)."""
    from pdn.replay import replay_game  # not needed to read only (`pdn list` starts fast)

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


def plan(
    files: Iterable[Path],
    options: Options,
    runner: Runner,
    sizes: Mapping[Path, int] | None = None,
    exact: bool = True,
) -> list[Task]:
    """The tasks for *files*: whole files when this process runs them, else large files cut into
    spans of whole games for the runner's workers; each with its file's preference. With
    *sizes*, a file is read up to that size only (the bytes an import hashed). Spans know their
    first game's index if *exact*; else they are cut without reading the games, which the
    parent no longer waits for (see :func:`replay_tasks`)."""
    if options.variant:
        get_variant(options.variant)  # fail early on a bad name

    def prefer(f: Path) -> str | None:
        return file_preference(f, options.variant, options.rules) if options.replay else None

    if not runner.elsewhere:
        return [whole_task(f, prefer(f), None if sizes is None else sizes[f]) for f in files]
    return file_tasks(files, runner.workers, prefer, sizes, exact)


def task_games(
    task: Task, options: Options, skip: frozenset[int] = frozenset(), seam: Seam | None = None
) -> Iterator[tuple[Game, Replay | None]]:
    """The games of a task, each with its replay: None for a game that did not parse, when
    *options* say not to replay, and for the games whose number in the task (from 1) is in
    *skip*. *seam* is told where the read of a span with a guessed end ended."""
    games = read_games(task.path, span=task.span, headers_only=not options.replay, seam=seam)
    if not options.replay:
        yield from ((g, None) for g in games)
        return
    from pdn.replay import replay_game  # not needed to read only (`pdn list` starts fast)

    variant = get_variant(options.variant) if options.variant else None
    for n, game in enumerate(games, 1):
        if game.syntax_error is not None or n in skip:
            yield game, None
        else:
            yield game, replay_game(game, variant, options.rules, task.prefer, options.candidates)


@dataclass(frozen=True, slots=True)
class Done(Generic[R]):
    """What a worker made of a task: the results of its games, why it stopped early if the
    file could not be read to the end, and where the read ended if the span's end was guessed
    (see :class:`pdn.read.reader.Seam`)."""

    results: list[R]
    unread: str | None = None
    ended: Seam | None = None


Skip = Mapping[Task, frozenset[int]]  # per task, the numbers of games not to replay


def task_results(
    task: Task, per_game: PerGame[R], options: Options, skip: Skip | None = None
) -> Done[R]:
    """*per_game* of every game of a task (runs in worker processes)."""
    results: list[R] = []
    seam = Seam() if task.span is not None and task.span.guessed else None
    try:
        for game, replay in task_games(task, options, _skipped(task, skip), seam):
            results.append(per_game(game, replay))
    except OSError as exc:  # the file is read no further, as in one process
        return Done(results, exc.strerror or str(exc), None if seam is None else Seam())
    return Done(results, ended=seam)


def replay_tasks(
    tasks: list[Task],
    per_game: PerGame[R],
    options: Options,
    runner: Runner,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
    skip: Skip | None = None,
    renumber: Renumber[R] | None = None,
) -> Iterator[tuple[Task, Iterator[R]]]:
    """Each task with the results of *per_game* on its games, in task order. In this process
    the results come one game at a time as they are made (read each task's results before the
    next task); elsewhere, by task. *progress* is told of the games and bytes done; a file that
    breaks off while it is read is told to *on_problem* (else raises), the games before kept.
    The games *skip* names for a task are not replayed (see :func:`task_games`).

    The results of a span that numbers its games from 0 are renumbered by *renumber* after
    those of the spans before it. Where the read of a span with a guessed end went on past it
    (a chunk of games ran over it), the spans it read are passed over and the one it ended in
    is read again here from there."""
    if runner.elsewhere:
        work = partial(task_results, per_game=per_game, options=options, skip=skip)
        told = None if progress is None else partial(_task_done, progress)
        before: dict[Path, int] = {}  # the games of each file handed back so far
        moved: Seam | None = None  # where the last task's read ended, not at its span's end
        for task, done in run_tasks(work, tasks, runner, told):
            if moved is not None and not task.first:
                if moved.at is None or _span(task).end <= moved.at:
                    if progress is not None:  # its games were told as they were done
                        progress(-len(done.results), 0)
                    continue  # its games were read with the task before
                if moved.at != _span(task).start:
                    task, passed = _read_from(task, moved), len(done.results)
                    done = work(task)
                    if progress is not None:
                        progress(len(done.results) - passed, 0)
            moved = done.ended if done.ended and done.ended.at != _span(task).end else None
            if moved is not None:
                task = _covering(task, moved)
            if done.unread is not None:
                _unread(task, done.unread, on_problem)
            results = done.results
            counted = 0 if task.first else before.get(task.path, 0)
            if task.span is not None and task.span.index is None and counted:
                results = _renumbered(results, counted, renumber)
            before[task.path] = counted + len(results)
            yield task, iter(results)
        return
    for task in tasks:
        yield task, _here(task, per_game, options, progress, on_problem, _skipped(task, skip))


def no_index(result: R, by: int) -> R:
    """A result that holds no game index, renumbered: itself."""
    return result


def _span(task: Task) -> Span:
    assert task.span is not None  # (a task that does not start its file has one)
    return task.span


def _covering(task: Task, seam: Seam) -> Task:
    """The task as far as its read went: to where *seam* says, or to the end of its file (what
    follows it is passed over: an import tells a file done after its last task)."""
    if seam.at is not None:
        end = seam.at
    else:
        end = task.path.stat().st_size if task.file_size is None else task.file_size
    return _spanning(task, replace(_span(task), end=end))


def _read_from(task: Task, seam: Seam) -> Task:
    """The task of a span read from where *seam* says the read before it ended."""
    assert seam.at is not None
    return _spanning(task, replace(_span(task), start=seam.at, line=seam.line))


def _spanning(task: Task, span: Span) -> Task:
    """The task over another span of its file."""
    return Task(task.path, span, task.prefer, span.end - span.start, task.file_size)


def _renumbered(results: list[R], by: int, renumber: Renumber[R] | None) -> list[R]:
    if renumber is None:
        raise TypeError("the results of spans cut without counting games need a renumber")
    return [renumber(r, by) for r in results]


def _skipped(task: Task, skip: Skip | None) -> frozenset[int]:
    return skip.get(task, frozenset()) if skip else frozenset()


def _unread(task: Task, reason: str, on_problem: OnProblem | None) -> None:
    problem = FileProblem(shown_name(task.path), f"not read to the end: {reason}")
    if on_problem is None:
        raise OSError(str(problem))
    on_problem(problem)


def _task_done(progress: Progress, task: Task, done: Done[R]) -> None:
    progress(len(done.results), task.size)


def _here(
    task: Task,
    per_game: PerGame[R],
    options: Options,
    progress: Progress | None,
    on_problem: OnProblem | None,
    skip: frozenset[int],
) -> Iterator[R]:
    """The results of a task made here, one game at a time; progress told by game."""
    start = task.span.start if task.span else 0
    told = start
    games = task_games(task, options, skip)
    while True:
        try:
            game, replay = next(games)
        except StopIteration:
            break
        except OSError as exc:
            _unread(task, exc.strerror or str(exc), on_problem)
            break
        result = per_game(game, replay)
        if progress is not None:
            progress(1, max(0, game.source.offset - told))
            told = max(told, game.source.offset)
        yield result
    if progress is not None:
        progress(0, start + task.size - told)


def replay_paths(
    paths: Iterable[str | Path],
    per_game: PerGame[R],
    options: Options | None = None,
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
    renumber: Renumber[R] | None = None,
) -> Iterator[R]:
    """``per_game(game, replay)`` for every game under *paths*, in file order: the same
    whatever runs it (this process, *workers* local processes, a Dask runner). With *renumber*,
    the parent does not read large files to cut them (see :func:`replay_tasks`)."""
    options = options or Options()
    runner = as_runner(workers)
    tasks = plan(find_files(paths, on_problem), options, runner, exact=renumber is None)
    jobs = replay_tasks(tasks, per_game, options, runner, progress, on_problem, None, renumber)
    for _, results in jobs:
        yield from results
