"""`pdn serve`: the server started as a user starts it, the page driven in Debian's Chromium.

The database holds the samples, two corpus files with invalid games (an illegal move in the main
line, an illegal move in a variation), one with a draw by repetition, and a game whose tags and
comment are HTML. Every position the page shows is checked against the replay of the game read
from its file here, not against what the server answered.
"""

from __future__ import annotations

import json
import os
import re
import select
import signal
import socket
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import text
from sqlalchemy.exc import InternalError, OperationalError
from typer.testing import CliRunner

from conftest import (
    CHROMIUM_FLAGS,
    chromium,
    corpus_dir,
    in_ci,
    postgres_database,
    postgres_reason,
)
from pdn.cli.app import app
from pdn.db.connection import open_database
from pdn.db.questions import explore
from pdn.db.store import import_paths
from pdn.game import Game
from pdn.read.movetext import make_move
from pdn.read.reader import read_games, read_string
from pdn.replay import candidates, replay_game
from pdn.rules.fen import parse_fen, to_fen
from pdn.rules.geometry import BLACK, WHITE
from pdn.rules.position import Position
from pdn.rules.variants import get_variant
from pdn.web.gametree import game_tree

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
ENGLISH = SAMPLES / "english-oca-first20.pdn"
ILLEGAL = "international/bruno-BrunoVsScan31.pdn"  # game 11: 17-11 at ply 64, legal 32x43
IN_VARIATION = "international/bruno-World_Title_Match_Women_2024.pdn"  # game 2: (1... 5-10)
REPETITION = "international/mobydam-babasy7.pdn"  # game 1: drawn by repetition at ply 144
HTML_GAME = """[Event "<script>alert('x')</script>"]
[Site "Leeds & <b>Newcastle</b>"]
[Date "1872.??.??"]
[White "Wyllie, J. <i>"]
[Black "Martins, R."]
[Result "1/2-1/2"]

1. 11-15 23-19 2. 8-11 22-17 {a <b>bold</b> comment} 3. 4-8 17-13 1/2-1/2
"""


def game_in(path: Path, index: int) -> Game:
    """The *index*-th game (1-based) of a file."""
    for i, game in enumerate(read_games(path), 1):
        if i == index:
            return game
    raise LookupError(f"{path} has no game {index}")


def pieces(pos: Position) -> dict[str, str]:
    """Square label -> "white man", "black king", ... for every piece of a position."""
    g = pos.geometry
    out = {}
    for color, name in ((WHITE, "white"), (BLACK, "black")):
        men, kings = pos.pieces(color)
        for s in g.squares:
            if men >> s & 1:
                out[g.label(s)] = f"{name} man"
            elif kings >> s & 1:
                out[g.label(s)] = f"{name} king"
    return out


# -- the database and the server ----------------------------------------------------------------


