"""The Hub client (pdn.engine.hub) against real Hub engines (dame-rs's `dame hub`, this toolkit's
`pdn engine`) and fake ones that crash, fall silent or write junk: each failure one EngineError
within the limit and the grace time, and no engine process left behind."""

from __future__ import annotations

import os
import sys
import textwrap
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from conftest import dame_hub
from pdn.board import Board
from pdn.engine import EngineError, HubEngine, Limit, Score, hub
from pdn.engine.hub import (
    board_tail,
    hub_move,
    hub_position,
    hub_score,
    parse_line,
    read_hub_move,
    read_hub_position,
)
from pdn.rules.position import Position
from pdn.rules.variants import get_variant

START_10X10 = "W" + "b" * 20 + "e" * 10 + "w" * 20  # protocol.txt's own example


def _gone(pid: int | None) -> bool:
    """Whether no process (not even a zombie to reap) has this id."""
    assert pid is not None, "the engine was never started"
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    return False


FAKE = textwrap.dedent(
    """
    import sys, time
    mode = sys.argv[1]
    for line in sys.stdin:
        word = line.split()[0] if line.split() else ""
        if word == "hub":
            if mode == "mute":
                time.sleep(3600)
            print("id name=fake version=1", flush=True)
            if mode == "frisian":
                print('param name=variant value=normal type=enum values="normal frisian"')
            print("wait", flush=True)
        elif word == "init":
            print("ready", flush=True)
        elif word == "go":
            if mode == "crash":
                sys.stderr.write("fake: out of memory\\n")
                sys.exit(3)
            if mode == "silent":
                time.sleep(3600)
            if mode == "junk":
                print("info depth=1 score=0.1 pv=32-28", flush=True)
                print("done move=99-98", flush=True)
            if mode == "badinfo":
                print("info depth=one score=high", flush=True)
            if mode == "error":
                print('error message="no book"', flush=True)
        elif word == "quit":
            break
    """
)


Fake = Callable[[str], list[str]]


@pytest.fixture
def fake(tmp_path: Path) -> Fake:
    script = tmp_path / "fake_hub.py"
    script.write_text(FAKE)
    return lambda mode: [sys.executable, str(script), mode]


# -- the protocol's text ----------------------------------------------------------------------


def test_position_text_is_protocol_txt_start() -> None:
    """protocol.txt: "pos pos=Wbbbbbbbbbbbbbbbbbbbbeeeeeeeeeewwwwwwwwwwwwwwwwwwww" is the start."""
    v = get_variant("international")
    assert hub_position(Position.start(v)) == START_10X10
    assert read_hub_position(START_10X10, v) == Position.start(v)
    with pytest.raises(ValueError):
        read_hub_position(START_10X10[:-1], v)


def test_line_syntax_quotes_and_flags() -> None:
    command, args = parse_line('info depth=21 score=-0.01 pv="32-28 17-22" flag')
    assert command == "info"
    assert args == {"depth": "21", "score": "-0.01", "pv": "32-28 17-22", "flag": ""}


def test_captures_read_in_any_order() -> None:
    """White man 46 (a1) takes 41 (b2) and 32 (d4), landing on 28 (e5): protocol.txt writes the
    captured squares "in any order", so 46x28x41x32 and 46x28x32x41 are the same move; the PDN
    path 46x37x28 names it too."""
    board = Board("international", "W:W46:B41,32")
    moves = {read_hub_move(board, t) for t in ("46x28x41x32", "46x28x32x41", "46x37x28", "46x28")}
    assert len(moves) == 1
    (move,) = moves
    assert move is not None
    g = board.position.geometry
    assert (g.number(move.start), g.number(move.end)) == (46, 28)
    assert sorted(g.number(s) for s in move.captured) == [32, 41]
    assert hub_move(board.position, move) == "46x28x41x32"
    assert read_hub_move(board, "46x28x41x33") is None  # 33 is not taken
    assert read_hub_move(board, "46-41") is None
    assert read_hub_move(board, "banana") is None


def test_scores_as_scan_writes_them() -> None:
    """Scan 3.1 src/score.hpp: Inf = 10000 centi-men, a win in N plies is Inf - N."""
    assert hub_score("0.35") == Score.of_men(0.35)
    assert hub_score("99.97") == Score.win(3)
    assert hub_score("-99.96") == Score.win(-4)
    assert hub_score("100.00") == Score.of_men(100.0)  # dame-rs: a win, its length not told
    with pytest.raises(ValueError):
        hub_score("high")


