"""Each draw rule of each rule set on hand-made games built from the rule book's wording
(docs/rules.md): where its count starts, what restarts it, and the exact ply it draws at."""

from __future__ import annotations

import asyncio
import json
import random
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdn.board import Board
from pdn.cli.app import app
from pdn.db.connection import open_database
from pdn.db.report import html_report
from pdn.db.store import import_paths
from pdn.read.reader import read_string
from pdn.replay import Replay, replay_game
from pdn.rules.draw import COMMON, FMJD, RUSSIAN, WCDF, Termination, draw_rules, ending_text
from pdn.rules.fen import parse_fen
from pdn.rules.variants import get_variant
from pdn.web.app import make_app


def _plies(text: str) -> list[str]:
    """The moves of *text*, one per ply."""
    return text.split()


# FMJD art. 6: three kings against a lone king, nothing taken or crowned: White's kings walk,
# Black's king shuffles; the 16 moves of each side are done at ply 32
THREE_KINGS = _plies(
    "46-41 35-13 41-36 13-8 36-31 8-2 31-26 2-7 26-21 7-1 21-16 1-6 16-7 6-1 7-2 1-6 "
    "2-16 6-1 16-11 1-6 11-2 6-1 2-8 1-6 8-3 6-1 3-17 1-6 17-12 6-1 12-3 1-6"
)


def _first_draw(variant: str, fen: str, moves: list[str], rules: str = "official") -> int | None:
    """The ply of the first draw, pushing one move at a time (None: no draw)."""
    board = Board(variant, fen, rules)
    for ply, move in enumerate(moves, 1):
        board.push(move)
        if board.draw is not None:
            assert board.draw.ply == ply
            return ply
    return None


def test_fmjd_sixteen_moves_with_three_pieces_against_a_lone_king() -> None:
    fen = "W:WK46,K47,K48:BK35"
    assert _first_draw("international", fen, THREE_KINGS) == 32
    board = Board("international", fen, "official")
    assert board.push_written([m.split("-") for m in THREE_KINGS]) == 32
    draw = board.outcome()
    assert draw is not None and (draw.termination, draw.label, draw.ply) == (
        Termination.ENDGAME,
        "draw-16-moves",
        32,
    )
    assert draw.rule is not None and draw.rule.ends_game and "FMJD" in draw.rule.source
    board.pop()  # the count went back to 31 plies: no draw yet
    assert board.draw is None and board.outcome() is None
    assert _first_draw("international", fen, THREE_KINGS, "common") is None


def test_fmjd_count_starts_at_a_setup_in_the_movetext() -> None:
    # two opening plies, then a /FEN/ setup of three kings against one (as replay applies it):
    # the endgame count starts at that position, ply 2, and draws at ply 2 + 32
    board = Board("international", None, "official")
    board.push("32-28")
    board.push("19-23")
    assert board.draw is None  # looked at before the setup
    board.set_position(parse_fen("W:WK46,K47,K48:BK35", get_variant("international")))
    for move in THREE_KINGS[:31]:
        board.push(move)
    assert board.draw is None
    board.push(THREE_KINGS[31])
    assert board.draw is not None and (board.draw.label, board.draw.ply) == ("draw-16-moves", 34)


def test_fmjd_count_restarts_when_a_man_is_crowned() -> None:
    # two kings and a man against a king; the man crowns on ply 1 (7-1): three kings, counted
    # afresh from there, draw on ply 1 + 32
    moves = _plies(
        "7-1 35-30 1-6 30-13 6-1 13-8 1-6 8-2 6-1 2-11 1-6 11-7 6-1 7-2 1-6 2-16 6-1 16-21 1-6 "
        "21-12 6-1 12-3 1-6 3-8 6-1 8-17 1-6 17-3 6-1 3-26 1-6 26-21 6-1"
    )
    assert _first_draw("international", "W:WK46,K47,7:BK35", moves) == 33


