"""The page's filtered explorer and event view, in Debian's Chromium, over the samples served with
an alias file: the explorer's numbers are those `pdn explore` prints with the same selection
(--player, --event, --year-from/--year-to, --result, --aliases) and the games counted from the
file here; the event view's standings are those `pdn stats event --db` prints, and the points of
a player counted from the event's file here."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_serve import (  # the serve tests' browser and page (no test of theirs)
    ENGLISH,
    SAMPLES,
    Page,
    browser,
    fetch,
    screenshots,
    start_server,
    stop_server,
)
from typer.testing import CliRunner

from pdn.cli.app import app
from pdn.db.connection import open_database
from pdn.db.store import import_paths
from pdn.read.reader import read_games

__all__ = ["browser", "screenshots"]  # fixtures, used by name
ITALIAN = SAMPLES / "italian-ci98-fero.pdn"  # Event "c.i.98": Fero against 17 opponents
ALIASES = 'alias,name\n"Anderson, A.",Andrew Anderson\n'


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    folder = tmp_path_factory.mktemp("serve-views")
    db = folder / "draughts.db"
    engine = open_database(str(db))
    import_paths(engine, [SAMPLES])
    engine.dispose()
    aliases = folder / "aliases.csv"
    aliases.write_text(ALIASES, encoding="utf-8")
    proc, url = start_server("--db", str(db), "--aliases", str(aliases))
    yield {"db": db, "aliases": aliases, "url": url}
    code, _, err = stop_server(proc)
    assert code == 0, err


@pytest.fixture
def page(browser: Any, served: dict[str, Any]) -> Iterator[Page]:
    tab = Page(browser, served["url"])
    yield tab
    tab.close()


def cli_rows(*args: str) -> list[list[str]]:
    """What a `pdn` command prints as CSV, header first."""
    result = CliRunner().invoke(app, [*args, "--format", "csv"])
    assert result.exit_code == 0, result.output
    return list(csv.reader(io.StringIO(result.stdout)))


def shown_rows(page: Page, table: str) -> list[list[str]]:
    """The cells of a table's body as the page shows them."""
    rows: list[list[str]] = page.tab.eval_on_selector_all(
        f"{table} tbody tr", "rs => rs.map(r => [...r.cells].map(c => c.textContent.trim()))"
    )
    return rows


def cells(rows: list[list[str]]) -> list[list[str | float]]:
    """Rows with their numbers as numbers (75.0 and 75 alike) and a missing value as a dash."""

    def cell(text: str) -> str | float:
        try:
            return float(text)
        except ValueError:
            return text or "–"

    return [[cell(c) for c in row] for row in rows]


def as_number(text: str) -> float:
    """``2½`` as 2.5, ``½`` as 0.5, ``12`` as 12."""
    if text.endswith("½"):
        return float(text[:-1] or 0) + 0.5
    return float(text)


def explorer_ready(page: Page, filter_text: str) -> None:
    page.tab.wait_for_selector(f'#explorer-table[aria-busy="false"][data-filter="{filter_text}"]')


# -- the explorer --------------------------------------------------------------------------------


def test_explorer_of_a_player_under_an_alias(
    page: Page, served: dict[str, Any], screenshots: Path
) -> None:
    page.open("#/explore?variant=english&player=Andrew+Anderson")
    explorer_ready(page, "player “Andrew Anderson”")
    shown = shown_rows(page, "#explorer-table")
    printed = cli_rows(
        "explore",
        "--variant",
        "english",
        "--db",
        str(served["db"]),
        "--player",
        "Andrew Anderson",
        "--aliases",
        str(served["aliases"]),
    )
    assert cells(printed[1:]) == cells(shown)  # NaN: empty, or a dash
    # the games of Anderson (the alias names him) counted from the file, by first move
    his = [g for g in read_games(ENGLISH) if "Anderson, A." in (g.white, g.black)]
    first = [g.mainline()[0].text for g in his]
    assert {row[0]: int(row[1]) for row in shown} == {m: first.count(m) for m in set(first)}
    assert sum(int(row[1]) for row in shown) == 18
    page.tab.locator("#reached-table tbody tr").first.wait_for()
    assert page.tab.locator("#reached-table tbody tr").count() == 18
    page.tab.screenshot(path=str(screenshots / "explorer-filtered.png"), full_page=True)


