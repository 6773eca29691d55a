"""The tallies count what the games table holds: each group's games and its first game's place
as a GROUP BY over the games themselves counts them, on the whole corpus, after games stored
anew from earlier places, and before an import has summed the rows it appended."""

from __future__ import annotations

from pathlib import Path

import pandas as pd
from sqlalchemy import Engine, func, select

import pdn.db.store
from pdn.archive.parallel import Task
from pdn.archive.pipeline import Options
from pdn.db.connection import open_database
from pdn.db.questions import result_stats
from pdn.db.records import place
from pdn.db.schema import PLAYER_TALLIES, TALLIES, GameRow
from pdn.db.sources import source_files
from pdn.db.staging import move_staged
from pdn.db.store import ImportStats, span_records
from pdn.db.tallies import GROUPED, PLAYER_GROUPED

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
    return (
        _groups(by, list(GROUPED), {"games": "sum", "first": "min"}),
        _groups(players, ["player", *PLAYER_GROUPED], {"games": "sum"}),
        len(by),
        len(players),
    )


def assert_tallies_count_the_games(engine: Engine) -> None:
    by, players, _, _ = tallied(engine)
    want_by, want_players = counted_from_games(engine)
    pd.testing.assert_frame_equal(by, want_by, check_dtype=False)
    pd.testing.assert_frame_equal(players, want_players, check_dtype=False)


def test_the_corpus_tallies_count_its_games(corpus_db: tuple[Engine, ImportStats]) -> None:
    engine, stats = corpus_db
    assert_tallies_count_the_games(engine)
    by, players, rows, player_rows = tallied(engine)
    assert (rows, player_rows) == (len(by), len(players))  # summed at the import's end
    assert by["games"].sum() == stats.added and players["games"].sum() == 2 * stats.added
    with engine.connect() as conn:  # the statistics read the tallies: every game once
        assert conn.execute(select(func.count()).select_from(GameRow)).scalar() == stats.added
    assert result_stats(engine, "variant")["games"].sum() == stats.added


def test_games_stored_anew_from_earlier_places_keep_their_counts(tmp_path: Path) -> None:
    # the first 12 games of a file written at places 21-32, then all 20 at places 1-20 (as a
    # worker that wrote a later span first): 12 games stored anew, 8 new
    path = SAMPLES / "english-oca-first20.pdn"
    task = Task(path, None, "english", path.stat().st_size)
    engine = open_database(str(tmp_path / "t.db"))
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
        move_staged(conn)
    assert_tallies_count_the_games(engine)
    by, players, rows, player_rows = tallied(engine)
    assert (rows, player_rows) == (len(by), len(players))
    engine.dispose()
