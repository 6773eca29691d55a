"""A library that prints (issue 28): moves as their PDN text, boards as SVG in notebooks,
criteria misuse caught at once."""

from __future__ import annotations

import pytest

from pdn import Board
from pdn.archive.criteria import Criteria
from pdn.db.questions import GameFilter
from pdn.rules.position import Position
from pdn.rules.variants import get_variant


def test_english_opening_moves_print_as_pdn(each_core: str) -> None:
    # the seven first moves of checkers, Black from 9-12 (rules.md, English)
    board = Board("english")
    assert sorted(map(str, board.legal_moves), key=lambda t: [int(x) for x in t.split("-")]) == [
        "9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16",
    ]  # fmt: skip
    move = board.legal_moves[0]
    board.push(move)  # still a Move for everything that plays one
    assert board.ply == 1


def test_algebraic_variants_print_squares_by_name(each_core: str) -> None:
    # Russian: White's men on a3, c3, e3, g3 go to b4, d4, f4, h4 (rules.md, Russian)
    got = sorted(str(m) for m in Board("russian").legal_moves)
    assert got == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]


def test_a_capture_is_long_only_where_another_shares_its_ends(each_core: str) -> None:
    # Black's man on 10 takes 14 and 22 (via 17) or 15 and 23 (via 19), both ending on 26:
    # PDN 3.0 writes each with its turning square; a lone capture stays short
    board = Board("english", "B:W14,15,22,23:B10")
    assert sorted(map(str, board.legal_moves)) == ["10x17x26", "10x19x26"]
    board = Board("international", "W:WK47:B9,12,33")
    assert sorted(map(str, board.legal_moves)) == ["47x17", "47x21", "47x26"]
    full = sorted(board.move_text(m, "full") for m in board.legal_moves)
    assert full == ["47x20x3x17", "47x20x3x21", "47x20x3x26"]


def test_board_and_position_draw_themselves_in_notebooks() -> None:
    board = Board("english")
    for svg in (board._repr_svg_(), Position.start(get_variant("english"))._repr_svg_()):
        assert svg.startswith("<svg ") and svg.count("<circle") == 24  # 12 men a side


def test_game_filter_of_criteria_is_a_type_error_at_once() -> None:
    criteria = Criteria(white="Tinsley")
    with pytest.raises(TypeError, match=r"GameFilter\.of\(c\)"):
        GameFilter(criteria)  # type: ignore[arg-type]
    assert GameFilter.of(criteria, distinct_moves=True).white == "Tinsley"


def test_an_illegal_move_says_why() -> None:
    from pdn.read.reader import read_string
    from pdn.replay import replay_game

    def reason(pdn: str) -> str:
        return replay_game(read_string('[GameType "21"]\n' + pdn)[0]).errors[0].reason

    # English from the start, Black to move: 9-13 is legal; 21-17 moves White's man
    assert reason("1. 21-17 *") == "illegal move: no Black piece on 21"
    assert reason("1. 9-13 22-18 2. 13-18 *") == "illegal move: 18 is taken"
    # capture obligation (spec/rules.md §1): after 11-15 22-18 Black must take 15x22
    assert reason("1. 11-15 22-18 2. 9-13 *") == "illegal move: a capture is compulsory"
    assert "is not on the english board" in reason("1. 11-33 *")


def test_a_short_russian_move_that_fits_nothing_is_only_illegal() -> None:
    from pdn.read.reader import read_string
    from pdn.replay import replay_game

    # Russian short notation names a file ("fe3": the man of the f-file to e3): at the start
    # no White man goes to e5, and the reason cannot name a start square
    game = read_string('[GameType "25"]\n1. fe5 *')[0]
    assert replay_game(game).errors[0].reason == "illegal move"
