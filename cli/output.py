"""Everything the commands print or write: values made visible, tables that never cut a value,
output files written whole or not at all, and checks of the paths a user gives.

Every value read from a file or a database reaches the terminal through :func:`visible`: it is
printed as written (never read as markup), with control characters, bidirectional overrides and
undecodable bytes shown as escapes, so that no escape code or terminal link in a file ever
reaches the terminal.
"""

from __future__ import annotations

import csv
import itertools
import json
import math
import os
import re
import shutil
import stat
import sys
import tempfile
import unicodedata
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from enum import StrEnum
from itertools import islice
from pathlib import Path
from typing import IO, Any, NoReturn, TextIO

from pdn.read.files import STDIN

# C0 and C1 controls, DEL, bidirectional controls, line and paragraph separators, lone surrogates
_OTHERS = "\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069\ud800-\udfff"
_ALL = re.compile(f"[\x00-\x1f{_OTHERS}]")
_BUT_LINES = re.compile(f"[\x00-\x08\x0b-\x1f{_OTHERS}]")  # tab and newline kept
_NAMED = {"\t": "\\t", "\n": "\\n", "\r": "\\r"}


def _escape(match: re.Match[str]) -> str:
    c = match.group()
    code = ord(c)
    if c in _NAMED:
        return _NAMED[c]
    if 0xDC80 <= code <= 0xDCFF:  # a byte that did not decode (surrogateescape): the byte
        return f"\\x{code - 0xDC00:02x}"
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str, lines: bool = False) -> str:
    """*text* as written, with every control character as an escape (``\\x1b``, ``\\n``);
    with *lines*, newlines and tabs are kept."""
    return (_BUT_LINES if lines else _ALL).sub(_escape, text)


class OutputError(Exception):
    """Output that could not be written (full disk, permission): one line, exit code 1."""


def fail(message: str, code: int = 2) -> NoReturn:
    """Print ``pdn: message`` on stderr and exit with *code*."""
    from typer import Exit

    say(f"pdn: {message}", err=True)
    raise Exit(code)


def say(text: str, err: bool = False) -> None:
    """One line of text on stdout (or stderr), control characters made visible."""
    stream = sys.stderr if err else sys.stdout
    stream.write(visible(text) + "\n")
    if err:
        stream.flush()


# -- checking paths ----------------------------------------------------------------------------


def check_inputs(paths: Iterable[Path]) -> None:
    """Each path exists and can be read; else a one-line usage error."""
    for path in paths:
        if is_dash(path):
            continue
        if not path.exists():
            fail(f"{path}: no such file or folder")
        if not os.access(path, os.R_OK | (os.X_OK if path.is_dir() else 0)):
            fail(f"{path}: cannot be read (permission denied)")


def unreadable(exc: OSError) -> str:
    """A file that cannot be read, in one line."""
    return f"{exc.filename}: {exc.strerror}" if exc.filename else str(exc)


def _writable_folder(folder: Path, given: Path) -> None:
    if not folder.exists():
        fail(f"{given}: the folder {folder} does not exist")
    if not folder.is_dir():
        fail(f"{given}: {folder} is not a folder")
    if not os.access(folder, os.W_OK | os.X_OK) or _read_only(folder):
        fail(f"{given}: cannot write in {folder} (read-only)")


def _read_only(path: Path) -> bool:
    try:
        return bool(os.statvfs(path).f_flag & os.ST_RDONLY)
    except OSError:
        return False


def check_output(path: Path) -> None:
    """A file can be written at *path* (its folder exists and is writable, it is not a folder;
    for a symlink, its target's; ``-`` is stdout); else a one-line usage error."""
    if is_dash(path):
        return
    if path.is_dir():
        fail(f"{path}: is a folder; give a file name")
    where = destination(path)
    if not where.stream:
        _writable_folder(where.real.parent, path)
    if where.real.exists() and not os.access(where.real, os.W_OK):
        fail(f"{path}: cannot be written (read-only)")


def check_not_read(output: Path, files: Iterable[Path]) -> None:
    """*output* is none of the *files* read (written whole, then renamed over one of them, it
    would replace what was read); else a one-line usage error."""
    if is_dash(output) or not output.exists():
        return
    for path in files:
        with suppress(OSError):
            if os.path.samefile(output, path):
                fail(f"{output}: is also read; write the output elsewhere")


def check_output_folder(path: Path) -> None:
    """A folder can be made (or filled) at *path*; else a one-line usage error."""
    if path.exists() and not path.is_dir():
        fail(f"{path}: is a file; give a folder")
    _writable_folder(path.parent, path)
    if path.is_dir() and not os.access(path, os.W_OK | os.X_OK):
        fail(f"{path}: cannot write in this folder (read-only)")


