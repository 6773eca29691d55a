"""The tallies count what the games table holds: each group's games and its first game's place
as a GROUP BY over the games themselves counts them, on the whole corpus, after games stored
anew from earlier places (under other names), and before an import has summed the rows it
appended; the move tallies count the moves from the positions of the openings as `pdn explore`
counts them from the positions of the games."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import islice
from pathlib import Path

import pandas as pd
from sqlalchemy import Engine, func, select

import pdn.db.store
from conftest import corpus_dir
from pdn.archive.parallel import Task
from pdn.archive.pipeline import Options
from pdn.archive.selection import has_material, material_runs, parse_material
from pdn.db.connection import open_database
from pdn.db.positions import opening_digests, rows_table
from pdn.db.postings import every_posting
from pdn.db.questions import (
    GameFilter,
    _line,
    _played_moves,
    count_games,
    explore,
    find_games,
    result_stats,
)
from pdn.db.records import place
from pdn.db.schema import (
    MOVE_TALLIES,
    OPENING_TALLIES,
    PLAYED,
    PLAYER_TALLIES,
    TALLIES,
    BoardsRow,
    GameRow,
    MoveText,
    OpeningRow,
)
from pdn.db.search import unpacked
from pdn.db.sources import source_files
from pdn.db.store import ImportStats, import_paths, span_records
from pdn.db.tallies import (
    GROUPED,
    OPENING_GROUPED,
    OPENING_PLIES_TALLIED,
    PLAYER_GROUPED,
    explored,
    opening_ply,
    sum_tallies,
)
from pdn.rules.position import Position
from pdn.rules.variants import get_variant

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def _groups(frame: pd.DataFrame, keys: list[str], sums: dict[str, str]) -> pd.DataFrame:
    """*frame* grouped by *keys* (missing values a group of their own), sorted."""
    summed = frame.groupby(keys, dropna=False, as_index=False).agg(sums)
    return summed.sort_values(keys, na_position="first").reset_index(drop=True)


def counted_from_games(engine: Engine) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The games counted from their own rows: by the tallies' columns (with the lowest place),
    and by player (each game for its White and for its Black)."""
    with engine.connect() as conn:
        games = pd.read_sql(select(GameRow.__table__), conn)
    games["games"] = 1
    by = _groups(games.rename(columns={"place": "first"}), list(GROUPED),
                 {"games": "sum", "first": "min"})  # fmt: skip
    sides = pd.concat([games.rename(columns={side: "player"}) for side in ("white", "black")])
    players = _groups(sides, ["player", *PLAYER_GROUPED], {"games": "sum"})
    return by, players


def tallied(engine: Engine) -> tuple[pd.DataFrame, pd.DataFrame, int, int]:
    """The tallies summed by group as a question sums them, and their numbers of rows."""
    with engine.connect() as conn:
        by = pd.read_sql(select(TALLIES), conn)
        players = pd.read_sql(select(PLAYER_TALLIES), conn)
    summed = _groups(players, ["player", *PLAYER_GROUPED], {"games": "sum"})
    grouped = _groups(by, list(GROUPED), {"games": "sum", "first": "min"})
    return (  # a name, an ending a game stored anew has no more: counted up, then down
        grouped[grouped["games"] != 0].reset_index(drop=True),
        summed[summed["games"] != 0].reset_index(drop=True),
        len(by),
        len(players),
    )


OPENING_KEYS = ["ply", "digest", *OPENING_GROUPED]


def openings_from_games(engine: Engine) -> pd.DataFrame:
    """The games from the start counted by the position after each of their first plies (as
    their openings keep them), with the lowest place."""
    with engine.connect() as conn:
        games = conn.execute(
            select(GameRow.__table__, OpeningRow.digests)
            .join_from(GameRow, OpeningRow, PLAYED, isouter=True)
            .where(GameRow.from_start)
        ).all()
    rows = [
        {"ply": ply, "digest": digest, **{c: getattr(g, c) for c in OPENING_GROUPED},
         "games": 1, "first": g.place}
        for g in games
        for ply, digest in enumerate(opening_digests(g.digests or b"")[:OPENING_PLIES_TALLIED], 1)
    ]  # fmt: skip
    return _groups(pd.DataFrame(rows), OPENING_KEYS, {"games": "sum", "first": "min"})