def test_explorer_filter_form_years_and_result(page: Page, served: dict[str, Any]) -> None:
    page.open("#/explore?variant=english")
    explorer_ready(page, "")
    page.tab.fill("#explore-filter input[name=from]", "1844")
    page.tab.fill("#explore-filter input[name=to]", "1846")
    page.tab.click("#explore-filter button[type=submit]")
    explorer_ready(page, "1844–1846")
    assert "from=1844" in page.tab.evaluate("location.hash")  # the address keeps the filter
    years = [g for g in read_games(ENGLISH) if g.year is not None and 1844 <= g.year <= 1846]
    shown = shown_rows(page, "#explorer-table")
    assert sum(int(row[1]) for row in shown) == len(years) == 2  # Carluke 1844, games 1 and 2
    printed = cli_rows("explore", "--variant", "english", "--db", str(served["db"]),
                       "--year-from", "1844", "--year-to", "1846")  # fmt: skip
    assert cells(printed[1:]) == cells(shown)
    page.tab.fill("#explore-filter input[name=from]", "")
    page.tab.fill("#explore-filter input[name=to]", "")
    page.tab.select_option("#explore-filter select[name=result]", "draw")
    page.tab.click("#explore-filter button[type=submit]")
    explorer_ready(page, "draw")
    shown = shown_rows(page, "#explorer-table")
    printed = cli_rows("explore", "--variant", "english", "--db", str(served["db"]),
                       "--result", "draw")  # fmt: skip
    assert cells(printed[1:]) == cells(shown)
    draws = [g for g in read_games(ENGLISH) if g.result == "1/2-1/2"]
    assert sum(int(row[1]) for row in shown) == len(draws)


def test_explorer_at_phone_width(browser: Any, served: dict[str, Any], screenshots: Path) -> None:
    phone = Page(browser, served["url"], width=390)
    phone.open("#/explore?variant=english&event=Edinburgh")
    explorer_ready(phone, "event “Edinburgh”")
    assert phone.tab.evaluate("document.documentElement.scrollWidth") <= 390
    phone.tab.screenshot(path=str(screenshots / "explorer-phone.png"), full_page=True)
    phone.close()


# -- the event view ----------------------------------------------------------------------------


def test_event_view_is_stats_event(page: Page, served: dict[str, Any], screenshots: Path) -> None:
    page.open("#/event?event=c.i.98")
    page.tab.wait_for_selector('#event-result[aria-busy="false"]')
    shown = shown_rows(page, "#standings-table")
    printed = cli_rows("stats", "event", "--db", str(served["db"]), "--event", "c.i.98")
    assert len(shown) == len(printed) - 1 == 18  # Fero and 17 opponents
    for mine, theirs in zip(shown, printed[1:], strict=True):
        assert mine[:6] == theirs[:6]  # rank, player, games, wins, draws, losses
        assert [as_number(v) for v in mine[6:9]] == [float(v) for v in theirs[6:9]]
    # Fero's line, counted from the file: White moves first in Italian, 1-0 a White win
    points = wins = draws = 0.0
    for g in read_games(ITALIAN):
        white = g.white == "Fero"
        if g.result == "1/2-1/2":
            points, draws = points + 0.5, draws + 1
        elif (g.result == "1-0") == white:
            points, wins = points + 1, wins + 1
    fero = next(row for row in shown if row[1] == "Fero")
    assert (fero[0], int(fero[3]), int(fero[4]), as_number(fero[6])) == ("1", wins, draws, points)
    assert (wins, draws, points) == (8, 8, 12)
    cross = shown_rows(page, "#cross-table")
    assert cross[0][2] == "x" and all(row[2 + i] == "x" for i, row in enumerate(cross))
    assert "1-½-0" in page.tab.inner_text("#event-head")
    page.tab.screenshot(path=str(screenshots / "event.png"), full_page=True)


