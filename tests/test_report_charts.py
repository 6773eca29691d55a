"""The report's charts, opened in Debian's Chromium over the samples: the draw rate by year as a
line over the games of every year as bars, the results of each variant stacked, the openings as
a tree, the columns named in words, and no label cut off. Every count is checked against the
sample files read here."""

from __future__ import annotations

import os
import re
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from test_serve import browser  # the serve tests' Chromium (no test of theirs)
from typer.testing import CliRunner

from pdn.cli.app import app
from pdn.read.reader import read_games

__all__ = ["browser"]  # a fixture, used by name
SAMPLES = Path(__file__).resolve().parents[1] / "samples"
GAMES = {"english": 20, "italian": 17, "international": 6, "russian": 6, "pool": 1}  # the README


@pytest.fixture(scope="module")
def report(browser: Any, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Any]:
    out = tmp_path_factory.mktemp("report-charts") / "report.html"
    result = CliRunner().invoke(app, ["report", str(SAMPLES), "-o", str(out)])
    assert result.exit_code == 0, result.output
    context = browser.new_context(viewport={"width": 1000, "height": 900})
    tab = context.new_page()
    tab.goto(out.as_uri())
    yield tab
    folder = os.environ.get("PDN_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        tab.screenshot(path=str(Path(folder) / "report.png"), full_page=True)
    context.close()


def titles(tab: Any, selector: str) -> list[str]:
    found: list[str] = tab.eval_on_selector_all(
        selector, "ns => ns.map(n => n.querySelector('title').textContent)"
    )
    return found


def sample_games() -> list[Any]:
    return [g for p in sorted(SAMPLES.glob("*.pdn")) for g in read_games(p)]


def test_draw_rate_by_year_is_a_line_over_the_games_per_year(report: Any) -> None:
    per_year = Counter(g.year for g in sample_games() if g.year is not None)
    bars = titles(report, "svg.chart rect.bar:has(title)")
    shown = {}
    for t in bars:
        year, n = t.removesuffix(" games").removesuffix(" game").split(": ")
        shown[int(year)] = int(n)
    assert shown == per_year
    # a point for each year with 5 games or more with a result, on one line
    decided = Counter(g.year for g in sample_games() if g.year and g.result not in (None, "*"))
    points = [t.split(":")[0] for t in titles(report, "svg.chart circle.point")]
    assert points == [str(y) for y in sorted(decided) if decided[y] >= 5]
    assert report.locator("svg.chart polyline.line").count() == 1


def test_results_by_variant_are_stacked(report: Any) -> None:
    segments = titles(report, "svg.chart rect.segment")
    totals: Counter[str] = Counter()
    for t in segments:
        variant, n = re.fullmatch(r"(.+): (\d+) .+", t).groups()  # type: ignore[union-attr]
        totals[variant] += int(n)
    assert totals == GAMES
    draws = {t.split(":")[0]: int(t.split()[1]) for t in segments if t.endswith(" draws")}
    assert draws["italian"] == sum(
        1 for g in read_games(SAMPLES / "italian-ci98-fero.pdn") if g.result == "1/2-1/2"
    )


def test_openings_tree_counts_the_first_moves(report: Any) -> None:
    english = [g for g in read_games(SAMPLES / "english-oca-first20.pdn") if g.fen is None]
    first = Counter(g.mainline()[0].text for g in english if g.mainline())
    tree = report.locator(".tree", has_text="english: the first three plies")
    roots = tree.locator(":scope > ul > li")
    shown = {}
    for i in range(roots.count()):
        move = roots.nth(i).locator(":scope > b").inner_text()
        games = roots.nth(i).locator(":scope > .games").inner_text()
        shown[move] = int(games.split()[0])
    assert shown == dict(first.most_common(3))
    replies = roots.first.locator(":scope > ul > li > b").all_inner_texts()
    second = Counter(g.mainline()[1].text for g in english if g.mainline()[0].text == "11-15")
    assert set(replies) <= set(second) and len(replies) == min(2, len(second))


def test_columns_in_words_and_no_label_cut(report: Any) -> None:
    heads = report.eval_on_selector_all("th", "ts => ts.map(t => t.textContent)")
    assert "Black wins" in heads and "Draw rate %" in heads
    assert not [h for h in heads if "_" in h]
    cut = report.evaluate(
        """() => [...document.querySelectorAll('svg.chart text')].filter(t => {
          const s = t.ownerSVGElement.getBoundingClientRect(), r = t.getBoundingClientRect();
          return r.left < s.left || r.right > s.right || r.top < s.top || r.bottom > s.bottom;
        }).map(t => t.textContent)"""
    )
    assert cut == []
    labels = report.eval_on_selector_all(
        "svg.chart text[text-anchor=end]", "ts => ts.map(t => t.textContent)"
    )
    longest = max(labels, key=len)
    assert "11-15 23-19" in longest or len(longest) > 30  # an opening's six plies, whole
    assert report.evaluate("document.documentElement.scrollWidth") <= 1000
