"""Game texts stored packed (pdn.db.texts): every corpus text back byte for byte, and a database
of schema 5 (texts stored as text, digests in hex) converted in place with every game's text and
every table as a new import makes them."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest
from schema5 import as_schema_5
from sqlalchemy import text

import pdn.db.migration
from conftest import corpus_dir, table_digests
from pdn.db.connection import open_database
from pdn.db.questions import game_texts
from pdn.db.schema import NUL_SHOWN, SCHEMA_VERSION
from pdn.db.store import import_paths
from pdn.db.texts import (
    DEFLATED,
    DICTIONARY,
    PLAIN,
    WITH_TEXT,
    DamagedText,
    pack,
    pack_moves,
    unpack,
    unpack_moves,
)
from pdn.read.reader import read_file

SAMPLES = Path(__file__).resolve().parents[1] / "samples"
# corpus files with what a text can hold: 22,621 English games; Italian names with accents in
# every game; a file in cp1251 (Russian names); Cyrillic and Chinese names in UTF-8; French names
ROUND_TRIP = [
    "english/OCA_2.0.pdn",
    "italian/migo-40champ-1996.pdn",
    "russian/wiegerw2017-FAIL-abatsiev-cp1251.pdn",
    "misc/wiegerw-unicode.pdn",
    "international/bruno-2eme_Open_national_du_Leman.pdn",
]


@pytest.fixture(scope="module")
def corpus_texts() -> dict[str, list[str]]:
    """The game texts of each file of ROUND_TRIP, as read."""
    return {name: [g.raw for g in read_file(corpus_dir() / name).games] for name in ROUND_TRIP}


def test_every_corpus_text_comes_back_byte_for_byte(corpus_texts: dict[str, list[str]]) -> None:
    """Each game text of the files, with a NUL or NUL_SHOWN put in as well, unpacks to itself;
    the non-ASCII ones included (checked to be there)."""
    texts = [t for name in ROUND_TRIP for t in corpus_texts[name]]
    assert len(texts) > 23_000 and sum(any(ord(c) > 127 for c in t) for t in texts) > 200
    for t in texts:
        assert unpack(pack(t)) == t
    for t in texts[::50]:
        for odd in (t.replace(" ", "\x00", 1), t.replace(" ", NUL_SHOWN, 1), t + "\x00"):
            assert unpack(pack(odd)) == odd


def test_the_dictionary_saves_what_deflate_alone_cannot(corpus_texts: dict[str, list[str]]) -> None:
    """OCA_2.0.pdn's game texts (11.5 MB) packed take under 40% of their bytes (deflate
    alone, level 6, gives 60%: benchmarks/textdict.py)."""
    texts = corpus_texts["english/OCA_2.0.pdn"]
    packed = [pack(t) for t in texts]
    assert sum(map(len, packed)) < 0.40 * sum(len(t.encode()) for t in texts)
    assert all(p[0] == DEFLATED for p in packed)


def test_short_texts_are_stored_plain_and_damage_is_told() -> None:
    assert pack("*") == bytes((PLAIN,)) + b"*" and pack("") == bytes((PLAIN,))
    assert unpack(pack("")) == ""
    with pytest.raises(DamagedText, match="unknown format"):
        unpack(b"\x07abc")
    with pytest.raises(DamagedText, match="unknown format"):
        unpack(b"")
    whole = pack('[Event "Cup"]\n[White "Wyllie, J."]\n1. 11-15 24-20 8-11 28-24 *')
    with pytest.raises(DamagedText, match="cut short"):
        unpack(whole[:-3])
    with pytest.raises(DamagedText, match="followed"):
        unpack(whole + b"x")


def test_moves_are_packed_with_their_game_s_text() -> None:
    """A game's moves deflated with its text as the dictionary take a few bytes where the
    moves are written in it; read with the same text they come back; moves packed as texts
    (schema 14 and before) read as they were; short ones are kept plain."""
    text = '[Event "Cup"]\n1. 11-15 23-19 2. 8-11 22-17 3. 9-13 17x10 4. 7x14 25-22 *'
    moves = "11-15 23-19 8-11 22-17 9-13 17x10 7x14 25-22"
    packed = pack_moves(moves, text)
    assert packed[0] == WITH_TEXT and len(packed) < len(pack(moves)) < len(moves)
    assert unpack_moves(packed, text) == moves
    assert unpack_moves(pack(moves), text) == moves  # packed before schema 15
    assert pack_moves("", text) == bytes((PLAIN,)) and unpack_moves(bytes((PLAIN,)), "") == ""
    assert unpack_moves(pack_moves(moves, ""), "") == moves  # a text of nothing
    with pytest.raises(DamagedText, match="cut short"):
        unpack_moves(packed[:-2], text)


def test_texts_stored_with_the_first_dictionary_stay_readable() -> None:
    """Stored databases depend on the dictionary: a text packed when it was made unpacks the
    same (the file is never to change; a new one takes a new format byte)."""
    assert len(DICTIONARY) == 16384
    assert hashlib.sha256(DICTIONARY).hexdigest()[:16] == FIRST_DICTIONARY
    stored = bytes.fromhex(FIRST_PACKED)
    assert unpack(stored) == FIRST_TEXT and pack(FIRST_TEXT) == stored


FIRST_TEXT = '[Event "Glasgow 1858, game 4"]\n[Result "1-0"]\n1. 11-15 23-19 2. 9-14 22-17 1-0'
FIRST_DICTIONARY = "49494565c2feff82"  # the first 64 bits of its SHA-256
FIRST_PACKED = "01839b9f93589c9e5f0e8c7f53607d960e2a394c3043c410b9056ea96084545783e6340c00"


def test_a_schema_5_database_is_converted_in_place(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The samples, accented Italian games and a game with a NUL imported, stored as schema 5
    stored them, then opened for writing: batches of 7 games packed (a partial last one), and
    every table as a new import makes it, every game's text as its file holds it."""
    odd = tmp_path / "odd.pdn"
    odd.write_bytes(b'[Event "Cup\x00final"]\n[Black "M\xc3\xbcller"]\n1. 11-15 23-19 *\n')
    files = [SAMPLES, corpus_dir() / "italian/migo-40champ-1996.pdn", odd]
    engine = open_database(db)
    stats = import_paths(engine, files)
    made = table_digests(engine)
    engine.dispose()
    as_schema_5(db)
    monkeypatch.setattr(pdn.db.migration, "PACKED_AT_ONCE", 7)
    engine = open_database(db)
    with engine.connect() as conn:
        version = conn.execute(text("SELECT value FROM pdn_meta WHERE key = 'schema_version'"))
        assert version.scalar() == str(SCHEMA_VERSION) == "16"
        places = conn.execute(text(
            "SELECT g.id, s.path, g.file_index FROM games g JOIN source_files s ON "
            "s.id = g.file_id ORDER BY g.place"
        )).all()  # fmt: skip
    assert len(places) == stats.added == 50 + 302 + 1
    assert table_digests(engine) == made
    if "://" in db:
        with engine.connect() as conn:
            kinds = conn.execute(text(
                "SELECT column_name, data_type FROM information_schema.columns WHERE "
                "table_name = 'games' AND column_name IN ('pdn', 'game_hash', 'moves_hash')"
            )).all()  # fmt: skip
        assert sorted(kinds) == [("game_hash", "bytea"), ("moves_hash", "bytea"), ("pdn", "bytea")]
    read = {}
    for path in {p for _, p, _ in places}:
        for i, game in enumerate(read_file(Path(path)).games, 1):
            read[path, i] = game.raw.replace("\x00", NUL_SHOWN)
    texts = game_texts(engine, [gid for gid, _, _ in places])
    assert texts == [read[path, i] for _, path, i in places]
    assert "Cup\u2400final" in texts[-1] and "Müller" in texts[-1]
    engine.dispose()
    if "://" not in db:
        with sqlite3.connect(db) as conn:
            kinds = conn.execute(
                "SELECT DISTINCT typeof(pdn), typeof(game_hash), typeof(moves_hash) FROM games"
            ).fetchall()
            assert kinds == [("blob", "blob", "blob")]
