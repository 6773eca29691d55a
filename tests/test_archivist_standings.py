"""`pdn stats event`: standings and crosstables of real events (issue 28).

The expected figures were tallied by hand from the files' tags (awk over White, Black, Round,
Result), not by this code: the Veteranenkampioenschap van Suriname 2025 (98 games, its round 3
written twice: 87 games), scored 2-1-0 as its results are written 2-0; and the 2002 British
Computer Championship, a 16-game match Nemesis v Wyllie scored 1-½-0 (Nemesis won 5 games with
White, 0-1 in English notation, and drew 11: 10½-5½)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

from typer.testing import CliRunner

from pdn.archive.standings import EventChoice, event_games, standings
from pdn.cli.app import app

runner = CliRunner()
SURINAME = "Veteranenkampioenschap van Suriname 2025"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_suriname_2025_two_point_scoring(corpus: Path) -> None:
    path = corpus / "international" / "bruno-ChapionnatSurinam2025.pdn"
    games = event_games([path], EventChoice(event=SURINAME))
    assert len(games) == 87
    table = standings(games)
    assert (table.win, table.draw) == (2.0, 1.0)
    top = [(e.rank, e.player, e.games, e.wins, e.draws, e.losses, e.points, e.sonneborn_berger)
           for e in table.entries[:6]]  # fmt: skip
    assert top == [
        (1, "Anches, Waldi", 8, 5, 2, 1, 12, 57),  # level on points: Sonneborn-Berger decides
        (2, "Gangaram-Panday, Ramanand", 8, 5, 2, 1, 12, 50),
        (3, "Dumfries, Glenn", 8, 5, 1, 2, 11, 34),
        (4, "Hardayal, Pradeep", 7, 4, 2, 1, 10, 37),
        (5, "Sakimin, Johan", 8, 3, 4, 1, 10, 34),
        (6, "Ligeon, Erik", 8, 4, 2, 2, 10, 33),
    ]
    first, second = table.entries[:2]
    assert first.against[second.player] == 2 and first.head_to_head == 2  # Anches beat him


def test_british_computer_championship_2002_in_each_format(corpus: Path) -> None:
    path = str(corpus / "english" / "migo-British_Computer_Championship_2002.pdn")
    code, out, _ = run("stats", "event", path, "--event", "British Computer Championship",
                       "-f", "tsv")  # fmt: skip
    assert code == 0
    assert out.splitlines() == [
        "rank\tplayer\tgames\twins\tdraws\tlosses\tpoints\tSonneborn-Berger\thead to head\t1\t2",
        "1\tNemesis\t16\t5\t11\t0\t10.5\t57.75\t0\tx\t10.5",  # SB: 5 x 5.5 + 11 x 2.75
        "2\tWyllie\t16\t0\t11\t5\t5.5\t57.75\t0\t5.5\tx",
    ]
    _, out, _ = run("stats", "event", path, "--year", "2002", "-f", "json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert [(r["player"], r["points"]) for r in rows] == [("Nemesis", 10.5), ("Wyllie", 5.5)]
    _, out, _ = run("stats", "event", path, "--year", "2002", "-f", "csv")
    assert list(csv.reader(io.StringIO(out)))[1][:7] == [
        "1",
        "Nemesis",
        "16",
        "5",
        "11",
        "0",
        "10.5",
    ]
    _, out, _ = run("stats", "event", path, "--year", "2002", "-f", "table")
    assert out.splitlines()[2].split() == ["1", "Nemesis", "16", "5", "11", "0", "10½", "57.75",
                                           "0", "x", "10½"]  # fmt: skip


def test_from_the_database_the_same(corpus: Path, tmp_path: Path) -> None:
    path = str(corpus / "international" / "bruno-ChapionnatSurinam2025.pdn")
    db = str(tmp_path / "g.db")
    assert run("import", path, "--db", db)[0] == 0
    from_files = run("stats", "event", path, "--event", SURINAME, "-f", "tsv")
    from_db = run("stats", "event", "--db", db, "--event", SURINAME.upper(), "-f", "tsv")
    assert from_db == from_files and from_db[0] == 0


def test_an_event_must_be_named(corpus: Path) -> None:
    path = str(corpus / "english" / "migo-British_Computer_Championship_2002.pdn")
    code, _, err = run("stats", "event", path)
    assert code == 2 and err == "pdn: say which event: --event NAME, --site NAME or --year YEAR\n"
    code, _, err = run("stats", "event", path, "--event", "Nowhere Open")
    assert code == 1 and err == "pdn: no game of that event\n"
