"""The commands on two workers read large files in spans cut without reading the games (see
pdn.read.reader.quick_spans): their results are those of one process, where a guessed seam holds
and where it does not (a tag pair's line inside a comment of many lines)."""

from __future__ import annotations

import csv
import io
import json
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any, BinaryIO, cast

import pytest

import pdn.archive.parallel
import pdn.archive.pipeline as pipeline
import pdn.read.lines
import pdn.read.reader
from conftest import corpus_dir, quick_spans_read, seams_held, table_digests
from pdn.archive.annotate import Notes, annotate_paths
from pdn.archive.convert import convert_paths
from pdn.archive.listing import list_games
from pdn.archive.parallel import Task
from pdn.archive.repair import Repairs, fix_paths
from pdn.archive.standings import EventChoice, event_games
from pdn.archive.validate import validate_paths
from pdn.db.connection import open_database
from pdn.db.store import import_paths
from pdn.read.reader import Seam, quick_spans, read_games, whole_span

NOTE = "{a note of many lines\n" + "more of it\n" * 8 + '[Event "in it"]\n}'
TRAP = '[Event "trap"]\n[Result "1-0"]\n1. 32-28 19-23 ' + NOTE + " 1-0\n\n"
BROKEN = '[Event "broken {n}"]\n1. 32-28 {{never closed 19-23 (\n\n'  # each stored


