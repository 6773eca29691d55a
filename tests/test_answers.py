"""Smaller wrong answers from a user's tour (issue 24), each with the case that showed it."""

from __future__ import annotations

from pathlib import Path

from pdn.read.reader import read_games, read_string
from pdn.replay import replay_game

FEN_ONLY = '[FEN "W:W24,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,15"] *\n'


def test_a_fen_only_game_is_read_as_its_file_says(corpus: Path) -> None:
    # italian/checkerboard-11_man_italian.pdn: 2400 positions, no GameType, no moves; every
    # 1-32 numbering fits them, and they were all taken for English
    path = corpus / "italian/checkerboard-11_man_italian.pdn"
    replays = [replay_game(g) for g in read_games(path)]
    assert len(replays) == 2400
    assert {r.variant.name for r in replays} == {"italian"}
    assert not any(r.warnings for r in replays)


def test_a_guessed_variant_is_said(tmp_path: Path) -> None:
    path = tmp_path / "positions.pdn"
    path.write_text(FEN_ONLY, encoding="utf-8")
    [game] = read_games(path)
    guessed = replay_game(game)
    assert guessed.variant.name == "english"
    [warning] = guessed.warnings
    assert warning.message.startswith("variant guessed: read as english, but the game has no ")
    assert warning.message.endswith("say which with a GameType tag or --variant")
    [typed] = read_string('[GameType "22"]\n' + FEN_ONLY)
    assert replay_game(typed).variant.name == "italian" and not replay_game(typed).warnings
    [moved] = read_string('1. 11-15 23-19 *\n')  # moves: the first variant they fit
    assert not replay_game(moved).warnings