def test_moves_sent_since_the_last_capture_or_man_move() -> None:
    """The tail of the game that repetitions can reach back to: king moves after the capture."""
    board = Board("international", "W:WK46,K50:BK5,K1,10")
    for text in ("50-44", "1-7", "44-50", "7-1"):
        board.push(text)
    start, moves = board_tail(board)
    assert start == board.positions()[0] and len(moves) == 4
    board = Board("international", "W:W31,K50:B16,K1")
    for text in ("50-44", "1-7", "31-27", "7-1", "44-50"):
        board.push(text)
    start, moves = board_tail(board)
    assert start == board.positions()[3] and len(moves) == 2  # after the man move 31-27


# -- dame-rs's engine -------------------------------------------------------------------------


def test_dame_analyses_and_plays() -> None:
    board = Board("international")
    board.push("32-28")
    board.push("19-23")  # White must take: 28x19 is the only move
    with HubEngine(dame_hub()) as engine:
        assert engine.name == "dame"
        (info,) = engine.analyse(board, Limit(depth=6))
        assert info.depth == 6 and info.nodes > 0 and info.score.relative.men is not None
        assert info.pv[0] == board.legal_moves[0]
        replay = board.copy()
        for move in info.pv:  # every move of the line legal in turn
            assert move in replay.legal_moves
            replay.push(move)
        assert engine.play(board, Limit(time=0.1)) in board.legal_moves
        pid = engine.pid
    assert _gone(pid)


def test_dame_plays_only_international() -> None:
    with pytest.raises(EngineError, match="does not play english"):
        HubEngine(dame_hub(), "english")


def test_dame_sees_a_won_position() -> None:
    """White's king on 46 takes Black's last man, on 10, landing on 5 (the example of dame-rs's
    own docstring): a won game."""
    with HubEngine(dame_hub()) as engine:
        board = Board("international", "W:WK46:B10")
        (info,) = engine.analyse(board, Limit(depth=4))
        assert info.score.relative > Score.of_men(50)
        assert hub_move(board.position, info.pv[0]) == "46x5x10"


# -- engines that fail ------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("mode", "message"),
    [
        ("crash", r"exited with code 3: fake: out of memory"),
        ("junk", r"wrote '99-98' for its move"),
        ("badinfo", r"info line it cannot mean"),
        ("error", r"fake_hub.py|python"),
    ],
)
def test_failing_engine_is_one_error(fake: Fake, mode: str, message: str) -> None:
    engine = HubEngine(fake(mode), grace=0.5)
    pid = engine.pid
    with pytest.raises(EngineError, match=message):
        engine.analyse(Board("international"), Limit(time=5))
    engine.close()
    assert _gone(pid)


def test_an_engine_that_never_answers_hub_is_named_so(
    fake: Fake, monkeypatch: pytest.MonkeyPatch
) -> None:
    """(It said "no the answer to hub" before.)"""
    monkeypatch.setattr(hub, "STARTUP", 0.3)
    with pytest.raises(EngineError, match=r"no answer to hub within 0\.3 s: the engine hangs"):
        HubEngine(fake("mute"))


def test_silent_engine_fails_within_limit_and_grace(fake: Fake) -> None:
    engine = HubEngine(fake("silent"), grace=0.5)
    pid = engine.pid
    began = time.monotonic()
    with pytest.raises(EngineError, match=r"no move within 0\.7 s: the engine hangs"):
        engine.analyse(Board("international"), Limit(time=0.2))
    took = time.monotonic() - began
    assert 0.7 <= took < 1.5
    assert _gone(pid)
    with pytest.raises(EngineError, match="closed"):
        engine.analyse(Board("international"), Limit(time=0.2))


def test_engine_that_cannot_start() -> None:
    with pytest.raises(EngineError, match="cannot start"):
        HubEngine(["/nonexistent/engine", "hub"])


def test_variant_set_up_when_declared(fake: Fake) -> None:
    with HubEngine(fake("frisian"), "frisian") as engine:
        assert engine.declared["variant"]["values"] == "normal frisian"
    with pytest.raises(EngineError, match="does not play russian"):
        HubEngine(fake("frisian"), "russian")


