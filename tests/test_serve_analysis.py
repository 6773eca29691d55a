"""The judgement on the page of `pdn serve`, in Debian's Chromium: the evaluation graph of an
analysed game (and none for a game without analysis), a click on it moving the board, the
marks in the move list, the best move's arrow, the games sorted by their biggest loss, and the
whole board at phone width deep into a game. Every position is checked against the replay of
the game read from its file here; every mark and loss against the database's rows."""

from __future__ import annotations

import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_serve import (  # the serve tests' server, browser and page (no test of theirs)
    ENGLISH,
    REPETITION,
    Page,
    browser,
    game_in,
    pieces,
    screenshots,
    start_server,
    stop_server,
)

from conftest import corpus_dir
from pdn.db.analysis import store_analyses
from pdn.db.connection import open_database
from pdn.db.store import import_paths
from pdn.engine import Limit
from pdn.replay import replay_game

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
    for _ in store_analyses(engine, [ENGLISH], "builtin", Limit(depth=2)):
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
    assert f"best move {best} (arrow)" in page.tab.inner_text("#eval-graph .eval-info")


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
