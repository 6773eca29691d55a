"""Replay: terminations and every kind of error, on games written for the purpose.

Square numbers are worked out by hand from the numbering of spec/pdn.md §6 (English: 1 = b8,
4 = h8, 5 = a7, 29 = a1, 32 = g1, Black on 1-12 moving first towards 32).
"""

from __future__ import annotations

from pdn.read.reader import read_string
from pdn.replay import Replay, candidate_variants, replay_game
from pdn.rules.draw import draw_rules
from pdn.rules.geometry import geometry
from pdn.rules.variants import get_variant

OPENING = ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]


def replay(
    text: str, variant: str | None = None, rules: str = "seed", candidates: bool = False
) -> Replay:
    [game] = read_string(text)
    assert game.syntax_error is None
    return replay_game(game, get_variant(variant) if variant else None, rules, None, candidates)


# --- terminations ------------------------------------------------------------------------------


def _forty_move_game(extra: str = "") -> str:
    """English, White to move: White men b2 (25) and a1 (29) walk up the a/b files (10 moves),
    White's king shuffles h2 (28) - g1 (32), Black's king d8 (2) - e7 (7).

    Each 8 plies are one man move, three king moves and four Black king moves: a position comes
    back at most twice between two man moves, nothing is captured or crowned (a7 = 5 is the
    furthest a man gets), so the 40-move rule ends the game at ply 80.
    """
    men = ["25-21", "29-25", "21-17", "25-21", "17-13", "21-17", "13-9", "17-13", "9-5", "13-9"]
    king = ["28-32", "32-28"]
    plies: list[str] = []
    k = 0
    for man in men:
        for white in [man, king[k % 2], king[(k + 1) % 2], king[(k + 2) % 2]]:
            plies.append(white)
            plies.append("2-7" if len(plies) % 4 == 1 else "7-2")
        k += 3
    text = " ".join(plies) + (" " + extra if extra else "")
    return f'[GameType "21"]\n[FEN "W:W25,29,K28:BK2"]\n{text} *'


def test_forty_move_rule_ends_the_game_at_ply_80() -> None:
    r = replay(_forty_move_game())
    assert r.valid and r.plies == 80
    assert (r.termination, r.termination_ply) == ("draw-40-moves", 80)


def test_moves_after_the_end_are_reported() -> None:
    r = replay(_forty_move_game("28-32"))  # White's king stands on h2 (28) after ply 80
    assert r.valid and r.plies == 81
    assert (r.termination, r.termination_ply) == ("draw-40-moves", 80)
    [warning] = [w for w in r.warnings if "ended the game" in w.message]
    assert warning.message == (
        "draw by the 40-move rule at ply 80 (spec/rules.md §2 (the site's rules)) ended the game; "
        "the game goes on 1 plies, from 28-32"
    )


def test_official_rules_count_only_king_moves() -> None:
    # WCDF: a man move restarts the count; the last man move is ply 73
    r = replay(_forty_move_game(), rules="official")
    assert r.valid and r.termination == "as-recorded"
    assert draw_rules("official", get_variant("international")).quiet_moves == 25


def test_threefold_repetition() -> None:
    # kings h2 (28) and d8 (2) shuffle: the start position comes back at plies 4 and 8
    r = replay('[GameType "21"]\n[FEN "W:WK28:BK2"]\n28-32 2-7 32-28 7-2 28-32 2-7 32-28 7-2 *')
    assert (r.termination, r.termination_ply) == ("draw-repetition", 8)


