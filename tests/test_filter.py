"""Selecting games: the criteria on a hand-counted archive (tests/data/README.md)."""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import fields
from itertools import islice
from pathlib import Path

import pytest
from sqlalchemy import Engine

from conftest import corpus_dir
from pdn.archive.criteria import Criteria
from pdn.archive.filtering import Output, filter_paths
from pdn.archive.identity import Same, game_identity
from pdn.archive.pipeline import file_preference
from pdn.archive.players import Aliases
from pdn.archive.selection import has_material, material_runs, parse_material, parse_pattern
from pdn.db.connection import open_database
from pdn.db.questions import GameFilter, count_games, find_games
from pdn.db.store import ImportStats, import_paths
from pdn.read.files import pdn_files
from pdn.read.reader import read_games
from pdn.replay import replay_game

HAND = Path(__file__).resolve().parent / "data" / "hand-counted.pdn"


# Each case: criteria, and the games (numbers in the file) that meet them, worked out by hand.
CASES: list[tuple[Criteria, list[int]]] = [
    (Criteria(), [1, 2, 3, 4, 5, 6, 7, 8, 9]),
    (Criteria(player="wyllie"), [1, 2, 3, 8, 9]),
    (Criteria(white="WYLLIE"), [1, 2, 8]),
    (Criteria(black="Wyllie"), [3, 9]),
    (Criteria(player="sijbrands"), [4, 5, 9]),
    (Criteria(player="Wyllie, J."), [1, 3, 8]),
    (
        Criteria(
            player="Wyllie, J.",
            aliases=Aliases([("J. Wyllie", "Wyllie, J."), ("Wyllie", "Wyllie, J.")]),
        ),
        [1, 2, 3, 8, 9],
    ),
    (Criteria(event="1872"), [2, 3]),
    (Criteria(white="wyllie*"), [1, 8]),  # with *: the whole name, "J. Wyllie" is not
    (Criteria(event="*18??*"), []),  # ? is a plain character
    (Criteria(event="m*1*"), [1, 2, 3, 7]),  # Manchester 1841, Match 1872, Moscow 1998
    # after "=", the whole tag, spaces around it and case aside
    (Criteria(event="=match 1872"), [2, 3]),
    (Criteria(event="=Match"), []),
    (Criteria(site="= Manchester "), [1]),
    (Criteria(player="=wyllie"), [9]),
    (Criteria(white="=WYLLIE, J."), [1, 8]),
    (
        Criteria(
            player="=wyllie, j.",
            aliases=Aliases([("J. Wyllie", "Wyllie, J."), ("Wyllie", "Wyllie, J.")]),
        ),
        [1, 2, 3, 8, 9],
    ),
    (Criteria(site="amster"), [4]),
    (Criteria(date_from=1870, date_to=1980), [2, 4, 5]),
    (Criteria(date_from=1977), [5, 7]),
    # English 0-1 and International 2-0 are White wins; English 1-0 and Russian 0-1 Black wins
    (Criteria(result="white"), [1, 4]),
    (Criteria(result="black"), [3, 7]),
    (Criteria(result="draw"), [2, 5]),
    (Criteria(result="unknown"), [6, 8, 9]),
    (Criteria(result="first"), [3, 4]),
    (Criteria(result="second"), [1, 7]),
    (Criteria(result="1-0"), [3]),  # as written
    (Criteria(result="2-0"), [4]),
    (Criteria(variant="english"), [1, 2, 3, 9]),
    (Criteria(variant="international"), [4, 5, 6]),
    (Criteria(variant="russian"), [7]),
    (Criteria(plies_min=6), [2, 6, 7]),
    (Criteria(plies_max=2), [5, 8, 9]),
    (Criteria(plies_min=3, plies_max=4), [1, 3, 4]),
    (Criteria(valid=True), [1, 2, 4, 5, 6, 7, 9]),
    (Criteria(valid=False), [3, 8]),
    (Criteria(termination="as-recorded"), [1, 2, 3, 4, 5, 6, 7, 8, 9]),
    (Criteria(termination="win"), []),
    (Criteria(variant="english", moves="11-15"), [1, 2, 3]),
    (Criteria(variant="english", moves="1. 11-15 23-19 2. 8-11"), [2, 3]),
    (Criteria(variant="international", moves="33-28 17-22"), [4]),
    (Criteria(variant="international", fen="W:W47,48,49,K46:BK1"), [6]),
    (Criteria(variant="international", fen="W:W47,48,49,K46:BK1", moves="47-42 1-7"), [6]),
    (Criteria(variant="international", fen="W:W47,48,49,K46:BK1", moves="47-41 1-7"), []),
    (Criteria(material=parse_material("W:3K1,B:1K")), [6]),
    (Criteria(material=parse_material("W:3K1,B:1K"), material_plies=7), [6]),
    (Criteria(material=parse_material("W:3K1,B:1K"), material_plies=8), []),
    # one exchange each: English after 25x18, Russian after h6xf4
    (Criteria(material=parse_material("W:11,B:11")), [1, 7]),
    (Criteria(material=parse_material("W:11,B:11"), variant="english"), [1]),
    (Criteria(material=parse_material("W:11,B:12")), [1]),  # after 15x22, one ply
    (Criteria(material=parse_material("W:11,B:12"), material_plies=2), []),
    (Criteria(pattern=parse_pattern("WK46:BK1")), [6]),
    (Criteria(pattern=parse_pattern("W:B22"), variant="english"), [1]),
    # 42-44 hold white men at the start of International; game 6 starts with them empty and
    # fills them with its three white moves
    (Criteria(pattern=parse_pattern("E42-44"), variant="international"), [6]),
    (Criteria(pattern=parse_pattern("W42-44"), variant="international"), [4, 5, 6]),
    # b8 is square 1 on the English board (no position has a king and nothing there), square 11
    # on the International one (empty in game 6, whose black king stands on 1)
    (Criteria(pattern=parse_pattern("BK1:Eb8")), [6]),
    # one piece: International's white men stand on 31-50 at the start (8x8 boards have no 46)
    (Criteria(pattern=parse_pattern("W*46")), [4, 5, 6]),
    (Criteria(pattern=parse_pattern("WK46")), [6]),
]


