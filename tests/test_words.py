"""The games' columns of known words (pdn.db.words): every word the toolkit writes has a
number, the numbers of schema 15 stay, a word goes in and comes out as itself, and the
database holds its number."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from sqlalchemy import insert, select
from sqlalchemy.exc import StatementError

from pdn.db.connection import open_database
from pdn.db.schema import CODED, GameRow
from pdn.db.store import import_paths
from pdn.db.words import OLD_WORDS
from pdn.game import DeclaredResult
from pdn.rules.draw import ALIASES, LABELS, OLD_LABELS, RULE_SETS
from pdn.rules.variants import VARIANTS

HAND_COUNTED = Path(__file__).resolve().parent / "data" / "hand-counted.pdn"


def test_every_word_written_has_a_number() -> None:
    numbers = {name: kind.numbers for name, kind in CODED.items()}
    assert set(numbers["outcome"]) == {r.value for r in DeclaredResult}
    assert set(numbers["winner"]) == {"white", "black", "draw", "unknown"}
    assert set(numbers["termination"]) == set().union(*LABELS.values())
    assert set(numbers["rules"]) == set(RULE_SETS)
    assert set(numbers["variant"]) == {*VARIANTS, *(f"{v}-nco" for v in VARIANTS)}
    assert set(numbers["variant_source"]) == {"gametype", "option", "notation"}
    assert {**OLD_LABELS, **ALIASES}.items() <= OLD_WORDS.items()


def test_the_numbers_schema_15_stored_stay() -> None:
    # a stored number means its word for good: a list may only grow at its end
    numbers = {name: kind.numbers for name, kind in CODED.items()}
    assert numbers["winner"] == {"white": 0, "black": 1, "draw": 2, "unknown": 3}
    assert numbers["outcome"] == {"first": 0, "second": 1, "draw": 2, "unknown": 3}
    assert numbers["rules"] == {"common": 0, "official": 1}
    assert numbers["variant_source"] == {"gametype": 0, "option": 1, "notation": 2}
    assert list(numbers["termination"])[:4] == [
        "as-recorded", "win", "draw-repetition", "draw-40-moves",
    ]  # fmt: skip
    assert numbers["variant"]["international"] == 0 and numbers["variant"]["english-nco"] == 14
    assert numbers["variant"]["frisian"] == 12 and numbers["variant"]["frisian-nco"] == 25


def test_words_are_stored_as_numbers_and_read_as_words(tmp_path: Path) -> None:
    db = tmp_path / "words.db"
    engine = open_database(str(db))
    import_paths(engine, [str(HAND_COUNTED)])
    with engine.connect() as conn:
        read = conn.execute(select(GameRow.variant, GameRow.winner, GameRow.termination)).all()
        assert ("english", "draw", "as-recorded") in read
        asked = select(GameRow.id).where(GameRow.winner == "draw")
        assert conn.execute(asked).all()
        nothing = select(GameRow.id).where(GameRow.termination.in_(["undecided", "no-such"]))
        assert conn.execute(nothing).all() == []  # a word no game has: no game
        row = conn.execute(select(GameRow).limit(1)).mappings().one()
    written = {c.key: row[c.key] for c in GameRow.__table__.columns}
    strange = {**written, "id": 1, "game_hash": "00" * 16, "place": -1, "number": -1}
    with engine.begin() as conn, pytest.raises(StatementError, match=r"UnknownWord.*'checkers'"):
        conn.execute(insert(GameRow), [{**strange, "variant": "checkers"}])
    engine.dispose()
    with sqlite3.connect(db) as raw:
        kinds = raw.execute(
            "SELECT DISTINCT typeof(variant), typeof(winner), typeof(outcome), typeof(rules), "
            "typeof(termination), typeof(variant_source) FROM games WHERE variant IS NOT NULL"
        ).fetchall()
    raw.close()
    assert kinds == [("integer",) * 6]