@pytest.fixture(scope="module")
def archive(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    corpus = corpus_dir()
    folder = tmp_path_factory.mktemp("serve")
    html = folder / "html-tags.pdn"
    html.write_text(HTML_GAME, encoding="utf-8")
    files = [SAMPLES, corpus / ILLEGAL, corpus / IN_VARIATION, corpus / REPETITION, html]
    db = folder / "draughts.db"
    engine = open_database(str(db))
    import_paths(engine, files)
    engine.dispose()
    return {"db": db, "html": html, "corpus": corpus, "files": files}


def games_in(files: list[Path]) -> int:
    """The games of PDN files and folders, counted by reading them."""
    paths = [f for p in files for f in (sorted(p.glob("*.pdn")) if p.is_dir() else [p])]
    return sum(1 for p in paths for _ in read_games(p))


def start_server(*args: str, cwd: Path | None = None) -> tuple[subprocess.Popen[str], str]:
    """`pdn serve ARGS --port 0` in its own process, and the address it says it serves at."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "pdn.cli.app", "serve", *args, "--port", "0"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, cwd=cwd,
    )  # fmt: skip
    assert proc.stdout is not None
    said = ""
    while True:
        ready, _, _ = select.select([proc.stdout], [], [], 120)
        line = proc.stdout.readline() if ready else ""
        said += line
        found = re.search(r"at (http://127\.0\.0\.1:\d+/) \(Ctrl-C stops\)", said)
        if found:
            return proc, found.group(1)
        if not line:
            proc.kill()
            raise AssertionError(f"pdn serve did not start: {said} {proc.stderr.read()}")  # type: ignore[union-attr]


def stop_server(proc: subprocess.Popen[str]) -> tuple[int, str, str]:
    """Ctrl-C, as a user stops it: its exit code and what it printed."""
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    return proc.returncode, out, err


@pytest.fixture(scope="module")
def server(archive: dict[str, Any]) -> Iterator[str]:
    proc, url = start_server("--db", archive["db"].name, cwd=archive["db"].parent)
    yield url
    code, out, err = stop_server(proc)
    assert code == 0, err
    assert "pdn: stopped" in out and "Traceback" not in err


@pytest.fixture(scope="module")
def screenshots(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Where the views are saved: $PDN_SCREENSHOTS, else a folder of the test run."""
    wanted = os.environ.get("PDN_SCREENSHOTS")
    folder = Path(wanted) if wanted else tmp_path_factory.mktemp("screenshots")
    folder.mkdir(parents=True, exist_ok=True)
    return folder


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    executable = chromium()
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        if in_ci():
            pytest.fail("playwright is missing: .ci/run installs the test extra")
        pytest.skip("playwright is not installed (pip install -e '.[test]')")
    with sync_playwright() as p:
        flags = [f for f in CHROMIUM_FLAGS if f != "--headless"]  # Playwright adds its own
        chrome = p.chromium.launch(executable_path=executable, args=flags)
        yield chrome
        chrome.close()


class Page:
    """One browser tab on the server, failing the test on any script error or foreign request."""

    def __init__(self, browser: Any, url: str, width: int = 1280) -> None:
        self.url = url
        self.context = browser.new_context(viewport={"width": width, "height": 900})
        self.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=url)
        self.tab = self.context.new_page()
        self.errors: list[str] = []
        self.requests: list[str] = []
        self.dialogs: list[str] = []
        self.tab.on("pageerror", lambda e: self.errors.append(str(e)))
        self.tab.on("request", lambda r: self.requests.append(r.url))
        self.tab.on("dialog", self._dismiss)

    def _dismiss(self, dialog: Any) -> None:
        self.dialogs.append(dialog.message)
        dialog.dismiss()

    def expect(self, selector: str) -> Any:
        """Playwright's retrying assertions on the element(s) *selector* finds."""
        from playwright.sync_api import expect

        return expect(self.tab.locator(selector))

    def open(self, fragment: str) -> None:
        self.tab.goto(self.url + fragment)

    def board_at(self, ply: int) -> dict[str, str]:
        """The pieces drawn once the board shows the position after *ply* plies."""
        self.tab.wait_for_selector(f'#board[data-ply="{ply}"][aria-busy="false"]')
        circles = self.tab.eval_on_selector_all(
            "#board circle[data-square]",
            "cs => cs.map(c => [c.dataset.square, c.getAttribute('class')])",
        )
        out = {}
        for square, classes in circles:
            names = classes.split()
            out[square] = f"{names[1]} {names[2]}"
        return out

    def close(self) -> None:
        self.context.close()
        foreign = [u for u in self.requests if not u.startswith((self.url, "data:"))]
        assert not foreign, f"requests outside the server: {foreign}"
        assert not self.errors, f"script errors: {self.errors}"


@pytest.fixture
def page(browser: Any, server: str) -> Iterator[Page]:
    tab = Page(browser, server)
    yield tab
    tab.close()


# -- the page ----------------------------------------------------------------------------------


