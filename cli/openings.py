"""The opening names a command is given (--openings) besides the shipped ones."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from pdn.archive.openings import OpeningNames, OpeningsError, opening_names
from pdn.cli.common import fail
from pdn.cli.output import unreadable

OpeningsOpt = Annotated[
    list[Path] | None,
    typer.Option(
        "--openings",
        help="A CSV of opening names (variant,moves,name), before the shipped English "
        "names and three-move ballots; may be given more than once.",
    ),
]


def load_openings(files: list[Path] | None) -> OpeningNames:
    """The shipped opening names with the user's files, or a one-line usage error."""
    try:
        return opening_names(files or [])
    except OSError as exc:
        fail(unreadable(exc))
    except OpeningsError as exc:
        fail(str(exc))
