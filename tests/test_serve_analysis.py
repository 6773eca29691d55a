"""The judgement on the page of `pdn serve`, in Debian's Chromium: the evaluation graph of an
analysed game (and none for a game without analysis), a click on it moving the board, the
marks in the move list, the best move's arrow, the games sorted by their biggest loss, and the
whole board at phone width deep into a game. Every position is checked against the replay of
the game read from its file here; every mark and loss against the database's rows."""

from __future__ import annotations

import contextlib
import json
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_serve import (  # the serve tests' server, browser and page (no test of theirs)
    ENGLISH,
    REPETITION,
    Page,
    browser,
    fetch,
    game_in,
    pieces,
    screenshots,
    start_server,
    stop_server,
)

from conftest import corpus_dir
from pdn.archive.validate import validate_paths
from pdn.board import Board
from pdn.db.analysis import store_analyses
from pdn.db.connection import open_database
from pdn.db.store import import_paths
from pdn.engine import Limit
from pdn.replay import replay_game
from pdn.rules.geometry import Color

__all__ = ["browser", "screenshots"]  # fixtures, used by name
ALWICK = 2  # Wyllie - Hay, Alwick 1842: 52 plies


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    """A database of the English sample analysed at depth 2 and an international file not."""
    folder = tmp_path_factory.mktemp("serve-analysis")
    db = folder / "draughts.db"
    engine = open_database(str(db))
    plain = corpus_dir() / REPETITION
    import_paths(engine, [plain])
    # the file stored by its name in the repository, as a user's import from there names it
    # (the page and docs/analysis.png show it)
    with contextlib.chdir(ENGLISH.parent.parent):
        for _ in store_analyses(
            engine, [ENGLISH.relative_to(Path.cwd())], "builtin", Limit(depth=2)
        ):
            pass
    engine.dispose()
    return {"db": db, "plain": plain}


@pytest.fixture(scope="module")
def server(analysed: dict[str, Any]) -> Iterator[str]:
    proc, url = start_server("--db", str(analysed["db"]))
    yield url
    code, _, err = stop_server(proc)
    assert code == 0, err


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Page]:
    tab = Page(browser, server)
    yield tab
    tab.close()


def _rows(db: Path, sql: str, *args: object) -> list[tuple[Any, ...]]:
    with sqlite3.connect(db) as conn:
        return conn.execute(sql, args).fetchall()


def _open_alwick(page: Page) -> None:
    page.open("#/games?event=Alwick")
    page.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    page.board_at(0)


def test_graph_of_an_analysed_game_and_a_click_on_it(
    page: Page, analysed: dict[str, Any], screenshots: Path
) -> None:
    """One point per ply, a dot per marked move, the marks' symbols in the move list; a click
    at ply 30 on the graph shows the position after ply 30."""
    replay = replay_game(game_in(ENGLISH, ALWICK))
    _open_alwick(page)
    graph = page.tab.locator("#eval-graph svg")
    graph.wait_for()
    assert graph.get_attribute("data-plies") == str(replay.plies) == "52"
    assert page.tab.locator("#eval-graph circle.point").count() == 52
    (gid,) = _rows(analysed["db"], "SELECT id FROM games WHERE event = 'Alwick 1842'")[0]
    marks = _rows(analysed["db"], "SELECT ply, mark FROM analysis WHERE game_id = ? AND mark "
                  "IS NOT NULL ORDER BY ply", gid)  # fmt: skip
    assert marks, "depth 2 marks some move of this game"
    dots = page.tab.eval_on_selector_all(
        "#eval-graph circle.mark", "cs => cs.map(c => [Number(c.dataset.ply), c.classList[2]])"
    )
    assert [tuple(d) for d in dots] == marks
    symbols = page.tab.eval_on_selector_all(
        "#moves .move.marked",
        "bs => bs.map(b => [Number(b.dataset.ply), b.nextElementSibling.textContent])",
    )
    wanted = {"inaccuracy": "?!", "mistake": "?", "blunder": "??"}
    assert [tuple(s) for s in symbols] == [(p, wanted[m]) for p, m in marks]
    box = graph.bounding_box()
    assert box is not None
    x = box["x"] + (4 + 30 / 52 * 592) / 600 * box["width"]
    page.tab.mouse.click(x, box["y"] + box["height"] / 2)
    assert page.board_at(30) == pieces(replay.positions[30])
    assert page.tab.inner_text("#moves .move.current") == replay.nodes[29].text
    page.tab.screenshot(path=str(screenshots / "analysis.png"))