def test_fmjd_five_moves_after_the_lone_king_takes() -> None:
    # three kings against one: Black takes a king on ply 10 (17x6) and another on ply 12
    # (6x33): one king each, the 5-move rule counts from ply 12 and draws at ply 22
    moves = _plies(
        "46-5 3-26 48-43 26-12 47-41 12-3 43-16 3-17 16-11 17x6 5-28 6x33 41-5 33-44 5-23 "
        "44-17 23-18 17-26 18-1 26-21 1-23 21-8"
    )
    board = Board("international", "W:WK46,K47,K48:BK3", "official")
    for move in moves[:21]:
        board.push(move)
    assert board.draw is None
    board.push(moves[21])
    assert board.draw is not None and (board.draw.label, board.draw.ply) == ("draw-5-moves", 22)


def test_russian_three_kings_against_a_king_on_the_main_diagonal() -> None:
    # the lone king stays on a1-h8: White (the stronger side, to move first) has not taken it
    # with its 5th move, ply 9
    moves = _plies("c1-d2 d4-f6 e1-f2 f6-g7 d2-e3 g7-h8 f2-g3 h8-g7 h2-g1 g7-h8")
    board = Board("russian", "W:WKc1,Ke1,Kh2:BKd4", "official")
    for move in moves[:8]:
        board.push(move)
    assert board.draw is None
    board.push(moves[8])
    assert board.draw is not None
    assert (board.draw.label, board.draw.ply) == ("draw-3-kings-main-diagonal", 9)


def test_russian_three_kings_against_a_king_off_the_main_diagonal() -> None:
    # the lone king leaves a1-h8 at once: the 15 moves of White count from the start, ply 29
    moves = _plies(
        "c1-d2 d4-c5 e1-g3 c5-e7 d2-e3 e7-f8 h2-g1 f8-h6 e3-d4 h6-f8 g1-h2 f8-h6 g3-h4 h6-f8 "
        "h2-g3 f8-h6 g3-e5 h6-f8 d4-b6 f8-h6 h4-f6 h6-f8 e5-c7 f8-h6 b6-a7 h6-f8 f6-h8 f8-h6 "
        "a7-b8 h6-f8"
    )
    fen = "W:WKc1,Ke1,Kh2:BKd4"
    assert _first_draw("russian", fen, moves) == 29
    board = Board("russian", fen, "official")
    for move in moves[:29]:
        board.push(move)
    assert board.draw is not None and board.draw.label == "draw-3-kings-15-moves"


def test_russian_thirty_moves_in_a_four_piece_ending_with_kings() -> None:
    # a king and a man each; White's man moves on plies 21, 23, 45 and 49, so the 15-move
    # kings-only count never reaches 30 plies, and nothing is taken or crowned: 30 moves each
    moves = _plies(
        "h2-g1 b8-c7 g1-h2 c7-d8 h2-g3 d8-e7 g3-h4 e7-f8 h4-g5 f8-g7 g5-h6 g7-f8 h6-f4 f8-g7 "
        "f4-g5 g7-f8 g5-h6 f8-e7 h6-f8 e7-d8 a1-b2 d8-f6 b2-a3 f6-d8 f8-h6 d8-e7 h6-f8 e7-f6 "
        "f8-g7 f6-e7 g7-h6 e7-f8 h6-g5 f8-g7 g5-h6 g7-f6 h6-f4 f6-g7 f4-g5 g7-f8 g5-h6 f8-d6 "
        "h6-f8 d6-c7 a3-b4 c7-d8 f8-h6 d8-e7 b4-a5 e7-f8 h6-g5 f8-g7 g5-h6 g7-f6 h6-g7 f6-e7 "
        "g7-f8 e7-d8 f8-h6 d8-e7 h6-f4 e7-f8"
    )
    fen = "W:WKh2,a1:BKb8,h8"
    assert _first_draw("russian", fen, moves) == 60
    board = Board("russian", fen, "official")
    for move in moves[:60]:
        board.push(move)
    assert board.draw is not None and board.draw.label == "draw-30-moves-4-5-pieces"