def assert_tallies_count_the_games(engine: Engine) -> None:
    by, players, _, _ = tallied(engine)
    want_by, want_players = counted_from_games(engine)
    pd.testing.assert_frame_equal(by, want_by, check_dtype=False)
    pd.testing.assert_frame_equal(players, want_players, check_dtype=False)
    with engine.connect() as conn:
        openings = pd.read_sql(select(OPENING_TALLIES), conn)
    got = _groups(openings, OPENING_KEYS, {"games": "sum", "first": "min"})
    pd.testing.assert_frame_equal(got, openings_from_games(engine), check_dtype=False)


def test_the_corpus_tallies_count_its_games(corpus_db: tuple[Engine, ImportStats]) -> None:
    engine, stats = corpus_db
    assert_tallies_count_the_games(engine)
    by, players, rows, player_rows = tallied(engine)
    assert (rows, player_rows) == (len(by), len(players))  # summed at the import's end
    assert by["games"].sum() == stats.added and players["games"].sum() == 2 * stats.added
    with engine.connect() as conn:  # the statistics read the tallies: every game once
        assert conn.execute(select(func.count()).select_from(GameRow)).scalar() == stats.added
    assert result_stats(engine, "variant")["games"].sum() == stats.added
    assert count_games(engine, GameFilter()) == stats.added  # from the tallies


def test_games_stored_anew_from_earlier_places_keep_their_counts(db: str) -> None:
    # the first 12 games of a file written at places 21-32, then all 20 at places 1-20 (as a
    # worker that wrote a later span first): 12 games stored anew, 8 new
    path = SAMPLES / "english-oca-first20.pdn"
    task = Task(path, None, "english", path.stat().st_size)
    engine = open_database(db)
    file_id = source_files(engine, [path])[0].id
    records = span_records(task, Options())
    late = pdn.db.store._store(engine, file_id, 21, records[:12], 5, 7)
    early = pdn.db.store._store(engine, file_id, 1, records, 5, 7)
    assert (late.added, early.added, early.copies) == (12, 8, 12)
    by, players, rows, player_rows = tallied(engine)
    assert rows > len(by) and player_rows > len(players)  # a batch's rows each: not yet summed
    assert_tallies_count_the_games(engine)
    assert by["games"].sum() == 20 and by["first"].min() == place(file_id, 1)
    with engine.begin() as conn:
        sum_tallies(conn)
    assert_tallies_count_the_games(engine)
    by, players, rows, player_rows = tallied(engine)
    assert (rows, player_rows) == (len(by), len(players))
    engine.dispose()


def before_and_after_summing(engine: Engine) -> Iterator[None]:
    """Twice: with the rows a batch appended, then with each group's rows summed."""
    yield
    with engine.begin() as conn:
        sum_tallies(conn)
    yield


COPY = """[Event "Club"]
[White "{white}"]
[Black "Smith, A."]
[Result "{result}"]
[GameType "21"]

1. 11-15 23-19 2. 8-11 22-17 *
"""


def test_a_copy_stored_anew_under_other_names_is_counted_under_them(
    db: str, tmp_path: Path
) -> None:
    # one record (names and results read with whitespace collapsed and "*", "?" unknown alike),
    # its second copy stored first: the first copy's names and result replace its own
    path = tmp_path / "copies.pdn"
    path.write_text(COPY.format(white="Wyllie, J.", result="?") + "\n"
                    + COPY.format(white="Wyllie,  J. ", result="*"))  # fmt: skip
    engine = open_database(db)
    file_id = source_files(engine, [path])[0].id
    first, second = span_records(Task(path, None, "english", path.stat().st_size), Options())
    assert first is not None and second is not None and first.row["id"] == second.row["id"]
    pdn.db.store._store(engine, file_id, 2, [second], 5, 7)
    pdn.db.store._store(engine, file_id, 1, [first], 5, 7)
    for _ in before_and_after_summing(engine):
        assert_tallies_count_the_games(engine)
        players = result_stats(engine, "player")
        assert sorted(players["player"]) == ["Smith, A.", "Wyllie, J."]
        assert list(players["games"]) == [1, 1]
        assert list(result_stats(engine, "variant", result="?")["games"]) == [1]
        assert result_stats(engine, "variant", result="*").empty
    _, _, rows, player_rows = tallied(engine)
    assert (rows, player_rows) == (1, 2)  # the old names' rows summed away
    engine.dispose()


