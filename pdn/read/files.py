"""Finding the PDN files a user names, and naming them back to the user.

A path named that does not exist, and a folder named that holds no PDN file, are the user's
mistakes (:class:`MissingPathError`). Everything else that cannot be read (a locked subfolder, a
file without read permission, a link to nowhere, a pipe inside a folder) is one
:class:`FileProblem` each, and the other files are read. ``-`` is standard input; it and a pipe
named on the command line (``<(zcat games.pdn.gz)``) can be spooled to a temporary file, for the
commands that read a file more than once.
"""

from __future__ import annotations

import atexit
import os
import shutil
import stat
import sys
import tempfile
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO
from urllib.parse import quote, unquote

STDIN = "-"
STDIN_NAME = "<stdin>"  # stdin, spooled or not, as messages and reports name it
_SPOOL = "pdn-spool-"


class MissingPathError(FileNotFoundError):
    """A path given by the user that does not exist, or a folder without any PDN file."""


class NoPdnFilesError(MissingPathError):
    """A folder given by the user that holds no PDN file."""


@dataclass(frozen=True, slots=True)
class FileProblem:
    """A file or folder that could not be read (the others are read)."""

    path: str  # as shown to the user (see shown_name)
    message: str

    def __str__(self) -> str:
        return f"{self.path}: {self.message}"


def shown_name(path: str | os.PathLike[str]) -> str:
    """A file's name as the user knows it: the path as given, a spooled stream under its own
    name (``<stdin>``), bytes of the name that are not UTF-8 written as ``\\xNN``."""
    text = os.fspath(path)
    if text == STDIN:
        return STDIN_NAME
    folder, name = os.path.split(text)
    if os.path.basename(folder).startswith(_SPOOL):
        return unquote(name)
    return text.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")


def _reason(exc: OSError) -> str:
    return exc.strerror or str(exc)


def pdn_files(
    paths: Iterable[str | os.PathLike[str]],
    problems: list[FileProblem] | None = None,
    *,
    spool: bool = True,
) -> list[Path]:
    """Each file named, and every ``*.pdn`` below each folder named (sorted, recursive).

    Raises :class:`MissingPathError` for a path that does not exist and
    :class:`NoPdnFilesError` for a folder without PDN files, before anything is read. What
    cannot be read below a folder is added to *problems* (and skipped; raised as
    :class:`PermissionError` when *problems* is None). ``-`` and pipes named are spooled to
    temporary files when *spool* is set, else given as they are (to be read once).
    """
    named = [Path(p) for p in paths]
    for path in named:
        if str(path) != STDIN and not os.path.exists(path):
            raise MissingPathError(f"{shown_name(path)}: no such file or folder")
    found: list[Path] = []
    for path in named:
        if str(path) == STDIN:
            found.append(_spool(sys.stdin.buffer, STDIN_NAME) if spool else path)
        elif path.is_dir():
            below: list[Path] = []
            trouble: list[FileProblem] = []
            _walk(path, below, trouble)
            if not below and not trouble:
                raise NoPdnFilesError(f"{shown_name(path)}: no PDN files (*.pdn) in this folder")
            if trouble and problems is None:
                raise PermissionError(str(trouble[0]))
            found.extend(sorted(below))
            if problems is not None:
                problems.extend(trouble)
        elif spool and not path.is_file():  # a pipe or a device named on the command line
            with path.open("rb") as fh:
                found.append(_spool(fh, shown_name(path)))
        else:
            found.append(path)
    return found


def _walk(top: Path, found: list[Path], problems: list[FileProblem]) -> None:
    """The PDN files below *top*, without recursion (symbolic links to folders not followed)."""
    folders = [str(top)]
    while folders:
        folder = folders.pop()
        try:
            with os.scandir(folder) as entries:
                listed = list(entries)
        except OSError as exc:
            problems.append(FileProblem(shown_name(folder), f"folder not read: {_reason(exc)}"))
            continue
        for entry in listed:
            try:
                if entry.is_dir(follow_symlinks=False):
                    folders.append(entry.path)
                    continue
                if not entry.name.lower().endswith(".pdn"):
                    continue
                mode = os.stat(entry.path).st_mode
            except OSError as exc:
                problems.append(FileProblem(shown_name(entry.path), f"not read: {_reason(exc)}"))
                continue
            if stat.S_ISDIR(mode):  # a link to a folder
                continue
            if not stat.S_ISREG(mode):
                problems.append(FileProblem(shown_name(entry.path), "not read: not a regular file"))
            elif not os.access(entry.path, os.R_OK):
                problems.append(FileProblem(shown_name(entry.path), "not read: permission denied"))
            else:
                found.append(Path(entry.path))


def _spool(stream: BinaryIO, name: str) -> Path:
    """A temporary copy of a stream, read by its own name (see shown_name); removed at exit."""
    folder = tempfile.mkdtemp(prefix=_SPOOL)
    atexit.register(shutil.rmtree, folder, True)
    path = Path(folder) / quote(name, safe="")
    with path.open("wb") as out:
        shutil.copyfileobj(stream, out, 1 << 20)
    return path