def test_frisian_two_kings_against_a_king() -> None:
    # KNDB: the stronger side, to move first, has 7 moves: its 7th is ply 13
    moves = _plies("46-41 3-9 50-45 9-4 41-37 4-9 45-40 9-4 37-32 4-15 40-34 15-4 34-30 4-15")
    assert _first_draw("frisian", "W:WK46,K50:BK3", moves) == 13


def test_each_variant_has_its_federations_rules() -> None:
    assert draw_rules("official", get_variant("international")) is FMJD
    assert draw_rules("official", get_variant("brazilian")) is FMJD
    assert draw_rules("official", get_variant("russian")) is RUSSIAN
    assert draw_rules("official", get_variant("english")) is WCDF
    assert draw_rules("seed", get_variant("english")) is draw_rules("common", get_variant("pool"))
    assert draw_rules("common", get_variant("russian")) is COMMON
    assert all(not r.ends_game for r in WCDF.rules)  # WCDF: a player claims the draw
    with pytest.raises(ValueError, match="common, official, seed"):
        draw_rules("house", get_variant("english"))


# -- endings of replayed games ----------------------------------------------------------------

REPEATED = '[GameType "21"]\n[FEN "W:WK28:BK2,3"]\n[Result "{result}"]\n' + (
    "28-32 2-7 32-28 7-2 28-32 2-7 32-28 7-2 28-24 3-8 {rest}"
)


def _replay(text: str, rules: str = "common") -> Replay:
    [game] = read_string(text)
    return replay_game(game, rules=rules)


def test_a_repetition_the_game_played_past_is_a_warning_not_its_ending() -> None:
    # the start comes back for the third time at ply 8; the game goes on two plies, and the
    # result says Black won: the termination is not a draw
    text = REPEATED.format(result="0-1", rest="0-1")
    r = _replay(text)
    assert r.draw is not None and (r.draw.label, r.draw.ply) == ("draw-repetition", 8)
    assert r.rules_ending is r.draw  # the common rules end the game there by themselves
    assert r.termination == "as-recorded" and r.ending is None
    [warning] = [w for w in r.warnings if "ply 8" in w.message]
    assert warning.message == (
        "draw by repetition of the position at ply 8 (spec/rules.md §2 (the site's rules)) ended "
        "the game; the game goes on 2 plies, from 28-24; the result 0-1 says it was won"
    )
    drawn = _replay(REPEATED.format(result="1/2-1/2", rest="1/2-1/2"))
    assert (drawn.termination, drawn.termination_ply) == ("draw-repetition", 8)


def test_a_claimable_draw_played_past_is_not_the_ending() -> None:
    # WCDF (official English): the repetition may be claimed; played past, the game was not
    # drawn there whatever its result says
    r = _replay(REPEATED.format(result="1/2-1/2", rest="1/2-1/2"), "official")
    assert r.termination == "as-recorded" and r.rules_ending is None
    assert any("could be claimed at ply 8" in w.message for w in r.warnings)
    text = REPEATED.format(result="1/2-1/2", rest="").replace(" 28-24 3-8", "")
    stopped = _replay(text, "official")
    assert (stopped.termination, stopped.termination_ply) == ("draw-repetition", 8)


def test_the_vocabulary_of_endings() -> None:
    assert ending_text("win") == "won: the side to move has no legal move"
    assert ending_text("draw-repetition") == "draw by repetition of the position"
    assert ending_text("draw-40-moves") == "draw by the 40-move rule"
    assert ending_text("draw-5-moves").startswith("draw by the endgame rule")
    assert "undecided" not in ending_text("as-recorded")


# -- held to dame-rs, which applies FMJD's draw rules -------------------------------------------


