"""A game is a record: copies are one game, games with the same moves are each kept; duplicates
are listed by file, index and line, from files and from a database alike."""

from __future__ import annotations

import json
from pathlib import Path

import pandas as pd
import pytest
from sqlalchemy import Engine, func, select
from typer.testing import CliRunner

from conftest import corpus_dir
from pdn.archive.identity import Same, game_identity, header
from pdn.cli.app import app
from pdn.db.connection import open_database
from pdn.db.duplicates import database_duplicates, file_duplicates
from pdn.db.questions import GameFilter, find_games
from pdn.db.schema import GameRow, SourceFile
from pdn.db.store import ImportStats, import_paths
from pdn.read.reader import read_string
from pdn.replay import replay_game

GAME = """[Event "Open d'Allinges"] [Site "Allinges"] [Date "2007.??.??"] [Round "1"]
[White "Müller"] [Black "Sijbrands"] [Result "2-0"] [GameType "20"]
1. 32-28 19-23 2. 28x19 14x23 {a comment} 2-0
"""
SAME = """[GameType "20"]   [Result "2-0"]
[Black  "Sijbrands"] [White "Müller "] [Round "1"] [Date "2007.??.??"]
[Site "Allinges"] [Event "Open  d'Allinges"] [Annotator "X"]
1. 32-28 {another} 19-23 (1... 18-23) 2. 28x19 14x23 !? 2-0
"""
OTHER = GAME.replace('[Round "1"]', '[Round "2"]')


def identity(text: str) -> tuple[str, str | None]:
    game = read_string(text)[0]
    replay = replay_game(game) if game.syntax_error is None else None
    found = game_identity(game, replay)
    return found.record, found.moves


def test_copies_are_one_record_and_repeats_share_only_their_moves() -> None:
    # tags in any order, any whitespace, other tags, comments, variations, move marks: a copy
    assert identity(GAME) == identity(SAME)
    # another round: another game with the same moves
    assert identity(OTHER)[0] != identity(GAME)[0]
    assert identity(OTHER)[1] == identity(GAME)[1]
    # another move order reaching the same position is other moves
    transposed = GAME.replace("28x19 14x23", "28x19 13x24")
    assert identity(transposed)[1] != identity(GAME)[1]
    # no moves: nothing to share; a game that does not parse: known by its text
    assert identity('[Event "x"] [GameType "20"] *')[1] is None
    broken = '[Event "x"]\n1. 32-28 ) *\n'
    assert identity(broken)[1] is None
    assert identity(broken)[0] == identity(broken.replace("\n", "\r\n   "))[0]
    assert identity(broken)[0] != identity(broken.replace("32-28", "33-28"))[0]
    assert [header(v) for v in (" a  b ", "?", "????.??.??", "*", "", None)] == [
        "a b", "", "", "", "", "",
    ]  # fmt: skip


def test_another_encoding_or_line_ends_add_no_game(tmp_path: Path) -> None:
    original = corpus_dir() / "international" / "bruno-1er_Open_International_Allinges_2007.pdn"
    text = original.read_text(encoding="utf-8")
    assert "é" in text and "\r\n" not in text
    cp1252 = tmp_path / "allinges-cp1252.pdn"
    cp1252.write_bytes(text.encode("cp1252"))
    crlf = tmp_path / "allinges-crlf.pdn"
    crlf.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    engine = open_database(str(tmp_path / "copies.db"))
    first = import_paths(engine, [original])
    assert (first.games, first.added) == (45, 45)
    again = import_paths(engine, [cp1252, crlf])
    assert (again.games, again.added, again.copies, again.already) == (90, 0, 90, 0)
    assert (again.same_moves, again.files) == (0, 2)
    copies = database_duplicates(engine, Same.COPIES)
    assert (len(copies), copies["group"].max()) == (135, 45)  # each game read three times
    assert list(copies["file"][:3]) == [str(original), str(cp1252), str(crlf)]
    engine.dispose()


@pytest.fixture
def archive(tmp_path: Path) -> Path:
    """A folder: a.pdn with GAME, a repeat of it (OTHER) and a copy (SAME); b.pdn, a cp1252
    copy of GAME after a game of its own."""
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "a.pdn").write_text(f"{GAME}\n{OTHER}\n{SAME}", encoding="utf-8")
    own = GAME.replace("14x23", "13x24").replace("Müller", "Roozenburg")
    (folder / "b.pdn").write_bytes(f"{own}\n{GAME}".encode("cp1252"))
    return folder


def test_duplicates_in_files_and_in_the_database_alike(archive: Path, db: str) -> None:
    a, b = str(archive / "a.pdn"), str(archive / "b.pdn")
    copies = file_duplicates([archive], Same.COPIES)
    assert copies[["group", "file", "index", "line"]].values.tolist() == [
        [1, a, 1, 1], [1, a, 3, 9], [1, b, 2, 5],
    ]  # fmt: skip
    moves = file_duplicates([archive], Same.MOVES)
    assert moves[["group", "file", "index", "line", "event"]].values.tolist() == [
        [1, a, 1, 1, "Open d'Allinges"], [1, a, 2, 5, "Open d'Allinges"],
        [1, a, 3, 9, "Open  d'Allinges"], [1, b, 2, 5, "Open d'Allinges"],
    ]  # fmt: skip
    engine = open_database(db)
    stats = import_paths(engine, [archive])
    # 5 games read: GAME, OTHER and b's own added; SAME and b's GAME copies; 4 share moves
    assert (stats.games, stats.added, stats.copies, stats.same_moves) == (5, 3, 2, 4)
    for by, frame in ((Same.COPIES, copies), (Same.MOVES, moves)):
        stored = database_duplicates(engine, by)
        columns = ["group", "file", "index", "line"]
        assert stored[columns].values.tolist() == frame[columns].values.tolist()
    engine.dispose()


