"""The built-in engine on positions with published solutions: each move expected is the
source's, not the engine's own output (International, English, Russian).

Sources (positions as FEN, moves as published):

- endgamesandmore.blogspot.com, "draughts compositions" (August 2017): W:W22,24,27,28,29,30,
  33,36,43,44,47:B8,10,11,13,14,16,18,31,35,37, White wins by 1. 27-21 16x27 2. 47-41 37x46
  3. 28-23 46x19 4. 29-23 18x40 5. 22-18 13x22 6. 24x2 35x24 7. 2x19 14x23 8. 36x29 10-14
  9. 29-24; 1. 28-23 is "a very peculiar false solution" (Black escapes by 37-41).
- endgamesandmore.blogspot.com, "The World Championship Endgame Composition PWCE III"
  (21 February 2020): W:W28,38,40,50:B1,2,5,30, White wins; both published lines open 28-23.
- The Checker Maven (bobnewell.net), T. Duncan's problem (14 July): W:W8,K11,K15,18,22:B4,9,13,
  25,K29, White wins by 15-10 25-30 18-14 9-25 10-14 30-26 11-15 4-18 14-21.
- The Checker Maven, "A Small Problem" (D. G. McKelvie, Glasgow Weekly Herald 1925, from
  Boland's Famous Positions): W:WK27,28,30:B7,19,21, White wins by 27-24; 27-32 only draws.
- The Checker Maven, T. Wiswell's problem (item 476): W:W13,31,32:B4,21,28, White wins by
  13-9 4-8 9-6 8-11 6-2 ...
- kombinashki.ru, "Не пропустить в дамки", diagram 24 (Russian draughts): White b2, c1, d2,
  d4; Black b4, f6, h2 (the position as the published solution plays it; the diagram is a
  picture): 1. d4-e5! f6:d4 2. d2-e3 d4:f2 3. b2-c3 b4:d2 4. c1:g1, and the black man on h2
  cannot move: White has won.
"""

from __future__ import annotations

import pytest

from pdn.board import Board
from pdn.engine.builtin import BuiltinEngine
from pdn.engine.types import Limit, Score
from pdn.notation import move_text
from pdn.rules.position import CORES

needs_c = pytest.mark.skipif("c" not in CORES, reason="the C kernel was not built")

INTERNATIONAL_SHOT = "W:W22,24,27,28,29,30,33,36,43,44,47:B8,10,11,13,14,16,18,31,35,37"
SHOT_LINE = [
    "27-21",
    "16x27",
    "47-41",
    "37x46",
    "28-23",
    "46x19",
    "29-23",
    "18x40",
    "22-18",
    "13x22",
    "24x2",
    "35x24",
    "2x19",
    "14x23",
    "36x29",
    "10-14",
    "29-24",
]


def _best(board: Board, depth: int, compiled: bool | None = True) -> tuple[str, Score]:
    info = BuiltinEngine(compiled=compiled).analyse(board, Limit(depth=depth))[0]
    return move_text(board.position, info.pv[0]), info.score.white()


@needs_c
@pytest.mark.slow  # about 8 s
def test_international_combination_not_the_false_solution() -> None:
    """The source's 27-21, not the false solution 28-23, and a winning score (28-23's
    refutation, 37-41, is seen from depth 13 on)."""
    move, value = _best(Board("international", INTERNATIONAL_SHOT), 13)
    assert move == "27-21"
    assert value > Score.of_men(2.0)


@needs_c
def test_international_combination_played_out() -> None:
    """From the second sacrifice on, the engine plays every White move of the published
    line and sees the win (Black left without a move) as forced."""
    board = Board("international", INTERNATIONAL_SHOT)
    for text in SHOT_LINE[:4]:
        board.push(text)
    for i, text in enumerate(SHOT_LINE[4:]):
        if i % 2 == 0:
            move, value = _best(board, 10)
            assert move == text
            assert value.is_win
        board.push(text)


@needs_c
@pytest.mark.slow  # about 2 s
def test_international_endgame_composition() -> None:
    assert _best(Board("international", "W:W28,38,40,50:B1,2,5,30"), 18)[0] == "28-23"


@needs_c
def test_english_duncan() -> None:
    move, value = _best(Board("english", "W:W8,K11,K15,18,22:B4,9,13,25,K29"), 12)
    assert move == "15-10"
    assert value > Score.of_men(1.0)  # the line wins a piece and more


@needs_c
def test_english_mckelvie() -> None:
    """27-24, where the natural 27-32 only draws (the engine settles on it from depth 21 on;
    22 is searched)."""
    assert _best(Board("english", "W:WK27,28,30:B7,19,21"), 22)[0] == "27-24"


@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_c), False])
def test_english_wiswell(compiled: bool) -> None:
    assert _best(Board("english", "W:W13,31,32:B4,21,28"), 12, compiled)[0] == "13-9"


@pytest.mark.parametrize("compiled", [pytest.param(True, marks=needs_c), False])
def test_russian_do_not_let_it_crown(compiled: bool) -> None:
    """The published line, move for move, as a win in 7 plies (Black has no move after it)."""
    board = Board("russian", "W:Wb2,c1,d2,d4:Bb4,f6,h2")
    info = BuiltinEngine(compiled=compiled).analyse(board, Limit(depth=9))[0]
    assert info.score.white() == Score.win(7)
    played = []
    for move in info.pv:
        played.append(move_text(board.position, move))
        board.push(move)
    assert played == ["d4-e5", "f6:d4", "d2-e3", "d4:f2", "b2-c3", "b4:d2", "c1:g1"]
    assert not board.legal_moves