def test_the_corpus_move_tallies_count_the_moves_as_explore_does(
    corpus_db: tuple[Engine, ImportStats],
) -> None:
    engine, _ = corpus_db
    with engine.connect() as conn:
        tallied_moves = pd.read_sql(select(MOVE_TALLIES), conn)
        # explore's count from the positions: each game once per move from the position
        tallied = set(conn.execute(select(MOVE_TALLIES.c.digest)).scalars())
        found = [(d, *f) for d, fs in every_posting(conn) if d in tallied for f in fs]
        p, g = rows_table(engine, found).c, GameRow.__table__.c
        played = (
            select(
                p.digest,
                MoveText.text.label("move"),
                g.winner,
                func.count(p.game.distinct()).label("games"),
            )
            .join(GameRow.__table__, g.number == p.game)
            .join(MoveText, MoveText.id == p.move)
            .group_by(p.digest, MoveText.text, g.winner)
        )
        direct = pd.read_sql(played, conn)
        boards = conn.execute(
            select(GameRow.id, GameRow.variant, GameRow.plies, BoardsRow.data).join(
                BoardsRow, BoardsRow.game_id == GameRow.id
            )
        ).all()
    keys = ["digest", "move", "winner"]
    got = _groups(tallied_moves, keys, {"games": "sum"})
    want = _groups(direct, keys, {"games": "sum"})
    pd.testing.assert_frame_equal(got, want, check_dtype=False)
    assert len(got) > 10_000 and got["games"].sum() > 100_000  # English and International
    # every position of the openings any game plays a move from is tallied: each position
    # looked at by itself (the import works them out in turn)
    digests = set(got["digest"])
    seen = 0
    for _, variant, plies, data in boards:
        for position in islice(unpacked(get_variant(str(variant)), data), plies):
            if explored(position):
                assert position.digest() in digests
                seen += 1
    assert seen == tallied_moves["games"].sum()


def test_explore_counts_a_set_up_game_that_reaches_an_opening(tmp_path: Path) -> None:
    # the position after 11-15 23-19 is one of the openings (two plies from the start, nothing
    # taken): a game set up there counts with the games that played to it
    setup = "B:W19,21,22,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15"
    path = tmp_path / "setup.pdn"
    path.write_text(
        '[Event "a"]\n[Result "1-0"]\n[GameType "21"]\n\n1. 11-15 23-19 2. 8-11 22-17 1-0\n\n'
        f'[Event "b"]\n[Result "0-1"]\n[GameType "21"]\n[SetUp "1"]\n[FEN "{setup}"]\n\n'
        "2. 9-13 22-18 0-1\n"
    )
    engine = open_database(str(tmp_path / "s.db"))
    assert import_paths(engine, [path]).added == 2
    [after] = _line("english", "11-15 23-19", None)[-1:]
    assert opening_ply(after) == 2 and explored(after)
    frame = explore(engine, "english", moves="11-15 23-19")
    assert list(frame["move"]) == ["8-11", "9-13"] and list(frame["games"]) == [1, 1]
    assert list(frame["black_wins"]) == [1, 0] and list(frame["white_wins"]) == [0, 1]
    with engine.connect() as conn:  # as counted from the positions of the games
        direct = pd.read_sql(_played_moves(engine, after.digest(), [], None), conn)
    assert direct.sort_values("move")["games"].tolist() == [1, 1]
    engine.dispose()


def test_the_positions_of_the_openings() -> None:
    english = get_variant("english")
    start = Position.start(english)
    assert opening_ply(start) == 0
    line = _line("english", "11-15 23-19 8-11 22-17 4-8 17-13 15-18", None)
    assert [opening_ply(p) for p in line] == [0, 1, 2, 3, 4, 5, 6, 7]
    assert [explored(p) for p in line] == [True] * 7 + [False]  # 7 plies: past EXPLORED_PLIES
    taken = _line("english", "11-15 24-20 15-19 23x16 12x19", None)
    assert [opening_ply(p) for p in taken] == [0, 1, 2, 3, None, None]  # a piece taken
    assert opening_ply(Position.start(get_variant("turkish"))) is None  # men step sideways


