"""Rule-book cases of spec/perft.md and hand-built positions for each rule parameter.

Every expected list is written out by hand from the rule texts, with the full path of each capture.
"""

from __future__ import annotations

import random

import pytest

from pdn.notation import MoveForm, move_text
from pdn.rules.fen import parse_fen, to_fen
from pdn.rules.position import Position
from pdn.rules.variants import VARIANTS, Notation, get_variant

pytestmark = pytest.mark.usefixtures("each_core")  # every case on both cores


def full(variant: str, fen: str) -> list[str]:
    pos = parse_fen(fen, get_variant(variant))
    return sorted(move_text(pos, m, MoveForm.FULL) for m in pos.legal_moves())


def pdn(variant: str, fen: str) -> list[str]:
    pos = parse_fen(fen, get_variant(variant))
    return sorted(move_text(pos, m) for m in pos.legal_moves())


RULE_BOOK = [
    # International, FMJD
    ("international", "W:WK41,49:B9,10,12,19,38", ["41x14x3x21x43"]),
    ("international", "B:W27,28,38,39,42:BK25", ["25x48x31x22x33"]),
    ("international", "W:WK47:B9,12,33", ["47x20x3x17", "47x20x3x21", "47x20x3x26"]),
    ("international", "W:WK46:B23", ["46x10", "46x14", "46x19", "46x5"]),
    ("international", "W:W48:B24,K31,34,K42,43", ["48x39x30x19"]),
    ("international", "W:W26:B12,K21,31,32", ["26x17x8", "26x37x28"]),
    ("international", "W:W15:B9,10", ["15x4x13"]),
    ("international", "W:WK4:B13,20,32,37", ["4x27x38x15", "4x31x42x15"]),
    # Italian, FID
    ("italian", "W:W24:B20,28", ["24x15"]),
    ("italian", "W:WK24:B20,28", ["24x15", "24x31"]),
    ("italian", "W:W30:BK26", ["30-27"]),
    ("italian", "W:WK21,31:B10,18,27", ["31x22x13x6"]),
    ("italian", "W:WK23,31:B19,26,27", ["23x30x21"]),
    ("italian", "W:WK23:B19,K28", ["23x32"]),
    ("italian", "W:WK30:B10,12,18,K20,K26,27", ["30x21x14x5"]),
    ("italian", "W:WK31:B18,20,K27,K28", ["31x22x13", "31x24x15"]),
    # Russian: crowned during the capture, goes on as a king
    ("russian", "W:Wh6:Bg7,c5,d2", ["h6:f8:b4:e1"]),
    # English: crowning ends the move
    ("english", "W:W11:B6,7", ["11x2"]),
]


@pytest.mark.parametrize(("variant", "fen", "expected"), RULE_BOOK)
def test_rule_book(variant: str, fen: str, expected: list[str]) -> None:
    assert full(variant, fen) == sorted(expected)


def test_pdn_disambiguation_writes_square_behind_or_turning_square() -> None:
    # spec/perft.md: the path 47-33-24-13-36 is written 47x38x24x13x36
    assert pdn("international", "W:WK47:B14,19,29,31,42") == ["47x38x20x9x36", "47x38x24x13x36"]


def test_unambiguous_captures_are_short() -> None:
    assert pdn("international", "W:WK47:B9,12,33") == ["47x17", "47x21", "47x26"]


# --- one rule parameter at a time, on positions built for it --------------------------------


def test_english_man_steps_forward_only() -> None:
    # Black man on 9 (b6) moves towards White: a5 = 13, c5 = 14
    assert full("english", "B:W32:B9") == ["9-13", "9-14"]


def test_english_king_steps_one_square() -> None:
    # king on 18 (d4): c5 = 14, e5 = 15, c3 = 22, e3 = 23
    assert full("english", "W:WK18:B1") == ["18-14", "18-15", "18-22", "18-23"]


def test_capture_obligation_and_house_rule() -> None:
    # Black man on 14 (c5), White man on 18 (d4): the capture 14x23 is forced
    assert full("english", "B:W18:B14") == ["14x23"]
    # under "no capture obligation" the quiet move 14-17 (b4) is allowed too
    assert full("english-nco", "B:W18:B14") == ["14-17", "14x23"]