def test_arrow_keys_step_through_a_game(page: Page, screenshots: Path) -> None:
    game = game_in(ENGLISH, 2)  # Wyllie - Hay, Alwick 1842
    replay = replay_game(game)
    page.open("#/games?event=Alwick")
    page.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    assert page.board_at(0) == pieces(replay.positions[0])
    for _ in range(10):
        page.tab.keyboard.press("ArrowRight")
    assert page.board_at(10) == pieces(replay.positions[10])
    page.tab.click("#copy-fen")
    assert page.tab.evaluate("navigator.clipboard.readText()") == to_fen(replay.positions[10])
    current = page.tab.inner_text("#moves .move.current")
    assert current == game.mainline()[9].text
    page.tab.locator("#explorer-table tbody tr").first.wait_for()
    page.tab.screenshot(path=str(screenshots / "board.png"))
    page.tab.keyboard.press("ArrowLeft")
    assert page.board_at(9) == pieces(replay.positions[9])
    page.tab.click("#flip")
    page.tab.wait_for_selector('#board[aria-busy="false"]')
    ranks = page.tab.eval_on_selector_all(
        "#board text[x='10.0']", "ts => ts.map(t => [t.textContent, Number(t.getAttribute('y'))])"
    )
    assert [label for label, _ in sorted(ranks, key=lambda r: r[1])] == list("12345678")


def test_a_click_in_the_move_list_and_the_last_move(page: Page) -> None:
    game = game_in(ENGLISH, 2)
    replay = replay_game(game)
    page.open("#/games?event=Alwick")
    page.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    page.tab.click('#moves .move[data-ply="7"]')
    assert page.board_at(7) == pieces(replay.positions[7])
    page.tab.keyboard.press("End")
    assert page.board_at(replay.plies) == pieces(replay.positions[replay.plies])


def test_variations_and_comments(page: Page) -> None:
    pool = get_variant("pool")
    page.open("#/games?event=3+Piece")
    page.tab.wait_for_selector("#games-table tbody tr")
    page.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    page.tab.wait_for_selector("#moves .variation")
    assert "3 black kings can not capture the single white king" in page.tab.inner_text("#moves")
    # W:WK21:BK31,K22,K2; 1... 21-14 2. 31-24 (2. 2-6 ...): the variation's first move, by hand
    variation = page.tab.locator("#moves .variation.depth1").first
    variation.locator("button.move", has_text="2-6").first.click()
    assert page.board_at(2) == pieces(parse_fen("W:WK14:BK6,K22,K31", pool))
    page.tab.keyboard.press("ArrowRight")  # on along the variation: 14-5
    assert page.board_at(3) == pieces(parse_fen("B:WK5:BK6,K22,K31", pool))
    page.tab.keyboard.press("ArrowLeft")
    page.tab.keyboard.press("ArrowLeft")  # back to 21-14, then on along the main line: 31-24
    page.tab.keyboard.press("ArrowRight")
    assert page.board_at(2) == pieces(parse_fen("W:WK14:BK2,K22,K24", pool))


def test_explorer_move_plays_it(page: Page, archive: dict[str, Any], screenshots: Path) -> None:
    english = get_variant("english")
    # games starting 11-15, counted from the files themselves
    played = [
        g
        for path in (ENGLISH, archive["html"])
        for g in read_games(path)
        if g.mainline() and g.mainline()[0].text == "11-15"
    ]
    page.open("#/explore?variant=english")
    row = page.tab.locator("#explorer-table tbody tr", has_text="11-15")
    row.wait_for()
    cells = row.locator("td").all_inner_texts()
    assert cells[0] == "11-15" and int(cells[1]) == len(played)
    engine = open_database(str(archive["db"]), create=False)
    frame = explore(engine, "english")  # the numbers of `pdn explore`, column by column
    engine.dispose()
    expected = frame[frame["move"] == "11-15"].iloc[0]
    shown = [c.strip() for c in cells]
    assert shown == ["–" if v != v else str(v) for v in expected]  # NaN shows as a dash
    page.tab.screenshot(path=str(screenshots / "explorer.png"), full_page=True)
    page.tab.click('#explorer-table .explorer-move[data-move="11-15"]')
    start = Position.start(english)
    (move,) = candidates(start, make_move("11-15").squares)
    assert page.board_at(1) == pieces(start.play(move))
    page.expect("#explored").to_have_text(re.compile(r"^Played here"))
    # the games that reached the position open at the ply where they reached it (waited for:
    # the start position's games are shown until the new ones come)
    page.expect("#reached-table tbody tr").to_have_count(len(played))
    page.tab.click("#reached-table tbody tr >> nth=0 >> a >> nth=0")
    assert page.board_at(1) == pieces(start.play(move))


