"""Player names: keys, groups of variants, alias files."""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from sqlalchemy import Engine

from conftest import corpus_dir
from pdn.archive.players import (
    AliasError,
    Aliases,
    alias_rows,
    group_names,
    name_key,
    player_counts,
)
from pdn.db.connection import open_database
from pdn.db.players import PLAYER_COLUMNS, player_names, player_stats
from pdn.db.questions import draw_stats
from pdn.db.store import import_paths
from pdn.read.files import pdn_files
from pdn.read.reader import read_games

HAND = Path(__file__).resolve().parent / "data" / "hand-counted.pdn"


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Sijbrands, Ton", ("sijbrands", "t")),
        ("T. Sijbrands", ("sijbrands", "t")),
        ("Sijbrands,T.", ("sijbrands", "t")),
        ("SIJBRANDS T", ("sijbrands", "t")),
        ("Ton Sijbrands", ("sijbrands", "t")),
        ("Sijbrands", ("sijbrands", "")),
        ("H.  van der Zee", ("vanderzee", "h")),
        ("van der Zee, H.", ("vanderzee", "h")),
        ("Van der Wal", ("vanderwal", "")),
        ("Reed, J.P.", ("reed", "jp")),
        ("James P. Reed", ("reed", "jp")),
        ("Wm. F. Ryan", ("ryan", "wf")),
        ("Walter Hellman", ("hellman", "w")),
        ("Шварцман А.", ("шварцман", "а")),
        ("Baba Sy", ("sy", "b")),
    ],
)
def test_name_keys(name: str, key: tuple[str, str]) -> None:
    assert name_key(name) == key


def test_groups_join_shorter_initials_only_when_unambiguous() -> None:
    counts = Counter({"Reed, J.P.": 144, "James P. Reed": 2, "Reed, J.E.": 13, "Reed, J.": 1,
                      "James Reed": 1, "Wyllie, J.": 606, "Wyllie": 16, "?": 9})  # fmt: skip
    groups = {tuple(sorted(v for v, _ in g.variants)) for g in group_names(counts)}
    assert groups == {
        ("James P. Reed", "Reed, J.P."),
        ("Reed, J.E.",),
        ("James Reed", "Reed, J."),  # J. could be J.P. or J.E.
        ("Wyllie", "Wyllie, J."),
    }


def test_sijbrands_in_the_corpus() -> None:
    # grep over the corpus: White and Black tags, "Sijbrands, Ton" 20 + 20, "T. Sijbrands"
    # 18 + 8, "Sijbrands,T." 10 + 11 (he never plays himself)
    pairs = [(g.white, g.black) for f in pdn_files([corpus_dir()]) for g in read_games(f)]
    groups = [g for g in group_names(player_counts(pairs)) if g.key == ("sijbrands", "t")]
    assert len(groups) == 1
    assert groups[0].variants == [
        ("Sijbrands, Ton", 40),
        ("T. Sijbrands", 26),
        ("Sijbrands,T.", 21),
    ]
    assert groups[0].name == "Sijbrands, Ton" and groups[0].games == 87


def test_player_counts_once_per_game() -> None:
    assert player_counts([("A", "B"), ("A", "A"), (None, "B")]) == Counter({"A": 2, "B": 2})


