"""`pdn report`: one self-contained HTML page, checked in a real headless Chromium."""

from __future__ import annotations

import subprocess
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import CHROMIUM_FLAGS as FLAGS
from conftest import chromium
from pdn.cli.app import app

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


@pytest.fixture(scope="module")
def page(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("report") / "report.html"
    result = CliRunner().invoke(app, ["report", str(SAMPLES), "-o", str(out)])
    assert result.exit_code == 0, result.output
    return out


def test_page_is_self_contained(page: Path) -> None:
    html = page.read_text(encoding="utf-8")
    assert "<script" not in html and "http://" not in html.replace("http://www.w3.org", "")
    assert "50 games." in html
    # the diagram: the most common position after six plies, as an SVG document of its own
    diagram = html[html.index('<svg xmlns="http://www.w3.org/2000/svg" viewBox') :]
    root = ET.fromstring(diagram[: diagram.index("</svg>") + 6])
    assert len(root.findall(".//{http://www.w3.org/2000/svg}circle[@data-square]")) == 24


def test_page_renders_in_chromium(page: Path, tmp_path: Path) -> None:
    browser = chromium()
    profile = tmp_path / "profile"
    dom = subprocess.run(
        [browser, *FLAGS, f"--user-data-dir={profile}", "--dump-dom", page.as_uri()],
        capture_output=True, text=True, timeout=120, check=True,
    )  # fmt: skip
    assert "Draw rate by year" in dom.stdout and "Most played openings" in dom.stdout
    assert dom.stdout.count('class="bar"') >= 10  # the two draw-rate plots
    assert dom.stdout.count("data-square=") == 24  # the diagram's pieces
    shot = tmp_path / "page.png"
    subprocess.run(
        [browser, *FLAGS, f"--user-data-dir={profile}", f"--screenshot={shot}",
         "--window-size=1000,1800", page.as_uri()],
        capture_output=True, timeout=120, check=True,
    )  # fmt: skip
    assert shot.stat().st_size > 10_000


def test_a_database_named_otherwise_is_read_as_a_database(tmp_path: Path) -> None:
    """An SQLite file is known by its first bytes, whatever its name: `report` and
    `duplicates` read it as the database it is (they read it as PDN, found no game, and wrote a
    report of 0 games with exit 0)."""
    db = tmp_path / "games.sqlite3"
    runner = CliRunner()
    copies = [tmp_path / "a.pdn", tmp_path / "b.pdn"]
    for copy in copies:
        copy.write_bytes((SAMPLES / "english-oca-first20.pdn").read_bytes())
    assert runner.invoke(app, ["import", *map(str, copies), "--db", str(db)]).exit_code == 0
    out = tmp_path / "r.html"
    done = runner.invoke(app, ["report", str(db), "-o", str(out)])
    assert done.exit_code == 0, done.output
    assert ">20<" in out.read_text("utf-8")  # the games counted
    done = runner.invoke(app, ["duplicates", str(db)])
    assert (done.exit_code, done.stderr) == (0, "20 groups, 40 games\n")


def test_files_without_games_make_no_report(tmp_path: Path) -> None:
    """Files with no game are told on stderr as import tells them; with no game at all there is
    no page (an empty one, exit 0, before), and with some, the page and exit 1."""
    empty = tmp_path / "empty.pdn"
    empty.write_bytes(b"")
    out = tmp_path / "r.html"
    done = CliRunner().invoke(app, ["report", str(empty), "-o", str(out)])
    assert (done.exit_code, done.stderr) == (1, f"{empty}: no games found\n")
    assert not out.exists()
    sample = str(SAMPLES / "english-oca-first20.pdn")
    done = CliRunner().invoke(app, ["report", str(empty), sample, "-o", str(out)])
    assert (done.exit_code, done.stderr) == (1, f"{empty}: no games found\nwrote {out}\n")
    assert out.exists()