def test_search_a_player(page: Page, archive: dict[str, Any], screenshots: Path) -> None:
    games = [g for g in read_games(ENGLISH) if "Anderson" in f"{g.white} {g.black}"]
    page.open("#/games")
    page.tab.fill("#search input[name=player]", "anderson")
    page.tab.click("#search button[type=submit]")
    page.expect("#games-count").to_have_text(f"Games 1–{len(games)} of {len(games)}")
    rows = page.tab.locator("#games-table tbody tr")
    assert rows.count() == len(games)
    for i in range(rows.count()):
        assert "Anderson" in rows.nth(i).inner_text()
    page.open("#/games")
    page.expect("#games-count").to_contain_text(f" of {games_in(archive['files'])}")
    page.tab.screenshot(path=str(screenshots / "games.png"), full_page=True)
    pages = -(-games_in(archive["files"]) // 50)  # past the last page: not "No game matches."
    page.open("#/games?page=999")
    page.expect("#games-count").to_have_text(f"Page 999 is past the last ({pages}).")


def test_invalid_game_opens_at_the_faulty_ply(
    page: Page, archive: dict[str, Any], screenshots: Path
) -> None:
    replay = replay_game(game_in(archive["corpus"] / ILLEGAL, 11))
    (error,) = replay.errors
    assert (error.ply, error.move, error.legal) == (64, "17-11", ["32x43"])
    page.open("#/invalid")
    page.tab.wait_for_selector("#invalid-table tbody tr")
    assert page.tab.inner_text("#invalid-count").startswith("2 invalid games")
    page.tab.screenshot(path=str(screenshots / "validation.png"), full_page=True)
    row = page.tab.locator("#invalid-table tbody tr", has_text="bruno-BrunoVsScan31.pdn, game 11")
    assert "line 183:28" in row.inner_text() and "legal: 32x43" in row.inner_text()
    row.locator("a.error-link").click()
    assert page.board_at(63) == pieces(replay.positions[63])
    current = page.tab.locator("#moves .move.current")
    assert current.inner_text() == "17-11" and "illegal" in current.get_attribute("class")
    status = "17-11 cannot be played here: illegal move: a capture is compulsory."
    assert page.tab.inner_text("#status") == status
    assert page.tab.locator("#legal .legal-move").all_inner_texts() == ["32x43"]
    assert page.tab.locator("#board polyline.hint").count() == 1
    assert page.tab.eval_on_selector_all("#board rect.marked", "rs => rs.length") == 2
    page.tab.click("#legal .legal-move")  # the legal move, played from there
    before = replay.positions[63]
    assert page.board_at(64) == pieces(before.play(before.captures()[0]))


def test_invalid_variation_move(page: Page, archive: dict[str, Any]) -> None:
    international = get_variant("international")
    page.open("#/invalid")
    row = page.tab.locator("#invalid-table tbody tr", has_text="World_Title_Match_Women_2024")
    row.locator("a.error-link").click()
    assert page.board_at(0) == pieces(Position.start(international))
    current = page.tab.locator("#moves .move.current")
    assert current.inner_text() == "5-10" and "illegal" in current.get_attribute("class")
    # the nine opening moves of International draughts
    opening = ["31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30"]
    assert page.tab.locator("#legal .legal-move").all_inner_texts() == opening
    assert page.tab.locator("#board polyline.hint").count() == 9


def test_the_move_that_ended_the_game(page: Page, archive: dict[str, Any]) -> None:
    replay = replay_game(game_in(archive["corpus"] / REPETITION, 1))
    assert (replay.termination, replay.termination_ply) == ("draw-repetition", 144)
    page.open("#/games?event=70.DAM")
    page.tab.wait_for_selector("#games-table tbody tr")
    page.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    page.tab.click('#moves .move.ended[data-ply="144"]')
    assert page.board_at(144) == pieces(replay.positions[144])
    assert "The game ended here: draw by repetition of the position." in page.tab.inner_text(
        "#status"
    )
    assert page.tab.locator("#moves .move.ended").count() == 1


def test_html_in_tags_shows_as_text(page: Page) -> None:
    page.open("#/games")
    page.tab.fill("#search input[name=event]", "<script>")
    page.tab.click("#search button[type=submit]")
    page.expect("#games-count").to_have_text("Games 1–1 of 1")
    cells = page.tab.locator("#games-table tbody tr td").all_inner_texts()
    assert cells[:4] == ["Wyllie, J. <i>", "Martins, R.", "<script>alert('x')</script>",
                         "Leeds & <b>Newcastle</b>"]  # fmt: skip
    page.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    page.tab.wait_for_selector("#game-head h1")
    assert page.tab.inner_text("#game-head h1") == "Wyllie, J. <i> – Martins, R."
    assert "<script>alert('x')</script>" in page.tab.inner_text("#game-head")
    assert "a <b>bold</b> comment" in page.tab.inner_text("#moves")
    assert page.tab.eval_on_selector_all("main script, main b, main i", "n => n.length") == 0
    assert page.dialogs == []


def test_phone_width(browser: Any, server: str, screenshots: Path) -> None:
    phone = Page(browser, server, width=390)
    phone.open("#/games?event=Alwick")
    phone.tab.click("#games-table tbody tr >> nth=0 >> a >> nth=0")
    phone.board_at(0)
    width = phone.tab.evaluate("document.documentElement.scrollWidth")
    assert width <= 390  # nothing wider than the screen: no sideways scrolling
    box = phone.tab.locator("#board").bounding_box()
    assert box is not None and box["width"] >= 300
    phone.tab.screenshot(path=str(screenshots / "board-phone.png"), full_page=True)
    phone.close()


# -- the API, without a browser ------------------------------------------------------------------


def fetch(
    url: str, method: str = "GET", host: str | None = None
) -> tuple[int, dict[str, str], str]:
    """Status, headers and body of one request to the server."""
    request = urllib.request.Request(url, method=method, headers={"Host": host} if host else {})
    try:
        with urllib.request.urlopen(request, timeout=60) as answer:
            return answer.status, dict(answer.headers), answer.read().decode()
    except urllib.error.HTTPError as exc:
        return exc.code, dict(exc.headers), exc.read().decode()


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("/api/games?colour=white", 400, "unknown parameter 'colour'"),
        ("/api/games?player=a&player=b", 400, "given twice"),
        ("/api/games?page=0", 400, "'page' must be a whole number from 1"),
        ("/api/games?size=5000", 400, "'size' must be a whole number from 1 to 200"),
        ("/api/games?from=19x9", 400, "'from' must be a whole number"),
        ("/api/games?variant=chess", 400, "chess"),
        ("/api/games?event=" + "x" * 1001, 400, "longer than 1000"),
        ("/api/game/12ab", 400, "a game id is a whole number"),
        ("/api/game/99999999999999999999", 400, "a game id is a whole number"),
        ("/api/game/12", 404, "no game 12"),
        ("/api/explore?variant=english", 400, "'fen' is required"),
        ("/api/explore?variant=english&fen=X:W1", 400, "side to move"),
        ("/api/reached?variant=chess&fen=W:W1", 400, "chess"),
        ("/api/count?page=2", 400, "unknown parameter 'page'"),
        ("/api/play?variant=english&fen=B:W21-32:B1-12&move=22-17", 400, "illegal"),
        ("/api/board?variant=english&fen=B:W21-32:B1-12&path=11,99", 400, "99"),
        ("/api/board?variant=english&fen=B:W21-32:B1-12&marks=<b>", 400, "squares"),
        ("/api/board?variant=english&fen=B:W21-32:B1-12&flip=yes", 400, "0 or 1"),
        ("/api/games?result=maybe", 400, "'result' is 'maybe': give white, black, draw"),
        ("/api/count?result=whit", 400, "'result' is 'whit'"),
        ("/api/explore?variant=english&fen=B:W21-32:B1-12&result=xyz", 400, "'result' is 'xyz'"),
    ],
)
def test_every_parameter_is_checked(server: str, path: str, status: int, says: str) -> None:
    code, _, body = fetch(server + path[1:])
    assert code == status
    assert says in json.loads(body)["error"]


