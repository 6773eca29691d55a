"""Opening names: shipped ballot labels and a user's names, found by position."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn.archive.openings import OpeningNames, OpeningsError, opening_names, play_moves
from pdn.db.connection import open_database
from pdn.db.questions import explore, opening_stats
from pdn.db.report import html_report
from pdn.db.store import import_paths

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "english-openings.csv"
HAND = Path(__file__).resolve().parent / "data" / "hand-counted.pdn"


def digests(moves: str, variant: str = "english") -> list[int]:
    return [p.digest() for p in play_moves(variant, moves)]


def test_ballot_labels() -> None:
    names = OpeningNames.shipped()
    # pdn/data/3move_english.json: "001 09-13 21-17 05-09", "130 11-15 24-20 08-11"
    assert names.deepest(digests("9-13 21-17 5-9 23-18")) == "ballot 001"
    assert names.deepest(digests("1. 11-15 24-20 2. 8-11")) == "ballot 130"
    assert names.deepest(digests("11-15 24-20")) is None


def test_user_names_win_and_transpose(tmp_path: Path) -> None:
    names = opening_names([SAMPLE])
    assert names.deepest(digests("11-15 24-20 8-11 28-24")) == "Ayrshire Lassie"
    assert names.deepest(digests("10-15 23-18 6-10")) == "Kelso-Cross"
    assert names.deepest(digests("9-13 21-17 5-9")) == "ballot 001"
    # International, named by a user: reached by another move order too
    path = tmp_path / "intl.csv"
    path.write_text("variant,moves,name\ninternational,31-27 17-22 33-29,Test line\n", "utf-8")
    intl = opening_names([path])
    assert intl.deepest(digests("33-29 17-22 31-27", "international")) == "Test line"


def test_bad_files(tmp_path: Path) -> None:
    path = tmp_path / "bad.csv"
    for text, match in (
        ("moves,name\n", "header"),
        ("variant,moves,name\nenglish,11-15 11-15,X\n", ":2: move 2 \\(11-15\\)"),
        ("variant,moves,name\nchess,e4,X\n", ":2:"),
        ("variant,moves,name\nenglish,11-15\n", ":2: expected"),
    ):
        path.write_text(text, encoding="utf-8")
        with pytest.raises(OpeningsError, match=match):
            opening_names([path])


def test_names_in_the_statistics(tmp_path: Path) -> None:
    engine = open_database(str(tmp_path / "hand.db"))
    import_paths(engine, [HAND])
    path = tmp_path / "names.csv"
    path.write_text("variant,moves,name\nenglish,11-15 23-19,Test name\n", encoding="utf-8")
    names = opening_names([path])
    # tests/data/hand-counted.pdn: games 2 and 3 open 11-15 23-19 8-11 (ballot 126), game 1
    # 11-15 22-18 15x22 (ballot 120), game 9 9-14 22-18
    two = opening_stats(engine, "english", plies=2, names=names).set_index("opening")["name"]
    assert two.fillna("").to_dict() == {"11-15 23-19": "Test name", "11-15 22-18": "",
                                         "9-14 22-18": ""}  # fmt: skip
    four = opening_stats(engine, "english", plies=4, names=names).set_index("opening")["name"]
    assert four["11-15 23-19 8-11 22-17"] == "Test name"  # the user's name before the ballot
    assert four["11-15 22-18 15x22 25x18"] == "ballot 120"
    shipped = opening_stats(engine, "english", plies=4).set_index("opening")["name"]
    assert shipped["11-15 23-19 8-11 22-17"] == "ballot 126"
    after = explore(engine, "english", moves="11-15 22-18").set_index("move")["name"]
    assert after.to_dict() == {"15x22": "ballot 120"}
    assert explore(engine, "english", names=names).set_index("move")["name"].isna().all()
    # past the ballot, explore names a move's line as `stats openings` does (it named only
    # the position a move leads to, so none of these)
    deeper = explore(engine, "english", moves="11-15 23-19 8-11").set_index("move")["name"]
    assert (
        deeper.to_dict()
        == {"22-17": "ballot 126"}
        == {
            str(line).split()[-1]: name
            for line, name in shipped.items()
            if str(line).startswith("11-15 23-19")
        }
    )
    assert "Test name" in html_report(engine, "hand", names)
    engine.dispose()
