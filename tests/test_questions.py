"""Questions asked of the database, checked number by number on an archive counted by hand, and
the statistics checked to agree with each other on the whole corpus."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from html.parser import HTMLParser
from pathlib import Path
from typing import Any

import pandas as pd
import pytest
from sqlalchemy import Engine, event
from typer.testing import CliRunner

from pdn.archive.selection import parse_material
from pdn.cli.app import app
from pdn.db.connection import open_database
from pdn.db.questions import (
    GameFilter,
    QuestionError,
    draw_stats,
    explore,
    find_games,
    opening_stats,
    result_stats,
)
from pdn.db.report import html_report
from pdn.db.store import ImportStats, import_paths

# 14 games read, 13 stored: the last is E5 again (tags in another order, other whitespace, a
# comment), a copy. In English Black moves first and 1-0 is a Black win; in International
# White moves first and 2-0 is a White win. Four games have no result: E4 (*), E6 (no Result
# tag, ends with *), I4 (x-y, unreadable), and none other.
HAND = """
[Event "E1"] [Date "1872.??.??"] [White "Wyllie"] [Black "Martins"] [Result "1-0"] [GameType "21"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1-0

[Event "E2"] [Date "1872.??.??"] [White "Wyllie"] [Black "Martins"] [Result "0-1"] [GameType "21"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 0-1

[Event "E3"] [Date "1872.??.??"] [White "Martins"] [Black "Wyllie"] [Result "1/2-1/2"]
[GameType "21"]
1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17-14 4. 10x17 21x14 1/2-1/2

[Event "E4"] [Date "1872.??.??"] [White "Martins"] [Black "Wyllie"] [Result "*"] [GameType "21"]
1. 11-15 23-19 2. 8-11 *

[Event "E5"] [Date "1999.05.01"] [White "Tinsley"] [Black "Chinook"] [Result "1/2-1/2"]
[GameType "21"]
1. 11-15 23-19 2. 9-14 1/2-1/2

[Event "E6"] [Date "1999.05.01"] [White "Tinsley"] [Black "Chinook"] [GameType "21"]
1. 11-15 22-17 *

[Event "E7"] [Date "1999.05.02"] [White "Chinook"] [Black "Tinsley"] [Result "1-0"] [GameType "21"]
1. 9-13 21-17 2. 5-9 1-0

[Event "E8"] [Date "1999.05.02"] [White "Chinook"] [Black "Tinsley"] [Result "1/2-1/2"]
[GameType "21"]
1. 9-13 21-17 2. 5-9 1/2-1/2

[Event "E9"] [White "Chinook"] [Black "Tinsley"] [Result "0-1"] [GameType "21"]
1. 9-13 0-1

[Event "I1"] [Date "2003.??.??"] [White "Sijbrands"] [Black "Baljakin"] [Result "2-0"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 2-0

[Event "I2"] [Date "2003.??.??"] [White "Baljakin"] [Black "Sijbrands"] [Result "1-1"]
[GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 1-1

[Event "I3"] [Date "2003.??.??"] [White "Sijbrands"] [Black "Baljakin"] [Result "0-2"]
[GameType "20"]
1. 32-28 18-23 0-2

[Event "I4"] [Date "2003.??.??"] [White "Baljakin"] [Black "Sijbrands"] [Result "x-y"]
[GameType "20"]
1. 33-28

[GameType "21"] [Result  "1/2-1/2"] [Black "Chinook"]
[White " Tinsley "]   [Event "E5"] [Date "1999.05.01"]
1. 11-15 {the usual} 23-19
2. 9-14   1/2-1/2
"""

COLUMNS = ["games", "white_wins", "draws", "black_wins", "no_result", "white_score",
           "draw_rate"]  # fmt: skip


@pytest.fixture
def hand_file(tmp_path: Path) -> Path:
    path = tmp_path / "hand.pdn"
    path.write_text(HAND, encoding="utf-8")
    return path


@pytest.fixture
def hand(db: str, hand_file: Path) -> Iterator[Engine]:
    engine = open_database(db)
    stats = import_paths(engine, [hand_file])
    assert (stats.games, stats.added, stats.copies) == (14, 13, 1)
    yield engine
    engine.dispose()


def rows(frame: pd.DataFrame, *keys: str) -> dict[object, list[object]]:
    """Each row's counts, score and draw rate (empty ones as None), by its key columns."""
    out = {}
    for record in frame.to_dict("records"):
        key = record[keys[0]] if len(keys) == 1 else tuple(record[k] for k in keys)
        out[key] = [None if pd.isna(record[c]) else record[c] for c in COLUMNS]
    return out


def _plans(engine: Engine, ask: Callable[[], object]) -> list[str]:
    """SQLite's query plan of every statement *ask* makes, one text per statement."""
    statements: list[tuple[str, Any]] = []

    def seen(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        if statement.lstrip().upper().startswith("SELECT"):
            statements.append((statement, parameters))

    event.listen(engine, "before_cursor_execute", seen)
    try:
        ask()
    finally:
        event.remove(engine, "before_cursor_execute", seen)
    with engine.connect() as conn:
        cursor = conn.connection.driver_connection
        assert cursor is not None
        return [
            " | ".join(str(row[-1]) for row in cursor.execute(f"EXPLAIN QUERY PLAN {s}", p))
            for s, p in statements
        ]


def test_large_questions_are_answered_from_indexes(hand: Engine) -> None:
    # pdn serve's aim on 200,000 games: the moves from a position are read from its postings
    # (keyed by digest), the runs of a material from its signature's row,
    # the invalid games from their own index
    if hand.dialect.name != "sqlite":
        pytest.skip("query plans are SQLite's")
    # a position of the openings (pdn.db.tallies): its moves read from move_tallies
    [plan] = _plans(hand, lambda: explore(hand, "english"))
    assert (
        plan == "SEARCH move_tallies USING INDEX ix_move_tallies_digest (digest=?) | "
        "USE TEMP B-TREE FOR GROUP BY"
    )
    # a result move_tallies do not tell apart: from the position's postings (keyed by its
    # digest; the staged games, if any, read apart), each game they name looked up by its
    # number
    postings, plan = _plans(hand, lambda: explore(hand, "english", result="first"))
    assert postings == "SEARCH postings USING INTEGER PRIMARY KEY (rowid=?)"
    assert "positions_staged" not in plan
    assert "SEARCH games USING INDEX ix_games_number (number=?)" in plan
    assert "MATERIALIZE" not in plan
    even = GameFilter(material=parse_material("W:12,B:12"), material_plies=2)
    # the material's runs: whether any are staged, the signatures listed (a row each), then
    # the rows of those the spec allows read by their key; the games they name looked up by
    # number
    *runs, plan = _plans(hand, lambda: find_games(hand, even))
    assert runs == ["SCAN material_staged", "SCAN material",
                    "SEARCH material USING INTEGER PRIMARY KEY (rowid=?)"]  # fmt: skip
    assert "SEARCH games USING INDEX ix_games_number (number=?)" in plan
    assert "material" not in plan
    plans = _plans(hand, lambda: find_games(hand, GameFilter(valid=False)))
    assert "SCAN games USING INDEX ix_games_invalid" in plans[0]
    for by in ("variant", "year", "opening", "player", "termination"):  # from the tallies
        plans = _plans(hand, lambda: result_stats(hand, by))  # noqa: B023
        assert "SCAN games" not in " ".join(plans)
        assert "SCAN tallies" in plans[0] or "SCAN player_tallies" in plans[0]
    for plies in (1, 3, 6):
        assert "SCAN games" not in " ".join(_plans(hand, lambda: opening_stats(hand, plies=plies)))  # noqa: B023
    assert "SCAN games" not in " ".join(_plans(hand, lambda: opening_stats(hand, ballots=True)))


def test_explore_counts_by_colour_and_apart_the_games_without_result(hand: Engine) -> None:
    # from the start: 11-15 in E1-E6 (White won E2; E3, E5 drawn; Black won E1; E4, E6 no
    # result: over 4 with a result White scores (1 + 2/2)/4 and 2 of 4 are draws); 9-13 in
    # E7-E9 (Black won E7, drawn E8, White won E9: (1 + 1/2)/3 = 50%, 1 draw in 3)
    assert rows(explore(hand, "english"), "move") == {
        "11-15": [6, 1, 2, 1, 2, 50.0, 50.0],
        "9-13": [3, 1, 1, 1, 0, 50.0, 33.3],
    }
    after = explore(hand, "english", moves="11-15")
    assert rows(after, "move") == {
        "23-19": [5, 1, 2, 1, 1, 50.0, 50.0],  # E1-E5
        "22-17": [1, 0, 0, 0, 1, None, None],  # E6 only, without result: no rate at all
    }
    # White moves first in International: 2-0 (I1) a White win, 0-2 (I3) a Black win
    assert rows(explore(hand, "international"), "move") == {
        "32-28": [3, 1, 1, 1, 0, 50.0, 33.3],
        "33-28": [1, 0, 0, 0, 1, None, None],
    }
    assert list(explore(hand, "english", top=1)["move"]) == ["11-15"]


def test_openings_by_plies_and_by_ballot(hand: Engine) -> None:
    third = opening_stats(hand, plies=3)
    assert rows(third, "opening", "variant") == {
        ("11-15 23-19 8-11", "english"): [4, 1, 1, 1, 1, 50.0, 33.3],  # E1-E4
        ("9-13 21-17 5-9", "english"): [2, 0, 1, 1, 0, 25.0, 50.0],  # E7 Black, E8 drawn
        ("32-28 19-23 28x19", "international"): [2, 1, 1, 0, 0, 75.0, 50.0],  # I1, I2
        ("11-15 23-19 9-14", "english"): [1, 0, 1, 0, 0, 50.0, 100.0],  # E5 (its copy: no)
    }
    assert list(third["opening"]) == [  # most games first, then by opening
        "11-15 23-19 8-11", "32-28 19-23 28x19", "9-13 21-17 5-9", "11-15 23-19 9-14",
    ]  # fmt: skip
    ballots = opening_stats(hand, ballots=True)
    assert rows(ballots, "ballot") == {
        "ballot 126": [4, 1, 1, 1, 1, 50.0, 33.3],
        "ballot 001": [2, 0, 1, 1, 0, 25.0, 50.0],
        "ballot 128": [1, 0, 1, 0, 0, 50.0, 100.0],
    }
    assert list(ballots["opening"]) == ["11-15 23-19 8-11", "9-13 21-17 5-9", "11-15 23-19 9-14"]
    english = opening_stats(hand, variant="english", plies=2, min_games=2, top=1)
    assert rows(english, "opening") == {"11-15 23-19": [5, 1, 2, 1, 1, 50.0, 50.0]}
    with pytest.raises(QuestionError, match="English three-move ballots"):
        opening_stats(hand, variant="russian", ballots=True)
    with pytest.raises(QuestionError, match="--top must be 1 or more"):
        opening_stats(hand, top=0)


def test_results_and_draws_by_variant_year_opening_player(hand: Engine) -> None:
    by_variant = result_stats(hand, "variant")
    # English: White won E2 and E9, drawn E3 E5 E8, Black won E1 E7, no result E4 E6:
    # White (2 + 3/2)/7 = 50%, draws 3/7 = 42.9%. International: I1 White, I2 drawn, I3 Black,
    # I4 no result. Every draw was agreed (no rule ended a game).
    assert rows(by_variant, "variant") == {
        "english": [9, 2, 3, 2, 2, 50.0, 42.9],
        "international": [4, 1, 1, 1, 1, 50.0, 33.3],
    }
    assert list(by_variant["by_agreement"]) == [3, 1]
    assert list(by_variant["by_repetition"]) == [0, 0]
    draws = draw_stats(hand, "variant")  # the same groups, the columns about draws
    assert draws.to_dict("records") == [
        {"variant": "english", "games": 9, "draws": 3, "no_result": 2, "draw_rate": 42.9,
         "by_moves_rule": 0, "by_endgame_rule": 0, "by_repetition": 0, "by_agreement": 3},
        {"variant": "international", "games": 4, "draws": 1, "no_result": 1, "draw_rate": 33.3,
         "by_moves_rule": 0, "by_endgame_rule": 0, "by_repetition": 0, "by_agreement": 1},
    ]  # fmt: skip
    by_year = result_stats(hand, "year")
    assert [None if pd.isna(y) else y for y in by_year["year"]] == [1872, 1999, 2003, None]
    assert rows(by_year, "year")[1999] == [4, 0, 2, 1, 1, 33.3, 66.7]  # E5-E8
    assert rows(by_year, "year")[1872] == [4, 1, 1, 1, 1, 50.0, 33.3]  # E1-E4
    assert str(by_year["year"].dtype) == "Int64"
    assert [y for y in draw_stats(hand, "year", top=2)["year"]] == [1872, 1999]  # 4 games each
    by_opening = result_stats(hand, "opening")
    assert rows(by_opening, "opening", "variant") == {
        ("11-15 23-19 8-11", "english"): [4, 1, 1, 1, 1, 50.0, 33.3],
        ("9-13 21-17 5-9", "english"): [2, 0, 1, 1, 0, 25.0, 50.0],
        ("11-15 23-19 9-14", "english"): [1, 0, 1, 0, 0, 50.0, 100.0],
        ("(fewer than 3 plies)", "english"): [2, 1, 0, 0, 1, 100.0, 0.0],  # E6, E9
        ("32-28 19-23 28x19", "international"): [2, 1, 1, 0, 0, 75.0, 50.0],
        ("(fewer than 3 plies)", "international"): [2, 0, 0, 1, 1, 0.0, 0.0],  # I3, I4
    }
    named = by_opening.dropna(subset=["name"]).set_index("opening")["name"].to_dict()
    assert named == {"11-15 23-19 8-11": "ballot 126", "9-13 21-17 5-9": "ballot 001",
                     "11-15 23-19 9-14": "ballot 128"}  # fmt: skip
    # one way of writing an opening: the draws by opening and the openings table agree
    three = opening_stats(hand, plies=3)
    assert set(three["opening"]) == set(by_opening["opening"]) - {"(fewer than 3 plies)"}
    by_player = result_stats(hand, "player")  # a game counts for both its players
    assert rows(by_player, "player")["Tinsley"] == [5, 1, 2, 1, 1, 50.0, 50.0]  # E5-E9
    assert rows(by_player, "player")["Wyllie"] == [4, 1, 1, 1, 1, 50.0, 33.3]  # E1-E4


def test_results_in_the_words_of_the_variant(hand: Engine) -> None:
    def events(result: str, variant: str | None = None) -> list[str]:
        return list(find_games(hand, GameFilter(variant=variant, result=result))["event"])

    assert events("black") == ["E1", "E7", "I3"]  # 1-0 in English, 0-2 in International
    assert events("white") == ["E2", "E9", "I1"]
    assert events("draw") == ["E3", "E5", "E8", "I2"]
    assert events("unknown") == ["E4", "E6", "I4"]
    assert events("first") == ["E1", "E7", "I1"]  # Black moves first in English, White here
    assert events("second", "international") == ["I3"]
    assert events("1-0") == ["E1", "E7"]  # as written
    frame = find_games(hand, GameFilter(event="E1"))
    assert list(frame["winner"]) == ["black"]
    assert rows(opening_stats(hand, plies=1, result="unknown"), "opening") == {
        "11-15": [2, 0, 0, 0, 2, None, None],
        "33-28": [1, 0, 0, 0, 1, None, None],
    }
    assert rows(explore(hand, "english", result="black"), "move") == {
        "11-15": [1, 0, 0, 1, 0, 0.0, 0.0],
        "9-13": [1, 0, 0, 1, 0, 0.0, 0.0],
    }
    assert rows(result_stats(hand, "variant", result="draw"), "variant")["english"][:5] == [
        3, 0, 3, 0, 0,
    ]  # fmt: skip


def test_text_filters_are_literal_unless_a_pattern_is_asked_for(hand: Engine) -> None:
    def whites(text: str) -> list[str]:
        return sorted(set(find_games(hand, GameFilter(white=text))["white"]))

    assert whites("%") == [] and whites("_") == [] and whites("W_llie") == []
    assert whites("wyllie") == ["Wyllie"]  # any part, case aside
    assert whites("ll") == ["Wyllie"]
    assert whites("Wyl*") == ["Wyllie"] and whites("*ley") == ["Tinsley"]
    assert whites("T*s*y") == ["Tinsley"]
    assert whites("yl*") == []  # a pattern is for the whole value
    assert whites("*") == ["Baljakin", "Chinook", "Martins", "Sijbrands", "Tinsley", "Wyllie"]


def test_distinct_moves_keeps_the_first_of_each(hand: Engine) -> None:
    frame = find_games(hand, GameFilter(distinct_moves=True), limit=None)
    # E2 and E3 play E1's moves, E8 E7's, I2 I1's: 13 games, 9 distinct
    assert list(frame["event"]) == ["E1", "E4", "E5", "E6", "E7", "E9", "I1", "I3", "I4"]
    chosen = find_games(hand, GameFilter(white="Martins", distinct_moves=True))
    assert list(chosen["event"]) == ["E3", "E4"]  # the first among the games chosen
    # a page looks each game up among the games before it, the whole answer ranks every set
    for where in (
        GameFilter(distinct_moves=True),
        GameFilter(white="Martins", distinct_moves=True),
    ):
        whole = list(find_games(hand, where, limit=None)["event"])
        pages = [find_games(hand, where, limit=2, offset=n)["event"] for n in range(0, 10, 2)]
        assert [e for page in pages for e in page] == whole


def test_games_set_up_from_a_position_have_no_opening(db: str, tmp_path: Path) -> None:
    path = tmp_path / "setup.pdn"
    path.write_text(
        '[GameType "21"] [Result "1-0"]\n1. 11-15 23-19 2. 8-11 1-0\n\n'
        '[GameType "21"] [Result "0-1"] [FEN "B:W21,22,23,24,25,26,27,28,29,30,31,32:'
        'B1,2,3,4,5,6,7,8,9,10,11"]\n1. 11-15 23-19 2. 8-11 0-1\n',
        encoding="utf-8",
    )
    engine = open_database(db)
    import_paths(engine, [path])
    assert rows(opening_stats(engine, plies=3), "opening") == {
        "11-15 23-19 8-11": [1, 0, 0, 1, 0, 0.0, 0.0],  # the game from the start only
    }
    assert rows(explore(engine, "english"), "move") == {"11-15": [1, 0, 0, 1, 0, 0.0, 0.0]}
    assert rows(result_stats(engine, "opening"), "opening") == {
        "11-15 23-19 8-11": [1, 0, 0, 1, 0, 0.0, 0.0],
        "(set up from a position)": [1, 1, 0, 0, 0, 100.0, 0.0],
    }
    engine.dispose()


class _Tables(HTMLParser):
    """The tables of a page: caption and rows of cell texts."""

    def __init__(self) -> None:
        super().__init__()
        self.tables: dict[str, list[list[str]]] = {}
        self._caption: str | None = None
        self._rows: list[list[str]] = []
        self._cell: list[str] | None = None
        self._in_caption = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag == "table":
            self._rows, self._caption = [], ""
        elif tag == "caption":
            self._in_caption = True
        elif tag == "tr":
            self._rows.append([])
        elif tag in ("td", "th"):
            self._cell = []

    def handle_endtag(self, tag: str) -> None:
        if tag == "caption":
            self._in_caption = False
        elif tag in ("td", "th") and self._cell is not None:
            self._rows[-1].append("".join(self._cell))
            self._cell = None
        elif tag == "table" and self._caption is not None:
            self.tables[self._caption] = self._rows

    def handle_data(self, data: str) -> None:
        if self._in_caption:
            self._caption = (self._caption or "") + data
        elif self._cell is not None:
            self._cell.append(data)


def _page_tables(engine: Engine) -> dict[str, list[list[str]]]:
    parser = _Tables()
    parser.feed(html_report(engine, "hand"))
    return parser.tables


def test_the_report_shows_the_same_numbers(hand: Engine) -> None:
    page = html_report(hand, "hand")
    assert "13 games." in page
    tables = _page_tables(hand)
    variants = tables["Games per variant, by result"]
    assert variants[0][:8] == ["Variant", "Games", "White wins", "Draws", "Black wins",
                               "No result", "White's score %", "Draw rate %"]  # fmt: skip
    assert variants[1][:8] == ["english", "9", "2", "3", "2", "2", "50.0", "42.9"]
    assert variants[2][:8] == ["international", "4", "1", "1", "1", "1", "50.0", "33.3"]
    openings = tables["Most played openings (6 plies)"]  # E1-E3 below
    assert openings[1] == ["11-15 23-19 8-11 22-17 9-13 17-14", "english",
                           "3", "1", "1", "1", "0", "50.0", "33.3", "ballot 126"]  # fmt: skip
    assert len(openings) == 2
    ended = {r[0]: r[1:] for r in tables["How games ended, and how the draws came about"][1:]}
    assert ended["as-recorded"][:7] == ["13", "3", "4", "3", "3", "50.0", "40.0"]


@pytest.mark.slow
def test_statistics_agree_on_the_whole_corpus(corpus_db: tuple[Engine, ImportStats]) -> None:
    engine, _ = corpus_db
    key = ["opening", "variant"]
    # the openings after three plies and the draws by opening are the same groups of games
    third = opening_stats(engine, plies=3).set_index(key)[COLUMNS]
    by_opening = result_stats(engine, "opening")
    draws = draw_stats(engine, "opening")  # what `pdn stats draws --by opening` prints
    pd.testing.assert_frame_equal(draws, by_opening[draws.columns])
    by_opening = by_opening[~by_opening["opening"].str.startswith("(")]
    ballots = {r["ballot"]: r["opening"] for r in opening_stats(engine, ballots=True).to_records()}
    by_opening["opening"] = [ballots.get(o, o) for o in by_opening["opening"]]
    by_opening = by_opening.set_index(key)[COLUMNS]
    assert len(third) > 500 and len(third) == len(by_opening)
    pd.testing.assert_frame_equal(
        third.sort_index(), by_opening.sort_index(), check_dtype=False, check_index_type=False
    )
    # the moves played from the start are the openings of one ply, in every variant
    for variant in sorted(set(third.index.get_level_values("variant"))):
        first = opening_stats(engine, variant=variant, plies=1).set_index("opening")[COLUMNS]
        played = explore(engine, variant).set_index("move")[COLUMNS]
        pd.testing.assert_frame_equal(
            first.sort_index(),
            played.sort_index(),
            check_dtype=False,
            check_names=False,
            check_index_type=False,
        )
    # the report's tables are those of stats openings and stats draws
    tables = _page_tables(engine)
    shown = tables["Most played openings (6 plies)"]
    sixth = opening_stats(engine, plies=6, top=15)
    assert [r[:2] for r in shown[1:]] == sixth[key].values.tolist()
    assert [r[2:-1] for r in shown[1:]] == _cells(sixth[COLUMNS])
    variants = result_stats(engine, "variant")
    assert [r[1:8] for r in tables["Games per variant, by result"][1:]] == _cells(variants[COLUMNS])


def _cells(frame: pd.DataFrame) -> list[list[str]]:
    """A frame's values as the report writes them in its cells."""
    return [["" if pd.isna(v) else str(v) for v in row] for row in frame.itertuples(index=False)]


def test_cli_statistics_options(tmp_path: Path, hand_file: Path) -> None:
    db = str(tmp_path / "cli.db")
    runner = CliRunner()
    assert runner.invoke(app, ["import", str(hand_file), "--db", db]).exit_code == 0
    ballots = runner.invoke(app, ["stats", "openings", "--db", db, "--ballots", "-v", "russian"])
    assert ballots.exit_code == 2
    assert re.fullmatch(r"pdn: --ballots are English .*\n", ballots.stderr)
    years = runner.invoke(app, ["stats", "draws", "--db", db, "--by", "year", "-f", "csv"])
    assert years.exit_code == 0
    assert [line.split(",")[0] for line in years.stdout.splitlines()] == [
        "year", "1872", "1999", "2003", "",
    ]  # fmt: skip
    top = runner.invoke(app, ["explore", "-v", "english", "--db", db, "--top", "1", "-f", "csv"])
    assert top.stdout.splitlines() == [",".join(["move", *COLUMNS, "name"]),
                                       "11-15,6,1,2,1,2,50.0,50.0,"]  # fmt: skip
    every = runner.invoke(app, ["stats", "draws", "--db", db])
    assert runner.invoke(app, ["stats", "draws", "--db", db, "--top", "0"]).stdout == every.stdout
    bad = runner.invoke(app, ["stats", "draws", "--db", db, "--top", "-1"])
    assert bad.exit_code == 2 and "--top" in bad.stderr
    distinct = runner.invoke(app, ["query", "--db", db, "--distinct-moves", "-f", "csv"])
    assert len(distinct.stdout.splitlines()) == 1 + 9  # the header, and 9 of the 13 games
    black = runner.invoke(app, ["query", "--db", db, "--result", "black", "-f", "csv"])
    assert [r.split(",")[4] for r in black.stdout.splitlines()[1:]] == ["Wyllie", "Chinook",
                                                                         "Sijbrands"]  # fmt: skip
