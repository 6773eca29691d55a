"""`pdn annotate`: comments where something happens, the game's own comments kept."""

from __future__ import annotations

import re
from itertools import islice
from pathlib import Path

from typer.testing import CliRunner

from conftest import corpus_dir
from pdn.archive.annotate import Notes, _plain_notes, annotate, annotated_text
from pdn.cli.app import app
from pdn.read.reader import read_games
from pdn.replay import replay_game
from pdn.writer import write_game

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def test_events_material_and_fen(tmp_path: Path) -> None:
    out = tmp_path / "annotated.pdn"
    args = ["annotate", str(SAMPLES / "english-oca-first20.pdn"), "-o", str(out), "--material",
            "--fen-every", "20"]  # fmt: skip
    assert CliRunner().invoke(app, args).exit_code == 0
    first = next(iter(read_games(out)))
    moves = first.mainline()
    assert len(moves) == 44
    # 22. ... 26x17x10x1: White (5 men) takes three of Black's 8 men and crowns on 1
    assert moves[-1].comments_after[:2] == ["takes 3 pieces", "crowns"]
    assert "material: White 5 (1 kings), Black 5 (0 kings)" in moves[-1].comments_after
    assert moves[-1].comments_after[-2].startswith("final position B:W")
    # 4. 15x22: one piece taken, so no event, but the material
    assert moves[6].comments_after == ["material: White 11 (0 kings), Black 12 (0 kings)"]
    assert moves[19].comments_after[-1].startswith("FEN B:W19,20,21,23,25,27,30,31,32")


def test_illegal_moves_and_draws_are_commented(tmp_path: Path) -> None:
    src = tmp_path / "in.pdn"
    src.write_text(
        '[GameType "21"]\n1. 11-15 {mine} 24-20 2. 12-17 *\n\n'
        '[GameType "21"]\n[FEN "W:WK28:BK2"]\n28-32 2-7 32-28 7-2 28-32 2-7 32-28 7-2 *\n',
        encoding="utf-8",
    )
    out = tmp_path / "out.pdn"
    assert CliRunner().invoke(app, ["annotate", str(src), "-o", str(out)]).exit_code == 0
    bad, drawn = list(read_games(out))
    moves = bad.mainline()
    assert moves[0].comments_after == ["mine"]  # kept
    assert moves[2].comments_after == [
        "illegal move; legal: 10-14, 12-16, 15-18, 15-19, 7-11, 8-11, 9-13, 9-14"
    ]
    assert "game ends: draw-repetition" in drawn.mainline()[7].comments_after


def test_plain_games_are_annotated_from_the_kernels_runs_as_their_walk_annotates_them(
    each_core: str,
) -> None:
    """A game of plain moves alone, fully played, is annotated from the kernel's runs of equal
    material and its positions (no tree or board built): the text the annotator's walk writes,
    with each choice of comments (a FEN every ply, every 7 with the material), for the first 400
    games of corpus files of three variants and a file of International games that end by a
    draw rule."""
    names = ["english/OCA_2.0.pdn", "russian/migo-World_Championship_1998.pdn",
             "italian/migo-ci98-fero.pdn", "international/wiegerw-PWCP_2a.pdn"]  # fmt: skip
    choices = [Notes(), Notes(material=True), Notes(events=False, material=True),
               Notes(fen_every=1), Notes(fen_every=7, material=True)]  # fmt: skip
    plain, seen = 0, set()
    for name in names:
        for game in islice(read_games(corpus_dir() / name), 400):
            replay = replay_game(game)
            if _plain_notes(game, replay, Notes()) is None:
                continue
            plain += 1
            assert all(_plain_notes(game, replay, notes) is not None for notes in choices)
            fast = [annotated_text(game, replay, notes) for notes in choices]  # no tree built
            for notes, text in zip(choices, fast, strict=True):
                walked = write_game(annotate(game, replay_game(game), notes))
                assert text == walked, (name, game.source.line, notes)
                for node in game.mainline():  # the walk's comments, for the next choice
                    node.comments_after.clear()
                seen.update(re.findall(r"\{([A-Za-z]+:?)", text))
    assert plain > 400  # the fast path taken (OCA_2.0.pdn: 396 of its first 400)
    assert {"takes", "crowns", "game", "final", "material:", "FEN"} <= seen