def test_the_best_move_is_an_arrow(page: Page, analysed: dict[str, Any]) -> None:
    """At each position of the line, the board draws the engine's best move from there (the
    first move of the stored line that judged the next move) as a dashed arrow."""
    replay = replay_game(game_in(ENGLISH, ALWICK))
    (gid,) = _rows(analysed["db"], "SELECT id FROM games WHERE event = 'Alwick 1842'")[0]
    (line,) = _rows(
        analysed["db"], "SELECT best_line FROM analysis WHERE game_id = ? AND ply = 11", gid
    )[0]
    _open_alwick(page)
    for _ in range(10):
        page.tab.keyboard.press("ArrowRight")
    page.board_at(10)
    assert page.tab.locator("#board polyline.hint").count() == 1
    best = line.split()[0]
    first, last = best.replace("x", "-").split("-")[0], best.replace("x", "-").split("-")[-1]
    points = page.tab.eval_on_selector(
        "#board polyline.hint", "p => p.getAttribute('points').split(' ')"
    )
    centre = page.tab.eval_on_selector(
        f'#board circle[data-square="{first}"]', "c => [c.getAttribute('cx'), c.getAttribute('cy')]"
    )
    assert [float(v) for v in points[0].split(",")] == [float(v) for v in centre]
    assert first in pieces(replay.positions[10]) and last not in pieces(replay.positions[10])
    assert f"best move from here {best} (arrow)" in page.tab.inner_text("#eval-graph .eval-info")


def test_a_marked_move_names_the_move_judged_better(page: Page, analysed: dict[str, Any]) -> None:
    """After a marked move the words name the move the engine would have played instead (the
    first of the line stored with that ply), apart from the best move from the position now:
    "mistake (lost 1.37) · best move 18x11" read as if 18x11 were the better move."""
    (gid,) = _rows(analysed["db"], "SELECT id FROM games WHERE event = 'Alwick 1842'")[0]
    ply, mark, loss, line = _rows(
        analysed["db"], "SELECT ply, mark, loss, best_line FROM analysis WHERE game_id = ? AND "
        "mark IS NOT NULL ORDER BY ply LIMIT 1", gid,
    )[0]  # fmt: skip
    _open_alwick(page)
    for _ in range(ply):
        page.tab.keyboard.press("ArrowRight")
    page.board_at(ply)
    said = page.tab.inner_text("#eval-graph .eval-info")
    assert f"{mark} (lost {loss:.2f}; {line.split()[0]} was better)" in said


def test_no_graph_without_analysis(page: Page, analysed: dict[str, Any]) -> None:
    page.open("#/games?variant=international")
    page.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    page.board_at(0)
    assert page.tab.locator("#eval-graph").is_hidden()
    assert page.tab.locator("#eval-graph svg").count() == 0
    assert page.tab.locator("#moves .mark-symbol").count() == 0
    assert page.tab.locator("#board polyline.hint").count() == 0


def test_games_by_biggest_loss(page: Page, analysed: dict[str, Any]) -> None:
    """Sorted by loss: the analysed games first, the biggest loss first, as the rows say."""
    losses = _rows(
        analysed["db"], "SELECT MAX(loss) FROM analysis GROUP BY game_id ORDER BY 1 DESC"
    )
    page.open("#/games?sort=loss")
    page.tab.locator("#games-table tbody tr").first.wait_for()
    shown = page.tab.eval_on_selector_all(
        "#games-table td.loss", "ts => ts.map(t => t.textContent)"
    )
    assert shown[: len(losses)] == [f"{m:.2f}" for (m,) in losses]
    assert set(shown[len(losses):]) <= {""}  # fmt: skip


def test_phone_width_deep_in_a_game(browser: Any, server: str, analysed: dict[str, Any]) -> None:
    """At 400 px the board stays whole on the screen at ply 80 (the move list scrolls inside
    itself, not the page)."""
    replay = replay_game(game_in(analysed["plain"], 1))
    phone = Page(browser, server, width=400)
    phone.open("#/games?variant=international")
    phone.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    phone.board_at(0)
    for _ in range(80):
        phone.tab.keyboard.press("ArrowRight")
    assert phone.board_at(80) == pieces(replay.positions[80])
    box = phone.tab.locator("#board").bounding_box()
    assert box is not None and box["y"] >= 0 and box["y"] + box["height"] <= 900
    assert phone.tab.evaluate("document.documentElement.scrollWidth") <= 400
    phone.close()