# -- writing files whole ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Destination:
    """Where output given as *path* goes: a regular file at *real* (a symlink followed to its
    target), replaced whole once written; or a stream (a device, a FIFO, ``/dev/stdout``),
    written as it comes and never replaced."""

    path: Path
    real: Path
    stream: bool


def destination(path: Path) -> Destination:
    """The one place that decides how an output path is written."""
    try:
        mode: int | None = os.stat(path).st_mode  # a symlink followed
    except OSError:
        mode = None  # not there (a symlink to nothing: its target is made)
    if mode is not None and not stat.S_ISREG(mode):
        return Destination(path, path, True)
    real = Path(os.path.realpath(path))
    if mode is not None and real.parts[1:2] == ("proc",):  # /dev/stdout onto a file: as opened
        return Destination(path, path, True)
    return Destination(path, real, False)


def _failed(path: Path, exc: OSError) -> OutputError:
    return OutputError(f"{path}: {exc.strerror or exc}")


class _Screen:
    """stdout on a terminal: what is written shows control characters as escapes."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible(text, lines=True))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()


class _Guarded:
    """A file being written: a write error becomes an :class:`OutputError` naming *path*."""

    def __init__(self, fh: IO[str], path: Path) -> None:
        self._fh = fh
        self._path = path

    def write(self, text: str) -> int:
        try:
            return self._fh.write(text)
        except OSError as exc:
            raise _failed(self._path, exc) from None

    def flush(self) -> None:
        try:
            self._fh.flush()
        except OSError as exc:
            raise _failed(self._path, exc) from None


def is_dash(path: Path) -> bool:
    """Whether a *path* given is ``-``: stdin among the inputs (pdn.read.files.STDIN), stdout
    as the output."""
    return str(path) == STDIN


def stdout() -> TextIO:
    """Standard output; on a terminal, control characters in what is written are made visible."""
    return _Screen(sys.stdout) if sys.stdout.isatty() else sys.stdout  # type: ignore[return-value]


_BYTES = "surrogateescape"  # text from undecodable bytes (file names) is written as those bytes


def _open_part(folder: Path, name: str, newline: str | None) -> tuple[IO[str], Path]:
    fd, part = tempfile.mkstemp(prefix=f".{name}.", suffix=".part", dir=folder)
    return os.fdopen(fd, "w", encoding="utf-8", errors=_BYTES, newline=newline), Path(part)


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@contextmanager
def written(path: Path | None, newline: str | None = None) -> Iterator[TextIO]:
    """A text file to write to *path* (stdout if None or ``-``), as :func:`destination` says:
    a regular file appears under its name only once it is written whole (written beside it
    under a temporary name, then renamed; on any error the temporary file is removed), a
    stream is written directly. A write error raises :class:`OutputError` naming *path*."""
    if path is None or is_dash(path):
        yield stdout()
        return
    where = destination(path)
    if where.stream:
        try:
            direct = path.open("w", encoding="utf-8", errors=_BYTES, newline=newline)
        except OSError as exc:
            raise _failed(path, exc) from None
        with direct:
            guarded = _Guarded(direct, path)
            yield guarded  # type: ignore[misc]
            guarded.flush()
        return
    try:
        fh, part = _open_part(where.real.parent, where.real.name, newline)
    except OSError as exc:
        raise _failed(path, exc) from None
    try:
        with fh:
            yield _Guarded(fh, path)  # type: ignore[misc]
            try:
                fh.flush()
                os.fsync(fh.fileno())
            except OSError as exc:
                raise _failed(path, exc) from None
        _put(part, where)
    except BaseException:
        with suppress(OSError):
            part.unlink()
        raise


def _put(part: Path, where: Destination) -> None:
    """The file written at *part* in its place: its target's mode kept, renamed over it."""
    try:
        real = where.real
        os.chmod(part, real.stat().st_mode & 0o777 if real.exists() else 0o666 & ~_umask())
        os.replace(part, real)
    except OSError as exc:
        raise _failed(where.path, exc) from None


