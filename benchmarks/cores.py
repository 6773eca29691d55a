"""Validation speed per move core (C kernel, pure-Python twin), next to py-draughts and dame-rs.

Inputs as in issue 13: OCA_2.0.pdn (22,621 English games) and 3,800 International games
(migo-wk2003.pdn, 190 games, repeated 20 times). Each pdn core runs `validate_file` on one core of
the machine. On the International games, py-draughts' ``StandardBoard.from_pdn`` reads and replays
each game's text, and dame-rs pushes each game's moves as written (it has no PDN reader: its
driver takes the words of the movetext that hold "-" or "x", comments and the result left out,
the least work that finds the moves; each side's plies replayed are printed); both in their own
venvs (see _env.py). The three run in turn, ROUNDS times, each BEST_OF times in a round (the
fastest run kept), and each round's ratios are printed (the machine is shared: compare figures
of one round). Every figure is CPU time of the process
that does the work (steady on a shared machine).

Then what an import asks of each core per game besides the replay (pdn.rules.position.Core.scan and
move_texts: the digests, packed boards and material runs of its positions, its moves as text),
over OCA_2.0.pdn's games replayed once beforehand.

Usage: python benchmarks/cores.py
"""

from __future__ import annotations

import gc
import json
import tempfile
import time
from pathlib import Path

from _env import PY_DRAUGHTS_FROM_PDN, corpus_file, cpu_timed, other_library
from pdn.archive.pipeline import replay_paths
from pdn.archive.validate import validate_file
from pdn.db.search import words
from pdn.game import Game
from pdn.mainline import main_line
from pdn.replay import Replay
from pdn.rules.position import CORES, use_core

REPEAT = 20

ROUNDS = 3
BEST_OF = 3  # runs of each side in a round, the fastest kept: the load swings single runs 1.5x

DAME = r"""
import json, re, time
import dame
texts = json.load(open(PATH, encoding="utf-8"))
COMMENT = re.compile(r"\{[^}]*\}")
RESULTS = {f"{a}-{b}" for a in "012" for b in "012"} | {"1/2-1/2", "*"}
t = time.process_time()
ok = plies = 0
for text in texts:
    body = text.split("\n\n", 1)[-1]
    if "{" in body:
        body = COMMENT.sub(" ", body)
    board = dame.Board()
    push = board.push
    try:
        for word in body.split():
            if ("-" in word or "x" in word) and word not in RESULTS:
                push(word)
        ok += 1
    except Exception:
        pass
    plies += board.ply
print(json.dumps({"seconds": time.process_time() - t, "games": ok, "plies": plies}))
"""


def games_of(path: Path) -> list[str]:
    """The text of each game of *path* (a blank line before each tag section)."""
    text = path.read_text(encoding="utf-8")
    parts = ["[Event" + p for p in text.split("[Event")[1:]]
    return [p.strip() + "\n" for p in parts]


def main() -> None:
    tmp = Path(tempfile.gettempdir())
    games = games_of(corpus_file("international/migo-wk2003.pdn")) * REPEAT
    archive = tmp / "pdn-bench-migo-x20.pdn"
    archive.write_text("\n".join(games), encoding="utf-8")
    texts = tmp / "pdn-bench-migo-x20.json"
    texts.write_text(json.dumps(games), encoding="utf-8")
    oca = corpus_file("english/OCA_2.0.pdn")

    print("pdn validate, one process")
    rates: dict[tuple[str, str], float] = {}
    for name in CORES:
        use_core(name)
        for label, path in (("OCA_2.0.pdn", oca), (f"migo-wk2003 x{REPEAT}", archive)):
            seconds, reports = cpu_timed(lambda p=path: validate_file(p))
            valid = sum(r.valid for r in reports)
            rates[name, label] = len(reports) / seconds
            print(
                f"  {name:6s} core  {label:18s} {len(reports):6d} games ({valid} valid) "
                f"{seconds:6.1f} s {len(reports) / seconds:8,.0f} games/s"
            )
    migo = f"migo-wk2003 x{REPEAT}"
    if "c" in CORES:
        for label in ("OCA_2.0.pdn", migo):
            ratio = rates["c", label] / rates["python", label]
            print(f"  C kernel / Python core on {label}: {ratio:.2f}x")
    print(
        f"the same {len(games)} International games, in turn, {ROUNDS} rounds, the best of "
        f"{BEST_OF} runs of each side in a round (C kernel):"
    )
    use_core("c" if "c" in CORES else "python")
    for _ in range(ROUNDS):
        ours, plies = 0.0, 0
        for _ in range(BEST_OF):
            seconds, reports = cpu_timed(lambda: validate_file(archive))
            ours, plies = max(ours, len(reports) / seconds), sum(r.plies for r in reports)
        line = f"  pdn {ours:6,.0f} games/s ({plies} plies)"
        for package, code in (("dame-rs", DAME), ("py-draughts", PY_DRAUGHTS_FROM_PDN)):
            driver = f"PATH = {str(texts)!r}\n" + code
            runs = [other_library(package, driver) for _ in range(BEST_OF)]
            measured = [r for r in runs if r is not None]
            if len(measured) == BEST_OF:
                best = max(measured, key=lambda t: t["games"] / t["seconds"])
                rate = best["games"] / best["seconds"]
                said = f", {best['plies']} plies" if "plies" in best else ""
                line += (
                    f"; {package} {rate:6,.0f} ({best['games']} games{said}): {ours / rate:.2f}x"
                )
        print(line)


def _replay(game: Game, replay: Replay | None) -> Replay | None:
    return replay


def rows(path: Path) -> None:
    """CPU microseconds per game of scan() and of main_line() (move_texts) on each core."""
    replays = [r for r in replay_paths([path], _replay) if r is not None and r.positions]
    gc.freeze()  # the replays held: the collector would walk them over and over
    print(f"a game's rows, {len(replays)} games of {path.name} (replayed beforehand)")
    for name in CORES:
        use_core(name)
        core = CORES[name]
        start = time.process_time()
        for r in replays:
            core.scan(r.positions, words(r.variant), True)
        scanned = time.process_time()
        for r in replays:
            main_line(r)
        done = time.process_time()
        n = len(replays)
        print(
            f"  {name:6s} core  scan {1e6 * (scanned - start) / n:6.1f} us/game  "
            f"move texts {1e6 * (done - scanned) / n:6.1f} us/game"
        )
    gc.unfreeze()


if __name__ == "__main__":
    main()
    rows(corpus_file("english/OCA_2.0.pdn"))