def test_win_by_taking_the_last_piece_and_the_result_check() -> None:
    # Black man 14 (c5) takes White's last man on 18 (d4) and lands on 23 (e3)
    won = replay('[GameType "21"]\n[FEN "B:W18:B14"]\n[Result "1-0"]\n1. 14x23 1-0')
    assert won.valid and (won.termination, won.termination_ply) == ("win", 1)
    wrong = replay('[GameType "21"]\n[FEN "B:W18:B14"]\n[Result "0-1"]\n1. 14x23 0-1')
    [error] = wrong.errors
    assert error.kind == "result"
    assert error.reason.startswith("result 0-1 says White won, but White has no legal move")
    draw = replay('[GameType "21"]\n[FEN "B:W18:B14"]\n[Result "1/2-1/2"]\n1. 14x23 *')
    assert draw.errors[0].reason == "result 1/2-1/2 is a draw, but White has no legal move and lost"


def test_no_rule_ended_it_as_recorded() -> None:
    r = replay('[GameType "21"]\n1. 11-15 23-19 *')
    assert r.valid and (r.termination, r.termination_ply) == ("as-recorded", None)
    assert r.ending is None and r.rules_ending is None


# --- errors ------------------------------------------------------------------------------------


def test_illegal_move_lists_the_legal_moves() -> None:
    r = replay('[GameType "21"]\n\n1. 11-15 24-20 2. 12-17 *')
    [e] = r.errors
    assert (e.ply, e.move, e.line, e.column, e.reason) == (3, "12-17", 3, 19, "illegal move")
    # Black to move after 11-15 24-20: 8-11, 9-13, 9-14, 10-14, 12-16, 15-18, 15-19 and 7-11
    assert e.legal == ["10-14", "12-16", "15-18", "15-19", "7-11", "8-11", "9-13", "9-14"]


def test_a_capture_must_be_taken() -> None:
    r = replay('[GameType "21"]\n[FEN "B:W18:B1,14"]\n1. 1-6 *')
    # the capture obligation: spec/rules.md §1, mandatory in every variant
    assert r.errors[0].reason == "illegal move: a capture is compulsory"
    assert r.errors[0].legal == ["14x23"]


def test_square_off_the_board() -> None:
    r = replay('[GameType "21"]\n1. 9-99 *')
    assert r.errors[0].reason == "square '99' is not on the english board (1-32)"


def test_unknown_move() -> None:
    r = replay('[GameType "25"]\n1. - - 2. - - *')
    assert r.errors[0].reason == "unknown move: the record does not say which move"


def test_bad_fen_tag() -> None:
    r = replay('[GameType "21"]\n[FEN "W:W33:B1"]\n*')
    assert r.errors[0].kind == "fen"
    assert "square '33' is not on the english board" in r.errors[0].reason


def test_ambiguous_short_capture() -> None:
    # spec/perft.md: king 4 takes 13, 20 and 32 or 37 on its way to 15 (plus a man on 50)
    fen = '[GameType "20"]\n[FEN "W:WK4:B13,20,32,37,50"]\n'
    alone = replay(fen + "1. 4x15 *")
    assert alone.errors[0].reason == "ambiguous move: it fits 4x27x38x15, 4x31x42x15"
    # 37-42 (c3-d2) is only possible if 37 was not taken: the path over 32 it is, with a warning
    resolved = replay(fen + "1. 4x15 37-42 *")
    assert resolved.valid
    g = geometry(get_variant("international"))
    assert [g.number(s) for s in resolved.moves[0].captured] == [13, 32, 20]
    assert "only 4x27x38x15 lets the game go on" in str(resolved.warnings[0])


def test_long_forms_and_split_captures() -> None:
    fen = '[GameType "20"]\n[FEN "W:WK4:B13,20,32,37,50"]\n'
    assert replay(fen + "1. 4x27x38x15 *").valid  # every landing square
    # 38 is where the path over 32 lands; the path over 37 only flies over it
    assert replay(fen + "1. 4x38x15 *").valid
    assert replay(fen + "1. 4-27-38-15 *").valid  # hyphens, as DYNAMO writes captures
    # English, Black man 11 (f6) takes 15 (e5) to 18 (d4), then 22 (c3) to 25 (b2)
    r = replay('[GameType "21"]\n[FEN "B:W15,22:B11"]\n1. 11x18 18x25 *')
    assert r.valid and r.plies == 1 and r.termination == "win"
    assert "capture written in parts (11x18 18x25) joined" in str(r.warnings[0])