@contextmanager
def written_path(path: Path) -> Iterator[Path]:
    """A temporary path for a library that writes files by name (Parquet): beside *path* and
    renamed to it once the block ends, or for a stream (see :func:`destination`) copied into it;
    removed on any error. A write error raises :class:`OutputError` naming *path*."""
    where = Destination(path, path, True) if is_dash(path) else destination(path)
    folder = None if where.stream else where.real.parent
    try:
        fd, name = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".part", dir=folder)
    except OSError as exc:
        raise _failed(path, exc) from None
    os.close(fd)
    part = Path(name)
    try:
        try:
            yield part
        except OSError as exc:
            raise _failed(path, exc) from None
        if not where.stream:
            _put(part, where)
            return
        try:
            with part.open("rb") as source:
                if is_dash(path):
                    sys.stdout.flush()
                    shutil.copyfileobj(source, sys.stdout.buffer)
                    sys.stdout.buffer.flush()
                else:
                    with path.open("wb") as sink:
                        shutil.copyfileobj(source, sink)
        except OSError as exc:
            raise _failed(path, exc) from None
    finally:
        with suppress(OSError):
            part.unlink()


@contextmanager
def written_folder(path: Path, owns: re.Pattern[str]) -> Iterator[Path]:
    """A folder to fill, that appears at *path* only once it is filled whole: filled beside it
    under a temporary name, then renamed. An existing folder at *path* is replaced if it holds
    nothing but files whose names match *owns* (an earlier output of the same command);
    write into it with :func:`write_file`."""
    if path.is_dir() and any(not owns.fullmatch(p.name) for p in path.iterdir()):
        fail(f"{path}: the folder holds other files; give a new or empty folder")
    try:
        part = Path(tempfile.mkdtemp(prefix=f".{path.name}.", suffix=".part", dir=path.parent))
    except OSError as exc:
        raise _failed(path, exc) from None
    try:
        yield part
        try:
            os.chmod(part, 0o777 & ~_umask())
            if path.is_dir():
                shutil.rmtree(path)
            os.replace(part, path)
        except OSError as exc:
            raise _failed(path, exc) from None
    except BaseException:
        shutil.rmtree(part, ignore_errors=True)
        raise


def write_file(path: Path, text: str) -> None:
    """Write *text* to *path*; a write error raises :class:`OutputError`."""
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        raise _failed(path, exc) from None


# -- tables -------------------------------------------------------------------------------------


class Format(StrEnum):
    """How rows are written: an aligned table, tab-separated values, CSV, or JSON Lines."""

    TABLE = "table"
    TSV = "tsv"
    CSV = "csv"
    JSON = "json"


SAMPLE_ROWS = 100  # rows read before a streamed table's column widths are decided
GAP = "  "


def cell_width(text: str) -> int:
    """Terminal columns taken by *text* (wide East Asian characters take two, marks none)."""
    return sum(
        0 if unicodedata.combining(c) else 2 if unicodedata.east_asian_width(c) in "WF" else 1
        for c in text
    )


def _pieces(text: str, width: int) -> Iterator[str]:
    """*text* cut into pieces of at most *width* columns (a character at a time)."""
    piece, used = "", 0
    for c in text:
        w = cell_width(c)
        if used + w > width and piece:
            yield piece
            piece, used = "", 0
        piece += c
        used += w
    if piece:
        yield piece


def wrap(text: str, width: int, breaks: str = " ") -> list[str]:
    """*text* over lines of at most *width* columns: broken after any of *breaks* (spaces; a
    column name also after ``_``), long words cut; every character kept."""
    if cell_width(text) <= width:
        return [text]
    lines: list[str] = []
    line = ""
    for word in _words(text, breaks):  # words keep their trailing break
        candidate = line + word
        if cell_width(candidate.rstrip(" ")) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = ""
        for piece in _pieces(word, width):
            if line:
                lines.append(line)
            line = piece
    if line or not lines:
        lines.append(line)
    fitted: list[str] = []
    for x in lines:  # spaces at a break go; a line of spaces only is cut like a word
        fitted.extend([x.rstrip(" ")] if x.strip(" ") else list(_pieces(x, width)) or [""])
    return fitted


def _words(text: str, breaks: str = " ") -> list[str]:
    """*text* cut after each of *breaks*."""
    return re.split(f"(?<=[{re.escape(breaks)}])", text)


HEAD_BREAKS = " _"  # a column name wraps at its words: white_ / score


def cell(value: object) -> str:
    """A value as table text: nothing for None and NaN, else as written, made visible."""
    if value is None or (isinstance(value, float) and math.isnan(value)):
        return ""
    if type(value).__name__ in ("NAType", "NaTType"):  # pandas' missing values
        return ""
    return visible(str(value))


def _numeric(texts: Iterable[str]) -> bool:
    seen = False
    for t in texts:
        if not t:
            continue
        if not re.fullmatch(r"-?[\d,]+(\.\d+)?%?", t):
            return False
        seen = True
    return seen


