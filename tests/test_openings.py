"""Opening names: shipped ballot labels and a user's names, found by position."""

from __future__ import annotations

from pathlib import Path

import pytest

from pdn.openings import OpeningNames, OpeningsError, opening_names, play_moves

SAMPLE = Path(__file__).resolve().parents[1] / "samples" / "english-openings.csv"


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
