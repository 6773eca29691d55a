"""The built-in engine's speed: nodes per second and time to depth 10 on 50 International
positions, next to dame-rs's ``Engine.search`` and py-draughts' engine, and how often the
three choose the same move at equal depth.

The positions: ply 20 of the first 50 games of international/migo-wk2003.pdn that last 30
plies. Each engine searches each position afresh to DEPTH (our C search; dame-rs, PyPI
``dame-rs``, imported as ``dame``, a new Engine with a 64 MB table each time; py-draughts, PyPI
``py-draughts``, imported as ``draughts``, its TurboEngine, to PD_DEPTH), the other libraries in
their own venvs (see _env.py), in one run. A node is what each engine counts as one (not
the same unit: compare times to depth as well as rates). The Python twin runs to PY_DEPTH on
the first PY_POSITIONS positions.

Usage: python benchmarks/engine.py [DEPTH]
"""

from __future__ import annotations

import re
import sys
import time
from typing import Any

from _env import corpus_file, other_library
from pdn.board import Board
from pdn.engine.builtin import BuiltinEngine
from pdn.engine.types import Limit
from pdn.notation import move_text
from pdn.read.reader import read_file
from pdn.replay import replay_game
from pdn.rules.fen import to_fen
from pdn.rules.variants import get_variant

POSITIONS = 50
PLY = 20
PY_DEPTH = 6
PY_POSITIONS = 10
PD_DEPTH = 8  # py-draughts, pure Python: depth 10 on the 50 positions takes over 15 minutes

DAME = """
import json, time
import dame
out = []
for fen in FENS:
    engine = dame.Engine(hash_mb=64)
    t = time.perf_counter()
    r = engine.search(dame.Board(fen), depth=DEPTH)
    out.append([str(r.best_move), r.nodes, time.perf_counter() - t, r.depth])
print(json.dumps(out))
"""

PY_DRAUGHTS = """
import json, time
import draughts
from draughts.engines.turbo import TurboEngine
out = []
for fen in FENS:
    engine = TurboEngine(depth_limit=DEPTH)
    board = draughts.StandardBoard.from_fen(fen)
    t = time.perf_counter()
    move = engine.get_best_move(board)
    out.append([str(move), engine.nodes, time.perf_counter() - t, engine.completed_depth])
print(json.dumps(out))
"""


def positions() -> list[str]:
    """The FENs of the benchmark's positions."""
    variant = get_variant("international")
    fens: list[str] = []
    for game in read_file(corpus_file("international/migo-wk2003.pdn")).games:
        replay = replay_game(game, variant)
        if replay.valid and len(replay.positions) > 30:
            fens.append(to_fen(replay.positions[PLY]))
        if len(fens) == POSITIONS:
            break
    return fens


def ends(text: str) -> tuple[int, int]:
    """A move's first and last square, as any of the three writes it."""
    numbers = [int(n) for n in re.findall(r"\d+", text)]
    return numbers[0], numbers[-1]


def ours(fens: list[str], depth: int, compiled: bool) -> list[tuple[str, int, float, int]]:
    out = []
    for fen in fens:
        engine = BuiltinEngine(compiled=compiled)  # afresh: no table kept from the one before
        board = Board("international", fen)
        start = time.perf_counter()
        info = engine.analyse(board, Limit(depth=depth))[0]
        seconds = time.perf_counter() - start
        out.append((move_text(board.position, info.pv[0]), info.nodes, seconds, info.depth))
    return out


def summary(name: str, rows: list[tuple[str, int, float, int]] | list[list[object]]) -> None:
    nodes = sum(int(r[1]) for r in rows)  # type: ignore[call-overload]
    seconds = sum(float(r[2]) for r in rows)  # type: ignore[arg-type,misc]
    print(
        f"{name:28s} {len(rows):3d} positions {seconds:8.2f} s  {seconds / len(rows):7.3f} s each"
        f"  {nodes / seconds:12,.0f} nodes/s"
    )


def main() -> None:
    depth = int(sys.argv[1]) if len(sys.argv) > 1 else 10
    fens = positions()
    print(f"{len(fens)} International positions (ply {PLY}), depth {depth}; the machine is shared")
    mine = ours(fens, depth, True)
    head = f"FENS = {fens!r}\nDEPTH = {depth}\n"
    dame: Any = other_library("dame-rs", head + DAME) or []
    mine_pd = ours(fens, PD_DEPTH, True)
    pd_head = f"FENS = {fens!r}\nDEPTH = {PD_DEPTH}\n"
    theirs: Any = other_library("py-draughts", pd_head + PY_DRAUGHTS, timeout=3600) or []
    python = ours(fens[:PY_POSITIONS], PY_DEPTH, False)
    python_c = ours(fens[:PY_POSITIONS], PY_DEPTH, True)
    summary(f"pdn builtin, C, d{depth}", mine)
    if dame:
        summary(f"dame-rs Engine.search, d{depth}", dame)
    summary(f"pdn builtin, C, d{PD_DEPTH}", mine_pd)
    if theirs:
        summary(f"py-draughts TurboEngine, d{PD_DEPTH}", theirs)
    summary(f"pdn builtin, Python, d{PY_DEPTH}", python)
    summary(f"pdn builtin, C, d{PY_DEPTH}", python_c)
    same_twin = sum(a[0] == b[0] for a, b in zip(python, python_c, strict=True))
    print(f"C and Python twins, same move at d{PY_DEPTH}: {same_twin}/{len(python)}")
    for name, rows, at, mine_at in (
        ("dame-rs", dame, depth, mine),
        ("py-draughts", theirs, PD_DEPTH, mine_pd),
    ):
        if rows:
            same = sum(ends(str(r[0])) == ends(m[0]) for r, m in zip(rows, mine_at, strict=True))
            print(f"same best move as {name} at d{at}: {same}/{len(rows)}")


if __name__ == "__main__":
    main()