def test_men_capture_backwards_only_where_the_rules_say() -> None:
    # White man d4 with a black man behind it on c3 (b2 empty) and one in front on e5 (f6 empty)
    assert full("russian", "W:Wd4:Bc3,e5") == ["d4:b2", "d4:f6"]
    assert full("czech", "W:Wd4:Bc3,e5") == ["d4xf6"]


def test_free_choice_against_majority() -> None:
    # c3 can take b4 (one piece) or d4 and f6 (two pieces)
    assert full("russian", "W:Wc3:Bb4,d4,f6") == ["c3:a5", "c3:e5:g7"]
    assert full("brazilian", "W:Wc3:Bb4,d4,f6") == ["c3xe5xg7"]


def test_czech_king_must_capture_first() -> None:
    # king h2 takes g3 and must land on e5, from where it takes f6 (to g7 or h8);
    # the man c3 could take d4 and f6 too, but a king that can capture must
    assert full("czech", "W:Wc3,Kh2:Bd4,f6,g3") == ["h2xe5xg7", "h2xe5xh8"]
    assert full("russian", "W:Wc3,Kh2:Bd4,f6,g3") == ["c3:e5:g7", "h2:e5:g7", "h2:e5:h8"]


def test_spanish_prefers_more_kings_among_equal_captures() -> None:
    # Spanish numbering, White on 1-12 moving up. White man 14 (e4) can take 18 (f5)
    # or 19 (d5, a king, landing on 23 = c6): one piece each, the king must be taken.
    assert full("spanish", "W:W14:B18,K19") == ["14x23"]
    assert full("russian", "W:Wd4:Bc5,Ke5") == ["d4:b6", "d4:f6"]


def test_frisian_men_capture_orthogonally() -> None:
    # man 28 (e5) jumps the man on 18 (e7) straight up to 8 (e9)
    assert full("frisian", "W:W28:B18") == ["28x8"]
    assert full("international", "W:W28:B18") == ["28-22", "28-23"]


def test_turkish_men_move_forward_and_sideways() -> None:
    assert full("turkish", "W:Wd4:Bh8") == ["d4-c4", "d4-d5", "d4-e4"]
    assert full("turkish", "W:Wd4:Bd5") == ["d4xd6"]


def test_thai_king_lands_directly_behind() -> None:
    # Thai numbering: 1 = g1, 5 = h2, 9 = g3 ... a flying king on 1 (g1) takes a man on 10 (e3)
    # and must land on d4 (15), directly behind, not on c5 or b6; Thai writes captures with "-"
    assert full("thai", "W:WK1:B10") == ["1-15"]


def test_has_captures_says_whether_captures_exist() -> None:
    # Position.has_captures() promises bool(captures()) without building moves: held to that on
    # every position of 40 random games per variant (about 34,000 positions, a third with kings,
    # a quarter with a capture to make), and on the rule-book cases, all of which capture.
    rng = random.Random(12)
    seen = {True: 0, False: 0}
    for variant in VARIANTS.values():
        for _ in range(40):
            pos = Position.start(variant)
            for _ in range(200):
                can = bool(pos.captures())
                assert pos.has_captures() is can, (variant.name, pos)
                seen[can] += 1
                moves = pos.legal_moves()
                if not moves:
                    break
                pos = pos.play(rng.choice(moves))
    assert seen[True] > 5000 and seen[False] > 5000
    for name, fen, _ in RULE_BOOK:
        pos = parse_fen(fen, get_variant(name))
        assert pos.has_captures() is bool(pos.captures()) is (fen != "W:W30:BK26")


def test_fen_written_in_the_variants_squares_sorted() -> None:
    """pydraughts' Russian FEN (spec/pdn.md §4.3) written back by to_fen: algebraic squares in
    their order as names, and numeric by §4.3's mapping of 8x8 Russian (rank 8 - (n-1)//4,
    file 2((n-1)%4 + 1) - rank%2: d2 26, f6 11, c5 14, e5 15, e3 23), worked out by hand."""
    pos = parse_fen("W:WKd2:Bf6,c5,e5,e3", get_variant("russian"))
    assert to_fen(pos) == "W:WKd2:Bc5,e3,e5,f6"
    assert to_fen(pos, Notation.NUMERIC) == "W:WK26:B11,14,15,23"