def test_pages_of_games_in_import_order(server: str, archive: dict[str, Any]) -> None:
    events = [g.event for g in read_games(ENGLISH)]  # the first file of the samples folder
    answer = json.loads(fetch(server + "api/games?size=10&page=2")[2])
    assert [g["event"] for g in answer["games"]] == events[10:20] and answer["more"]
    assert json.loads(fetch(server + "api/count")[2]) == {"total": games_in(archive["files"])}
    invalid = json.loads(fetch(server + "api/games?valid=no")[2])
    assert sorted((g["file"], g["index"]) for g in invalid["games"]) == [
        (str(archive["corpus"] / ILLEGAL), 11),
        (str(archive["corpus"] / IN_VARIATION), 2),
    ]


def test_answers_refuse_foreign_hosts_and_other_methods(server: str) -> None:
    assert fetch(server + "api/info", host="attacker.example")[0] == 400
    assert fetch(server + "api/info", method="POST")[0] == 405
    code, headers, _ = fetch(server)
    assert code == 200 and "default-src 'self'" in headers["content-security-policy"]
    code, headers, svg = fetch(server + "api/board?variant=english&fen=B:W21-32:B1-12&path=11,15")
    assert headers["content-type"] == "image/svg+xml"
    assert svg.count("<circle") == 24 and 'class="move"' in svg


