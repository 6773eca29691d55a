"""Asking a game database from a command: its errors as one line and an exit code, and the
frame it answers printed or written."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pandas as pd
from sqlalchemy import Engine
from sqlalchemy.exc import SQLAlchemyError

from pdn.cli.common import FrameFormat, check_output, fail, print_table, say
from pdn.cli.output import Format, written_path
from pdn.db.connection import shown, trouble
from pdn.db.questions import QuestionError
from pdn.rules.fen import FenError
from pdn.rules.variants import UnknownVariantError


@contextmanager
def asking(db: str, engine: Engine) -> Iterator[None]:
    """Questions to the database: a user's mistake is one line and exit 2; a database error
    one line (saying so when the file is damaged) and exit 1."""
    try:
        yield
    except (QuestionError, UnknownVariantError, FenError) as exc:
        fail(str(exc))
    except (SQLAlchemyError, pd.errors.DatabaseError) as exc:
        fail(f"{shown(db)}: {trouble(exc, engine)}", 1)


def print_frame(
    frame: pd.DataFrame,
    fmt: FrameFormat | None,
    output: Path | None,
    title: str,
    heading: str | None = None,
) -> None:
    """Print a frame as a table (see :func:`print_table`; in an aligned table the column
    *heading*, the file say, stands above its rows, as `pdn list` shows it), or write it as
    Parquet."""
    if output:
        check_output(output)
    if frame.empty:
        say(f"{title}: nothing found", err=True)
    if fmt is FrameFormat.PARQUET:
        if output is None:
            fail("--format parquet needs --output FILE")
        try:
            with written_path(output) as part:
                frame.to_parquet(part, index=False)
        except ImportError:
            fail("--format parquet needs pyarrow: pip install 'pdn-toolkit[parquet]'")
        return
    rows = frame.itertuples(index=False, name=None)
    columns = [str(c) for c in frame.columns]
    group = columns.index(heading) if heading in columns else None
    print_table(columns, rows, Format(fmt) if fmt else None, output, title, group)
