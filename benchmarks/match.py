"""A match of the built-in engine against dame-rs's Hub engine (``dame hub``, PyPI ``dame-rs``)
at a fixed time a move, from balanced openings, each played with both colours.

The openings: the first distinct positions after OPENING_PLIES plies of the games of
international/migo-wk2003.pdn (openings masters played). Each game runs under the official
rules (FMJD: the 25-move rule, threefold repetition, and the 16- and 5-move endgame rules, as
pdn.rules.draw and dame-rs both apply them) until it ends or reaches MAX_PLIES (then drawn).
Where dame-rs gives no move or a stale one with at most ENDGAME_PIECES pieces left (its own
endgame draw reached first), the game counts as drawn; any other failure of the Hub engine
leaves the game out of the count. A win scores 1, a draw 0.5.

Usage: python benchmarks/match.py [GAMES] [SECONDS_A_MOVE] [COMMAND]
       (defaults: 100 games, 0.1 s, "dame hub"; COMMAND must speak Hub)
"""

from __future__ import annotations

import shutil
import sys
import time
from pathlib import Path

from _env import HERE, corpus_file
from pdn.board import Board
from pdn.engine.builtin import BuiltinEngine
from pdn.engine.hub import HubEngine
from pdn.engine.types import Engine, EngineError, Limit
from pdn.read.reader import read_file
from pdn.replay import replay_game
from pdn.rules.geometry import Color
from pdn.rules.variants import get_variant

OPENING_PLIES = 6
MAX_PLIES = 300
ENDGAME_PIECES = 4  # where dame-rs's endgame draw rules may end a game


def openings(count: int) -> list[Board]:
    """*count* boards after the opening plies of distinct master games."""
    variant = get_variant("international")
    seen: set[object] = set()
    boards: list[Board] = []
    for game in read_file(corpus_file("international/migo-wk2003.pdn")).games:
        replay = replay_game(game, variant)
        if not replay.valid or len(replay.moves) < OPENING_PLIES:
            continue
        board = Board(variant, rules="official")
        for move in replay.moves[:OPENING_PLIES]:
            board.push(move)
        if board.position.hash_key() not in seen:
            seen.add(board.position.hash_key())
            boards.append(board)
        if len(boards) == count:
            break
    return boards


def play(start: Board, white: Engine, black: Engine, limit: Limit) -> float | None:
    """White's score in one game from *start*: 1, 0.5 or 0; None when an engine failed."""
    board = start.copy()
    while board.outcome() is None and board.ply < MAX_PLIES:
        engine = white if board.turn is Color.WHITE else black
        try:
            move = engine.play(board, limit)
        except EngineError as exc:
            if board.position.occupied.bit_count() <= ENDGAME_PIECES:  # dame-rs's draw rules
                print(f"  drawn by adjudication at ply {board.ply}: {exc}")
                return 0.5
            print(f"  not counted: at ply {board.ply} of {board.fen()}: {exc}")
            return None
        board.push(move)
    ending = board.outcome()
    if ending is None or ending.winner is None:
        return 0.5
    return 1.0 if ending.winner is Color.WHITE else 0.0


def dame_command(command: str) -> str:
    """``dame hub`` from dame-rs's venv beside the benchmarks (see _env.py) when not on PATH."""
    if command != "dame hub" or shutil.which("dame"):
        return command
    local = Path(HERE) / ".venv-dame-rs" / "bin" / "dame"
    return f"{local} hub" if local.exists() else command


def main() -> None:
    games = int(sys.argv[1]) if len(sys.argv) > 1 else 100
    seconds = float(sys.argv[2]) if len(sys.argv) > 2 else 0.1
    command = dame_command(sys.argv[3] if len(sys.argv) > 3 else "dame hub")
    limit = Limit(time=seconds)
    starts = openings((games + 1) // 2)
    points = 0.0
    wins = draws = losses = failed = 0
    began = time.monotonic()
    print(f"{len(starts) * 2} games, {seconds} s a move, builtin vs {command} (machine shared)")
    for i, start in enumerate(starts):
        for as_white in (True, False):
            # both engines new each game: neither keeps a table from the game before
            with BuiltinEngine() as ours, HubEngine(command, "international") as theirs:
                white, black = (ours, theirs) if as_white else (theirs, ours)
                result = play(start, white, black, limit)
            if result is None:
                failed += 1
                continue
            score = result if as_white else 1.0 - result
            points += score
            wins += score == 1.0
            draws += score == 0.5
            losses += score == 0.0
            side = "white" if as_white else "black"
            print(f"opening {i + 1:3d} builtin {side}: {score}", flush=True)
    played = wins + draws + losses
    print(
        f"builtin: {points} / {played} = {100 * points / max(played, 1):.1f}% "
        f"(+{wins} ={draws} -{losses}; {failed} not counted) in {time.monotonic() - began:.0f} s"
    )


if __name__ == "__main__":
    main()
