"""The text board, the game browser and `pdn replay` (plain, --svg, and --interactive driven in
tmux)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import in_ci
from pdn.cli.app import app
from pdn.read.reader import read_string
from pdn.render.browser import Browser, main_line
from pdn.render.textboard import text_board
from pdn.replay import replay_game
from pdn.rules.fen import parse_fen, to_fen
from pdn.rules.variants import get_variant

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
# International: 32-28 with an alternative 33-28 18-23, inside which 19-23 2. 28x19 replaces
# 18-23 (a variation two deep); then the main line 19-23 2. 28x19 14x23
VARIATIONS = (
    '[GameType "20"]\n[White "Sijbrands"]\n[Black "Baljakin"]\n'
    "1. 32-28 {centre} (1. 33-28 18-23 (1... 19-23 2. 28x19)) 19-23 2. 28x19 14x23 *\n"
)
WHITE_START = list(range(31, 51))
BLACK_START = list(range(1, 21))


def fen(white: list[int], black: list[int], side: str) -> str:
    def squares(xs: list[int]) -> str:
        return ",".join(str(x) for x in sorted(xs))

    return f"{side}:W{squares(white)}:B{squares(black)}"


def test_text_board_shows_square_numbers_and_pieces() -> None:
    # English: a Black man on 14 (c5), a White man on 18 (d4); squares 1-4 on the top rank
    # (b8 d8 f8 h8), 13-16 on rank 5 (a5 c5 e5 g5), 17-20 on rank 4 (b4 d4 f4 h4)
    lines = text_board(parse_fen("B:W18:B14", get_variant("english"))).splitlines()
    assert lines[0] == "┌" + "─" * 33 + "┐"
    assert lines[1] == "│       1       2       3       4 │"
    assert lines[4] == "│  13      b       15      16     │"
    assert lines[5] == "│      17      w       19      20 │"
    assert lines[-1] == "└" + "─" * 33 + "┘"
    flipped = text_board(parse_fen("B:W18:B14", get_variant("english")), flip=True).splitlines()
    assert flipped[1] == "│      32      31      30      29 │"  # rank 1 from h1 to a1


def test_text_board_shows_square_names_in_algebraic_variants() -> None:
    # Russian: squares are named; a White king on c3 and a Black man on f6
    lines = text_board(parse_fen("W:WKc3:Bf6", get_variant("russian"))).splitlines()
    assert lines[3] == "│      b6      d6      b       h6 │"  # rank 6: b6 d6 f6 h6
    assert lines[6] == "│  a3      W       e3      g3     │"  # rank 3: a3 c3 e3 g3


def test_browser_steps_through_variations() -> None:
    game = read_string(VARIATIONS)[0]
    replay = replay_game(game)
    browser = Browser([main_line(game, replay)], 0)
    browser.forward()
    assert browser.where() == "after ply 1 of 4"
    browser.variations()  # 33-28 instead of 32-28
    assert browser.where() == "variation 1 of 1 at ply 1: after ply 1 of 2"
    white_33_28 = [28, *(s for s in WHITE_START if s != 33)]
    assert to_fen(browser.position) == fen(white_33_28, BLACK_START, "B")
    browser.forward()  # 18-23
    browser.variations()  # 19-23 instead of 18-23
    assert browser.where() == "variation 1 of 1 at ply 2, depth 2: after ply 2 of 3"
    black_19_23 = [23, *(s for s in BLACK_START if s != 19)]
    assert to_fen(browser.position) == fen(white_33_28, black_19_23, "W")
    browser.forward()  # 28x19 takes 23
    assert to_fen(browser.position) == fen(
        [19, *(s for s in WHITE_START if s != 33)], [s for s in BLACK_START if s != 19], "B"
    )
    browser.forward()
    assert browser.note == "" and browser.where().endswith("after ply 3 of 3")
    browser.leave()
    assert browser.where() == "variation 1 of 1 at ply 1: after ply 2 of 2"
    browser.back()
    browser.variations()  # at its first move: the next variation; there is none, so back
    assert browser.where() == "after ply 1 of 4"
    browser.end()
    assert browser.where() == "after ply 4 of 4"
    browser.variations()
    assert browser.note == "no variation at this move"


def test_replay_command_shows_the_position(tmp_path: Path) -> None:
    path = SAMPLES / "english-oca-first20.pdn"
    result = CliRunner().invoke(app, ["replay", str(path), "--game", "1", "--ply", "43"])
    assert result.exit_code == 0
    out = result.stdout
    assert "22. [18x27] 26x17x10x1" in " ".join(out.split())
    assert "after ply 43 of 44; White to move" in out
    assert "White: Wyllie, J.   Black: Moorhead, W.   (Black moves first" in out
    assert "FEN W:W8,12,26,31,32:B3,6,9,14,20,22,27,28" in out  # before 26x17x10x1
    assert "w b men, W B kings; empty squares show their numbers" in out
    bad = CliRunner().invoke(app, ["replay", str(path), "--game", "99"])
    assert bad.exit_code == 2 and "there is no game 99" in bad.stderr


def test_replay_writes_its_diagrams_into_one_folder(tmp_path: Path) -> None:
    path = SAMPLES / "english-oca-first20.pdn"
    folder = tmp_path / "game1"
    for _ in range(2):  # a second run replaces the folder
        result = CliRunner().invoke(app, ["replay", str(path), "--svg", str(folder)])
        assert result.exit_code == 0
        names = sorted(p.name for p in folder.iterdir())
        assert names == ["index.html"] + [f"ply-{i:03d}.svg" for i in range(45)]
        assert list(tmp_path.iterdir()) == [folder]  # no temporary folder left
    index = (folder / "index.html").read_text(encoding="utf-8")
    assert index.count("<img ") == 45 and "ply 1: 11-15" in index
    (tmp_path / "mine").mkdir()
    (tmp_path / "mine" / "notes.txt").write_text("keep me")
    other = CliRunner().invoke(app, ["replay", str(path), "--svg", str(tmp_path / "mine")])
    assert other.exit_code == 2 and "holds other files" in other.stderr


def _tmux(socket: str) -> Callable[..., str]:
    def run(*args: str) -> str:
        done = subprocess.run(["tmux", "-L", socket, *args], capture_output=True, text=True)
        return done.stdout

    return run


def test_interactive_replay_in_a_terminal(tmp_path: Path) -> None:
    if shutil.which("tmux") is None:
        if in_ci():
            pytest.fail("CI drives `pdn replay --interactive` in tmux (.ci/run installs it)")
        pytest.skip("tmux is not installed")
    path = tmp_path / "variations.pdn"
    path.write_text(VARIATIONS, encoding="utf-8")
    socket = f"pdn-test-{uuid.uuid4().hex[:8]}"
    tmux = _tmux(socket)
    env = {**os.environ, "LANG": "C.UTF-8", "TERM": "xterm-256color"}
    command = f"{sys.executable} -m pdn.cli.app replay {path} --interactive"
    subprocess.run(
        ["tmux", "-L", socket, "-u", "new-session", "-d", "-s", "t", "-x", "90", "-y", "36",
         command], env=env, check=True,
    )  # fmt: skip

    def screen_after(key: str | None, expect: str) -> str:
        if key:
            tmux("send-keys", "-t", "t", key)
        deadline = time.monotonic() + 20
        while True:
            screen = tmux("capture-pane", "-p", "-t", "t")
            if expect in screen or time.monotonic() > deadline:
                assert expect in screen, screen
                return screen

    try:
        screen = screen_after(None, "after ply 0 of 4; White to move")  # stepping from the start
        assert "Sijbrands - Baljakin" in screen and "│      b       b       b " in screen
        assert "ended: as recorded" in screen  # how it ended, wherever the stepping is
        screen_after("End", "after ply 4 of 4; White to move")
        screen = screen_after("Home", "after ply 0 of 4; White to move")
        screen = screen_after("Right", "after ply 1 of 4; Black to move")
        assert "1. [32-28] 19-23" in screen and "{centre}" in screen
        assert "1 variation at this move (v)" in screen
        screen = screen_after("v", "variation 1 of 1 at ply 1: after ply 1 of 2")
        assert "1. [33-28] 18-23" in screen
        screen_after("Right", "after ply 2 of 2")
        screen = screen_after("v", "depth 2: after ply 2 of 3")
        assert "1... [19-23] 2. 28x19" in screen
        screen_after("Up", "variation 1 of 1 at ply 1: after ply 2 of 2")
        screen_after("Up", "after ply 1 of 4")
        screen_after("End", "after ply 4 of 4")
        screen = screen_after("Left", "after ply 3 of 4")
        assert "2. [28x19] 14x23" in screen
        tmux("send-keys", "-t", "t", "q")
        deadline = time.monotonic() + 20
        while subprocess.run(["tmux", "-L", socket, "has-session", "-t", "t"],
                             capture_output=True).returncode == 0:  # fmt: skip
            assert time.monotonic() < deadline, "q did not end the viewer"
            time.sleep(0.1)
    finally:
        tmux("kill-server")