# -- the analysis board ---------------------------------------------------------------------------

TWO_WAYS = "W:WK3:B18,8,30,32"  # the king on 3 takes two to 25 by 12 and 34, or by 21 and 43


def _board_pieces(board: Board) -> dict[str, str]:
    return pieces(board.position)


def _analysis(page: Page, variant: str, fen: str | None = None) -> None:
    extra = f"&fen={fen}" if fen else ""
    page.open(f"#/analyse?variant={variant}{extra}")
    page.tab.wait_for_selector('#ab-board[data-moves="0"][aria-busy="false"]')


def _click(page: Page, square: str) -> None:
    """Click *square* once the board is drawn: a click redraws it (its marks), and a square
    clicked meanwhile may be one being replaced (CI: "Element is not visible")."""
    page.tab.wait_for_selector('#ab-board[aria-busy="false"]')
    page.tab.click(f'#ab-board rect[data-cell="{square}"]', force=True)  # under a piece too


def _choose(page: Page, piece: str) -> None:
    """Take *piece* from the palette, and wait for the board it redraws (a square clicked
    meanwhile is one being replaced)."""
    page.tab.click(f'#ab-palette button[data-piece="{piece}"]')
    page.tab.wait_for_selector(f'#ab-palette button[data-piece="{piece}"][aria-pressed="true"]')
    page.tab.wait_for_selector('#ab-board[aria-busy="false"]')


def _shown(page: Page, moves: int) -> dict[str, str]:
    page.tab.wait_for_selector(f'#ab-board[data-moves="{moves}"][aria-busy="false"]')
    circles = page.tab.eval_on_selector_all(
        "#ab-board circle[data-square]",
        "cs => cs.map(c => [c.dataset.square, c.getAttribute('class')])",
    )
    return {sq: " ".join(c.split()[1:3]) for sq, c in circles}


def test_a_move_played_by_clicking(page: Page) -> None:
    """32 then 28 plays 32-28 from the start; the legal moves listed are the Board's."""
    _analysis(page, "international")
    _click(page, "32")
    _click(page, "28")
    board = Board("international")
    board.push("32-28")
    assert _shown(page, 1) == _board_pieces(board)
    assert page.tab.inner_text("#ab-line .move.current") == "32-28"
    listed = page.tab.eval_on_selector_all(
        "#ab-legal .legal-move", "bs => bs.map(b => b.dataset.move)"
    )
    assert len(listed) == len(board.legal_moves) == 9


def test_a_side_that_cannot_move_has_lost(page: Page) -> None:
    """In English White's man on 29 is blocked by Black's on 25, which 22 guards: the board says
    who won (spec/rules.md: a player with no legal move loses), as the game view says it; it
    said "The game is over here (win)". One legal move is "1 legal move"."""
    _analysis(page, "english", "W:W29:B22,25")
    assert page.tab.inner_text("#ab-status") == "White has no legal move: Black wins."
    _analysis(page, "english", "W:W29:B25")
    assert page.tab.inner_text("#ab-status") == "White to move: 1 legal move."


def test_a_capture_that_goes_two_ways_is_chosen_by_its_landing_squares(page: Page) -> None:
    """The king on 3 reaches 25 two ways: clicking 25 asks for a square on the way; 43 takes
    18 and 30 (not 8 and 32... as the other way would)."""
    _analysis(page, "international", TWO_WAYS)
    _click(page, "3")
    _click(page, "25")
    assert "2 moves" in page.tab.inner_text("#ab-status")
    assert page.tab.get_attribute("#ab-board", "data-moves") == "0"
    _click(page, "43")
    board = Board("international", TWO_WAYS)
    (move,) = [m for m in board.find_moves(["3", "21", "43", "25"]) if len(m.path) == 4]
    board.push(move)
    assert _shown(page, 1) == _board_pieces(board)