def test_engine_process_killed_when_forgotten(fake: Fake) -> None:
    """Collected without close(): the finalizer kills the process."""
    engine = HubEngine(fake("silent"))
    pid = engine.pid
    del engine
    import gc

    gc.collect()
    deadline = time.monotonic() + 3
    while not _gone(pid) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert _gone(pid)


# -- this toolkit's own engine over Hub (`pdn engine`) ----------------------------------------


def _pdn_engine() -> list[str]:
    return [sys.executable, "-m", "pdn.cli.app", "engine"]


@pytest.mark.parametrize(
    ("variant", "fen", "moves"),
    [
        ("english", None, ["11-15", "23-19", "8-11", "22-17"]),
        ("international", None, ["32-28", "19-23"]),
        ("russian", None, ["c3-d4", "f6-g5"]),
        # king moves after the last capture: the history the client sends for repetitions
        ("international", "W:WK46,K50:BK5,K1,10", ["50-44", "1-7", "44-50", "7-1"]),
    ],
)
def test_pdn_engine_answers_as_the_builtin(variant: str, fen: str | None, moves: list[str]) -> None:
    """Over Hub (the position and the moves since the last capture sent as text) the built-in
    engine gives the line and score it gives in this process."""
    from pdn.engine import BuiltinEngine

    board = Board(variant, fen)
    for move in moves:
        board.push(move)
    with HubEngine(_pdn_engine(), variant) as engine:
        assert engine.name == "pdn"
        (remote,) = engine.analyse(board, Limit(depth=5))
        assert engine.play(board, Limit(depth=3)) in board.legal_moves
        pid = engine.pid
    (local,) = BuiltinEngine().analyse(board, Limit(depth=5))
    assert (remote.pv, remote.score, remote.depth) == (local.pv, local.score, local.depth)
    assert _gone(pid)


def test_pdn_engine_stops_and_pongs() -> None:
    """stop from another thread ends a long search at once; ping is answered."""
    import threading

    with HubEngine(_pdn_engine()) as engine:
        engine.ping()
        timer = threading.Timer(0.3, engine.stop)
        began = time.monotonic()
        timer.start()
        (info,) = engine.analyse(Board("international"), Limit(time=60))
        assert time.monotonic() - began < 3
        assert info.pv and info.pv[0] in Board("international").legal_moves


def test_pdn_engine_says_error_for_bad_input() -> None:
    """An unreadable position is an `error` line (protocol.txt), not a crash."""
    import io

    from pdn.engine.hubserver import serve

    out = io.StringIO()
    lines = ["hub", "init", "pos pos=Wxyz", "set-param name=variant value=killer",
             "level depth=abc", "ping", "quit"]  # fmt: skip
    serve(io.StringIO("\n".join(lines) + "\n"), out, get_variant("english"))
    said = out.getvalue().splitlines()
    assert said[0].startswith("id name=pdn")
    assert 'param name=variant value=english type=enum values="normal english' in said[1]
    assert said[-5:] == [
        "ready",
        "error message=\"pos: not a Hub position of english: 'Wxyz'\"",
        "error message=\"set-param: no variant 'killer'\"",
        "error message=\"level: depth='abc' is not a number\"",  # (int()'s own words before)
        "pong",
    ]


def test_pdn_engine_starts_a_new_search_table_for_another_variant() -> None:
    """The engine's kept table has neither variant nor rules in its keys: `set-param` of either,
    and `new-game`, give the next search an engine of its own (the old one closed)."""
    import io

    from pdn.engine.builtin import BuiltinEngine
    from pdn.engine.hubserver import HubServer

    made: list[BuiltinEngine] = []

    def make() -> BuiltinEngine:
        made.append(BuiltinEngine())
        return made[-1]

    server = HubServer(io.StringIO(), get_variant("international"), make_engine=make)
    for line in ["init", "set-param name=variant value=english", "init", "init"]:
        server.handle(line)
    server.handle("set-param name=rules value=common")
    server.handle("init")
    server.handle("new-game")
    assert len(made) == 4 and len({id(e) for e in made}) == 4
    with pytest.raises(EngineError):  # the ones replaced are closed
        made[0].analyse(Board("international"), Limit(depth=1))
    server.close()