@pytest.fixture
def archive(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """The 460 games of a corpus file (161 kB), each fourth followed by a game whose note holds
    a tag pair's line, and one that does not parse: cut into spans of about 10 kB."""
    monkeypatch.setattr(pdn.archive.parallel, "SPAN_BYTES", 10_000)
    source = corpus_dir() / "russian" / "migo-World_Championship_1998.pdn"
    parts = []
    for n, game in enumerate(read_games(source)):
        parts.append(game.raw.strip() + "\n\n")
        if n % 4 == 0:
            parts.append(TRAP if n % 40 else BROKEN.format(n=n))
    path = tmp_path / "mixed.pdn"
    path.write_text("".join(parts), encoding="utf-8")
    return path


def test_some_guessed_seams_hold_and_some_do_not(archive: Path) -> None:
    spans = quick_spans(archive, 20)
    held = seams_held(archive, spans)
    assert len(spans) == 20 and True in held and False in held
    assert all(s.index is None for s in spans[1:])


def _rows(items: Any) -> list[Any]:
    return [getattr(r, "as_dict", lambda r=r: r)() for r in items]


COMMANDS: dict[str, Callable[[Path, int], Any]] = {
    "validate": lambda p, w: validate_paths([p], workers=w),
    "list": lambda p, w: list_games([p], workers=w),
    "fix": lambda p, w: fix_paths([p], Repairs(fix_results=True, add_plycount=True), workers=w),
    "annotate": lambda p, w: annotate_paths([p], Notes(), workers=w),
    "standings": lambda p, w: event_games([p], EventChoice(), workers=w),
    **{
        f"convert to {to}": partial(lambda to, p, w: convert_paths([p], to, workers=w), to)
        for to in ("pdn", "json", "csv")
    },
}


@pytest.mark.parametrize("command", sorted(COMMANDS))
def test_two_workers_give_what_one_gives(archive: Path, command: str) -> None:
    one = _rows(COMMANDS[command](archive, 1))
    two = _rows(COMMANDS[command](archive, 2))
    assert two == one
    if command == "convert to json":
        assert [json.loads(text)["index"] for text, _ in two] == list(range(1, 576))
    elif command == "convert to csv":
        rows = csv.DictReader(io.StringIO("".join(text for text, _ in two)))
        broken = {50 * k + 2 for k in range(12)}  # no rows: not replayed
        assert {int(row["index"]) for row in rows} == set(range(1, 576)) - broken
    elif command != "standings":  # which leaves out copies of a game
        assert len(one) == 460 + 115
    if command in ("validate", "list", "fix"):
        assert [r["index"] if isinstance(r, dict) else r.index for r in two] == list(
            range(1, len(one) + 1)
        )


def test_progress_tells_each_game_once_where_seams_move(archive: Path) -> None:
    told: list[tuple[int, int]] = []
    reports = list(validate_paths([archive], workers=2, progress=lambda g, b: told.append((g, b))))
    assert False in seams_held(archive, quick_spans(archive, 20))
    assert sum(g for g, _ in told) == len(reports) == 575
    assert sum(b for _, b in told) == archive.stat().st_size


def test_syntax_errors_are_numbered_in_the_file(archive: Path) -> None:
    reports = list(validate_paths([archive], workers=2))
    broken = [r for r in reports if r.syntax_error]
    assert [r.index for r in broken] == [50 * k + 2 for k in range(12)]  # after games 40k + 1
    assert all(f": game {r.index}: " in (r.syntax_error or "") for r in broken)


def test_an_import_on_two_workers_writes_what_one_writes(archive: Path, tmp_path: Path) -> None:
    one = open_database(str(tmp_path / "one.db"))
    import_paths(one, [archive])
    two = open_database(str(tmp_path / "two.db"))
    stats = import_paths(two, [archive], workers=2)
    assert stats.games == 460 + 115
    assert table_digests(two) == table_digests(one)
    one.dispose()
    two.dispose()


def test_a_file_named_twice_is_numbered_from_its_start_each_time(archive: Path) -> None:
    one = [r.index for r in validate_paths([archive, archive], workers=1)]
    two = [r.index for r in validate_paths([archive, archive], workers=2)]
    assert two == one == [*range(1, 576), *range(1, 576)]


_READ_HERE: list[int] = []  # the starts of the spans the test's process read itself
_TASK_RESULTS = pipeline.task_results


def _counted(task: Task, *args: Any, **kwargs: Any) -> Any:
    if os.getpid() == _PARENT[0]:
        _READ_HERE.append(task.span.start if task.span else 0)
    return _TASK_RESULTS(task, *args, **kwargs)


_PARENT = [os.getpid()]


def _parent_reads(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The starts of the spans this process reads itself, not its workers (a module-level
    function stands in for task_results: the workers are sent it by name)."""
    _READ_HERE.clear()
    _PARENT[0] = os.getpid()
    monkeypatch.setattr(pipeline, "task_results", _counted)
    return _READ_HERE


def test_a_moved_seam_costs_one_span_read_again(
    archive: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    moved = seams_held(archive, quick_spans(archive, 1 + archive.stat().st_size // 10_000))
    here = _parent_reads(monkeypatch)
    reports = list(validate_paths([archive], workers=2))
    assert len(reports) == 575 and 0 < len(here) <= moved.count(False)


def test_a_comment_never_closed_is_read_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a comment left open, with no blank line before a tag line, the rest of the file is
    one chunk of games: the span it starts in reads it to the end, and the spans after it are
    passed over, not read again one after another."""
    monkeypatch.setattr(pdn.archive.parallel, "SPAN_BYTES", 10_000)
    game = '[Event "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n'
    text = "".join(game.format(n=n) for n in range(3000))
    path = tmp_path / "open.pdn"
    path.write_text(text.replace("19-23 1-0", "19-23 {open 1-0", 1), encoding="utf-8")
    here = _parent_reads(monkeypatch)
    one = [r.as_dict() for r in validate_paths([path], workers=1)]
    two = [r.as_dict() for r in validate_paths([path], workers=2)]
    assert two == one and len(one) == 1 and not here


def test_a_line_longer_than_a_look_does_not_stop_the_cut(tmp_path: Path) -> None:
    game = '[Event "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'
    games = [game.format(n=n) for n in range(20_000)]
    games[100] = games[100].replace("1-0\n\n", "{" + "x" * 100_000 + "} 1-0\n\n")
    path = tmp_path / "long.pdn"
    path.write_text("".join(games), encoding="utf-8")
    assert len(quick_spans(path, 20)) == 20


def test_a_file_read_to_its_end_by_one_span_is_imported_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The spans after a comment left open are passed over; the import still tells the file
    read whole, and a second import passes over it."""
    monkeypatch.setattr(pdn.archive.parallel, "SPAN_BYTES", 10_000)
    game = '[Event "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n'
    text = "".join(game.format(n=n) for n in range(3000))
    path = tmp_path / "open.pdn"
    path.write_text(text.replace("19-23 1-0", "19-23 {open 1-0", 1), encoding="utf-8")
    engine = open_database(str(tmp_path / "x.db"))
    stats = import_paths(engine, [path], workers=2)
    assert (stats.games, stats.files, stats.per_file) == (1, 1, {str(path): 1})
    assert import_paths(engine, [path], workers=2).skipped_files == 1
    engine.dispose()


def test_spans_of_a_file_that_grew_stop_where_it_was_sized(tmp_path: Path) -> None:
    """An import reads a file as far as it hashed it: the spans' reads past a guessed end stop
    there too, in a game or not."""
    game = '[Event "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'
    path = tmp_path / "grows.pdn"
    path.write_text("".join(game.format(n=n) for n in range(2000)), encoding="utf-8")
    for upto in (path.stat().st_size, path.stat().st_size - 30):
        with path.open("a", encoding="utf-8") as more:
            more.write("".join(game.format(n=n) for n in range(100)))
        whole = [(g.source.offset, g.raw) for g in read_games(path, span=whole_span(path, upto))]
        spans = quick_spans(path, 16, upto=upto)
        assert spans[-1].end == upto and all(s.stop == upto for s in spans[:-1])
        assert [(g.source.offset, g.raw) for g in quick_spans_read(path, spans)] == whole


def test_a_file_shorter_than_it_was_sized_is_cut(tmp_path: Path) -> None:
    game = '[Event "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'
    path = tmp_path / "shrank.pdn"
    path.write_text("".join(game.format(n=n) for n in range(2000)), encoding="utf-8")
    size = path.stat().st_size
    assert len(quick_spans(path, 4, upto=size + size // 2)) == 3  # the last quarter is not there


@dataclass(frozen=True, slots=True)
class _Inline:
    """A runner that says its tasks run elsewhere and runs them here, in turn."""

    workers: int = 2
    elsewhere: bool = True

    def run(self, work: Callable[[Any], Any], items: list[Any]) -> Iterator[tuple[int, Any]]:
        yield from enumerate(map(work, items))


def test_a_read_that_breaks_off_reads_no_game_twice(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """An I/O error past a span's guessed end, before where its read would end: the file is
    read no further, as in one process, and no game comes twice."""
    monkeypatch.setattr(pdn.archive.parallel, "SPAN_BYTES", 10_000)
    game = '[Event "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'
    trap = '[Event "trap"]\n1. 32-28 ' + NOTE + " 19-23 1-0\n" + "1. 11-15 22-18 0-1\n" * 20
    path = tmp_path / "broken.pdn"
    path.write_text("".join(game.format(n=n) + trap * (n % 4 == 0) for n in range(1500)))
    spans = quick_spans(path, 1 + path.stat().st_size // 10_000)
    reads = [(s, Seam()) for s in spans[:-1]]
    for span, seam in reads:
        list(read_games(path, span=span, seam=seam))
    span, seam = next((s, m) for s, m in reads if m.at is not None and m.at > s.end)
    bad = (span.end + seam.at) // 2 if seam.at else span.end + 1
    monkeypatch.setattr(pdn.read.reader, "binary_lines", partial(_failing, bad))
    problems: list[Any] = []
    options = pipeline.Options(replay=False)
    tasks = pdn.archive.parallel.file_tasks([path], 2, lambda _: None, exact=False)
    done = pipeline.replay_tasks(
        tasks, _offset, options, _Inline(), None, problems.append, renumber=pipeline.no_index
    )
    offsets = [o for _, results in done for o in results]
    assert offsets == sorted(set(offsets)) and offsets[-1] < bad and len(problems) == 1


def _offset(game: Any, _replay: Any) -> int:
    return int(game.source.offset)


_BINARY_LINES = pdn.read.lines.binary_lines  # as pdn.read.reader has it


def _failing(bad: int, fh: Any, *args: Any, **kwargs: Any) -> Any:
    """The lines of *fh*, whose read fails at byte *bad*."""

    class Failing:
        def read(self, n: int) -> bytes:
            at = fh.tell()
            if at <= bad < at + n:
                if data := fh.read(bad - at):
                    return bytes(data)
                raise OSError(5, "Input/output error")
            return bytes(fh.read(n))

    return _BINARY_LINES(cast(BinaryIO, Failing()), *args, **kwargs)


def _unbracketed(tmp_path: Path, games: int) -> Path:
    """Games of which each third opens with its Event tag missing its '[', after a game whose
    note holds a tag pair's line (a guessed seam there moves on to the tag missing its '[')."""
    parts = []
    for n in range(games):
        event = f'Event "nb {n}"]' if n % 3 == 1 else f'[Event "g {n}"]'
        note = NOTE if n % 3 == 0 else ""
        parts.append(f'{event}\n[Result "1-0"]\n1. 32-28 19-23 {note} 2. 28x19 14x23 1-0\n\n')
    path = tmp_path / "unbracketed.pdn"
    path.write_text("".join(parts), encoding="utf-8")
    return path


def test_a_tag_missing_its_bracket_warns_on_its_own_game(tmp_path: Path) -> None:
    games = list(read_games(_unbracketed(tmp_path, 6)))
    warned = [g.source.index for g in games for w in g.warnings if "without its '['" in w.message]
    assert warned == [1, 4]


def test_a_seam_moved_to_a_tag_missing_its_bracket_warns_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(pdn.archive.parallel, "SPAN_BYTES", 1_000)
    path = _unbracketed(tmp_path, 300)
    spans = quick_spans(path, 40)
    assert False in seams_held(path, spans)
    one = [(r.index, [w.message for w in r.warnings]) for r in validate_paths([path], workers=1)]
    two = [(r.index, [w.message for w in r.warnings]) for r in validate_paths([path], workers=2)]
    assert two == one
    assert [i for i, w in one if w] == list(range(2, 301, 3))


def test_a_span_starts_at_the_lone_bracket_that_opens_a_game(tmp_path: Path) -> None:
    # '[' alone on its line, the tag on the next: a read from the tag's line would not see the
    # bracket and warn of a tag without its '[' where a whole read does not; the game's chunk
    # starts at the '[' instead, so such a file is still cut
    game = '[\nEvent "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 2. 28x19 14x23 1-0\n\n'
    path = tmp_path / "lone.pdn"
    path.write_text("".join(game.format(n=n) for n in range(40)))

    def warned(games: Iterator[Any]) -> list[tuple[int, str]]:
        return [(g.source.line, w.message) for g in games for w in g.warnings]

    whole = warned(read_games(path))
    assert all("without its" not in m for _, m in whole)
    spans = pdn.read.reader.game_spans(path, 4)  # at the lone "[" of a game
    assert len(spans) == 4 and all(path.read_bytes()[s.start] == ord("[") for s in spans)
    assert warned(g for s in spans for g in read_games(path, span=s)) == whole
    quick = quick_spans(path, 4)  # cut at [Result: each read goes on to the next game's "["
    for span in quick[:-1]:
        seam = Seam()
        list(read_games(path, span=span, seam=seam))
        assert seam.at is not None and path.read_bytes()[seam.at] == ord("[")
    assert warned(iter(quick_spans_read(path, quick))) == whole


def test_a_lone_bracket_at_the_end_of_a_span_is_told(tmp_path: Path) -> None:
    path = tmp_path / "stray.pdn"
    path.write_text('[Event "a"]\n1. 32-28 1-0\n\n[\n[Event "b"]\n1. 32-28 1-0\n')
    spans = pdn.read.reader.game_spans(path, 2)
    assert [(s.start, s.end) for s in spans] == [(0, 28), (28, 53)]  # the "[" ends the first
    for games in (read_games(path), (g for s in spans for g in read_games(path, span=s))):
        told = [(g.event, [(w.line, w.message) for w in g.warnings]) for g in games]
        assert told == [("a", [(4, "stray '[' skipped")]), ("b", [])]


def test_counted_spans_judge_no_line_past_the_size_read(tmp_path: Path) -> None:
    # sized at 55 bytes, then grown: the first game and 7 bytes of the second's first line
    game = '[Event "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'  # 48 bytes
    path = tmp_path / "grew.pdn"
    path.write_text(game.format(n=0) + game.format(n=1))
    spans = pdn.read.reader.game_spans(path, 2, upto=55)
    assert [(s.start, s.end) for s in spans] == [(0, 55)]
    [g] = read_games(path, span=spans[0])
    assert [w.message for w in g.warnings] == ['text outside any game skipped: "[Event"']


def test_a_game_too_large_keeps_the_warning_of_its_tag_line(tmp_path: Path) -> None:
    moves = "1. 32-28 19-23 2. 28x19 14x23\n" * 60
    path = tmp_path / "big.pdn"
    path.write_text(
        '[Event "a"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'
        f'Event "b"]\n[Result "1-0"]\n{moves}1-0\n'
    )
    [small, big] = read_games(path, max_game_bytes=1500)
    assert big.syntax_error is not None and "too large" in big.syntax_error.message
    assert [(w.line, w.message) for w in big.warnings] == [
        (5, """tag without its '[' read as '[Event "b"]'""")
    ]
    assert small.warnings == []