def selected(criteria: Criteria) -> list[int]:
    prefer = file_preference(HAND, None, "seed")
    out = []
    for n, game in enumerate(read_games(HAND), 1):
        replay = replay_game(game, None, "seed", prefer) if game.syntax_error is None else None
        if criteria.matches(game, replay):
            out.append(n)
    return out


@pytest.mark.parametrize(("criteria", "games"), CASES)
def test_hand_counted(criteria: Criteria, games: list[int]) -> None:
    assert selected(criteria) == games


@pytest.fixture(scope="module")
def hand_db(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Engine]:
    """The hand-counted archive imported into SQLite."""
    engine = open_database(str(tmp_path_factory.mktemp("hand") / "hand.db"))
    import_paths(engine, [HAND])
    yield engine
    engine.dispose()


def test_a_whole_name_is_compared_with_unicode_case_folding(tmp_path: Path) -> None:
    # SQL's lower() leaves "É" and "ß" as they are; the whole name is compared as the
    # standings compare events, the database as the files
    path = tmp_path / "names.pdn"
    events = ["Straße", "STRASSE Open", "Été 1990", "ÉTÉ 1990 ", "A\x00B"]  # a NUL stored as ␀
    path.write_text("".join(f'[Event "{e}"]\n[Result "*"]\n1. 11-15 *\n\n' for e in events))
    engine = open_database(str(tmp_path / "names.db"))
    import_paths(engine, [path])
    for text, games in (("=strasse", [0]), ("=été 1990", [2, 3]), ("=Open", []), ("=a\x00b", [4])):
        found = [n for n, g in enumerate(read_games(path)) if Criteria(event=text).matches(g, None)]
        stored = sorted(find_games(engine, GameFilter(event=text), limit=None)["index"] - 1)
        assert found == stored == games, text
    engine.dispose()


