"""The Board: moves in every written form, typed errors, push and pop, the draw rules, outcome.

Square numbers are worked out by hand from spec/pdn.md §6. English: 1 = b8, 4 = h8, 5 = a7,
25 = b2, 28 = h2, 29 = a1, 32 = g1; Black on 1-12 moves first, towards 32. International:
1 = b10, 46 = a1, 50 = i1. Italian: 1 = a8, 3 = e8, 6 = d7, 26 = c2, 30 = d1.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import islice
from pathlib import Path

import pytest

from pdn import AmbiguousMoveError, Board, IllegalMoveError, InvalidMoveError
from pdn.notation import MoveForm, move_text
from pdn.read.movetext import plain_moves, plain_runs
from pdn.read.reader import read_games
from pdn.render.textboard import text_board
from pdn.rules.draw import DrawRules, Ending, QuietReset, Termination, simple_rules
from pdn.rules.fen import parse_fen
from pdn.rules.geometry import WHITE, Color
from pdn.rules.position import CORES, use_core
from pdn.rules.variants import get_variant

ENGLISH_START = "B:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,11,12"


def texts(board: Board) -> list[str]:
    moves = board.legal_moves
    return sorted(move_text(board.position, m, legal=moves) for m in moves)


def full(board: Board) -> list[str]:
    return [move_text(board.position, m, MoveForm.FULL) for m in board.move_stack[-1:]]


def test_a_new_board_and_its_text() -> None:
    board = Board("english")
    assert board.fen() == ENGLISH_START and board.turn is Color.BLACK and board.ply == 0
    assert (str(board.turn), board.turn.letter, board.turn.other) == ("Black", "B", Color.WHITE)
    assert texts(board) == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
    assert repr(board) == f"Board('english', '{ENGLISH_START}')"
    assert eval(repr(board), {"Board": Board}).fen() == ENGLISH_START
    assert str(board) == text_board(board.position) + "\nBlack to move"
    assert Board(get_variant("international")).fen() == Board("10x10").fen()


def test_every_written_form() -> None:
    # Russian from the start: c3-d4 written short (the piece on file c to d4), f6-e5 in capitals,
    # d4 takes e5 landing on f6 (":"), and g7 takes f6 landing on e5 written short (file g to e5;
    # e7 could take f6 too, but lands on g5)
    board = Board("russian")
    for text in ("cd4", "F6-E5", "d4:f6", "ge5"):
        board.push(text)
    assert board.fen() == ("W:Wa1,a3,b2,c1,d2,e1,e3,f2,g1,g3,h2:Ba7,b6,b8,c7,d6,d8,e5,e7,f8,h6,h8")
    # English: Black man 11 (f6) takes 15 (e5) to 18 (d4), then 22 (c3) to 25 (b2), written in
    # full, in two parts (spaces around the separator too), short, and without a separator
    for text in ("11x18x25", "11 x 18 18x25", "11x25", "1125", "11-25"):
        english = Board("english", "B:W15,22:B11")
        english.push(text)
        assert full(english) == ["11x18x25"]
    with pytest.raises(InvalidMoveError, match="the parts do not join into one move"):
        Board("english", "B:W15,22:B11").parse_move("11x18 22x25")


def test_typed_errors_carry_what_the_replay_reports() -> None:
    board = Board("english")
    board.push("11-15")
    board.push("24-20")
    with pytest.raises(IllegalMoveError) as illegal:
        board.push("12-17")
    e = illegal.value
    assert (e.text, e.reason) == ("12-17", "illegal move")
    # Black after 11-15 24-20: 8-11, 9-13, 9-14, 10-14, 12-16, 15-18, 15-19 and 7-11
    assert e.legal == ["10-14", "12-16", "15-18", "15-19", "7-11", "8-11", "9-13", "9-14"]
    assert len(e.moves) == 8 and board.ply == 2  # nothing was pushed
    with pytest.raises(InvalidMoveError, match="square '99' is not on the english board"):
        board.parse_move("9-99")
    with pytest.raises(InvalidMoveError, match="unknown move"):
        board.parse_move("-")
    # spec/perft.md: king 4 takes 13, 20 and 32 or 37 on its way to 15
    king = Board("international", "W:WK4:B13,20,32,37,50")
    with pytest.raises(AmbiguousMoveError) as ambiguous:
        king.parse_move("4x15")
    assert ambiguous.value.reason == "ambiguous move: it fits 4x27x38x15, 4x31x42x15"
    assert len(ambiguous.value.moves) == 2
    assert isinstance(ambiguous.value, ValueError)


def test_push_pop_and_copy() -> None:
    board = Board("english")
    first = board.push("11-15")
    other = board.copy()
    other.push("23-19")
    assert board.ply == 1 and other.ply == 2  # the copy is independent
    assert board.peek() == first and board.pop() == first
    assert board.fen() == ENGLISH_START and board.ply == 0 and board.quiet == 0
    with pytest.raises(IndexError):
        board.pop()
    assert [len(b.positions()) for b in (board, other)] == [1, 3]
    assert other.positions()[1] == board.positions()[0].play(first)
    move = board.legal_moves[0]
    assert board.push(move) is move and board.position == other.positions()[0].play(move)
    # a setup in the movetext replaces the position; the moves pushed stay
    other.set_position(parse_fen("W:W21:B1", get_variant("english")))
    assert (other.fen(), other.ply) == ("W:W21:B1", 2)
    other.pop()  # back before 23-19, past the setup
    assert other.fen() == "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"


def test_win_when_the_side_to_move_has_no_move() -> None:
    # Black man 14 (c5) takes White's last man on 18 (d4) and lands on 23 (e3)
    board = Board("english", "B:W18:B14")
    assert board.outcome() is None
    board.push("14x23")
    assert board.outcome() == Ending(Termination.WIN, Color.BLACK, 1, "win")
    board.pop()
    assert board.outcome() is None


def test_threefold_repetition_and_italian_fourfold() -> None:
    # English kings h2 (28) and d8 (2) shuffle with a period of four plies: from ply 4 on each
    # position has stood there before; the start comes back a third time at ply 8
    board = Board("english", "W:WK28:BK2")
    for ply, move in enumerate(["28-32", "2-7", "32-28", "7-2"] * 2, 1):
        board.push(move)
        assert board.is_repetition(2) is (ply >= 4)
        assert board.is_repetition(3) is (ply == 8)
        assert (board.outcome() is None) is (ply < 8)
    assert board.outcome() == Ending(Termination.REPETITION, None, 8, "draw-repetition")
    # Italian kings d1 (30) - c2 (26) and e8 (3) - d7 (6): FID counts to four (ply 12)
    for rules, ply in (("seed", 8), ("official", 12)):
        italian = Board("italian", "W:WK30:BK3", rules=rules)
        for move in ["30-26", "3-6", "26-30", "6-3"] * 3:
            italian.push(move)
        ending = italian.outcome()
        assert ending is not None and (ending.termination, ending.ply) == ("repetition", ply)


def test_moves_rule_counts_and_what_restarts_it() -> None:
    # two moves each without a capture or a crowning: drawn at ply 4 (the start has come back
    # only twice then)
    rules = simple_rules("two", 2, QuietReset.CAPTURE_OR_PROMOTION, 3)
    board = Board("english", "W:WK28:BK2", rules=rules)
    for move in ["28-32", "2-7", "32-28", "7-2"]:
        board.push(move)
    assert board.outcome() == Ending(Termination.MOVES_RULE, None, 4, "draw-2-moves")
    board.push("28-32")  # the game goes on: the first draw stays
    assert board.draw == Ending(Termination.MOVES_RULE, None, 4, "draw-2-moves")
    board.pop()
    board.pop()
    assert board.draw is None and board.quiet == 3
    # WCDF (official): a man move restarts the count; the seed rules count it
    for name, counts in (("seed", [1, 2, 3]), ("official", [1, 2, 0])):
        man = Board("english", "W:W25,K28:BK2", rules=name)
        quiet = []
        for move in ("28-32", "2-7", "25-21"):  # the last: man b2 to a3
            man.push(move)
            quiet.append(man.quiet)
        assert quiet == counts


def state(board: Board) -> tuple[object, ...]:
    """What push() records: the stack, the repetitions, the counts, the first draw."""
    return (board._stack, board._history, board.position, board.quiet, board.draw, board.ply)


@pytest.mark.parametrize("core_name", CORES)
def test_push_written_records_what_push_records(core_name: str) -> None:
    # the hand-counted shuffles above: a draw by repetition at ply 8 (seed) or 12 (official),
    # by the moves rule at ply 4 (two moves each), the game going on after it
    shuffles: list[tuple[str, str, DrawRules | str, list[str], int | None]] = [
        ("english", "W:WK28:BK2", "seed", ["28-32", "2-7", "32-28", "7-2"] * 3, 8),
        ("italian", "W:WK30:BK3", "official", ["30-26", "3-6", "26-30", "6-3"] * 4, 12),
        ("english", "W:WK28:BK2", simple_rules("two", 2, QuietReset.CAPTURE_OR_PROMOTION, 3),
         ["28-32", "2-7", "32-28", "7-2", "28-32"], 4),
        ("english", "W:W25,K28:BK2", "official", ["28-32", "2-7", "25-21"], None),
        ("english", "B:W18:B14", "seed", ["14x23"], None),
    ]  # fmt: skip
    previous = use_core(core_name)
    try:
        for name, fen, rules, moves, draw_ply in shuffles:
            one, bulk = Board(name, fen, rules), Board(name, fen, rules)
            for move in moves:
                one.push(move)
            squares: list[Sequence[str]] = [move.replace("x", "-").split("-") for move in moves]
            start = Board(name, fen, rules)
            checked = Board.check_written(start.position, start.rules, squares)
            assert bulk.push_written(squares) == len(moves)
            assert state(bulk) == state(one)
            assert (bulk.draw.ply if bulk.draw else None) == draw_ply
            if checked is None:  # the Italian rules count endgames: read from the positions
                assert start.rules.endgame and name == "italian"
            else:
                assert (checked.position, checked.plies, checked.draw) == (
                    bulk.position,
                    len(moves),
                    bulk.draw,
                )
    finally:
        use_core(previous.name)


@pytest.mark.parametrize("core_name", CORES)
def test_push_written_stops_where_push_would_fail(core_name: str) -> None:
    previous = use_core(core_name)
    try:
        # 11-15 22-18 15x22, then 9-14 on White's turn: three played, the rest unread
        board = Board("english")
        moves: list[Sequence[str]] = [
            ("11", "15"),
            ("22", "18"),
            ("15", "22"),
            ("9", "14"),
            ("25", "18"),
        ]
        checked = Board.check_written(board.position, board.rules, moves)
        assert board.push_written(moves) == 3
        assert board.ply == 3
        assert checked is not None and (checked.plies, checked.position) == (3, board.position)
        assert board.fen() == "W:W21,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,22"
        # a square the board does not have
        assert Board("english").push_written([("11", "15"), ("11", "40")]) == 1
        # other written forms go through push(): Russian short, a capture in full
        russian, one = Board("russian"), Board("russian")
        for move in ("cd4", "f6-e5", "d4xf6"):
            one.push(move)
        assert russian.push_written([["c", "d4"], ("f6", "e5"), ["d4", "f6"]]) == 3
        assert state(russian) == state(one)
    finally:
        use_core(previous.name)


def test_frisian_king_moves_at_most_three_times_in_a_row() -> None:
    # White: king a1 (46), man i1 (50); Black: a man on h10 (4) walking down, never on a line
    # the king sees. After three idle king moves White must move the man (i1: to h2 or j2).
    board = Board("frisian", "W:WK46,50:B4")
    for move in ["46-41", "4-9", "41-46", "9-13", "46-41", "13-18"]:
        board.push(move)
    assert texts(board) == ["50-44", "50-45"]
    with pytest.raises(IllegalMoveError) as illegal:
        board.push("41-46")
    assert illegal.value.legal == ["50-44", "50-45"]
    board.pop()
    board.pop()  # back before the third king move: it may be made again
    assert "46-41" in texts(board)
    international = Board("international", "W:WK46,50:B4")  # no such limit
    for move in ["46-41", "4-9", "41-46", "9-13", "46-41", "13-18", "41-46"]:
        international.push(move)
    assert international.ply == 7


def test_full_paths_from_text() -> None:
    # International king e1 (48) takes f2, f4, d4, d2 going round either way (see test_replay)
    board = Board("international", "W:WK48:B32,33,42,43")
    board.push("48x37x28x39x48")
    assert full(board) == ["48x37x28x39x48"]
    board.pop()
    board.push("48x48")  # short: one of the two paths, which reach the same position
    assert full(board)[0] in ("48x37x28x39x48", "48x39x28x37x48")
    assert board.fen() == "B:WK48:B"
    board.pop()
    with pytest.raises(IllegalMoveError) as illegal:
        board.push("48x39x27x37x48")
    assert illegal.value.legal == ["48x37x28x39x48", "48x39x28x37x48"]
    assert board.position.turn == WHITE


def test_pop_takes_back_the_draw_a_move_reached() -> None:
    """The shuffle above draws by repetition at ply 8 (hand-counted): popping back to ply 8 keeps
    the draw, one more pop takes it back; the Board keeps that itself (the kernel's records hold
    only the move, the position and the quiet count before it, and the key after it)."""
    board = Board("english", "W:WK28:BK2")
    assert board.push_written([m.split("-") for m in ["28-32", "2-7", "32-28", "7-2"] * 3]) == 12
    assert board.draw is not None and board.draw.ply == 8
    for _ in range(4):
        board.pop()
    assert board.ply == 8 and board.draw is not None and board.draw.ply == 8
    board.pop()
    assert board.ply == 7 and board.draw is None
    board.push("7-2")
    assert board.draw is not None and board.draw.ply == 8  # reached again by push()


@pytest.mark.parametrize("core_name", CORES)
def test_check_written_finds_what_push_written_pushes(core_name: str, corpus: Path) -> None:
    """On corpus games (English captures written with every square, International games,
    their draws by rule), check_written reaches the position, the plies and the first draw
    push_written does."""
    previous = use_core(core_name)
    joined = drawn = read = 0
    try:
        for relative in ("english/OCA_2.0.pdn", "international/migo-wk2003.pdn"):
            for game in islice(read_games(corpus / relative), 400):
                moves = plain_moves(game)
                variant = game.declared_variant or get_variant("english")
                if moves is None or game.fen:
                    continue
                board = Board(variant)
                checked = Board.check_written(board.position, board.rules, moves)
                runs = plain_runs(game)
                if runs is not None:  # the same moves, read from the runs by the core
                    assert Board.check_runs(board.position, board.rules, runs) == checked
                    read += 1
                played = board.push_written(moves)
                assert checked is not None
                assert (checked.position, checked.plies, checked.draw, checked.moves) == (
                    board.position,
                    played,
                    board.draw,
                    len(moves),
                )
                joined += any(len(m) > 2 for m in moves[:played])
                drawn += board.draw is not None
    finally:
        use_core(previous.name)
    assert joined > 100 and drawn > 0 and read > 500  # drawn: two, by repetition
