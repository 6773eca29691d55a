"""Finding PDN files under paths given by a user."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from pathlib import Path


class MissingPathError(FileNotFoundError):
    """A path given by the user that does not exist."""


def pdn_files(paths: Iterable[str | Path]) -> Iterator[Path]:
    """Each file named, and every ``*.pdn`` below each folder named (sorted, recursive)."""
    for p in paths:
        path = Path(p)
        if path.is_dir():
            yield from sorted(
                f for f in path.rglob("*") if f.is_file() and f.suffix.lower() == ".pdn"
            )
        elif path.is_file():
            yield path
        else:
            raise MissingPathError(f"{path}: no such file or folder")