def test_alias_file(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_text('alias,name\nT. Sijbrands,"Sijbrands, Ton"\n"sijbrands, t.","Sijbrands, Ton"\n'
                    "\n", encoding="utf-8")  # fmt: skip
    aliases = Aliases.load(path)
    assert aliases.name("T.  SIJBRANDS") == "Sijbrands, Ton"  # case and spaces do not matter
    assert aliases.name("Sijbrands, T.") == "Sijbrands, Ton"
    assert aliases.name("Sijbrands, Ton") == "Sijbrands, Ton"
    assert aliases.name("Wiersma") == "Wiersma"
    written = ["T. Sijbrands", "Sijbrands, Ton", "Sijbrands", "Wiersma, Harm"]
    assert aliases.written(written, "sijbrands, t") == ["T. Sijbrands", "Sijbrands, Ton"]


def test_alias_file_errors(tmp_path: Path) -> None:
    for text, where in (("name,alias\nA,B\n", ":1:"), ("alias,name\nA\n", ":2:"),
                        ("alias,name\nA,\n", ":2:"),  # an unquoted "Last, First" below
                        ("alias,name\nA,B\nSijbrands,T.,Sijbrands, Ton\n", ":3: 4 fields"),
                        ):  # fmt: skip
        path = tmp_path / "bad.csv"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(AliasError, match=where):
            Aliases.load(path)


def test_alias_rows_from_groups() -> None:
    groups = group_names(Counter({"Wyllie, J.": 606, "Wyllie": 16, "Ferrie, J.": 5}))
    assert alias_rows(groups) == [("Wyllie, J.", "Wyllie, J."), ("Wyllie", "Wyllie, J.")]
    assert ("Ferrie, J.", "Ferrie, J.") in alias_rows(groups, every=True)


@pytest.fixture(scope="module")
def hand_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    engine = open_database(str(tmp_path_factory.mktemp("players") / "hand.db"))
    import_paths(engine, [HAND])
    yield engine
    engine.dispose()


WYLLIE = Aliases([("J. Wyllie", "Wyllie, J."), ("Wyllie", "Wyllie, J.")])


def rows(frame: pd.DataFrame) -> dict[str, list[Any]]:
    return {r[0]: list(r[1:]) for r in frame.itertuples(index=False)}


def test_player_names_in_the_database(hand_db: Engine) -> None:
    names = player_names(hand_db)
    # tests/data/hand-counted.pdn: Wyllie, J. plays games 1, 3 and 8; Martins, R. 2 and 3
    assert names["Wyllie, J."] == 3 and names["Martins, R."] == 2 and names["?"] == 1


def test_player_results_by_colour(hand_db: Engine) -> None:
    # columns: games, won/drew/lost with White, with Black, no result, score, draw rate
    plain = rows(player_stats(hand_db, player="wyllie"))
    assert plain["Wyllie, J."] == [3, 1, 0, 0, 1, 0, 0, 1, 100.0, 0.0]  # games 1, 3, 8
    assert plain["J. Wyllie"] == [1, 0, 1, 0, 0, 0, 0, 0, 50.0, 100.0]  # game 2
    assert plain["Wyllie"][:8] == [1, 0, 0, 0, 0, 0, 0, 1] and pd.isna(plain["Wyllie"][8])
    joined = rows(player_stats(hand_db, WYLLIE, player="wyllie"))
    # 2 wins and a draw over 3 games with a result: 83.3%; two games without one
    assert joined == {"Wyllie, J.": [5, 1, 1, 0, 1, 0, 0, 2, 83.3, 33.3]}
    # head to head with Martins: a draw (game 2) and a win with Black (game 3)
    assert rows(player_stats(hand_db, WYLLIE, player="wyllie", vs="martins")) == {
        "Wyllie, J.": [2, 0, 1, 0, 1, 0, 0, 0, 75.0, 50.0]
    }
    assert rows(player_stats(hand_db, vs="wyllie", player="martins")) == {
        "Martins, R.": [2, 0, 0, 1, 0, 1, 0, 0, 25.0, 50.0]
    }
    assert "?" not in rows(player_stats(hand_db))
    assert list(player_stats(hand_db, player="nobody at all").columns) == PLAYER_COLUMNS


def test_draws_by_player_under_aliases(hand_db: Engine) -> None:
    frame = draw_stats(hand_db, "player", aliases=WYLLIE).set_index("player")
    # games 1, 2, 3, 8, 9: one draw (game 2) among the three with a result
    wyllie = frame.loc["Wyllie, J."]
    assert isinstance(wyllie, pd.Series)  # one row
    assert wyllie[["games", "draws", "no_result", "draw_rate"]].tolist() == [
        5, 1, 2, 33.3,
    ]  # fmt: skip
    assert "J. Wyllie" not in frame.index and "Wyllie" not in frame.index


def test_draws_by_player_leave_out_what_names_no_player(hand_db: Engine) -> None:
    """The players of `stats draws --by player` are those of `stats players`: a "?" White was
    a player of its own, with every game it stood for."""
    assert "?" in player_names(hand_db)
    assert set(draw_stats(hand_db, "player")["player"]) == set(player_stats(hand_db)["player"])