def as_filter(criteria: Criteria) -> GameFilter:
    return GameFilter(**{f.name: getattr(criteria, f.name) for f in fields(criteria)})


@pytest.mark.parametrize(("criteria", "games"), CASES)
def test_hand_counted_in_the_database(
    hand_db: Engine, criteria: Criteria, games: list[int]
) -> None:
    where = as_filter(criteria)
    assert sorted(find_games(hand_db, where, limit=None)["index"]) == games
    assert count_games(hand_db, where) == len(games)


@pytest.fixture(scope="module")
def twice(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The hand-counted archive twice: as it is, and saved with CRLF line ends."""
    folder = tmp_path_factory.mktemp("twice")
    text = HAND.read_text(encoding="utf-8")
    (folder / "a.pdn").write_text(text, encoding="utf-8")
    (folder / "b.pdn").write_bytes(text.replace("\n", "\r\n").encode())
    return folder


def test_filter_paths_drops_duplicates_as_the_database_does(twice: Path, tmp_path: Path) -> None:
    wyllie = Criteria(player="wyllie")
    assert [(s.file.rsplit("/", 1)[1], s.index) for s in filter_paths([twice], wyllie)] == [
        ("a.pdn", n) for n in (1, 2, 3, 8, 9)
    ] + [("b.pdn", n) for n in (1, 2, 3, 8, 9)]
    copies = list(filter_paths([twice], wyllie, drop=Same.COPIES))
    assert [(s.file.rsplit("/", 1)[1], s.index) for s in copies] == [
        ("a.pdn", n) for n in (1, 2, 3, 8, 9)
    ]
    # games 2 and 3 play the same first moves but end apart: no game shares all its moves
    assert len(list(filter_paths([twice], wyllie, drop=Same.MOVES))) == 5
    engine = open_database(str(tmp_path / "twice.db"))
    import_paths(engine, [twice])
    assert count_games(engine, GameFilter(player="wyllie")) == 5
    assert count_games(engine, GameFilter(player="wyllie", distinct_moves=True)) == 5
    engine.dispose()


def test_filter_paths_writes_as_read_or_converted() -> None:
    chosen = list(filter_paths([HAND], Criteria(event="manchester")))
    assert [s.text for s in chosen] == [HAND.read_text("utf-8").split("\n\n")[0] + "\n"]
    converted = list(filter_paths([HAND], Criteria(player="sijbrands"), output=Output("json")))
    assert [json.loads(s.text)["tags"]["White"] for s in converted] == [
        "Sijbrands, Ton", "Baba Sy", "Sijbrands"
    ]  # fmt: skip


def test_filter_paths_with_workers() -> None:
    every = Criteria(valid=True)
    one = [(s.index, s.text) for s in filter_paths([HAND], every)]
    two = [(s.index, s.text) for s in filter_paths([HAND], every, workers=2)]
    assert one == two and [i for i, _ in one] == [1, 2, 4, 5, 6, 7, 9]


SIJBRANDS = Aliases([("T. Sijbrands", "Sijbrands, Ton"), ("Sijbrands,T.", "Sijbrands, Ton")])

CORPUS_CASES = [
    Criteria(player="Sijbrands"),
    Criteria(player="Sijbrands, Ton", aliases=SIJBRANDS),
    Criteria(white="tinsley"),
    Criteria(black="*ley"),
    Criteria(event="1872"),
    Criteria(site="amsterdam"),
    Criteria(date_from=1900, date_to=1950),
    *(Criteria(result=r) for r in ("white", "black", "draw", "unknown", "first", "second", "1-0")),
    *(Criteria(variant=v) for v in ("english", "international", "russian", "italian")),
    Criteria(plies_min=100),
    Criteria(plies_max=10),
    Criteria(valid=False),
    # no corpus game ends by the 40-move rule (OCA's one reached it and was won after it: a
    # warning, docs/rules.md), so the third is how the other games ended
    *(Criteria(termination=t) for t in ("win", "draw-repetition", "as-recorded")),
    Criteria(variant="english", moves="11-15 23-19 8-11"),
    Criteria(variant="international", moves="32-28 19-23"),
    Criteria(material=parse_material("W:K1,B:K1")),
    Criteria(material=parse_material("W:K2,B:K1"), material_plies=10),
    Criteria(material=parse_material("W:3K1,B:1K")),
    Criteria(material=parse_material("W:*K3+")),
    Criteria(material=parse_material("W:5+K1+")),  # searched by ranges in the database
    Criteria(material=parse_material("W:1-2,B:1-2"), variant="english"),
    Criteria(pattern=parse_pattern("W:B15:W22"), variant="english"),
    Criteria(pattern=parse_pattern("W28:B23")),
    Criteria(pattern=parse_pattern("Wc3:Bf6:Ed4")),
    Criteria(pattern=parse_pattern("BK1,K2")),
    Criteria(pattern=parse_pattern("WK5:BK28")),  # benchmarks/aims.py's
    Criteria(pattern=parse_pattern("W:W*1")),  # a white piece on 1 (a man where White starts there)
    Criteria(pattern=parse_pattern("WK1")),  # one piece: counted from the squares
    Criteria(pattern=parse_pattern("B*10")),
]


@pytest.mark.slow
def test_corpus_counts_agree(corpus_db: tuple[Engine, ImportStats]) -> None:
    """Every criterion counts the same games in the corpus files (copies dropped, as the
    database stores a record once) and in the corpus imported."""
    engine, _ = corpus_db
    counts = [0] * len(CORPUS_CASES)
    records: set[str] = set()
    for path in pdn_files([corpus_dir()]):
        prefer = file_preference(path, None, "seed")
        for game in read_games(path):
            replay = replay_game(game, None, "seed", prefer) if game.syntax_error is None else None
            record = game_identity(game, replay).record
            if record in records:
                continue
            records.add(record)
            for i, criteria in enumerate(CORPUS_CASES):
                counts[i] += criteria.matches(game, replay)
    stored = [count_games(engine, as_filter(c)) for c in CORPUS_CASES]
    assert stored == counts
    assert all(0 < n < len(records) for n in counts[:-1])  # each asks for something found


def test_material_is_matched_on_the_kernels_runs_as_on_the_boards_positions(
    each_core: str,
) -> None:
    """The material criterion reads a game's runs of equal material from the kernel's play of
    its main line, without pushing it on a board: the same games match as when the board's
    positions are cut into runs (selection.material_runs), for specs of exact counts, ranges
    and kings, over games of four variants that capture and crown."""
    specs = ["W:3K1,B:1K", "W:4-6,B:4-6", "W:K1+,B:*", "W:12,B:11", "W:2-4K1+,B:*"]
    names = ["english/OCA_2.0.pdn", "russian/migo-World_Championship_1998.pdn",
             "italian/migo-ci98-fero.pdn", "international/migo-wk2003.pdn"]  # fmt: skip
    matched = boardless = 0
    for name in names:
        for game in islice(read_games(corpus_dir() / name), 150):
            replay = replay_game(game)
            asked = [(parse_material(spec), plies) for spec in specs for plies in (1, 6)]
            found = [Criteria(material=m, material_plies=p).matches(game, replay) for m, p in asked]
            boardless += replay._start is not None  # no board pushed for it
            runs = material_runs(replay.positions)
            assert found == [has_material(runs, m, p) for m, p in asked], (name, game.source.line)
            matched += sum(found)
    assert boardless > 400 and matched > 500  # (464 of the 600 games; 766 matches)