def _fit(natural: list[int], floors: list[list[int]], width: int) -> list[int]:
    """Column widths that fit *width* (gaps included): the widest column narrowed first, down
    to each floor in turn (the numbers' names wrapped first, then text at its words, then text
    cut to a few characters, numbers never); if even that is too wide, the terminal wraps the
    lines."""
    widths = list(natural)
    room = width - len(GAP) * (len(widths) - 1)
    for floor in floors:
        while sum(widths) > room:
            wide = [k for k in range(len(widths)) if widths[k] > floor[k]]
            if not wide:
                break
            widths[max(wide, key=lambda k: widths[k])] -= 1
    return widths


WORD_FLOOR = 16  # a column is narrowed below its longest word (up to this long) only if need be
HARD_FLOOR = 4


def table_lines(
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    width: int | None,
    group: int | None = None,
) -> Iterator[str]:
    """An aligned table, line by line: the header, a rule, then the rows. Column widths come
    from the first rows (it streams); with a *width*, long values wrap within their column to
    fit it, else a longer later value widens its line. No value is ever cut. The column
    *group* (the file, say) is shown as a heading line above its rows whenever it changes.
    Where fitting the *width* would cut the words of more than one column, each row is shown
    as a record instead: a line a column, its name then its value (as psql's expanded display),
    where the table squeezed every value to a few characters a line."""
    keep = [i for i in range(len(columns)) if i != group]
    it = iter(rows)
    sample = [[cell(v) for v in row] for row in islice(it, SAMPLE_ROWS)]
    heads = [visible(columns[i]) for i in keep]
    texts = [[r[i] for i in keep] for r in sample]
    natural = [
        max([cell_width(h)] + [cell_width(t[k]) for t in texts]) for k, h in enumerate(heads)
    ]
    right = [_numeric(t[k] for t in texts) for k in range(len(heads))]
    widths = natural
    fit = width is not None
    if width is not None:
        words = [
            max(
                [cell_width(w) for t in texts for w in t[k].split()]
                + [cell_width(w.rstrip(" ")) for w in _words(heads[k], HEAD_BREAKS)]
            )
            for k in range(len(heads))
        ]
        soft = [min(n, w, WORD_FLOOR) for n, w in zip(natural, words, strict=True)]
        hard = [
            f if r else min(n, HARD_FLOOR) for f, n, r in zip(soft, natural, right, strict=True)
        ]
        numbers_first = [f if r else n for f, n, r in zip(soft, natural, right, strict=True)]
        widths = _fit(natural, [numbers_first, soft, hard], width)
        if sum(w < f for w, f in zip(widths, soft, strict=True)) > 1:  # words cut in two columns
            yield from _records(heads, itertools.chain(sample, _cells(it)), width, group, keep)
            return
    yield from _row_lines(heads, widths, [False] * len(heads), fit, HEAD_BREAKS)
    yield GAP.join("─" * w for w in widths).rstrip()
    for heading, row in _grouped(itertools.chain(sample, _cells(it)), group):
        if heading is not None:
            yield from wrap(heading, width) if width is not None else [heading]
        yield from _row_lines([row[i] for i in keep], widths, right, fit)


def _cells(rows: Iterable[Sequence[object]]) -> Iterator[list[str]]:
    """Each row's values as the table shows them (see :func:`cell`)."""
    return ([cell(v) for v in row] for row in rows)


def _grouped(
    rows: Iterable[list[str]], group: int | None
) -> Iterator[tuple[str | None, list[str]]]:
    """Each row with the heading to show above it: the *group* column's value where it changes
    (None: no heading, or the same as the row before's)."""
    shown: str | None = None
    for row in rows:
        value = None if group is None else row[group]
        yield (value if value != shown else None), row
        shown = value


def _records(
    heads: list[str], rows: Iterable[list[str]], width: int, group: int | None, keep: list[int]
) -> Iterator[str]:
    """Each row as a record (see :func:`table_lines`): the *group* column's value as a heading
    whenever it changes, then a line a column kept, its name padded, then its value wrapped in
    what the names leave of *width*; a blank line between records."""
    names = max(map(cell_width, heads))
    room = max(width - names - len(GAP), HARD_FLOOR)
    indent = " " * (names + len(GAP))
    for n, (heading, row) in enumerate(_grouped(rows, group)):
        if n:
            yield ""
        if heading is not None:
            yield from wrap(heading, width)
        for head, k in zip(heads, keep, strict=True):
            lines = wrap(row[k], room) or [""]
            yield (head + " " * (names - cell_width(head)) + GAP + lines[0]).rstrip()
            yield from (indent + line for line in lines[1:])