def test_russian_short_algebraic_and_numeric_squares() -> None:
    assert replay('[GameType "25"]\n1. cd4 fg5 2. dc5 *').plies == 3
    assert replay('[GameType "25"]\n1. c3-d4 f6-g5 *').valid


def test_variations_are_checked_from_their_own_position() -> None:
    r = replay('[GameType "21"]\n1. 11-15 (1. 12-17) 23-19 *')
    [e] = r.errors
    assert e.variation and e.move == "12-17" and e.legal == OPENING
    # a "variation" that only makes sense after the move is read as a continuation
    r = replay('[GameType "21"]\n1. 11-15 (24-19) 1... 23-19 *')
    assert r.valid and "read as a continuation" in str(r.warnings[0])


# --- the variant --------------------------------------------------------------------------------


def test_variant_from_gametype_option_or_notation() -> None:
    assert replay('[GameType "20"]\n1. 32-28 *').variant_source == "gametype"
    r = replay("1. 32-28 *", variant="international")
    assert (r.variant.name, r.variant_source) == ("international", "option")
    # 32-28 19-23 fits no 8x8 numbering (19 is empty in Italian, 32 is White's in English);
    # Frisian fits as well as International
    r = replay("1. 32-28 19-23 *", candidates=True)
    assert (r.variant.name, r.variant_source) == ("international", "notation")
    assert r.candidates == ["frisian"]
    r = replay("1. c3-d4 f6-g5 *", candidates=True)
    assert (r.variant.name, r.candidates) == ("russian", ["brazilian", "czech"])


def test_candidates_that_also_fit_are_reported_when_asked() -> None:
    # 11-15 24-20 is legal English, Spanish (d3-c4, a6-b5) and pool; not Italian or 10x10
    r = replay("1. 11-15 24-20 *", candidates=True)
    assert (r.variant.name, r.candidates) == ("english", ["spanish", "pool"])
    assert replay("1. 11-15 24-20 *").candidates == []  # not asked: English alone is replayed


def test_tags_break_a_tie() -> None:
    [game] = read_string('[Event "Campionato Italiano"]\n[FEN "W:W21:B1"]\n*')
    assert candidate_variants(game)[0] == "italian"
    [game] = read_string('[Bianco "A"]\n*')
    assert candidate_variants(game)[0] == "italian"


def test_frisian_king_moves_at_most_three_times_in_a_row() -> None:
    # White: king a1 (46), man i1 (50); Black: a man walking h10-g9-f8-e7-d6 (4, 9, 13, 18,
    # 22), off every line the king sees from a1 or b2 (41), so nothing can be taken.
    # The king's fourth idle move in a row is refused while White still has a man.
    game = '[GameType "40"]\n[FEN "W:WK46,50:B4"]\n1. 46-41 4-9 2. 41-46 9-13 3. 46-41 13-18 '
    r = replay(game + "4. 41-46 *")
    [e] = r.errors
    assert (e.ply, e.move, e.reason, e.legal) == (7, "41-46", "illegal move", ["50-44", "50-45"])
    assert replay(game + "4. 50-44 18-22 5. 41-46 *").valid  # a man move starts the count again
    assert replay(game.replace('"40"', '"20"') + "4. 41-46 *").valid  # International: no limit


# --- capture paths written in full (issue 12) ---------------------------------------------------
#
# In each position below one piece can take the same four men going round them either way: the
# two orders reach the same position (one move when counting), and a move written with every
# landing square of either order is legal. A middle square the piece never lands on or passes is
# refused, and the legal list then shows every path in full.


def _written(text: str) -> list[str]:
    return [f"{e.reason}; legal: {', '.join(e.legal)}" for e in replay(text).errors]


