"""Read PDN: bytes → lines → game chunks → tokens → Game, with every problem located in the file.

One reading loop serves every use: a full read, ``headers_only`` (the movetext is not kept) and
``select`` (games whose tags it rejects are not yielded) are options over the same loop, so the
games, their indexes, lines and offsets never differ between them.

- Lines (pdn/read/lines.py) are read in blocks; a line over the size limit is passed over unread.
- A line scanner (pdn/read/chunks.py) cuts the lines into chunks of whole games: a tag line
  after movetext, a line that ends a game with its result, or a comment left open that runs into
  a blank line and a tag line starts a new chunk. A broken game never costs the games after it,
  and a chunk larger than the size limit is reported as one game too large and passed over.
- Each chunk is decoded on its own (pdn/read/decoding.py): UTF-8, or, line by line where it is
  not, the file's code page (found once from the text, or --encoding's) with a warning on the
  game (pdn/read/lines.py reads UTF-16).
- Its tokens (pdn/read/tokens.py) are cut into games (pdn/read/parser.py): a game starts at a tag
  pair written ``[Name "value"]``, or at a move from a square that begins a line (or follows the
  previous game's end); it ends at its result or "*", at the next tag section or at the end of
  its chunk. Text that is neither a tag pair nor a move (prose, a stray character, a lone result)
  is never a game: it is skipped with a warning on the nearest game of its chunk.
- A game's movetext tree is built from its tokens only when first asked for
  (:attr:`Game.body`, pdn/read/movetext.py).
"""

from __future__ import annotations

import io
import os
import re
import sys
from collections.abc import Callable, Generator, Iterable, Iterator
from dataclasses import dataclass, field, replace
from itertools import pairwise
from pathlib import Path
from typing import BinaryIO, TextIO

from pdn.game import (
    Game,
    GameWarning,
    PdnSyntaxError,
    Tags,
    located,
)
from pdn.read.chunks import TAG_PAIR_LINE, TAG_RE, Chunk, game_chunks
from pdn.read.decoding import forced_code_page
from pdn.read.files import STDIN, FileProblem, pdn_files, shown_name
from pdn.read.lines import BLOCK, Batch, binary_lines, sniff, string_lines, text_lines
from pdn.read.parser import GameReader

Selector = Callable[[Tags], bool]
PdnSource = str | os.PathLike[str] | BinaryIO | TextIO

MAX_GAME_BYTES = 4 << 20  # a game or run of text larger than this is reported and passed over
LIMIT_VARIABLE = "PDN_MAX_GAME_BYTES"  # the environment variable that changes it

# -- sources ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Span:
    """A byte range of a file that starts at a game boundary."""

    start: int
    end: int  # exclusive
    line: int  # line number of the first line
    encoding: str  # 'bytes' or a UTF-16 form (see pdn.read.lines.sniff)
    index: int | None = 0  # 0-based index in the file of the range's first game (None: not
    # counted; the range's games are numbered from 0, see :func:`quick_spans`)
    guessed: bool = False  # the end was guessed: a read goes on past it (see :class:`Seam`)
    stop: int | None = None  # a read past a guessed end stops here (None: at the file's end)


@dataclass(slots=True)
class Seam:
    """Where a read of a span whose end was guessed ended: at the first chunk of games at or
    past that end where a span may start (as :func:`game_spans` cuts), its offset and line, or
    None at the end of the file. The read gave the games of every chunk before it, so the next
    span is read from there: where it is not that span's start, the guess was wrong (a tag
    pair's line inside a comment of many lines, say)."""

    at: int | None = None
    line: int = 0


def whole_span(path: str | os.PathLike[str], size: int) -> Span | None:
    """The first *size* bytes of a file as one span: the file as it was, though it grows while
    it is read (None for a binary file, which is not read)."""
    with Path(path).open("rb") as fh:
        family = sniff(fh.read(BLOCK))
    return None if family == "binary" else Span(0, size, 1, family)


