"""`pdn fix --fix-results` on a win the rules drew: a game whose moves end where a draw rule that
ends the game by itself drew it, but whose result says it was won, gets the draw, and a comment
saying which rule (its rule book's article) and at which ply; nothing else of it changes. Games
built here move by move so that each rule is reached at the ply its article gives."""

from __future__ import annotations

from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdn.archive.validate import validate_file
from pdn.board import Board
from pdn.cli.app import app
from pdn.read.reader import read_file, read_games
from pdn.rules.fen import parse_fen
from pdn.rules.variants import get_variant

runner = CliRunner()


def quiet_walk(variant: str, fen: str, rules: str, label: str) -> list[str]:
    """Moves from *fen* without a capture and without a position standing a third time, the
    first legal one (in text order) that keeps both so at each ply, until the draw *label*;
    their PDN text."""
    board = Board.from_position(parse_fen(fen, get_variant(variant)), rules)
    texts: list[str] = []
    while board.draw is None:
        for move in sorted(board.legal_moves, key=str):
            text = board.move_text(move)
            board.push(move)
            quiet = not board.is_repetition(3) and not any(m.is_capture for m in board.legal_moves)
            if quiet and (board.draw is None or board.draw.label == label):
                texts.append(text)
                break
            board.pop()
        else:
            raise AssertionError(f"no quiet move at ply {board.ply}")
    assert board.draw.label == label
    return texts


def write_game(path: Path, game_type: int, fen: str, moves: list[str], result: str) -> None:
    first = "W" if fen.startswith("W") else "B"
    body = []
    for i, text in enumerate(moves):
        half = i + (0 if first == "W" else 1)
        if i == 0 and half % 2 == 1:
            body.append(f"{half // 2 + 1}...")
        elif half % 2 == 0:
            body.append(f"{half // 2 + 1}.")
        body.append(text)
    path.write_text(
        f'[Event "constructed"]\n[GameType "{game_type}"]\n[FEN "{fen}"]\n'
        f'[Result "{result}"]\n\n{" ".join(body)} {result}\n',
        encoding="utf-8",
    )


def fix(path: Path, out: Path, *rules: str) -> str:
    result = runner.invoke(app, ["fix", str(path), "-o", str(out), "--fix-results", *rules])
    assert result.exit_code == 0, result.output
    return result.stderr


# International, FMJD Annex 1 art. 6: two kings against a lone king, drawn after 5 moves each
FMJD_KINGS = "W:WK47,K48:BK3"
# English, spec/rules.md §2: 40 moves by each side without a capture or a promotion
ENGLISH_KINGS = "B:WK29,K32:BK1,K4"
# English, spec/rules.md §2: the same position the third time (threefold repetition)
SHUFFLE = ["4-8", "29-25", "8-4", "25-29", "4-8", "29-25", "8-4", "25-29"]


def test_a_win_drawn_by_the_fmjd_endgame_rule(tmp_path: Path) -> None:
    moves = quiet_walk("international", FMJD_KINGS, "official", "draw-5-moves")
    assert len(moves) == 10  # 5 moves by each side, from the first position of that material
    path, out = tmp_path / "game.pdn", tmp_path / "fixed.pdn"
    write_game(path, 20, FMJD_KINGS, moves, "2-0")
    err = fix(path, out, "--rules", "official")
    assert (
        f"{path}:1: game 1: result 2-0 set to 1-1 (draw by the endgame rule (2 pieces or 1 "
        "against a lone king) at ply 10 (FMJD Annex 1 (official rules of international "
        "draughts), art. 6: 2 pieces or 1 against a lone king))"
    ) in err
    [game] = read_file(out).games
    assert game.result == "1-1" and [m.text for m in game.mainline()] == moves
    [said] = game.mainline()[-1].comments_after
    assert said.startswith("pdn fix: result 2-0 set to 1-1: draw by the endgame rule")
    assert validate_file(out, rules="official")[0].valid
    # under the common rules (no endgame rule) nothing proves a draw: the game is kept as read
    assert "set to" not in fix(path, tmp_path / "common.pdn")
    assert (tmp_path / "common.pdn").read_text() == path.read_text()


def test_a_win_drawn_by_the_40_move_rule(tmp_path: Path) -> None:
    moves = quiet_walk("english", ENGLISH_KINGS, "common", "draw-40-moves")
    assert len(moves) == 80
    path, out = tmp_path / "game.pdn", tmp_path / "fixed.pdn"
    write_game(path, 21, ENGLISH_KINGS, moves, "0-1")
    err = fix(path, out)
    assert "result 0-1 set to 1/2-1/2 (draw by the 40-move rule at ply 80 (spec/rules.md §2" in err
    [game] = read_file(out).games
    assert game.result == "1/2-1/2" and [m.text for m in game.mainline()] == moves


def test_a_win_drawn_by_threefold_repetition(tmp_path: Path) -> None:
    path, out = tmp_path / "game.pdn", tmp_path / "fixed.pdn"
    write_game(path, 21, ENGLISH_KINGS, SHUFFLE, "1-0")
    err = fix(path, out)
    assert "result 1-0 set to 1/2-1/2 (draw by repetition of the position at ply 8" in err
    assert read_file(out).games[0].result == "1/2-1/2"
    # WCDF's book lets a player claim the repetition; it does not end the game: no proof
    assert "set to" not in fix(path, tmp_path / "wcdf.pdn", "--rules", "official")


@pytest.mark.parametrize(
    ("moves", "result", "why"),
    [
        ([*SHUFFLE, "4-8", "29-25"], "1-0", "the moves go on after the draw"),
        (SHUFFLE, "*", "no result written: nothing to contradict"),
        (SHUFFLE, "1/2-1/2", "a draw already"),
        (SHUFFLE[:6], "1-0", "the position stood twice only"),
    ],
)
def test_no_draw_invented(tmp_path: Path, moves: list[str], result: str, why: str) -> None:
    path, out = tmp_path / "game.pdn", tmp_path / "fixed.pdn"
    write_game(path, 21, ENGLISH_KINGS, moves, result)
    assert "set to" not in fix(path, out), why
    assert out.read_text() == path.read_text()


def test_a_corpus_game_played_on_past_a_draw_is_not_changed(corpus: Path, tmp_path: Path) -> None:
    # OCA_2.0.pdn game 306: drawn by repetition at ply 137 under the common rules, played on 74
    # plies to a 1-0 (validate warns of it); the players did not play under that rule, and no
    # game of the corpus ends where a rule drew it with a win written (pdn fix over the corpus,
    # common and official rules: no such change)
    source = corpus / "english" / "OCA_2.0.pdn"
    game = next(g for i, g in enumerate(read_games(source), 1) if i == 306)
    path, out = tmp_path / "game306.pdn", tmp_path / "fixed.pdn"
    path.write_text(game.raw.strip() + "\n", encoding="utf-8")
    [report] = validate_file(path)
    assert any("at ply 137" in str(w) and "says it was won" in str(w) for w in report.warnings)
    assert "set to" not in fix(path, out)
    assert out.read_text() == path.read_text()