def _path(r: Replay) -> list[str]:
    g = geometry(r.variant)
    return [g.label(s) for s in r.moves[0].path]


def test_international_king_takes_four_men_round_either_way() -> None:
    # White king e1 (48); Black men f2 (43), f4 (33), d4 (32), d2 (42). Going NE the king jumps
    # f2 and may land on g3 (39), h4, i5 or j6, but only from g3 can it go on (over f4, NW);
    # beyond f4 only e5 (28) lets it go on (over d4, SW); beyond d4 only c3 (37) (over d2, SE),
    # landing on e1, which it left empty. From h4, i5, j6, d6, c7, b8, a9, b2 and a1 every line
    # is empty or blocked by a man already taken. The mirror image goes NW first. So two paths,
    # 48x39x28x37x48 and 48x37x28x39x48, both taking all four men: one move, written 48x48.
    fen = '[GameType "20"]\n[FEN "W:WK48:B32,33,42,43"]\n'
    for path in ("48x39x28x37x48", "48x37x28x39x48"):
        r = replay(fen + f"1. {path} *")
        assert r.valid and _path(r) == path.split("x")
    assert replay(fen + "1. 48x48 *").valid
    assert replay(fen + "1. 48x39x48 *").valid  # a long form naming one turning square
    # c5 (27) is on neither path; g3, e5, c3 in the order e5 first is neither
    full = "illegal move; legal: 48x37x28x39x48, 48x39x28x37x48"
    assert _written(fen + "1. 48x39x27x37x48 *") == [full]
    assert _written(fen + "1. 48x28x39x37x48 *") == [full]
    assert _written(fen + "1. 48x47 *") == ["illegal move; legal: 48x48"]  # short: short list


def test_frisian_man_takes_four_men_round_either_way() -> None:
    # The same four men, a White man on e1 (48): a man jumps only the man next to it, so from
    # e1 over f2 to g3 or over d2 to c3, then round. Frisian men also take along files and
    # ranks, over the square two away: e3, c1, g1, g5, i3, e7, c5, a3 are all empty, so no
    # such jump exists. Both paths take four men (the same value): both are legal.
    fen = '[GameType "40"]\n[FEN "W:W48:B32,33,42,43"]\n'
    for path in ("48x39x28x37x48", "48x37x28x39x48"):
        r = replay(fen + f"1. {path} *")
        assert r.valid and _path(r) == path.split("x")
    assert _written(fen + "1. 48x39x28x38x48 *") == [
        "illegal move; legal: 48x37x28x39x48, 48x39x28x37x48"
    ]  # e3 (38): the man never stands there


def test_russian_man_takes_four_men_round_either_way() -> None:
    # White man d2; Black men c3, e3, c5, e5. Over e3 to f4, over e5 to d6 (not the last rank:
    # no crowning), over c5 to b4, back over c3 to d2; or the other way round. Every other
    # neighbour on the way is empty (g5, g3, c7, e7, a5, a3) or a man already taken.
    fen = '[GameType "25"]\n[FEN "W:Wd2:Bc3,c5,e3,e5"]\n'
    for path in ("d2:f4:d6:b4:d2", "d2:b4:d6:f4:d2", "d2xb4xd6xf4xd2"):
        r = replay(fen + f"1. {path} *")
        assert r.valid and _path(r) == path.replace("x", ":").split(":")
    assert replay(fen + "1. d2:d2 *").valid
    assert _written(fen + "1. d2:f4:d8:b4:d2 *") == [
        "illegal move; legal: d2:b4:d6:f4:d2, d2:f4:d6:b4:d2"
    ]


