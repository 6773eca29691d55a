"""Material and pattern search in the database: the stored rows and the SQL over them."""

from __future__ import annotations

import zlib
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType
from typing import Any

import numpy as np
import pytest
from sqlalchemy import Engine, create_engine, insert, select

import pdn.db.material
import pdn.db.postings
import pdn.db.questions
import pdn.db.staging
import pdn.db.store
from conftest import stored
from pdn.archive.pipeline import file_preference
from pdn.archive.selection import parse_material, parse_pattern
from pdn.db.connection import open_database
from pdn.db.material import parts
from pdn.db.material import unpacked as unpacked_runs
from pdn.db.postings import upsert
from pdn.db.questions import GameFilter, count_games, find_games
from pdn.db.schema import MATERIAL_STAGED, BoardsRow, MaterialRow, SquaresRow
from pdn.db.search import (
    DELTAS,
    allows,
    board_arrays,
    compressed,
    material_games,
    material_numbers,
    pattern_games,
    signature,
    squares_allow,
    unpacked,
    words,
)
from pdn.db.store import import_paths
from pdn.read.reader import read_games
from pdn.replay import replay_game
from pdn.rules.position import Position, core
from pdn.rules.pykernel import delta_columns
from pdn.rules.variants import get_variant

HAND = Path(__file__).resolve().parent / "data" / "hand-counted.pdn"
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def canadian_line(plies: int) -> list[Position]:
    """A Canadian game (12x12: three words a bitboard) of *plies* plies, each the last legal
    move (captures among them)."""
    line = [Position.start(get_variant("canadian"))]
    for _ in range(plies):
        line.append(line[-1].play(line[-1].legal_moves()[-1]))
    return line


def sample_lines() -> Iterator[list[Position]]:
    """The replayed main lines of the games of samples/ (English, International, Italian, Pool,
    Russian), then a Canadian one."""
    for path in sorted(SAMPLES.glob("*.pdn")):
        prefer = file_preference(path, None, "seed")
        for game in read_games(path):
            if game.syntax_error is None:
                replay = replay_game(game, None, "seed", prefer)
                if replay.positions:
                    yield replay.positions
    yield canadian_line(120)


def test_boards_give_back_every_position() -> None:
    """A boards row holds a game's positions as XOR deltas (schema 12) and gives them back as
    the replay reached them; a row of schema 11 (the kernel's packing deflated by zlib) reads
    the same; the deltas deflate to less."""
    sizes = [0, 0]
    variants = set()
    for line in sample_lines():
        w = words(line[0].variant)
        variants.add((line[0].variant.name, w))
        row = stored(1, line).boards[0][1]
        packed = core().scan(line, w, False)[1]
        kinds = ((p.white_men, p.white_kings, p.black_men, p.black_kings) for p in line)
        laid = b"".join(b.to_bytes(8 * w, "little") for four in kinds for b in four)
        laid += bytes(p.turn for p in line)  # schema 11: the positions one after another
        old = zlib.compress(laid, 1)
        assert row[0] == DELTAS and row == compressed(packed)
        assert delta_columns(laid, w) == packed  # as the migration to 12 lays them out
        assert list(unpacked(line[0].variant, row)) == line
        for a, b in zip(board_arrays(row, w), board_arrays(old, w), strict=True):
            assert a.tolist() == b.tolist()
        sizes[0] += len(row)
        sizes[1] += len(old)
    assert {"english", "international", "italian", "pool", "russian"} <= {v for v, _ in variants}
    assert ("canadian", 3) in variants
    assert sizes[0] < 0.85 * sizes[1]


@pytest.fixture
def engine() -> Iterator[Engine]:
    """The search tables alone, filled from the hand-counted archive (game n has id and number
    n)."""
    engine = create_engine("sqlite://")
    MaterialRow.__table__.create(engine)  # type: ignore[attr-defined]
    MATERIAL_STAGED.create(engine)
    BoardsRow.__table__.create(engine)  # type: ignore[attr-defined]
    SquaresRow.__table__.create(engine)  # type: ignore[attr-defined]
    prefer = file_preference(HAND, None, "seed")
    with engine.begin() as conn:
        for n, game in enumerate(read_games(HAND), 1):
            if game.syntax_error is not None:
                continue
            positions = replay_game(game, None, "seed", prefer).positions
            rows = stored(n, positions)  # the material names its number
            laid = np.frombuffer(rows.material, "<u4").reshape(-1, 3).tolist()  # sig, first, n
            runs = sorted((sig, n, first, length) for sig, first, length in laid)
            conn.exec_driver_sql(upsert(conn, "material", "signature"), parts(np.array(runs)))
            conn.execute(insert(BoardsRow), [{"game_id": n, "data": rows.boards[0][1]}])
            kinds = ("game_id", "white_men", "white_kings", "black_men", "black_kings")
            conn.execute(insert(SquaresRow), [dict(zip(kinds, rows.squares[0], strict=True))])
    yield engine
    engine.dispose()


