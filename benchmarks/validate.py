"""Validation speed: games per second on the OCA archive and on International games, on one
worker and on two (and on the OCA archive with every candidate variant replayed), next to
py-draughts' ``Board.from_pdn`` on the same International games (CPU time of each, in one run;
the OCA rows are wall time, as workers run in other processes).

Usage: python benchmarks/validate.py
"""

from __future__ import annotations

import json
import tempfile
from pathlib import Path

from _env import CORPUS, PY_DRAUGHTS_FROM_PDN, corpus_file, cpu_timed, other_library, timed
from pdn.archive.validate import validate_file, validate_paths
from pdn.read.reader import read_games, read_string
from pdn.replay import replay_game
from pdn.writer import write_game


def international_games() -> list[str]:
    """Every valid International game of the corpus without a setup, as PDN text."""
    texts = []
    for path in sorted((CORPUS / "international").glob("*.pdn")):
        for game in read_games(path):
            if game.syntax_error or game.fen:
                continue
            replay = replay_game(game)
            if replay.valid and replay.variant.name == "international":
                texts.append(write_game(game))
    return texts


def main() -> None:
    oca = corpus_file("english/OCA_2.0.pdn")
    for workers in (1, 2):
        seconds, n = timed(lambda w=workers: sum(1 for _ in validate_paths([oca], workers=w)))
        rate = f"{n / seconds:,.0f} games/s"
        print(f"OCA_2.0.pdn, {workers} worker(s): {n} games in {seconds:.1f} s, {rate}")
    seconds, n = timed(lambda: sum(1 for _ in validate_paths([oca], candidates=True)))
    print(f"OCA_2.0.pdn, 1 worker, --candidates: {seconds:.1f} s, {n / seconds:,.0f} games/s")
    folder = CORPUS / "international"
    for workers in (1, 2):
        seconds, n = timed(lambda w=workers: sum(1 for _ in validate_paths([folder], workers=w)))
        print(f"international/ ({n} games, {workers} worker(s)): {n / seconds:,.0f} games/s")

    texts = international_games()
    tmp = Path(tempfile.gettempdir())
    (tmp / "pdn-bench-international.json").write_text(json.dumps(texts), encoding="utf-8")
    archive = tmp / "pdn-bench-international.pdn"
    archive.write_text("\n\n".join(texts), encoding="utf-8")
    print(f"the same {len(texts)} International games (valid, no setup), read and replayed (CPU):")
    seconds, _ = cpu_timed(lambda: validate_file(archive, "international"))
    print(f"  pdn validate (one file)       {seconds:6.2f} s {len(texts) / seconds:8,.0f} games/s")
    ours = seconds
    seconds, _ = cpu_timed(lambda: [replay_game(read_string(t)[0]) for t in texts])
    print(f"  pdn, one text at a time       {seconds:6.2f} s {len(texts) / seconds:8,.0f} games/s")
    path = str(tmp / "pdn-bench-international.json")
    theirs = other_library("py-draughts", f"PATH = {path!r}\n" + PY_DRAUGHTS_FROM_PDN)
    if theirs:
        rate = theirs["games"] / theirs["seconds"]
        seconds_theirs = theirs["seconds"]
        print(f"  py-draughts Board.from_pdn    {seconds_theirs:6.2f} s {rate:8,.0f} games/s")
        print(f"  pdn validate is {seconds_theirs / ours:.2f}x py-draughts on one core")


if __name__ == "__main__":
    main()