def test_event_list_to_standings_at_phone_width(
    browser: Any, served: dict[str, Any], screenshots: Path
) -> None:
    phone = Page(browser, served["url"], width=390)
    phone.open("#/event")
    # two spellings of one match, told apart neither by the list nor by the standings
    link = phone.tab.locator("#events-table a", has_text="2nd Match Samb-Buggy")
    row = phone.tab.locator("#events-table tr", has=phone.tab.locator("a", has_text="Samb-Buggy"))
    assert [row.locator("td").nth(i).inner_text() for i in (1, 2)] == ["2003", "6"]  # year, games
    names = phone.tab.eval_on_selector_all("#events-table a", "as => as.map(a => a.textContent)")
    assert "2nd Match Samb-Buggy" in names and "2nd match Samb-Buggy" not in names
    link.click()
    phone.tab.wait_for_selector('#event-result[aria-busy="false"]')
    shown = shown_rows(phone, "#standings-table")
    scored: dict[str, float] = {}
    for g in read_games(SAMPLES / "international-samb-buggy.pdn"):  # White first, 1-0 his win
        w, b = {"1-0": (1, 0), "0-1": (0, 1), "1/2-1/2": (0.5, 0.5)}[g.result or ""]
        scored[g.white or ""] = scored.get(g.white or "", 0) + w
        scored[g.black or ""] = scored.get(g.black or "", 0) + b
    assert scored == {"Buggy": 4.5, "Samb": 1.5}
    assert [(row[1], row[2], as_number(row[6])) for row in shown] == [
        ("Buggy", "6", 4.5), ("Samb", "6", 1.5)
    ]  # fmt: skip
    assert phone.tab.evaluate("document.documentElement.scrollWidth") <= 390
    phone.tab.screenshot(path=str(screenshots / "event-phone.png"), full_page=True)
    phone.close()


def test_game_list_links_an_event_to_its_standings(page: Page) -> None:
    page.open("#/games?event=c.i.98")
    page.tab.click("#games-table tbody tr >> nth=0 >> td >> nth=2 >> a")
    page.tab.wait_for_selector('#event-result[aria-busy="false"]')
    assert page.tab.evaluate("location.hash") == "#/event?event=c.i.98"
    assert page.tab.locator("#standings-table tbody tr").count() == 18


@pytest.mark.parametrize(
    ("path", "status", "says"),
    [
        ("/api/event", 400, "say which event"),
        ("/api/event?year=19x9", 400, "'year' must be a whole number"),
        ("/api/event?event=no+such+event", 404, "no game of that event"),
        ("/api/event?round=1", 400, "unknown parameter 'round'"),
        ("/api/events?event=x", 400, "unknown parameter 'event'"),
        ("/api/explore?variant=english&fen=B:W21-32:B1-12&white=x", 400, "unknown parameter"),
        ("/api/explore?variant=english&fen=B:W21-32:B1-12&from=19x9", 400, "'from' must be"),
        ("/api/reached?variant=english&fen=B:W21-32:B1-12&to=100000", 400, "'to' must be"),
    ],
)
def test_every_view_parameter_is_checked(
    served: dict[str, Any], path: str, status: int, says: str
) -> None:
    code, _, body = fetch(served["url"] + path[1:])
    assert code == status
    assert says in json.loads(body)["error"]


def test_a_players_games_in_an_event_are_those_of_its_standings(page: Page) -> None:
    # "Edinburgh 1847, game 1" is a part of the names of games 10 to 16: the link to a player's
    # games asks for the whole name, and finds the one game the standings count
    page.open("#/event?event=Edinburgh+1847,+game+1")
    page.tab.wait_for_selector('#event-result[aria-busy="false"]')
    # the server's alias file names "Anderson, A." Andrew Anderson: the page's standings, as
    # its games view, take the players under the names it gives them
    [first, second] = shown_rows(page, "#standings-table")
    assert (first[1], first[2], second[2]) == ("Andrew Anderson", "1", "1")
    page.tab.click("#standings-table a:text-is('Andrew Anderson')")
    page.tab.wait_for_selector("#games-count:has-text('of 1')")
    games = shown_rows(page, "#games-table")
    assert [(row[0], row[2]) for row in games] == [("Anderson, A.", "Edinburgh 1847, game 1")]
    assert page.tab.input_value("#search [name=player]") == "=Andrew Anderson"
    assert page.tab.input_value("#search [name=event]") == "=Edinburgh 1847, game 1"