def found(engine: Engine, spec: str, plies: int = 1) -> list[int]:
    with engine.connect() as conn:
        query = material_games(engine, parse_material(spec), plies)
        return sorted(r[0] for r in conn.execute(query))


def test_material_search(engine: Engine) -> None:
    # the same games as tests/test_filter.py finds in the file
    assert found(engine, "W:3K1,B:1K", 1) == [6]
    assert found(engine, "W:3K1,B:1K", 7) == [6]
    assert found(engine, "W:3K1,B:1K", 8) == []
    assert found(engine, "W:11,B:11", 1) == [1, 7]
    assert found(engine, "W:11,B:12", 2) == []
    # game 1: 12 v 12 for three positions, then 11 v 12, then 11 v 11: a range spans runs
    assert found(engine, "W:11-12,B:11-12", 5) == [1, 2, 3, 7]
    assert found(engine, "W:11-12,B:11-12", 6) == [2, 7]
    assert found(engine, "W:12+", 1) == [1, 2, 3, 4, 5, 7, 9]  # Russian has 12 too


def test_a_spec_allows_the_signatures_of_its_counts() -> None:
    three_and_king = 3 | 1 << 8 | 0 << 16 | 1 << 24
    assert allows(parse_material("W:3K1,B:1K"), three_and_king)
    assert allows(parse_material("W:1-3K1,B:K1+"), three_and_king)
    assert not allows(parse_material("W:4+"), three_and_king)
    assert not allows(parse_material("B:K2"), three_and_king)


def test_a_material_part_is_laid_out_as_documented() -> None:
    # signature 7: games 5, 6 and 300 (gaps 1 and 294: two bytes), first positions 0, 2 and 1,
    # lengths 3, 1 and 400 (two bytes): widths byte (2 - 1) | (1 - 1) << 2 | (2 - 1) << 4 = 17;
    # signature 9: game 4, one run (no gap), first 10, length 2
    made = parts(np.array([(7, 5, 0, 3), (7, 6, 2, 1), (7, 300, 1, 400), (9, 4, 10, 2),
                           (9, 4, 10, 2)]))  # fmt: skip
    assert made == [
        (7, bytes([3, 5, 17, 1, 0, 0x26, 1, 0, 2, 1, 3, 0, 1, 0, 0x90, 1])),
        (9, bytes([1, 4, 0, 10, 2])),
    ]
    assert unpacked_runs(made[0][1]).tolist() == [[5, 0, 3], [6, 2, 1], [300, 1, 400]]
    # a part of another import: game 6's run again (a game stored anew) and game 8's
    again = parts(np.array([(7, 6, 2, 1), (7, 8, 0, 5)]))[0][1]
    assert unpacked_runs(made[0][1] + again).tolist() == [
        [5, 0, 3], [6, 2, 1], [8, 0, 5], [300, 1, 400]
    ]  # fmt: skip


def test_pattern_search(engine: Engine) -> None:
    games = [(n, v) for n, v in [(1, "english"), (2, "english"), (3, "english"),
             (4, "international"), (5, "international"), (6, "international"), (7, "russian"),
             (9, "english")]]  # fmt: skip
    with engine.connect() as conn:
        for text, expected in (
            ("WK46:BK1", [6]),
            ("E42-44", [6]),
            ("W42-44", [4, 5, 6]),
        ):
            intl = [g for g in games if g[1] == "international"]
            assert list(pattern_games(conn, intl, parse_pattern(text))) == expected, text
        english = [g for g in games if g[1] == "english"]
        assert list(pattern_games(conn, english, parse_pattern("W:B22"))) == [1]
        assert list(pattern_games(conn, english, parse_pattern("B:B22"))) == []


def allowed(engine: Engine, text: str, variant: str | None = None) -> list[int] | None:
    where = squares_allow(parse_pattern(text), variant)
    if where is None:
        return None
    with engine.connect() as conn:
        return sorted(conn.execute(select(SquaresRow.game_id).where(where)).scalars())


