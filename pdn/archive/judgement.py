"""A move's judgement as an analysis writes it into a game (see pdn.engine.analysis): its mark,
and the comment ``[%eval 0.35] [%loss 0.12] Mistake. Best move was 32-28.`` read back, so that
`pdn filter` selects analysed files by what `pdn query` asks of an analysed database.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from enum import Enum

from pdn.replay import Replay
from pdn.rules.geometry import Color


class Mark(Enum):
    """A move's mark: the least fall in winning chances that earns it (lidraughts's
    modules/analyse/src/main/Advice.scala), its NAG, symbol, word and plural."""

    INACCURACY = (0.075, 6, "?!", "Inaccuracy", "inaccuracies")
    MISTAKE = (0.15, 2, "?", "Mistake", "mistakes")
    BLUNDER = (0.3, 4, "??", "Blunder", "blunders")

    def __init__(self, fall: float, nag: int, symbol: str, title: str, plural: str) -> None:
        self.fall = fall
        self.nag = nag
        self.symbol = symbol
        self.title = title
        self.plural = plural


MARKS = (Mark.BLUNDER, Mark.MISTAKE, Mark.INACCURACY)  # the worst first
SIDES = ("white", "black", "any")  # whose marked moves --blunders and --mistakes ask for
_LOSS = re.compile(r"\[%loss\s+(-?\d+(?:\.\d+)?)\]")


def loss_shown(loss: float) -> float:
    """A loss as written and stored: men to two decimals (one number for files and database)."""
    return round(loss, 2)


@dataclass(frozen=True, slots=True)
class Judged:
    """One judged move of the main line: who played it, its loss in men, its mark."""

    ply: int
    side: str  # white or black
    loss: float
    mark: Mark | None


def judged_moves(replay: Replay) -> list[Judged]:
    """The main-line moves of *replay* that carry an analysis comment (``[%loss]``), with the
    mark its words give."""
    found = []
    for i, node in enumerate(replay.nodes[: len(replay.moves)]):
        comment = next((c for c in node.comments_after if _LOSS.search(c)), None)
        if comment is None:
            continue
        match = _LOSS.search(comment)
        assert match is not None
        mark = next((m for m in MARKS if f"{m.title}." in comment), None)
        side = Color(replay.positions[i].turn).name.lower()
        found.append(Judged(i + 1, side, loss_shown(float(match.group(1))), mark))
    return found


def side_checked(side: str | None, option: str) -> str | None:
    """*side* as --blunders and --mistakes take it (white, black or any); ValueError else."""
    if side is None:
        return None
    word = side.strip().lower()
    if word not in SIDES:
        raise ValueError(f"{option} takes white, black or any, not {side!r}")
    return word


def meets(judged: list[Judged], blunders: str | None, mistakes: str | None,
          loss_min: float | None) -> bool:  # fmt: skip
    """Whether the judged moves meet the criteria: a blunder (a mistake) by *blunders*
    (*mistakes*: white, black or any), a move that lost at least *loss_min* men."""
    for mark, side in ((Mark.BLUNDER, blunders), (Mark.MISTAKE, mistakes)):
        if side and not any(j.mark is mark and side in ("any", j.side) for j in judged):
            return False
    return loss_min is None or any(j.loss >= loss_min for j in judged)