def test_brazilian_king_takes_four_men_round_either_way() -> None:
    # White king d2; Black men c3, e3, c5, e5. NE over e3 it may land on f4, g5 or h6: only f4
    # goes on (NW over e5), then only d6 (SW over c5: c7 and b8 see nothing), then only b4 (SE
    # over c3; a3 sees nothing), and beyond c3 both d2 and e1 are ends (nothing left to take).
    # The other way round: NW over c3 to b4 (a5 sees nothing), NE over c5 to d6 (e7, f8 see
    # nothing), SE over e5 to f4 (g3, h2 see nothing), SW over e3 to d2 or c1. Four paths, all
    # taking four men (majority holds for each): d2xd2 by two orders, d2xe1 and d2xc1.
    fen = '[GameType "26"]\n[FEN "W:WKd2:Bc3,c5,e3,e5"]\n'
    for path in ("d2xf4xd6xb4xd2", "d2xb4xd6xf4xd2", "d2xf4xd6xb4xe1", "d2xb4xd6xf4xc1"):
        r = replay(fen + f"1. {path} *")
        assert r.valid and _path(r) == path.split("x")
    assert replay(fen + "1. d2xd2 *").valid and replay(fen + "1. d2xe1 *").valid
    # e1 is reached only after f4 first: the order written does not end there
    every = "d2xb4xd6xf4xc1, d2xb4xd6xf4xd2, d2xf4xd6xb4xd2, d2xf4xd6xb4xe1"
    assert _written(fen + "1. d2xb4xd6xf4xe1 *") == [f"illegal move; legal: {every}"]
    assert _written(fen + "1. d2xf4xd6xa3xd2 *") == [f"illegal move; legal: {every}"]


def test_italian_king_takes_four_men_round_either_way() -> None:
    # Italian numbering (a8 = 1, a1 not a playing square): White king d1 (30); Black men c2
    # (26), e2 (27), c4 (18), e4 (19). The king steps: over e2 to f3 (23), over e4 to d5 (14),
    # over c4 to b3 (21), over c2 back to d1; or the other way round. FID precedence: four men
    # each, both by the king, no king taken: the orders are equal and both legal.
    fen = '[GameType "22"]\n[FEN "W:WK30:B18,19,26,27"]\n'
    for path in ("30x23x14x21x30", "30x21x14x23x30"):
        r = replay(fen + f"1. {path} *")
        assert r.valid and _path(r) == path.split("x")
    assert _written(fen + "1. 30x23x15x21x30 *") == [
        "illegal move; legal: 30x21x14x23x30, 30x23x14x21x30"
    ]  # f5 (15): off both paths


def test_pdn_disambiguated_long_form_and_other_landing_squares() -> None:
    # spec/pdn.md §5.2 and spec/perft.md: White king c1 (47); Black men d2 (42), g5 (29), g7
    # (19), h8 (14), b4 (31). Over d2 the king may touch down on e3 (38) or f4 (33), then over g5
    # to h6 (24) or i7 (20). From h6 it takes g7 (landing f8, 13) and b4 (landing a3, 36); from
    # i7 it takes h8 (landing g9, 9) and b4 (landing a3). Two captures end on 36, with different
    # pieces: 47x36 is ambiguous, and so is 47x24x36 (24 is also the square behind g5 on the
    # way to i7). PDN 3.0 writes the first 47x38x24x13x36 (38: directly behind d2); written
    # with every landing square it may also be 47x33x24x13x36 (the king touching down on f4).
    fen = '[GameType "20"]\n[FEN "W:WK47:B14,19,29,31,42"]\n'
    first = replay(fen + "1. 47x38x24x13x36 *")
    other = replay(fen + "1. 47x33x24x13x36 *")
    assert first.valid and other.valid and first.final == other.final
    g = geometry(get_variant("international"))
    assert sorted(g.number(s) for s in first.moves[0].captured) == [19, 29, 31, 42]
    assert replay(fen + "1. 47x38x20x9x36 *").valid
    ambiguous = "ambiguous move: it fits 47x38x24x13x36, 47x38x20x9x36"
    for short in ("47x36", "47x24x36"):
        assert [e.reason for e in replay(fen + f"1. {short} *").errors] == [ambiguous]