def test_the_squares_allow_the_games_that_reach_a_pattern(engine: Engine) -> None:
    """Only game 6 has kings (it is set up with White's on 46 and Black's on 1). The 8x8 boards
    have no square 46; on 10x10 White's men stand on 46 at the start. A white man that ends a
    move on square 1, on Black's back row, is crowned (spec/rules.md §1, promotion), so no
    position of a game has one there."""
    assert allowed(engine, "WK46:BK1") == [6]
    assert allowed(engine, "WK46") == [6]
    assert allowed(engine, "W*46:B*1") == [4, 5, 6]
    assert allowed(engine, "W*46:B*1", "english") == []  # no square 46 on its board
    assert allowed(engine, "W1") == []
    assert allowed(engine, "E42-44") is None  # empty squares: every game is looked at


def test_a_pattern_is_found_in_games_without_capture_obligation(tmp_path: Path) -> None:
    """english-nco keeps the English board: its games are searched as English ones are."""
    path = tmp_path / "nco.pdn"  # three games that reach the pattern, all checked at once
    path.write_text("1. 11-15 23-19 *\n\n1. 11-15 23-19 9-13 *\n\n1. 11-15 23-19 10-14 *\n")
    engine = open_database(str(tmp_path / "nco.db"))
    import_paths(engine, [path], variant="english-nco")
    where = GameFilter(pattern=parse_pattern("B15:W19"))
    assert find_games(engine, GameFilter())["variant"].tolist() == ["english-nco"] * 3
    assert count_games(engine, where) == 3
    assert find_games(engine, where)["index"].tolist() == [1, 2, 3]
    # Black moves first in English: after 23-19, Black is to move again (in all three)
    assert count_games(engine, GameFilter(pattern=parse_pattern("B:B15:W19"))) == 3
    # White to move with both there: only after Black's second move (games 2 and 3)
    white_to_move = GameFilter(pattern=parse_pattern("W:B15:W19"))
    assert find_games(engine, white_to_move)["index"].tolist() == [2, 3]
    engine.dispose()


@pytest.mark.parametrize("walked", [False, True])
def test_a_page_of_a_pattern_walks_or_sorts_the_games_alike(
    db: str, monkeypatch: pytest.MonkeyPatch, walked: bool
) -> None:
    """A page of the games reaching a pattern is the same whether the games the squares allow
    are found and sorted first or walked in import order (as from WALKED_FROM of them), on
    SQLite and PostgreSQL: the hand-counted archive's pattern cases (tests/test_filter.py)."""
    monkeypatch.setattr(pdn.db.questions, "WALKED_FROM", -1 if walked else 10**9)
    engine = open_database(db)
    import_paths(engine, [HAND])
    for text, variant, games in (
        ("WK46:BK1", None, [6]), ("W:B22", "english", [1]), ("E42-44", "international", [6]),
        ("W42-44", "international", [4, 5, 6]), ("BK1:Eb8", None, [6]), ("W1", None, []),
    ):  # fmt: skip
        where = GameFilter(pattern=parse_pattern(text), variant=variant)
        assert find_games(engine, where)["index"].tolist() == games, text
        assert find_games(engine, where, limit=1, offset=1)["index"].tolist() == games[1:2]
        assert count_games(engine, where) == len(games)
    engine.dispose()


def test_one_piece_is_counted_from_the_squares_but_on_folded_boards(tmp_path: Path) -> None:
    """A pattern of one piece is counted from the squares rows, where a bit is one square; on
    the Canadian board (72 squares) square 64 shares square 1's bit, so its games are counted
    from their boards. The Canadian start: White's men on 43-72, Black's on 1-30
    (spec/rules.md §1: 30 men a side on 12x12)."""
    path = tmp_path / "two.pdn"
    path.write_text('[GameType "27"]\n*\n\n[GameType "20"]\n*\n', encoding="utf-8")
    engine = open_database(str(tmp_path / "two.db"))
    import_paths(engine, [path])
    for text, games in (("W*64", 1), ("B*64", 0), ("B*1", 2), ("W*50", 2), ("B*50", 0)):
        where = GameFilter(pattern=parse_pattern(text))
        assert count_games(engine, where) == len(find_games(engine, where)) == games, text
    engine.dispose()