def test_duplicates_command(archive: Path, tmp_path: Path) -> None:
    runner = CliRunner()
    a = str(archive / "a.pdn")
    done = runner.invoke(app, ["duplicates", str(archive), "--by", "moves", "-f", "json"])
    assert done.exit_code == 0, done.output
    rows = [json.loads(line) for line in done.stdout.splitlines()]
    assert [(r["group"], r["file"], r["index"], r["line"]) for r in rows][:2] == [
        (1, a, 1, 1), (1, a, 2, 5),
    ]  # fmt: skip
    assert done.stderr == "1 groups, 4 games\n"
    db = str(tmp_path / "dup.db")
    imported = runner.invoke(app, ["import", str(archive), "--db", db])
    assert "copies of stored games (not stored again)\t2\n" in imported.stdout
    assert "same moves as another game (each stored)\t4\n" in imported.stdout
    stored = runner.invoke(app, ["duplicates", db, "-f", "csv"])
    assert stored.stdout.splitlines() == [
        "group,file,index,line,white,black,event,date,result",
        f"1,{a},1,1,Müller,Sijbrands,Open d'Allinges,2007.??.??,2-0",
        f"1,{a},3,9,Müller,Sijbrands,Open d'Allinges,2007.??.??,2-0",
        f"1,{archive / 'b.pdn'},2,5,Müller,Sijbrands,Open d'Allinges,2007.??.??,2-0",
    ]
    bad = runner.invoke(app, ["duplicates", db, "--by", "players"])
    assert bad.exit_code == 2 and "'players' is not one of 'copies', 'moves'" in bad.stderr
    missing = runner.invoke(app, ["duplicates", str(tmp_path / "nowhere")])
    assert missing.exit_code == 2 and "no such file or folder" in missing.stderr


def test_convert_drops_duplicates(archive: Path) -> None:
    runner = CliRunner()

    def events(*more: str) -> tuple[list[str], str]:
        done = runner.invoke(app, ["convert", str(archive), "--to", "json", *more])
        assert done.exit_code == 0, done.output
        games = [json.loads(line) for line in done.stdout.splitlines()]
        return [f"{g['tags']['White']}/{g['tags'].get('Round')}" for g in games], done.stderr

    kept, said = events()
    assert kept == ["Müller/1", "Müller/2", "Müller /1", "Roozenburg/1", "Müller/1"]
    assert said == ""
    kept, said = events("--drop-duplicates", "copies")
    assert kept == ["Müller/1", "Müller/2", "Roozenburg/1"]
    assert said.splitlines() == [
        f"{archive / 'a.pdn'}:9: game 3: dropped, a copy of {archive / 'a.pdn'}:1 (game 1)",
        f"{archive / 'b.pdn'}:5: game 2: dropped, a copy of {archive / 'a.pdn'}:1 (game 1)",
        "2 duplicates dropped",
    ]
    kept, _ = events("--drop-duplicates", "moves")
    assert kept == ["Müller/1", "Roozenburg/1"]
    bad = runner.invoke(app, ["convert", str(archive), "--drop-duplicates", "all"])
    assert bad.exit_code == 2 and "'all' is not one of 'copies', 'moves'" in bad.stderr


@pytest.mark.slow
def test_every_game_of_the_oca_archive_is_kept(corpus_db: tuple[Engine, ImportStats]) -> None:
    engine, _ = corpus_db
    oca = str(corpus_dir() / "english" / "OCA_2.0.pdn")
    with engine.connect() as conn:
        stored = conn.execute(
            select(func.count())
            .select_from(GameRow)
            .join(SourceFile, SourceFile.id == GameRow.file_id)
            .where(SourceFile.path == oca)
        ).scalar()
    assert stored == 22621
    # Wyllie and Martins drew the same game again and again in 1872: each is found by its
    # event, and they are listed together
    moves = database_duplicates(engine, Same.MOVES)
    leeds = moves[moves["event"].str.startswith("Leeds & Newcastle 1872,game ", na=False)]
    group = leeds[leeds["event"] == "Leeds & Newcastle 1872,game 2"]["group"].item()
    repeats = list(moves[moves["group"] == group]["event"])
    # the 18 games whose move text in the file is game 2's (compared as text, numbers aside)
    rounds = [2, 6, 10, 13, 18, 22, 26, 30, 34, 41, 45, 49, 54, 58, 61, 63, 65, 67]
    assert repeats == [f"Leeds & Newcastle 1872,game {n}" for n in rounds]
    for event in repeats:
        found = find_games(engine, GameFilter(event=event, variant="english"))
        assert event in set(found["event"])
    played = find_games(engine, GameFilter(event="Leeds & Newcastle 1872,game 6"))
    assert played[played["event"] == "Leeds & Newcastle 1872,game 6"]["plies"].item() == 58
    in_oca = moves[moves["file"] == oca]
    in_oca = in_oca[in_oca.groupby("group")["group"].transform("size") > 1]
    assert (len(in_oca), len(in_oca) - in_oca["group"].nunique()) == (572, 325)
    distinct = find_games(engine, GameFilter(distinct_moves=True), limit=None)
    assert int((distinct["file"] == oca).sum()) == 22621 - 325
    for start in (0, 20_000):  # a page looks each game up among those before it: the same
        page = find_games(engine, GameFilter(distinct_moves=True), limit=500, offset=start)
        assert list(page["id"]) == list(distinct["id"][start : start + 500])
    assert pd.api.types.is_integer_dtype(moves["group"])