def test_the_database_is_opened_read_only(archive: dict[str, Any]) -> None:
    from pdn.web.server import open_read_only

    engine = open_read_only(str(archive["db"]))
    with engine.connect() as conn:
        assert conn.execute(text("SELECT count(*) FROM games")).scalar() == games_in(
            archive["files"]
        )
        with pytest.raises(OperationalError, match="readonly"):
            conn.execute(text("DELETE FROM tags"))
    engine.dispose()


@pytest.mark.skipif(postgres_reason() is not None, reason=str(postgres_reason()))
def test_a_postgresql_database_is_read_only_too() -> None:
    from pdn.web.server import open_read_only

    with postgres_database() as url:
        engine = open_database(url)
        import_paths(engine, [ENGLISH])
        engine.dispose()
        engine = open_read_only(url)
        with engine.connect() as conn:
            assert conn.execute(text("SELECT count(*) FROM games")).scalar() == 20
            with pytest.raises(InternalError, match="read-only transaction"):
                conn.execute(text("DELETE FROM tags"))
        engine.dispose()


# -- the command -------------------------------------------------------------------------------


def test_files_are_served_from_a_temporary_database() -> None:
    proc, url = start_server(str(ENGLISH))
    try:
        with urllib.request.urlopen(url + "api/info", timeout=30) as answer:
            assert json.load(answer)["games"] == 20
    finally:
        code, _, err = stop_server(proc)
    assert code == 0 and "imported 20 games from 1 files" in err


def test_a_port_in_use_is_one_line(archive: dict[str, Any]) -> None:
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        result = CliRunner().invoke(app, ["serve", "--db", str(archive["db"]), "--port", str(port)])
    assert result.exit_code == 2
    said = f"pdn: port {port} is in use on 127.0.0.1 (choose another with --port)\n"
    assert result.output == said


def test_a_missing_database_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "none.db"
    result = CliRunner().invoke(app, ["serve", "--db", str(missing)])
    assert result.exit_code == 2
    assert result.output == f"pdn: {missing}: no such database (import some games first)\n"
    assert not missing.exists()


def test_a_database_and_files_exclude_each_other(archive: dict[str, Any]) -> None:
    result = CliRunner().invoke(app, ["serve", str(ENGLISH), "--db", str(archive["db"])])
    assert result.exit_code == 2
    assert result.output == "pdn: give a database (--db) or PDN files, not both\n"


def test_an_unknown_move_lists_the_legal_moves() -> None:
    """The unknown move "-" in the main line: the page lists the legal moves there (it said "No
    legal move" beside their arrows), the seven of English's start (spec/perft.md, depth 1)."""
    [game] = read_string('[GameType "21"]\n\n1. - 24-20 *\n')
    node = game_tree(game, replay_game(game)).nodes[0]
    assert (node.state, node.reason) == (
        "illegal",
        "unknown move: the record does not say which move",
    )
    assert node.legal == ["10-14", "10-15", "11-15", "11-16", "12-16", "9-13", "9-14"]
