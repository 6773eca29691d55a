"""A benchmark archive of N distinct games (default a million), made deterministically from the
corpus: every valid game of the English and International files that starts from its variant's
start position is read and replayed once, and game i of the archive is pool game i mod P (P the
pool's size), copy k = i div P, under headers of its own (Event, Round and Date made from i, the
players and result of the original) and with its last k mod 4 plies left off (a prefix of a
legal game is legal, so every game replays). The games are distinct records (their headers);
their moves repeat: at a million, a pool game's 40 copies have 4 move sequences.

Usage: python benchmarks/million.py [OUT] [--games N]   (OUT default benchmarks/out/million.pdn)

Prints the archive's size, its games and the seconds it took.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from _env import CORPUS, HERE
from pdn.archive.pipeline import replay_paths
from pdn.game import Game
from pdn.mainline import main_line
from pdn.replay import Replay
from pdn.rules.position import Position
from pdn.writer import escape

GAMES = 1_000_000
SOURCES = ("english", "international")  # corpus folders the pool is drawn from
SHORTENED = 4  # copy k leaves off its last k mod SHORTENED plies


@dataclass(frozen=True, slots=True)
class Pooled:
    """A corpus game as the archive copies it: its players, result, variant and moves."""

    white: str
    black: str
    result: str
    gametype: int
    moves: tuple[str, ...]


def _pooled(game: Game, replay: Replay | None) -> Pooled | None:
    """The game as pooled, or None: invalid, set up, without moves."""
    if replay is None or replay.errors or game.fen or not replay.positions:
        return None
    start = replay.positions[0]
    if start != Position.start(start.variant):
        return None
    moves = main_line(replay)
    if len(moves) < SHORTENED:
        return None
    return Pooled(
        game.white or "?",
        game.black or "?",
        game.result or "*",
        replay.variant.gametype,
        tuple(moves),
    )


def pool() -> list[Pooled]:
    """The pool's games, in file order of the sorted corpus folders."""
    paths = sorted(p for folder in SOURCES for p in (CORPUS / folder).glob("*.pdn"))
    return [p for p in replay_paths(paths, _pooled) if p is not None]


def text(i: int, game: Pooled, copy: int) -> str:
    """Game *i* of the archive (copy *copy* of *game*) as PDN text."""
    moves = game.moves[: len(game.moves) - copy % SHORTENED]
    year, day = 1900 + i % 125, i // 125
    date = f"{year}.{1 + day % 12:02d}.{1 + day // 12 % 28:02d}"
    numbered = []
    for n, move in enumerate(moves):
        numbered.append(f"{n // 2 + 1}. {move}" if n % 2 == 0 else move)
    lines = [
        f'[Event "Benchmark {i // 1000}"]',
        f'[Date "{date}"]',
        f'[Round "{i}"]',
        f'[White "{escape(game.white)}"]',
        f'[Black "{escape(game.black)}"]',
        f'[Result "{escape(game.result)}"]',
        f'[GameType "{game.gametype}"]',
        "",
    ]
    body: list[str] = []
    width = 0
    for token in [*numbered, game.result]:
        if width + len(token) > 78:
            lines.append(" ".join(body))
            body, width = [], 0
        body.append(token)
        width += len(token) + 1
    lines.append(" ".join(body))
    return "\n".join(lines) + "\n\n"


def archive(games: int, pooled: list[Pooled]) -> Iterator[str]:
    """The texts of the archive's *games* games."""
    for i in range(games):
        copy, k = divmod(i, len(pooled))
        yield text(i, pooled[k], copy)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", nargs="?", type=Path, default=HERE / "out" / "million.pdn")
    parser.add_argument("--games", type=int, default=GAMES)
    args = parser.parse_args()
    start = time.perf_counter()
    pooled = pool()
    read = time.perf_counter() - start
    args.out.parent.mkdir(parents=True, exist_ok=True)
    with args.out.open("w", encoding="utf-8", newline="\n") as out:
        for chunk in archive(args.games, pooled):
            out.write(chunk)
    seconds = time.perf_counter() - start
    size = args.out.stat().st_size
    print(
        f"{args.out}: {args.games:,} games from a pool of {len(pooled):,}, {size:,} bytes "
        f"({size / 2**20:.1f} MiB), {seconds:.1f} s ({read:.1f} s reading the pool)"
    )


if __name__ == "__main__":
    main()