def _row_lines(
    texts: list[str], widths: list[int], right: list[bool], fit: bool, breaks: str = " "
) -> Iterator[str]:
    cells = [wrap(t, w, breaks) if fit else [t] for t, w in zip(texts, widths, strict=True)]
    for k in range(max(len(c) for c in cells)):
        parts = []
        for c, w, r in zip(cells, widths, right, strict=True):
            text = c[k] if k < len(c) else ""
            pad = " " * max(0, w - cell_width(text))
            parts.append(pad + text if r else text + pad)
        yield GAP.join(parts).rstrip()


def tsv_field(value: object) -> str:
    """A value as one TSV field: backslashes doubled, tabs, newlines and every other control
    character written as escapes (``\\t``, ``\\n``, ``\\x1b``), so the value comes back whole."""
    return cell(value.replace("\\", "\\\\") if isinstance(value, str) else value)


_JSON_UNSAFE = re.compile(f"[{_OTHERS}]")


def _json_value(value: Any) -> Any:
    if hasattr(value, "item"):  # numpy scalars
        return value.item()
    if type(value).__name__ in ("NAType", "NaTType"):
        return None
    return str(value)


def json_line(data: Any) -> str:
    """*data* as one line of JSON: non-ASCII text as itself, but every control character (DEL
    and C1 included), bidirectional override and lone surrogate (a byte of a file name that did
    not decode) escaped, so the line is safe on a terminal and always encodes."""
    text = json.dumps(data, ensure_ascii=False, default=_json_value)
    return _JSON_UNSAFE.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


JSON_SAFE_INT = 2**53 - 1  # larger integers lose digits in JavaScript (RFC 8259 §6, I-JSON)


def _record(columns: Sequence[str], row: Sequence[object]) -> dict[str, object]:
    """A row as a JSON object: NaN as null, an integer too large for a double (a 63-bit game
    id, a position digest) as a string of its digits."""
    return {c: _json_field(v) for c, v in zip(columns, row, strict=True)}


def _json_field(value: object) -> object:
    if isinstance(value, float) and math.isnan(value):
        return None
    number = value.item() if hasattr(value, "item") and hasattr(value, "dtype") else value
    if isinstance(number, int) and not isinstance(number, bool) and abs(number) > JSON_SAFE_INT:
        return str(number)
    return value


def print_table(
    columns: Sequence[str],
    rows: Iterable[Sequence[object]],
    fmt: Format | None = None,
    output: Path | None = None,
    title: str | None = None,
    group: int | None = None,
) -> int:
    """Write *rows* under *columns*, one at a time as they come, and return how many.

    Without *fmt*: an aligned table on a terminal (fitted to its width by wrapping long values,
    or its rows shown as records: see :func:`table_lines`),
    else tab-separated values. ``table`` in a file or pipe is aligned without a width limit; TSV
    has a header line and escapes (see :func:`tsv_field`); CSV a header line; JSON one object
    per line. No value is ever cut. *title* is shown above a table on a terminal; in a table,
    the column *group* is shown as a heading above its rows (see :func:`table_lines`).
    """
    terminal = output is None and sys.stdout.isatty()
    if fmt is None:
        fmt = Format.TABLE if terminal else Format.TSV
    count = 0
    with written(output, newline="" if fmt is Format.CSV else None) as sink:
        if fmt is Format.TABLE:
            width = shutil.get_terminal_size().columns if terminal else None
            if title and terminal:
                sink.write(visible(title) + "\n")
            counted = _Counted(rows)
            for line in table_lines(columns, counted, width, group):
                sink.write(line + "\n")
            count = counted.count
        elif fmt is Format.TSV:
            sink.write("\t".join(tsv_field(c) for c in columns) + "\n")
            for row in rows:
                sink.write("\t".join(tsv_field(v) for v in row) + "\n")
                count += 1
        elif fmt is Format.CSV:
            writer = csv.writer(sink, lineterminator="\n")
            writer.writerow(columns)
            for row in rows:
                writer.writerow(["" if cell(v) == "" else v for v in row])
                count += 1
        else:
            for row in rows:
                sink.write(json_line(_record(columns, row)) + "\n")
                count += 1
    return count


class _Counted:
    """Rows passed through, counted."""

    def __init__(self, rows: Iterable[Sequence[object]]) -> None:
        self.rows = rows
        self.count = 0

    def __iter__(self) -> Iterator[Sequence[object]]:
        for row in self.rows:
            self.count += 1
            yield row