def test_staged_runs_alone_are_read_in_order_and_once(tmp_path: Path) -> None:
    # a killed first import left only staged runs, in no order, game 7's twice (a game stored
    # anew stages its runs again): its games once each, in order, and counted so
    engine = open_database(str(tmp_path / "staged.db"))
    # (a row a game: each run its signature, first position and length, 4 bytes each)
    s, t = signature((12, 0, 12, 0)), signature((11, 0, 12, 0))
    staged = [(9, [(s, 0, 5), (t, 5, 2)]), (7, [(s, 0, 5)]), (3, [(s, 0, 1), (t, 1, 9)]),
              (7, [(s, 0, 5)])]  # fmt: skip
    with engine.begin() as conn:
        conn.execute(insert(MATERIAL_STAGED), [{"game": g, "runs": _laid(r)} for g, r in staged])
    even = parse_material("W:12,B:12")
    assert material_numbers(engine, even, 1) == [3, 7, 9]
    assert material_numbers(engine, even, 2) == [7, 9]
    assert count_games(engine, GameFilter(material=even)) == 3
    assert material_numbers(engine, parse_material("W:11,B:12"), 3) == [3]
    engine.dispose()


def _laid(runs: list[tuple[int, int, int]]) -> bytes:
    """A game's staged runs as material_staged holds them."""
    return b"".join(x.to_bytes(4, "little") for run in runs for x in run)


def test_staged_runs_moved_in_by_ranges_of_signatures(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # 40 games' 120 runs of 7 signatures staged, moved in 25 runs a range (5 ranges, cut by
    # signature): each signature's row the part one range of every run makes, its runs in
    # order of game and first position
    engine = open_database(str(tmp_path / "ranges.db"))
    monkeypatch.setattr(pdn.db.material, "SORTED_AT_ONCE", 25)
    ranges: list[int] = []

    def in_ranges(*args: Any) -> Any:
        ranges.append(args[3])
        return pdn.db.postings.in_ranges(*args)

    monkeypatch.setattr(pdn.db.material, "in_ranges", in_ranges)
    kinds = [signature((12 - k, 0, 12 - k // 2, 0)) for k in range(7)]
    staged = {g: [(kinds[(g + i) % 7], 10 * i, 10) for i in range(3)] for g in range(40, 0, -1)}
    with engine.begin() as conn:
        rows = [{"game": g, "runs": _laid(r)} for g, r in staged.items()]
        conn.execute(insert(MATERIAL_STAGED), rows)
        pdn.db.staging.move_staged(conn)
    with engine.connect() as conn:
        stored = dict(conn.execute(select(MaterialRow.signature, MaterialRow.data)).all())
        left = conn.execute(select(MATERIAL_STAGED)).all()
    every = sorted((sig, g, first, n) for g, runs in staged.items() for sig, first, n in runs)
    assert ranges == [5] and not left and not list(tmp_path.glob("pdn-staged-*"))
    assert stored == dict(parts(np.array(every)))
    for sig, data in stored.items():
        assert unpacked_runs(data).tolist() == [[g, f, n] for s, g, f, n in every if s == sig]
    engine.dispose()


@pytest.mark.parametrize(
    ("module", "where"),
    [(pdn.db.material, GameFilter(material=parse_material("W:12,B:12"))),
     (pdn.db.postings, GameFilter(variant="english", moves="11-15"))],
)  # fmt: skip
def test_rows_moved_in_between_the_reads_are_found(
    db: str, monkeypatch: pytest.MonkeyPatch, module: ModuleType, where: GameFilter
) -> None:
    # the Russian and Italian samples stored; an import of the English ones killed before its
    # end leaves their runs and positions staged; another, opening the database for writing,
    # moves them in while a question reads them (between its reads of the staged and of the
    # stored rows; on PostgreSQL each statement reads its own snapshot): every game is found
    engine = open_database(db)
    import_paths(engine, [SAMPLES / "russian-computers-moscow-1998.pdn",
                          SAMPLES / "italian-ci98-fero.pdn"])  # fmt: skip
    moved = pdn.db.staging.move_staged
    monkeypatch.setattr(pdn.db.store, "move_staged", lambda *_, **__: None)
    import_paths(engine, [SAMPLES / "english-oca-first20.pdn"])
    monkeypatch.setattr(pdn.db.store, "move_staged", moved)
    engine.dispose()
    reader = open_database(db, readonly=True)
    before = find_games(reader, where, limit=None)
    real = module.unpacked
    opened: list[Engine] = []

    def unpacked(*args: Any) -> Any:
        if not opened:  # opening for writing moves the staged rows in, and commits
            opened.append(open_database(db))
        return real(*args)

    monkeypatch.setattr(module, "unpacked", unpacked)
    during = find_games(reader, where, limit=None)
    assert len(opened) == 1 and count_games(reader, where) == len(before) > 10
    assert during["id"].tolist() == before["id"].tolist()
    opened[0].dispose()
    reader.dispose()
