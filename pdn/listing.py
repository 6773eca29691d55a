"""One summary row per game, for listing archives; one problem row per file that gives none."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Any

from pdn.files import FileProblem, pdn_files, shown_name
from pdn.game import Game, PdnSyntaxError
from pdn.reader import read_games


@dataclass(frozen=True, slots=True)
class GameRow:
    """What `pdn list` shows of a game."""

    file: str
    index: int  # 1-based, as users count
    line: int
    white: str
    black: str
    event: str
    date: str
    result: str
    plies: int
    error: PdnSyntaxError | None = None

    def as_dict(self) -> dict[str, Any]:
        """The row as JSON-ready values (the error as its message)."""
        return {
            "file": self.file,
            "index": self.index,
            "line": self.line,
            "white": self.white,
            "black": self.black,
            "event": self.event,
            "date": self.date,
            "result": self.result,
            "plies": self.plies,
            "error": str(self.error) if self.error else None,
        }


def game_row(game: Game) -> GameRow:
    """The summary row of one game (its main line counted, not built)."""
    tags = game.tags
    return GameRow(
        file=game.source.file,
        index=game.source.index + 1,
        line=game.source.line,
        white=tags.get("White") or "",
        black=tags.get("Black") or "",
        event=tags.get("Event") or "",
        date=tags.get("Date") or "",
        result=game.result or "",
        plies=game.ply_count(),
        error=game.syntax_error,
    )


def list_games(
    paths: Iterable[str | os.PathLike[str]], max_game_bytes: int | None = None
) -> Iterator[GameRow | FileProblem]:
    """Rows for every game of every PDN file under *paths*, in file order, and a
    :class:`FileProblem` for each file that could not be read or holds no game.

    Raises :class:`pdn.files.MissingPathError` (a usage error) before anything is read.
    """
    problems: list[FileProblem] = []
    files = pdn_files(paths, problems, spool=False)
    yield from problems
    for path in files:
        games = 0
        try:
            for game in read_games(path, headers_only=True, max_game_bytes=max_game_bytes):
                games += 1
                yield game_row(game)
        except OSError as exc:
            yield FileProblem(shown_name(path), f"not read: {exc.strerror or exc}")
            continue
        if not games:
            yield FileProblem(shown_name(path), "no games found")
