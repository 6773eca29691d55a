"""Move generation speed: perft nodes per second per variant and core, next to dame-rs and
py-draughts.

A node is a leaf of the move tree: perft(d) / seconds, as dame-rs counts. Each pdn core runs
from the start position at its own depth (the C kernel deeper, so that it runs long enough to
time). dame-rs (PyPI ``dame-rs``, imported as ``dame``, International only) runs at the C
kernel's depth, py-draughts (PyPI ``py-draughts``, imported as ``draughts``) through its public
Board API (legal_moves, push, pop) at the Python core's depth, and its hand-specialised
International engine (``engines.turbo``); each in its own venv (see _env.py), in the same run.

Usage: python benchmarks/perft.py
"""

from __future__ import annotations

from _env import other_library, timed
from pdn.rules.position import CORES, Position, perft, use_core
from pdn.rules.variants import get_variant

# (our variant, py-draughts board class, depth for the Python core, depth for the C kernel)
CASES = [
    ("international", "StandardBoard", 6, 8),
    ("english", "AmericanBoard", 7, 10),
    ("russian", "RussianBoard", 7, 10),
    ("brazilian", "BrazilianBoard", 7, 10),
    ("frisian", "FrisianBoard", 5, 7),
    ("italian", None, 7, 10),
    ("czech", None, 7, 10),
    ("turkish", None, 5, 7),
    ("canadian", None, 5, 7),
]

PY_DRAUGHTS = """
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

DAME = """
import json, time
import dame
out = {}
for depth in DEPTHS:
    t = time.perf_counter()
    out[str(depth)] = [dame.perft(dame.Board(), depth), time.perf_counter() - t]
print(json.dumps(out))
"""


def rate(nodes: int, seconds: float) -> float:
    return nodes / seconds if seconds else 0.0


def main() -> None:
    ours: dict[tuple[str, str], tuple[int, int, float]] = {}  # (variant, core) -> depth, nodes, s
    for name, _, py_depth, c_depth in CASES:
        for core, depth in (("python", py_depth), ("c", c_depth)):
            if core in CORES:
                use_core(core)
                start = Position.start(get_variant(name))
                seconds, nodes = timed(lambda s=start, d=depth: perft(s, d))
                ours[name, core] = (depth, nodes, seconds)
    intl = CASES[0]
    dame = other_library("dame-rs", f"DEPTHS = {sorted({intl[2], intl[3]})!r}\n" + DAME) or {}
    cases = [(cls, py_depth) for _, cls, py_depth, _ in CASES if cls]
    theirs = other_library("py-draughts", f"CASES = {cases!r}\n" + PY_DRAUGHTS) or {}

    print("perft from the start position, leaf nodes per second (one core)")
    head = f"{'variant':13s} {'C kernel':>20s} {'Python core':>18s} {'C/Py':>6s}"
    print(f"{head}  {'py-draughts (Board API)':>26s}")
    for name, cls, _, _ in CASES:
        cells = []
        for core in ("c", "python"):
            if (name, core) in ours:
                depth, nodes, seconds = ours[name, core]
                cells.append(f"d{depth} {rate(nodes, seconds):13,.0f}")
            else:
                cells.append("not built")
        line = f"{name:13s} {cells[0]:>20s} {cells[1]:>18s}"
        if (name, "c") in ours and (name, "python") in ours:
            _, cn, cs = ours[name, "c"]
            _, pn, ps = ours[name, "python"]
            line += f" {rate(cn, cs) / rate(pn, ps):5.0f}x"
        if cls and cls in theirs:
            their_nodes, their_s = theirs[cls]
            _, pn, _ = ours.get((name, "python"), (0, 0, 0.0))
            agree = "" if their_nodes == pn else f" (counts {their_nodes}!)"
            line += f"  {rate(their_nodes, their_s):13,.0f}{agree}"
        print(line)
    if "turbo" in theirs:
        their_nodes, their_s = theirs["turbo"]
        turbo = rate(their_nodes, their_s)
        print(f"py-draughts turbo engine, international d{intl[2]}: {turbo:,.0f}")
    for core, depth in (("c", intl[3]), ("python", intl[2])):
        if str(depth) in dame and ("international", core) in ours:
            dame_nodes, dame_s = dame[str(depth)]
            _, nodes, seconds = ours["international", core]
            same = "same count" if dame_nodes == nodes else f"dame-rs counts {dame_nodes}!"
            ratio = rate(nodes, seconds) / rate(dame_nodes, dame_s)
            print(
                f"dame-rs international d{depth}: {rate(dame_nodes, dame_s):,.0f} ({same}); "
                f"pdn {core} core {ratio:.2f}x dame-rs"
            )


if __name__ == "__main__":
    main()
