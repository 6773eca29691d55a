"""Opening names: the shipped traditional names and ballot labels and a user's names, found by
position."""

from __future__ import annotations

import csv
from pathlib import Path

import pytest

from pdn.archive.openings import (
    OpeningNames,
    OpeningsError,
    opening_names,
    play_moves,
    traditional_names,
)
from pdn.db.connection import open_database
from pdn.db.questions import explore, opening_stats
from pdn.db.report import html_report
from pdn.db.store import import_paths

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "english-openings.csv"
SHIPPED = ROOT / "pdn" / "data" / "english_openings.csv"
HAND = Path(__file__).resolve().parent / "data" / "hand-counted.pdn"


def digests(moves: str, variant: str = "english") -> list[int]:
    return [p.digest() for p in play_moves(variant, moves)]


def test_ballot_labels() -> None:
    names = OpeningNames.shipped()
    # pdn/data/3move_english.json: "001 09-13 21-17 05-09", "126 11-15 23-19 08-11",
    # "130 11-15 24-20 08-11"
    assert names.deepest(digests("9-13 21-17 5-9 23-18")) == "ballot 001"
    assert names.deepest(digests("1. 11-15 23-19 2. 8-11")) == "ballot 126"
    assert names.deepest(digests("11-15 23-19")) is None
    # a line with a traditional name keeps its ballot where the ballot is asked for
    assert names.ballots[digests("11-15 24-20 8-11")[-1]] == "ballot 130"


def test_traditional_names_from_the_source() -> None:
    """The shipped names against the text of their source, the 1911 Encyclopaedia Britannica,
    "Draughts", vol. 8 p. 549 (https://en.wikisource.org/wiki/Page:EB1911_-_Volume_08.djvu/572):
    Game No. 1, note a: "11–15, 24–20 forms the “Ayrshire Lassie” opening, so named by
    Wyllie."; "Game No. 2.—“Kelso-Cross” Opening." opens "a 10–15 / a 23–18"."""
    names = OpeningNames.shipped()
    assert names.deepest(digests("11-15 24-20")) == "Ayrshire Lassie"
    assert names.deepest(digests("10-15 23-18")) == "Kelso-Cross"
    # the longest name that applies, before the ballot the line is in (130, 102)
    assert names.deepest(digests("1. 11-15 24-20 2. 8-11 28-24")) == "Ayrshire Lassie"
    assert names.deepest(digests("10-15 23-18 12-16 21-17")) == "Kelso-Cross"
    # (a two-move opening has no other move order: transpositions are tested with a user's
    # International name below)
    assert names.deepest(digests("11-15 23-18")) is None  # no source read names it


def test_shipped_lines_replay_and_cite_their_source() -> None:
    rows = [r for r in csv.reader(SHIPPED.open(encoding="utf-8")) if r and r[0][0] != "#"]
    assert rows[0] == ["variant", "moves", "name", "source", "page", "url"]
    for variant, moves, name, source, page, url in rows[1:]:
        positions = play_moves(variant, moves)  # raises if a move is not legal
        assert traditional_names()[positions[-1].digest()] == name
        assert source and page and url.startswith("https://en.wikisource.org/wiki/Page:EB1911")
    assert len(traditional_names()) == len(rows) - 1 == 2


def test_user_names_win_and_transpose(tmp_path: Path) -> None:
    mine = tmp_path / "mine.csv"
    mine.write_text("variant,moves,name\nenglish,11-15 24-20,My lassie\n", encoding="utf-8")
    names = opening_names([mine])
    assert names.deepest(digests("11-15 24-20 8-11 28-24")) == "My lassie"
    assert names.name(digests("11-15 24-20")[-1]) == "My lassie"
    assert names.deepest(digests("10-15 23-18 6-10")) == "Kelso-Cross"  # still shipped
    assert names.deepest(digests("9-13 21-17 5-9")) == "ballot 001"
    # a user's name of a shorter line comes before a shipped one of a longer line
    short = tmp_path / "short.csv"
    short.write_text("variant,moves,name\nenglish,11-15,Eleven fifteen\n", encoding="utf-8")
    assert opening_names([short]).deepest(digests("11-15 24-20")) == "Eleven fifteen"
    # the sample file names what is shipped, as a user's file
    assert opening_names([SAMPLE]).deepest(digests("11-15 24-20 8-11")) == "Ayrshire Lassie"
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
