"""The postings' packing (pdn.db.postings): the bytes of a part as the module's text lays them
out, worked by hand, and every posting read back as written."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest
from sqlalchemy import Connection, func, insert, select, text

import pdn.db.postings
from conftest import table_digests
from pdn.archive.openings import play_moves
from pdn.db.connection import open_database
from pdn.db.positions import later_digests, opening_digests
from pdn.db.postings import (
    LOOPED,
    parts,
    postings_at,
    postings_between,
    recounted,
    staged_row,
    unpacked,
)
from pdn.db.schema import PLAYED, STAGED, GameRow, OpeningRow, PostingRow
from pdn.db.staging import move_staged
from pdn.db.store import import_paths
from pdn.db.texts import unpack_moves
from pdn.rules.fen import parse_fen
from pdn.rules.variants import get_variant

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def _parts(rows: list[tuple[int, int, int, int]]) -> list[tuple[int, bytes]]:
    a = np.array(rows, dtype=np.int64).reshape(-1, 4)
    return parts(a[:, 0], a[:, 1], a[:, 2], a[:, 3])


def test_a_part_is_laid_out_as_documented() -> None:
    # digest -5 is in the row of prefix -1 (its top 16 bits), its low 48 bits 2**48 - 5: one
    # digest, its low bits in 6 bytes, then its postings: games up to 300 take two bytes,
    # plies and moves up to 3 one, widths (2 - 1) | (1 - 1) << 2 | (1 - 1) << 4 = 1 and their
    # count 2 in bits 6-7 (0x81), the records little-endian (300 = 0x012C), a move's id plus
    # one (0: none); digests 7 and 9 share the row of prefix 0, every number in a byte (widths
    # 0), one posting each (0x40); digest 11's four postings are counted by a varint after 0
    made = _parts([(-5, 1, 0, 0), (-5, 300, 3, 2), (7, 2, 1, 1), (9, 4, 0, 0)])
    assert made == [
        (-1, bytes([1, *[0xFB, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 0x81, 1, 0, 0, 0, 0x2C, 1, 3, 2])),
        (0, bytes([2, *[7, 0, 0, 0, 0, 0], *[9, 0, 0, 0, 0, 0], 0x40, 2, 1, 1, 0x40, 4, 0, 0])),
    ]
    assert unpacked(-1, made[0][1]) == {-5: [(1, 0, None), (300, 3, 1)]}
    assert unpacked(0, made[1][1]) == {7: [(2, 1, 0)], 9: [(4, 0, None)]}
    [(_, four)] = _parts([(11, g, 0, 0) for g in range(1, 5)])
    assert four == bytes([1, *[11, 0, 0, 0, 0, 0], 0, 4, *[1, 0, 0, 2, 0, 0, 3, 0, 0, 4, 0, 0]])
    # a part written before the count moved into the widths byte: its count always a varint
    before = bytes([2, *[7, 0, 0, 0, 0, 0], *[9, 0, 0, 0, 0, 0], 0, 1, 2, 1, 1, 0, 1, 4, 0, 0])
    assert unpacked(0, before) == unpacked(0, made[1][1])
    assert recounted(before) == made[1][1]  # as the migration to schema 15 writes it
    assert recounted(made[0][1] + four) == made[0][1] + four
    assert recounted(made[1][1], short=False) == before  # as schema 13 and 14 wrote it


def test_a_posting_staged_twice_is_packed_once_and_parts_read_as_one() -> None:
    # a game stored anew from an earlier place stages its positions again
    [(_, once)] = _parts([(9, 4, 2, 1), (9, 4, 2, 1), (9, 6, 0, 0)])
    assert unpacked(0, once) == {9: [(4, 2, 0), (6, 0, None)]}
    [(_, later)] = _parts([(9, 5, 1, 3), (9, 6, 0, 0), (11, 6, 1, 0)])  # another import
    assert unpacked(0, once + later) == {
        9: [(4, 2, 0), (5, 1, 2), (6, 0, None)],
        11: [(6, 1, None)],
    }


def test_every_width_and_count_reads_back() -> None:
    rng = random.Random(13)
    for top_game, top_ply, top_move, n in [
        (200, 200, 200, 1),
        (70_000, 300, 70_000, LOOPED),
        (1 << 24, 65_536, 1 << 24, LOOPED + 1),  # read by numpy; a ply past two bytes
        (1 << 31, 9, 3, 300),  # a count past one varint byte
    ]:
        rows = sorted(
            {(42, rng.randrange(1, top_game), rng.randrange(top_ply), rng.randrange(top_move))
             for _ in range(n)} | {(42, top_game, top_ply, top_move)}
        )  # fmt: skip
        [(prefix, data)] = _parts(rows)
        assert prefix == 0
        assert unpacked(0, data) == {42: [(g, p, m - 1 if m else None) for _, g, p, m in rows]}
    # a row of many digests, one of them reached by 300 games
    rows = sorted({(d << 20, g, 0, 1) for d in range(300) for g in range(d % 3 + (d == 7) * 300)})
    [(prefix, data)] = _parts(rows)
    want: dict[int, list[tuple[int, int, int | None]]] = {}
    for d, g, p, m in rows:
        want.setdefault(d, []).append((g, p, m - 1))
    assert prefix == 0 and unpacked(0, data) == want


def test_postings_moved_in_by_ranges_of_digests_are_the_same(
    db: str, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # an import of more staged postings than are sorted at a time cuts them into ranges of
    # digests, each sorted and written apart (the 50 samples: a posting for each position of
    # each game, 7 ranges of 500), and its parts are written a few digests at a time
    whole = open_database(str(tmp_path / "whole.db"))
    import_paths(whole, [SAMPLES])
    monkeypatch.setattr(pdn.db.postings, "SORTED_AT_ONCE", 500)
    monkeypatch.setattr(pdn.db.postings, "WRITTEN_AT_ONCE", 100)
    cut = open_database(db)
    import_paths(cut, [SAMPLES])
    assert table_digests(cut) == table_digests(whole)
    with whole.connect() as conn:
        positions = conn.execute(select(func.sum(GameRow.plies + 1))).scalar_one()
    assert table_digests(whole)["postings"][0] == positions > 3000
    whole.dispose()
    cut.dispose()


@pytest.mark.parametrize("staged_in_order", [True, False])
def test_postings_sorted_by_digest_game_and_ply(staged_in_order: bool) -> None:
    # 300 games of 40 positions, many reaching the same digests (an opening's), staged in
    # order of game and ply as an import stages them, or with two games swapped (a game
    # stored anew keeps its number): each (digest, game, ply) in order, as sorted by the three
    rng = np.random.default_rng(11)
    games = np.repeat(np.arange(1, 301), 40)
    plies = np.tile(np.arange(40), 300)
    found = np.zeros(len(games), pdn.db.postings._record())
    found["digest"] = rng.choice(rng.integers(-(2**63), 2**63 - 1, 2000), len(games))
    found["game"], found["ply"] = games, plies
    if not staged_in_order:
        found = np.concatenate([found[40:80], found[:40], found[80:]])
    order = pdn.db.postings._sorted(found)
    key = [(int(d), int(g), int(p)) for d, g, p, _ in found[order].tolist()]
    assert key == sorted(key) and sorted(order.tolist()) == list(range(len(found)))


def test_a_long_game_moved_in_by_three_ranges(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # a game of 70,000 positions (plies past two bytes) staged, then moved in by three ranges
    # of prefixes (not a power of two): each row gets one part, its prefixes whole in a range;
    # the ranges wait in files beside the database (the temporary folder may be memory)
    engine = open_database(str(tmp_path / "long.db"))
    rng = random.Random(5)
    digests = [rng.randrange(-(2**63), 2**63) for _ in range(70_000)]
    packed = b"".join(d.to_bytes(8, "little", signed=True) for d in digests)
    monkeypatch.setattr(pdn.db.postings, "SORTED_AT_ONCE", 25_000)
    spilled: list[int] = []  # the files beside the database while each range is written
    write = pdn.db.postings._written

    def written(conn: Connection, found: np.ndarray) -> None:
        spilled.append(len(list(tmp_path.glob("pdn-staged-*/*"))))
        write(conn, found)

    monkeypatch.setattr(pdn.db.postings, "_written", written)
    names = ("game", "digests", "moves")
    with engine.begin() as conn:
        conn.execute(
            insert(STAGED), [dict(zip(names, staged_row(1, packed, [1] * 69_999), strict=True))]
        )
        move_staged(conn)
    with engine.connect() as conn:
        stored = dict(conn.execute(select(PostingRow.prefix, PostingRow.data)).all())
        assert postings_at(conn, digests[-1]) == [(1, 69_999, None)]
        assert postings_at(conn, digests[0]) == [(1, 0, 0)]
    rows = sorted((d, 1, p, 1 if p < 69_999 else 0) for p, d in enumerate(digests))
    assert stored == dict(_parts(rows))
    assert spilled == [3, 2, 1] and not list(tmp_path.glob("pdn-staged-*"))
    engine.dispose()


def test_postings_between_plies_read_every_width_part_and_staged_row(tmp_path: Path) -> None:
    # stored rows in two parts (a posting repeated in the second, as a game stored anew
    # writes it), widths of one to four bytes, a digest of more than LOOPED postings and one
    # whose count takes two varint bytes, negative digests; and a game staged, not moved in
    rng = random.Random(29)
    first = {
        (d, g, rng.randrange(40), rng.randrange(1, 300))
        for d in (-(2**63), -5, 7, 9 << 48, 2**63 - 1)
        for g in rng.sample(range(1, 90), 20)
    }
    second = {(7, g, p, 1) for g in range(1 << 20, (1 << 20) + 200) for p in (3, 70_000)}
    second |= set(sorted(first)[:5])
    staged_digests = [rng.randrange(-(2**63), 2**63) for _ in range(30)]
    engine = open_database(str(tmp_path / "between.db"))
    with engine.begin() as conn:
        for rows in (first, second):
            for prefix, data in _parts(sorted(rows)):
                conn.execute(
                    text("INSERT INTO postings VALUES (:p, :d) ON CONFLICT (prefix) "
                         "DO UPDATE SET data = CAST(data || excluded.data AS BLOB)"),
                    {"p": prefix, "d": data},
                )  # fmt: skip
        # a row written before the count moved into the widths byte (prefix 5: digests
        # 5 << 48 | 7 and 5 << 48 | 9), its counts varints after widths 0
        old = bytes([2, *[7, 0, 0, 0, 0, 0], *[9, 0, 0, 0, 0, 0], 0, 1, 2, 1, 1, 0, 1, 4, 0, 0])
        conn.execute(insert(PostingRow).values(prefix=5, data=old))
        packed = b"".join(d.to_bytes(8, "little", signed=True) for d in staged_digests)
        row = staged_row(500, packed, range(1, 30))
        conn.execute(insert(STAGED), [dict(zip(("game", "digests", "moves"), row, strict=True))])
    everything = {(d, g, p, m - 1 if m else None) for d, g, p, m in first | second}
    everything |= {(d, 500, p, p if p < 29 else None) for p, d in enumerate(staged_digests)}
    everything |= {(5 << 48 | 7, 2, 1, 0), (5 << 48 | 9, 4, 0, None)}
    with engine.connect() as conn:
        for low, high, games in [
            (0, 0, None),
            (3, 3, None),
            (13, 39, None),
            (0, 70_000, None),
            (10, 29, [500, 3, 1 << 20]),
            (70_000, 70_000, [(1 << 20) + 5]),
        ]:
            found = [
                (d, g, p, m - 1 if m else None)
                for d, g, p, m in postings_between(conn, low, high, games).tolist()
            ]
            assert found == sorted(set(found), key=lambda r: r[:3])
            assert set(found) == {
                r for r in everything
                if low <= r[2] <= high and (games is None or r[1] in games)
            }  # fmt: skip
    engine.dispose()


def test_digests_past_the_kept_plies_are_the_replayed_positions(tmp_path: Path) -> None:
    # the postings at ply 12 are games.opening's last digest, and those after it up to ply 20
    # the positions the rules reach playing the game's stored moves (pdn.board)
    engine = open_database(str(tmp_path / "samples.db"))
    import_paths(engine, [SAMPLES])
    with engine.connect() as conn:
        games = conn.execute(
            select(GameRow.number, OpeningRow.digests, GameRow.variant, GameRow.start_fen,
                   GameRow.moves, GameRow.pdn)
            .join_from(GameRow, OpeningRow, PLAYED)
            .where(GameRow.valid, GameRow.plies >= 20)
        ).all()  # fmt: skip
        assert len(games) > 30
        at_twelve = {g: d for d, g, _, _ in postings_between(conn, 12, 12).tolist()}
        later = later_digests(conn, [g.number for g in games], 20)
    for number, opening, variant, fen, packed, stored in games:
        assert variant is not None
        start = parse_fen(fen, get_variant(variant)) if fen else None
        moves = unpack_moves(packed, stored).split()[:20]
        line = [p.digest() for p in play_moves(variant, " ".join(moves), start)]
        assert opening_digests(opening) == line[:12]
        assert at_twelve[number] == line[11]
        assert later[number] == line[12:]
    engine.dispose()