FINER = 4  # the last parts of a file may be cut this much finer (see span_steps)


def span_steps(size: int, parts: int, finer: int = 0) -> Callable[[int], int]:
    """The bytes from a cut at an offset to the next one of *size* bytes cut into about *parts*
    ranges: a *parts*'th, and a FINER'th of that over the last *finer* parts' bytes (workers
    that take the ranges in turn then end nearly together)."""
    step = max(1, size // max(1, parts))
    fine, small = size - finer * step, max(1, step // FINER)
    return lambda at: min(step, max(fine - at, small))  # a whole step does not run past fine


def game_spans(
    path: str | os.PathLike[str],
    parts: int,
    max_game_bytes: int | None = None,
    upto: int | None = None,
    finer: int = 0,
) -> list[Span]:
    """Cut a file (its first *upto* bytes if given) into about *parts* byte ranges of whole
    games (for parallel work), the last *finer* parts' bytes finer (see :func:`span_steps`).
    Each range starts at a tag line and knows the index of its first game: the games of the
    ranges are those of a read of the whole file, with the same indexes."""
    limit = game_size_limit(max_game_bytes)
    with Path(path).open("rb") as fh:
        family = sniff(fh.read(BLOCK))
        size = fh.seek(0, os.SEEK_END) if upto is None else upto
        fh.seek(0)
        if family == "binary":
            return [Span(0, size, 1, family)]
        step = span_steps(size, parts, finer)
        spans = [Span(0, size, 1, family)]
        reader = GameReader(shown_name(path), family, True, limit)
        lines = binary_lines(fh, limit, 0, size, family)  # no further than *upto*
        for chunk in game_chunks(lines, 1, limit):
            at = chunk.offsets[0] if chunk.offsets else 0
            index = reader.index
            games = [s.game for s in reader.read(chunk) if s.game is not None]  # counted
            far = at - spans[-1].start >= step(spans[-1].start)
            if far and _may_start(chunk, games):
                spans.append(Span(at, size, chunk.line, family, index))
    return [replace(s, end=e.start) for s, e in pairwise(spans)] + spans[-1:]


# a line that starts with a tag pair, as the chunks' tag_start has it
_TAG_LINE = re.compile(rb"(?m)^[ \t]*" + TAG_PAIR_LINE.pattern)
LOOK = 1 << 16  # bytes looked through at a time for a game's first tag line


def quick_spans(
    path: str | os.PathLike[str], parts: int, upto: int | None = None, finer: int = 0
) -> list[Span]:
    """Cut a file (its first *upto* bytes if given) into about *parts* byte ranges without
    reading its games, as :func:`game_spans` does (*finer* as there): each range after the
    first starts at a tag pair's line that follows a line that is not one, has its line number
    counted, and numbers its games from 0 (``index`` None: the file's games before it are not
    counted). Its end is a guess: a read of the range goes on past it, no further than *upto*,
    to where a range may start (see :class:`Seam`). Files in UTF-16, or with line ends of a
    lone CR, are cut by :func:`game_spans`."""
    with Path(path).open("rb") as fh:
        family = sniff(fh.read(BLOCK))
        size = fh.seek(0, os.SEEK_END) if upto is None else upto
        if family != "bytes":
            return game_spans(path, parts, upto=upto, finer=finer)
        step = span_steps(size, parts, finer)
        spans = [Span(0, size, 1, family)]
        line = 1
        while (
            at := _first_tag_after(fh, spans[-1].start + step(spans[-1].start), size)
        ) is not None:
            ends = _line_ends(fh, spans[-1].start, at)
            if ends is None:
                return game_spans(path, parts, upto=upto, finer=finer)
            line += ends
            spans.append(Span(at, size, line, family, None))
    guessed = [replace(s, end=e.start, guessed=True, stop=upto) for s, e in pairwise(spans)]
    return guessed + spans[-1:]


def _line_ends(fh: BinaryIO, start: int, end: int) -> int | None:
    """The line ends between two line starts, read a block at a time (None: one is a lone
    CR, which :func:`quick_spans` does not count)."""
    fh.seek(start)
    count = 0
    cr = False  # the block before ended with a CR
    while start < end:
        block = fh.read(min(BLOCK, end - start))
        if not block:
            break
        crs = block.count(b"\r")
        pairs = (block.count(b"\r\n") if crs else 0) + (cr and block.startswith(b"\n"))
        if crs + cr != pairs + block.endswith(b"\r"):
            return None
        count += block.count(b"\n")
        cr = block.endswith(b"\r")
        start += len(block)
    return None if cr else count


def _first_tag_after(fh: BinaryIO, position: int, size: int) -> int | None:
    """The offset of the first line after the one *position* falls in that holds a tag pair
    and follows a line that is not a tag's, before *size* (None: there is none), looked for
    LOOK bytes at a time."""
    while position < size:
        fh.seek(position)
        window = fh.read(min(LOOK, size - position))
        if not window:  # the file is shorter than *size*
            return None
        start = window.find(b"\n") + 1
        for m in _TAG_LINE.finditer(window, start) if start else ():
            before = window[: m.start()].rstrip()
            last = before[before.rfind(b"\n") + 1 :].lstrip()
            if b"\n" in before and not last.startswith(b"["):
                return position + m.start()
        if position + len(window) >= size:
            return None
        cut = window.rfind(b"\n")
        prev = window.rfind(b"\n", 0, cut) if cut > 0 else -1
        # on from the window's last whole line (its line before with it): a match there may
        # have been cut off
        position += prev if prev > 0 else cut if cut > 0 else len(window)
    return None


@dataclass(slots=True)
class _Opened:
    name: str
    family: str  # 'bytes', 'binary' or a UTF-16 form
    lines: Iterator[Batch]
    close: Callable[[], None]
    at_end: Callable[[], bool]  # whether the read reached the end of the file


def _open(source: PdnSource, span: Span | None, limit: int) -> _Opened:
    """Lines of any kind of source."""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        if str(source) == STDIN:
            return _open_binary(sys.stdin.buffer, shown_name(STDIN), limit)
        fh = path.open("rb")
        name = shown_name(path)
        if span is not None:
            fh.seek(span.start)
            end = span.stop if span.guessed else span.end  # a guessed end: read on past it
            lines = binary_lines(fh, limit, span.start, end, span.encoding)
            return _Opened(name, span.encoding, lines, fh.close, lambda: not fh.read(1))
        opened = _open_binary(fh, name, limit)
        opened.close = fh.close
        return opened
    name = str(getattr(source, "name", "<stream>"))
    if isinstance(source, io.TextIOBase):
        lines = text_lines(source, limit)
        return _Opened(name, "bytes", lines, lambda: None, lambda: True)
    return _open_binary(source, name, limit)  # type: ignore[arg-type]


def _open_binary(fh: BinaryIO, name: str, limit: int) -> _Opened:
    head = fh.read(BLOCK)
    family = sniff(head)
    rest = _Prefixed(head, fh)
    lines = binary_lines(rest, limit, encoding=family)  # type: ignore[arg-type]
    return _Opened(name, family, lines, lambda: None, lambda: True)


class _Prefixed:
    """A stream whose first bytes were read already."""

    def __init__(self, head: bytes, fh: BinaryIO) -> None:
        self.head = head
        self.fh = fh

    def read(self, n: int) -> bytes:
        if self.head:
            data, self.head = self.head[:n], self.head[n:]
            return data
        return self.fh.read(n)


# -- public API ----------------------------------------------------------------------------------


_UNITS = {
    "": 1,
    "k": 1 << 10,
    "kb": 1 << 10,
    "m": 1 << 20,
    "mb": 1 << 20,
    "g": 1 << 30,
    "gb": 1 << 30,
}
_SIZE = re.compile(r"\s*(\d+)\s*([a-z]*)\s*", re.I)


def parse_size(text: str) -> int:
    """A size such as ``4MB``, ``512k`` or ``1000000`` (bytes) in bytes; ValueError if none."""
    m = _SIZE.fullmatch(text)
    unit = _UNITS.get(m.group(2).lower()) if m else None
    if m is None or unit is None or int(m.group(1)) == 0:
        raise ValueError(f"not a size: {text!r} (write it as 4MB, 512KB or a number of bytes)")
    return int(m.group(1)) * unit


def game_size_limit(value: int | None = None) -> int:
    """The size limit of a game: *value*, else the environment's PDN_MAX_GAME_BYTES (how the
    commands pass their option to worker processes), else MAX_GAME_BYTES."""
    if value is not None:
        return value
    setting = os.environ.get(LIMIT_VARIABLE, "")
    return int(setting) if setting.isdigit() and int(setting) > 0 else MAX_GAME_BYTES


def read_games(
    source: PdnSource,
    *,
    select: Selector | None = None,
    headers_only: bool = False,
    span: Span | None = None,
    max_game_bytes: int | None = None,
    seam: Seam | None = None,
) -> Generator[Game, None, None]:
    """Yield the games of a PDN file or stream one at a time.

    A game that does not parse is yielded with its tags and a ``syntax_error`` (a
    :class:`PdnSyntaxError`); reading goes on with the next game. ``headers_only`` keeps no
    movetext (:attr:`Game.body` is empty; :meth:`Game.ply_count` still counts the main line);
    ``select`` sees the tags of each game and only the games it accepts are yielded. Either way
    every game keeps the index, line and offset a full read gives it. A game or run of text
    larger than *max_game_bytes* (see :func:`game_size_limit`) is yielded as a game with a
    syntax error, unread. ``span`` (from :func:`game_spans`) reads one byte range of a file,
    its games with the indexes they have in the file (from :func:`quick_spans`, numbered from
    the range's first); where its end was guessed, the read goes on to where a range may start
    and tells *seam*. A path of ``-`` reads standard input.
    """
    limit = game_size_limit(max_game_bytes)
    yield from _read(_open(source, span, limit), select, headers_only, span, limit, seam)


def _read(
    opened: _Opened,
    select: Selector | None,
    headers_only: bool,
    span: Span | None,
    limit: int,
    seam: Seam | None = None,
) -> Iterator[Game]:
    """The games of an opened source (see :func:`read_games`); closes it."""
    try:
        if opened.family == "binary":
            return
        reader = GameReader(opened.name, opened.family, headers_only, limit, forced_code_page())
        reader.index = (span.index or 0) if span else 0
        held: list[Game] = []  # games not yet yielded: text after them may still be theirs
        loose: list[GameWarning] = []  # warnings of outside text before the first game
        first_line = span.line if span else 1
        end = span.end if span is not None and span.guessed else None
        past: Chunk | None = None  # where a read past a guessed end stops
        for chunk in game_chunks(opened.lines, first_line, limit):
            at = chunk.offsets[0] if end is not None and chunk.offsets else -1
            if end is not None and at >= end and _starts_games(chunk, opened, limit):
                past = chunk
                break
            segments = reader.read(chunk)
            games = [s.game for s in segments if s.game is not None]
            for i, seg in enumerate(segments):
                if seg.warning is None:  # a game
                    continue
                before = next((s.game for s in reversed(segments[:i]) if s.game), None)
                after = next((s.game for s in segments[i + 1 :] if s.game), None)
                if before is None and after is not None:
                    after.warnings.insert(0, seg.warning)
                elif before is not None:
                    before.warnings.append(seg.warning)
                elif held:
                    held[-1].warnings.append(seg.warning)
                else:
                    loose.append(seg.warning)
            if games and loose:
                games[0].warnings[:0] = loose
                loose = []
            held.extend(games)
            keep = 2 if held and _lone_tag(held[-1]) else 1
            while len(held) > keep:
                game = held.pop(0)
                if select is None or select(game.tags):
                    yield game
        if end is not None and seam is not None:
            seam.at, seam.line = (past.offsets[0], past.line) if past else (None, 0)
        at_end = past is None and opened.at_end()
        if held and reader.index > 1 and at_end and _lone_tag(held[-1]):
            lone = held.pop()
            if held:
                tag = lone.raw.strip()
                held[-1].warnings.append(
                    located(lone.source.line, None, f"lone tag {tag} after the last game skipped")
                )
        for game in held:
            if select is None or select(game.tags):
                yield game
    finally:
        opened.close()


def _starts_games(chunk: Chunk, opened: _Opened, limit: int) -> bool:
    """Whether a span may start at *chunk* (see :func:`_may_start`), its games read here."""
    if not chunk.tag_start:
        return False
    segments = GameReader(opened.name, opened.family, True, limit).read(chunk)
    return _may_start(chunk, [s.game for s in segments if s.game is not None])


def _may_start(chunk: Chunk, games: list[Game]) -> bool:
    """Whether a span may start at *chunk*, whose *games* these are: at a tag pair, not at a
    chunk without a game, nor at a lone tag (it may end the file: the game before it takes its
    warning)."""
    return chunk.tag_start and bool(games) and not _lone_tag(games[0])


def _lone_tag(game: Game) -> bool:
    """A lone tag with nothing after it, such as [FILENAME ""]: when it ends a file, it is not a
    game of its own."""
    return (
        game.syntax_error is None
        and len(game.tags) == 1
        and not game.terminator
        and TAG_RE.fullmatch(game.raw) is not None
    )


@dataclass(slots=True)
class ReadResult:
    """Per file: the games and the syntax errors, in file order."""

    games: list[Game] = field(default_factory=list)
    errors: list[PdnSyntaxError] = field(default_factory=list)


def game_files(
    paths: Iterable[str | os.PathLike[str]],
    problems: list[FileProblem],
    max_game_bytes: int | None = None,
) -> list[Path]:
    """The files under *paths* (see :func:`pdn.read.files.pdn_files`; standard input and pipes
    spooled) that hold at least one game; each other file is added to *problems*: not read, or
    "no games found" (neither a tag nor a move). Raises :class:`pdn.read.files.MissingPathError` as
    pdn_files does."""
    found = []
    for path in pdn_files(paths, problems):
        try:
            games = read_games(path, headers_only=True, max_game_bytes=max_game_bytes)
            if next(games, None) is None:
                problems.append(FileProblem(shown_name(path), "no games found"))
            else:
                found.append(path)
            games.close()
        except OSError as exc:
            problems.append(FileProblem(shown_name(path), f"not read: {exc.strerror or exc}"))
    return found


def read_file(source: PdnSource) -> ReadResult:
    """All games and syntax errors of one file (convenience over :func:`read_games`)."""
    result = ReadResult()
    for game in read_games(source):
        result.games.append(game)
        if game.syntax_error is not None:
            result.errors.append(game.syntax_error)
    return result


def read_string(text: str, file: str = "<string>", line: int = 1, index: int = 0) -> list[Game]:
    r"""The games of PDN text; *line* and *index* (0-based) are where its first game stands in
    *file* (a stored game's text read again: its errors at their lines in the file).

    >>> [game] = read_string('[White "Wyllie, J."]\n[Black "Moorhead, W."]\n1. 11-15 24-20 0-1\n')
    >>> game.white, game.black, game.result, game.ply_count()
    ('Wyllie, J.', 'Moorhead, W.', '0-1', 2)
    >>> [move.text for move in game.mainline()]
    ['11-15', '24-20']
    """
    limit = game_size_limit()
    opened = _Opened(file, "bytes", string_lines(text, limit), _nothing, _yes)
    return list(_read(opened, None, False, Span(0, len(text), line, "bytes", index), limit))


def _nothing() -> None:
    """Nothing to close."""


def _yes() -> bool:
    """A string is read to its end."""
    return True
