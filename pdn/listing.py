"""One summary row per game, for listing archives."""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

from pdn.files import pdn_files
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
        data = asdict(self)
        data["error"] = str(self.error) if self.error else None
        return data


def game_row(game: Game) -> GameRow:
    """The summary row of one game."""
    return GameRow(
        file=game.source.file,
        index=game.source.index + 1,
        line=game.source.line,
        white=game.white or "",
        black=game.black or "",
        event=game.event or "",
        date=game.date or "",
        result=game.result or "",
        plies=len(game.mainline()),
        error=game.syntax_error,
    )


def list_games(paths: Iterable[str | Path]) -> Iterator[GameRow]:
    """Rows for every game of every PDN file under *paths*, in file order."""
    for path in pdn_files(paths):
        for game in read_games(path):
            yield game_row(game)