def test_a_position_set_up_by_fen_and_palette(page: Page) -> None:
    """A FEN typed in, then a black king put on 46 and the man on 30 taken away with the
    palette: the FEN field shows the position made, White to move."""
    _analysis(page, "international")
    page.tab.fill("#ab-fen", "W:W28:B19,30")
    page.tab.click("#ab-set")
    page.tab.wait_for_selector('#ab-board[data-fen="W:W28:B19,30"]')
    _choose(page, "bk")
    _click(page, "46")
    page.tab.wait_for_selector('#ab-board[data-fen*="K46"]')
    _choose(page, "empty")
    _click(page, "30")
    page.tab.wait_for_selector('#ab-board[data-fen="W:W28:B19,K46"]')
    board = Board("international", "W:W28:B19,K46")
    assert _shown(page, 0) == _board_pieces(board)
    assert Color(board.position.turn) is Color.WHITE


def test_the_engine_line_appears_as_it_deepens_and_downloads_as_pdn(
    page: Page, tmp_path: Path
) -> None:
    """Think for 1 s after 32-28: lines of growing depth, each a legal line from the position;
    the download is a PDN game of 32-28 and the deepest line that validates."""
    _analysis(page, "international")
    _click(page, "32")
    _click(page, "28")
    _shown(page, 1)
    page.tab.select_option("#ab-seconds", "1")
    page.tab.click("#ab-think")
    page.tab.wait_for_selector('#ab-engine[data-done="true"]', timeout=15000)
    depths = page.tab.eval_on_selector_all(
        "#ab-engine .engine-line", "ls => ls.map(l => Number(l.dataset.depth))"
    )
    assert depths == sorted(depths, reverse=True) and depths[0] >= 3 and depths[-1] == 1
    deepest = page.tab.inner_text("#ab-engine .engine-line.deepest .pv").split()
    board = Board("international")
    board.push("32-28")
    for text in deepest:
        board.push(text)  # raises if the line is not legal
    with page.tab.expect_download() as download:
        page.tab.click("#ab-download")
    saved = tmp_path / "analysis.pdn"
    download.value.save_as(saved)
    (report,) = validate_paths([saved])
    assert report.valid and report.plies == 1 + len(deepest)
    assert "[%eval" not in saved.read_text() and "32-28 {pdn builtin, depth" in saved.read_text()


def test_one_search_per_client_with_a_time_cap(server: str, analysed: dict[str, Any]) -> None:
    """A client's second search stops its first; a search asks for at most 10 s; no more than
    four run at once; the database is left as it was."""
    start = "variant=international&fen=&moves=32-28"
    before = _rows(analysed["db"], "SELECT COUNT(*) FROM analysis")
    code, _, body = fetch(server + f"api/think?{start}&client=clientone1&seconds=60")
    assert (
        code == 400 and "'seconds' must be a whole number from 1 to 10" in json.loads(body)["error"]
    )
    assert fetch(server + f"api/think?{start}&client=clientone1&seconds=10")[0] == 200
    assert fetch(server + f"api/think?{start}&client=clientone1&seconds=10")[0] == 200
    for i in range(3):
        assert fetch(server + f"api/think?{start}&client=others{i:04d}&seconds=10")[0] == 200
    code, _, body = fetch(server + f"api/think?{start}&client=onetoomany&seconds=10")
    assert code == 503 and "searches are running" in json.loads(body)["error"]
    for client in ("clientone1", "others0000", "others0001", "others0002"):
        fetch(server + f"api/thought?client={client}&stop=1")
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline:
        answers = [json.loads(fetch(server + f"api/thought?client={c}")[2])
                   for c in ("clientone1", "others0000", "others0001", "others0002")]  # fmt: skip
        if all(a["done"] for a in answers):
            break
        time.sleep(0.1)
    assert all(a["done"] and a["seconds"] < 10 for a in answers)
    assert _rows(analysed["db"], "SELECT COUNT(*) FROM analysis") == before


@pytest.mark.parametrize(
    ("path", "says"),
    [
        ("/api/legal?variant=international&moves=32-28+32-28", "move 2, 32-28: illegal move"),
        ("/api/legal?variant=international&fen=X:W1", "side to move"),
        ("/api/think?variant=international&client=short", "a client is 8 to 40 letters"),
        ("/api/thought?client=nobodyhere", "no search for this client"),
        ("/api/pdn?variant=english&moves=11-15&line=11-15", "move 2, 11-15: illegal move"),
        ("/api/board?variant=international&fen=W:W32:B19&best=99-100", "'99' is not on"),
        ("/api/games?sort=white", "'sort' must be place or loss"),
    ],
)
def test_every_analysis_parameter_is_checked(server: str, path: str, says: str) -> None:
    code, _, body = fetch(server + path[1:])
    assert code == 400 and says in json.loads(body)["error"]