def test_a_game_set_up_with_more_men_counts_once_it_comes_down_to_the_start(
    tmp_path: Path,
) -> None:
    # a Russian game set up with a thirteenth White man (c5), taken at once: the position after
    # b6:d4 has the start's men and no king, two plies' advance from the start; its move c3:e5
    # counts as from the positions (review of 04b0054)
    white = "a1,c1,e1,g1,b2,d2,f2,h2,a3,c3,e3,g3"
    black = "d6,f6,h6,a7,c7,e7,g7,b8,d8,f8,h8"
    path = tmp_path / "more.pdn"
    path.write_text(
        f'[Event "extra"]\n[GameType "25"]\n[SetUp "1"]\n[FEN "B:W{white},c5:Bb6,{black}"]\n'
        '[Result "0-1"]\n\n1... b6:d4 2. c3:e5 d6:f4 0-1\n'
    )
    engine = open_database(str(tmp_path / "m.db"))
    assert import_paths(engine, [path]).added == 1
    fen = f"W:W{white}:Bd4,{black}"
    [reached] = _line("russian", None, fen)
    assert opening_ply(reached) == 2 and explored(reached)
    frame = explore(engine, "russian", fen=fen)
    assert list(frame["move"]) == ["c3:e5"] and list(frame["black_wins"]) == [1]
    with engine.connect() as conn:
        direct = pd.read_sql(_played_moves(engine, reached.digest(), [], None), conn)
    assert list(direct["move"]) == ["c3:e5"] and list(direct["games"]) == [1]
    engine.dispose()


def test_a_game_stored_anew_under_other_rules_moves_to_its_ending(db: str) -> None:
    # game 99 of migo-abatsiev.pdn ends as recorded under the common rules and by the 15-move
    # rule under the official ones: written at index 103 under the first, then at its own, 99,
    # under the second (an import resumed with other --rules), it counts under its new ending
    path = corpus_dir() / "russian" / "migo-abatsiev.pdn"
    task = Task(path, None, "russian", path.stat().st_size)
    engine = open_database(db)
    file_id = source_files(engine, [path])[0].id
    common, official = (span_records(task, Options(rules=r))[98] for r in ("common", "official"))
    assert common is not None and official is not None
    assert (common.row["termination"], official.row["termination"]) == (
        "as-recorded", "draw-15-moves")  # fmt: skip
    pdn.db.store._store(engine, file_id, 103, [common], 5, 7)
    pdn.db.store._store(engine, file_id, 99, [official], 5, 7)
    for _ in before_and_after_summing(engine):
        assert_tallies_count_the_games(engine)
        endings = result_stats(engine, "termination")
        assert list(endings["termination"]) == ["draw-15-moves"]
        assert list(endings["games"]) == [1]
    engine.dispose()


def test_a_material_alone_is_counted_from_its_runs(corpus_db: tuple[Engine, ImportStats]) -> None:
    # counted from the runs without the games, as many as are listed; and among the first
    # 2,000 games those whose positions (their boards rows, replayed by the kernel at import)
    # hold the material for the plies, as the file filter judges them
    engine, _ = corpus_db
    with engine.connect() as conn:
        boards = conn.execute(
            select(GameRow.id, GameRow.number, GameRow.variant, BoardsRow.data)
            .join(BoardsRow, BoardsRow.game_id == GameRow.id)
            .where(GameRow.number <= 2000)
        ).all()
    runs = {i: material_runs(list(unpacked(get_variant(str(v)), d))) for i, _, v, d in boards}
    for spec, plies in (("W:12,B:12", 1), ("W:12,B:12", 2), ("W:12,B:12", 30),
                        ("W:3K1,B:1K", 1), ("W:0K2,B:0K1", 4), ("W:20,B:20", 12),
                        ("W:1-3K1,B:1K", 1), ("W:8-10,B:8-10", 9)):  # fmt: skip
        material = parse_material(spec)
        where = GameFilter(material=material, material_plies=plies)
        listed = find_games(engine, where, limit=None)
        assert count_games(engine, where) == len(listed) > 0, spec
        want = {i for i, r in runs.items() if has_material(r, material, plies)}
        assert {i for i in listed["id"] if i in runs} == want, spec