@pytest.mark.parametrize(
    "fen",
    ["W:WK46,K47:BK5", "W:WK46,K47,K48:BK3", "W:WK46,K47,48:BK3", "W:WK46,47,48:BK35"],
)
def test_international_endings_agree_with_dame(fen: str) -> None:
    dame = pytest.importorskip("dame")
    agreed = 0
    for seed in range(40):
        rng = random.Random(seed)
        theirs = dame.Board(fen)
        ours = Board("international", fen, "official")
        while theirs.outcome() is None and theirs.ply < 200:
            move = rng.choice(theirs.legal_moves)
            theirs.push(move)
            ours.push(str(move))
            assert (ours.outcome() is None) == (theirs.outcome() is None), (seed, theirs.ply)
        outcome, ending = theirs.outcome(), ours.outcome()
        assert outcome is not None and ending is not None and ending.ply == theirs.ply
        kind = {
            "NO_MOVES": "win",
            "REPETITION": "draw-repetition",
            "TWENTY_FIVE_MOVES": "draw-25-moves",
            "SIXTEEN_MOVES": "draw-16-moves",
            "FIVE_MOVES": "draw-5-moves",
        }[str(outcome.termination).rsplit(".", 1)[-1]]
        assert ending.label == kind, (seed, theirs.ply)
        agreed += kind != "win"
    assert agreed  # some games of each start ended by a draw rule


def test_international_endings_agree_with_dame_on_its_engines_games() -> None:
    # six games of dame's engine (3,000 nodes a move) after four random plies: where dame says
    # each game ended (a win, or FMJD's 5-move rule twice), this Board says the same at each ply
    dame = pytest.importorskip("dame")
    labels = []
    for seed in range(6):
        rng = random.Random(seed)
        theirs = dame.Board()
        ours = Board("international", None, "official")
        engine = dame.Engine(hash_mb=16)
        while theirs.outcome() is None and theirs.ply < 400:
            move = (
                rng.choice(theirs.legal_moves)
                if theirs.ply < 4
                else engine.search(theirs, nodes=3000).best_move
            )
            theirs.push(move)
            ours.push(str(move))
            assert (ours.outcome() is None) == (theirs.outcome() is None), (seed, theirs.ply)
        ending = ours.outcome()
        assert ending is not None and ending.ply == theirs.ply
        labels.append(ending.label)
    assert "draw-5-moves" in labels and "win" in labels


# -- one vocabulary of endings: CLI, report, page ------------------------------------------------


def _asgi_get(app: object, path: str) -> bytes:
    """The body of GET *path* from an ASGI *app* (no HTTP client needed)."""
    scope = {
        "type": "http", "http_version": "1.1", "method": "GET", "path": path, "raw_path":
        path.encode(), "query_string": b"", "headers": [(b"host", b"localhost")],
        "scheme": "http", "server": ("localhost", 80), "client": ("127.0.0.1", 1), "root_path": "",
    }  # fmt: skip
    body: list[bytes] = []

    async def receive() -> dict[str, object]:
        return {"type": "http.request", "body": b"", "more_body": False}

    async def send(message: dict[str, object]) -> None:
        if message["type"] == "http.response.body":
            body.append(message.get("body", b""))  # type: ignore[arg-type]

    asyncio.run(app(scope, receive, send))  # type: ignore[operator]
    return b"".join(body)


def test_the_ending_is_said_in_the_same_words_everywhere(tmp_path: Path) -> None:
    path = tmp_path / "drawn.pdn"
    path.write_text(REPEATED.format(result="1/2-1/2", rest="1/2-1/2"), encoding="utf-8")
    words = ending_text("draw-repetition")
    done = CliRunner().invoke(app, ["replay", str(path)])
    assert f"ended: draw-repetition at ply 8: {words}" in done.output
    engine = open_database(str(tmp_path / "drawn.db"))
    import_paths(engine, [path])
    page = html_report(engine, "drawn")
    assert f"<li><b>draw-repetition</b>: {words}</li>" in page
    info = json.loads(_asgi_get(make_app(engine, "drawn"), "/api/info"))
    assert info["endings"]["draw-repetition"] == words
    assert info["endings"]["as-recorded"] == ending_text("as-recorded")
    assert "undecided" not in json.dumps(info["endings"]) + page + done.output
    engine.dispose()
