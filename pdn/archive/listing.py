"""One summary row per game, for listing archives."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any

from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, replay_paths
from pdn.game import Game, PdnSyntaxError

if TYPE_CHECKING:
    from pdn.replay import Replay


@dataclass(frozen=True, slots=True)
class ListedGame:
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


def game_row(game: Game) -> ListedGame:
    """The summary row of one game (its main line counted, not built)."""
    tags = game.tags
    return ListedGame(
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
    paths: Iterable[str | Path],
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
) -> Iterator[ListedGame]:
    """Rows for every game of every PDN file under *paths*, in file order (headers read, the
    main line counted, nothing replayed), the same whatever runs it; files that cannot be read
    or hold no game go to *on_problem* (see :mod:`pdn.archive.pipeline`)."""
    options = Options(replay=False)
    yield from replay_paths(paths, _row, options, workers, progress, on_problem, renumber_row)


def renumber_row(row: ListedGame, by: int) -> ListedGame:
    """The row as it is for the game *by* places on in its file."""
    error = None if row.error is None else replace(row.error, game=row.error.game + by)
    return replace(row, index=row.index + by, error=error)


def _row(game: Game, _replay: Replay | None) -> ListedGame:
    return game_row(game)
