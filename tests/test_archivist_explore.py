"""`pdn explore` over a selection of games (issue 28): the same games as `pdn query` selects."""

from __future__ import annotations

import csv
import io
from pathlib import Path

from typer.testing import CliRunner

from pdn.cli.app import app

runner = CliRunner()
SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "english-oca-first20.pdn"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def _games(out: str) -> int:
    return sum(int(row["games"]) for row in csv.DictReader(io.StringIO(out), delimiter="\t"))


def test_explore_counts_the_games_query_selects(tmp_path: Path) -> None:
    # the sample: Wyllie's first 20 games, 1841-1847, every one from the start (1. 11-15 ...);
    # 16 of them the Edinburgh match of 1847
    db = str(tmp_path / "g.db")
    assert run("import", str(SAMPLE), "--db", db)[0] == 0
    for who, name, bound, year, n in (
        ("--player", "Wyllie", "from", "1842", 19),
        ("--event", "Edinburgh", "to", "1847", 16),
        ("--player", "Anderson", "to", "1843", 0),
    ):
        explore = [who, name, f"--year-{bound}", year]
        query = [who, name, f"--date-{bound}", year]
        code, out, _ = run("explore", "-v", "english", "--db", db, "-f", "tsv", *explore)
        assert code == 0 and _games(out) == n
        assert run("query", "--db", db, "--count", *query)[1] == f"{n}\n"
