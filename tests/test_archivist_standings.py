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
    assert out.splitlines()[2].split() == ["1", "Nemesis", "16", "5", "11", "0", "10½", "57¾",
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


GAME = (
    '[Event "{event}"]\n[Date "{year}.05.01"]\n[White "{w}"]\n[Black "{b}"]\n[Result "{r}"]\n'
    "\n{r}\n"
)


def test_event_names_beyond_ascii_and_years_apart(tmp_path: Path) -> None:
    """Files and database tell events apart alike: a name compared without case for every
    letter (SQLite's lower() folds only ASCII ones), and the page's list of events a name in
    each year (a yearly championship is not one crosstable)."""
    from pdn.db.connection import open_database
    from pdn.db.standings import stored_events

    path = tmp_path / "events.pdn"
    path.write_text(
        GAME.format(event="Österreich Open", year=2019, w="A", b="B", r="1-0")
        + GAME.format(event="ÖSTERREICH OPEN ", year=2019, w="B", b="C", r="1/2-1/2")
        + GAME.format(event="Österreich Open", year=2019, w="C", b="A", r="1-0")
        + GAME.format(event="Österreich Open", year=2020, w="C", b="A", r="0-1"),
        encoding="utf-8",
    )
    db = str(tmp_path / "e.db")
    assert run("import", str(path), "--db", db)[0] == 0
    for name in ("österreich open", "ÖSTERREICH OPEN"):
        from_files = run("stats", "event", str(path), "--event", name, "-f", "tsv")
        from_db = run("stats", "event", "--db", db, "--event", name, "-f", "tsv")
        assert from_db == from_files and from_db[0] == 0
        assert len(from_db[1].splitlines()) == 1 + 3  # a header and players A, B, C
    one_year = run("stats", "event", "--db", db, "--event", "österreich open", "--year", "2019")
    assert one_year[0] == 0 and "C" in one_year[1]
    engine = open_database(db)
    # listed under the spelling written most that year
    assert stored_events(engine) == [("Österreich Open", 2019, 3), ("Österreich Open", 2020, 1)]
    engine.dispose()
