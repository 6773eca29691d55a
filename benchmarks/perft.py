"""Move generation speed: perft nodes per second per variant, next to py-draughts.

py-draughts (PyPI ``py-draughts``, imported as ``draughts``) runs in its own venv on the same start
positions and depths: through its public Board API (legal_moves, push, pop) for every variant it
has, and through its hand-specialised International engine (``engines.turbo.perft``) as well.

Usage: python benchmarks/perft.py
"""

from __future__ import annotations

from _env import other_library, timed
from pdn.position import Position, perft
from pdn.variants import get_variant

# (our variant, py-draughts board class, depth)
CASES = [
    ("international", "StandardBoard", 6),
    ("english", "AmericanBoard", 7),
    ("russian", "RussianBoard", 7),
    ("brazilian", "BrazilianBoard", 7),
    ("frisian", "FrisianBoard", 5),
    ("italian", None, 7),
    ("czech", None, 7),
    ("turkish", None, 5),
]

THEIRS = """
import json, sys, time
import draughts
from draughts.engines.turbo import perft_from_board

def perft(board, depth):
    if depth == 0:
        return 1
    moves = list(board.legal_moves)
    if depth == 1:
        return len(moves)
    total = 0
    for m in moves:
        board.push(m)
        total += perft(board, depth - 1)
        board.pop()
    return total

out = {}
for cls, depth in CASES:
    board = getattr(draughts, cls)()
    t = time.perf_counter()
    out[cls] = [perft(board, depth), time.perf_counter() - t]
board = draughts.StandardBoard()
t = time.perf_counter()
out["turbo"] = [perft_from_board(board, CASES[0][1]), time.perf_counter() - t]
print(json.dumps(out))
"""


def main() -> None:
    ours = {}
    for name, _, depth in CASES:
        seconds, nodes = timed(lambda n=name, d=depth: perft(Position.start(get_variant(n)), d))
        ours[name] = (nodes, seconds)
    cases = [(cls, depth) for _, cls, depth in CASES if cls]
    theirs = other_library("py-draughts", f"CASES = {cases!r}\n" + THEIRS) or {}
    print(f"{'variant':14s} {'depth':>5s} {'nodes':>10s} {'pdn nodes/s':>12s}  py-draughts")
    for name, cls, depth in CASES:
        nodes, seconds = ours[name]
        line = f"{name:14s} {depth:5d} {nodes:10d} {nodes / seconds:12,.0f}"
        if cls and cls in theirs:
            their_nodes, their_s = theirs[cls]
            agree = "same count" if their_nodes == nodes else f"counts {their_nodes}!"
            ratio = (nodes / seconds) / (their_nodes / their_s)
            line += f"  {their_nodes / their_s:12,.0f} nodes/s ({agree}); pdn {ratio:.1f}x"
        print(line)
    if "turbo" in theirs:
        nodes, seconds = ours["international"]
        their_nodes, their_s = theirs["turbo"]
        ratio = (nodes / seconds) / (their_nodes / their_s)
        print(
            f"py-draughts turbo engine, international depth {CASES[0][2]}: "
            f"{their_nodes / their_s:,.0f} nodes/s; pdn {ratio:.2f}x"
        )


if __name__ == "__main__":
    main()
