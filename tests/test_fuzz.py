"""Fuzzing (issue 17): real games from the corpus, one of them damaged (characters inserted,
deleted, replaced, bytes that are not UTF-8, the file cut short), through list, validate and
import, as library calls and on the command line. No exception escapes, and every game before
the damage is read as it is without it. Bounded: a few hundred cases, about half a minute."""

from __future__ import annotations

import sqlite3
from functools import cache
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import corpus_dir
from pdn.archive.listing import ListedGame, list_games
from pdn.archive.validate import validate_file
from pdn.cli.app import app
from pdn.db.connection import open_database
from pdn.db.store import import_paths
from pdn.game import Game
from pdn.read.files import FileProblem
from pdn.read.reader import read_games

SOURCES = [  # a few games of every kind of file: variants, dialects, comments, variations
    "english/OCA_2.0.pdn",
    "english/wiegerw-Tricks_traps_and_shots.pdn",
    "international/wiegerw-DUTCH96H.pdn",
    "international/wiegerw-windragon.pdn",
    "international/migo-Cannes_Open_Tournament_2002.pdn",
    "russian/migo-World_Championship_1998.pdn",
    "italian/wiegerw-Campionato_Assoluto_2005.pdn",
    "misc/wiegerw-variation.pdn",
]
# characters that matter to PDN, and some that do not
NOISE = st.lists(
    st.sampled_from([*'{}()[]"*;%$/\\\n\r\t -x:.!?0123456789abcdefghKWB\x00é½', "1-0", "[Event"]),
    min_size=1,
    max_size=12,
).map("".join)


@cache
def pool() -> list[Game]:
    """Games that end with a result or "*" and read without error, each alone in its text."""
    games = []
    for name in SOURCES:
        for i, game in enumerate(read_games(corpus_dir() / name)):
            if i >= 6:
                break
            if game.syntax_error is None and game.terminator and not game.warnings:
                games.append(game)
    return games


@st.composite
def damaged(draw: st.DrawFn) -> tuple[bytes, list[Game]]:
    """A file of games, one damaged, and the games before it."""
    games = pool()
    chosen = draw(st.lists(st.integers(0, len(games) - 1), min_size=2, max_size=5))
    texts = [games[i].raw for i in chosen]
    hit = draw(st.integers(1, len(texts) - 1))
    text = texts[hit].encode("utf-8")
    at = draw(st.integers(0, len(text)))
    how = draw(st.sampled_from(["insert", "delete", "replace", "bytes", "cut"]))
    if how == "insert":
        text = text[:at] + draw(NOISE).encode("utf-8") + text[at:]
    elif how == "delete":
        text = text[:at] + text[at + draw(st.integers(1, 40)) :]
    elif how == "replace":
        text = text[:at] + draw(NOISE).encode("utf-8") + text[at + draw(st.integers(1, 8)) :]
    elif how == "bytes":
        text = text[:at] + draw(st.binary(min_size=1, max_size=4)) + text[at:]
    encoded = [t.encode("utf-8") for t in texts]
    encoded[hit] = text
    data = b"\n\n".join(encoded[: hit + 1] if how == "cut" else encoded)
    if how == "cut":
        data = data[: len(data) - len(text) + at]
    return data, [games[i] for i in chosen[:hit]]


def _kept(game: Game) -> tuple[object, ...]:
    """What must survive damage after a game: its tags, moves and result (damage that turns the
    next line into a comment may add a comment after its end)."""
    moves = [m.text for m in game.mainline()]
    return game.tags.items(), moves, game.terminator, game.syntax_error is None


def assert_kept(path: Path, before: list[Game]) -> list[Game]:
    """The games before the damage read as they read in their own file; no exception."""
    games = list(read_games(path))
    assert len(games) >= len(before)
    for i, (game, alone) in enumerate(zip(games, before, strict=False)):
        assert game.source.index == i
        assert _kept(game) == _kept(alone), (game.raw, alone.raw)
    return games


@settings(max_examples=250, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_damaged_files_through_the_library(tmp_path_factory: pytest.TempPathFactory,
                                           case: tuple[bytes, list[Game]]) -> None:  # fmt: skip
    data, before = case
    path = tmp_path_factory.mktemp("fuzz") / "damaged.pdn"
    path.write_bytes(data)
    games = assert_kept(path, before)
    rows = list(list_games([path]))
    assert [r.index for r in rows if isinstance(r, ListedGame)] == [
        g.source.index + 1 for g in games
    ]
    assert all(isinstance(r, ListedGame | FileProblem) for r in rows)
    reports = validate_file(path)
    assert [r.index for r in reports] == [g.source.index + 1 for g in games]


@settings(max_examples=12, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged())
def test_damaged_files_through_the_commands(tmp_path_factory: pytest.TempPathFactory,
                                            case: tuple[bytes, list[Game]]) -> None:  # fmt: skip
    data, before = case
    folder = tmp_path_factory.mktemp("fuzz")
    path = folder / "damaged.pdn"
    path.write_bytes(data)
    games = assert_kept(path, before)
    runner = CliRunner()
    for command in (["list"], ["validate"], ["import", "--db", str(folder / "c.db")]):
        result = runner.invoke(app, [*command, str(path)])
        assert result.exception is None or isinstance(result.exception, SystemExit), command
        assert result.exit_code in (0, 1), (command, result.stderr)
        assert "Traceback" not in result.stdout + result.stderr
    with sqlite3.connect(folder / "c.db") as conn:
        stored = conn.execute("select count(*) from occurrences").fetchone()[0]
    assert stored == len(games)
    engine = open_database(str(folder / "l.db"))
    stats = import_paths(engine, [path])
    engine.dispose()
    assert stats.games == len(games)
