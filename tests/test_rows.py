"""A game's rows at once: Kernel.scan (digests, packed boards, material runs, the squares each kind
of piece stood on) and Kernel.move_texts
(the main line as the database writes it), on the C kernel and on its Python twin.

Both cores give the same values as each other and as the definitions they replaced, worked out
position by position and move by move here (Position.digest, Position.counts, int.to_bytes,
pos.captures(), notation.pdn_path, an OR of the bitboards); build_record's rows are those
definitions' rows. Real
games of every variant the corpus holds, positions and long forms written out by hand.
"""

from __future__ import annotations

import hashlib
import pickle
import zlib
from collections.abc import Iterator
from functools import reduce
from itertools import groupby
from operator import or_
from pathlib import Path

import pytest

from conftest import corpus_dir, need_core, stored
from pdn.archive.identity import game_identity
from pdn.archive.pipeline import replay_paths
from pdn.archive.selection import MaterialRun, material_runs
from pdn.db.records import build_record
from pdn.db.schema import OPENING_PLIES_KEPT
from pdn.db.search import board_arrays, signature, words
from pdn.db.texts import unpack, unpack_moves
from pdn.game import Game
from pdn.mainline import LineRows, main_line
from pdn.read.movetext import plain_moves, plain_runs
from pdn.replay import Replay
from pdn.rules import pykernel as PYTHON
from pdn.rules.fen import parse_fen
from pdn.rules.geometry import WHITE, Geometry
from pdn.rules.kernel import Kernel
from pdn.rules.move import pdn_path
from pdn.rules.position import CORES, Duplicates, Position, use_core
from pdn.rules.variants import get_variant

Core = Kernel[Position]  # a kernel as position.py holds it

# One or more files of each variant the corpus holds; the first five hold the captures written
# in their long form that test_corpus_long_forms names.
SAMPLES = [
    "english/wiegerw-Tricks_traps_and_shots.pdn",
    "international/bruno-29eme_Open_d_Avignon_2014.pdn",
    "international/mobydam-babasy4.pdn",
    "international/wiegerw-schildpad.pdn",
    "italian/wiegerw-Campionato_Assoluto_2005.pdn",
    "english/migo-British_Computer_Championship_2002.pdn",
    "russian/migo-First_Computers_Match_Moscow_1998.pdn",
    "russian/migo-test.pdn",
    "frisian",
    "pool",
    "misc",
    "odd",
]

Pair = tuple[Game, Replay | None]


@pytest.fixture(scope="module")
def c_core() -> Core:
    need_core("c")
    return CORES["c"]


def _pair(game: Game, replay: Replay | None) -> Pair:
    return game, replay


@pytest.fixture(scope="module")
def samples() -> list[Pair]:
    """The games of SAMPLES, read and replayed as an import replays them."""
    corpus = corpus_dir()
    return list(replay_paths([corpus / s for s in SAMPLES], _pair))


def labels(g: Geometry) -> tuple[str, ...]:
    """Each square's name by bit index (empty off the board)."""
    return tuple(g.label(s) if s in g.coords else "" for s in range(g.size))


# -- the definitions the kernel replaced, one position and one move at a time -----------------


def texts_one_by_one(replay: Replay) -> list[str]:
    """The main line as identity.main_line wrote it move by move: ``a-b``, ``axb``, or the
    squares pdn_path writes where another capture the rules allow has the same start and end."""
    if not replay.moves:
        return []
    g = replay.positions[0].geometry
    sep = replay.variant.separator
    out = []
    for pos, move in zip(replay.positions, replay.moves, strict=False):
        a, b = move.start, move.end
        if not move.captured:
            out.append(f"{g.label(a)}-{g.label(b)}")
        elif any(m.start == a and m.end == b and m.key != move.key for m in pos.captures()):
            out.append(sep.join(g.label(s) for s in pdn_path(g, move)))
        else:
            out.append(f"{g.label(a)}{sep}{g.label(b)}")
    return out


def runs_by_grouping(positions: list[Position]) -> list[tuple[int, int, tuple[int, ...]]]:
    """The material runs by a definition of their own (not the cores' loop): the pieces counted
    from the bitboards' binary digits, grouped by itertools.groupby, each run starting where the
    runs before it end. Checked against hand-counted runs in test_material_runs_by_hand."""
    pieces = (
        tuple(bin(b).count("1") for b in (p.white_men, p.white_kings, p.black_men, p.black_kings))
        for p in positions
    )
    runs = []
    first = 0
    for counts, group in groupby(pieces):
        length = sum(1 for _ in group)
        runs.append((first, length, counts))
        first += length
    return runs


def squares_by_or(positions: list[Position]) -> tuple[int, int, int, int]:
    """The squares each kind stood on: the OR of its bitboards over the positions."""
    boards = [(p.white_men, p.white_kings, p.black_men, p.black_kings) for p in positions]
    wm, wk, bm, bk = (reduce(or_, (four[k] for four in boards), 0) for k in range(4))
    return wm, wk, bm, bk


def boards_one_by_one(positions: list[Position], w: int) -> bytes:
    """The positions one after another: each one's four bitboards, *w* words each; then the
    side to move of each."""
    boards = [(p.white_men, p.white_kings, p.black_men, p.black_kings) for p in positions]
    packed = b"".join(b.to_bytes(8 * w, "little") for four in boards for b in four)
    return packed + bytes(p.turn for p in positions)


def packed_by_hand(positions: list[Position], w: int) -> bytes:
    """The packing of Kernel.scan by its definition: per kind (white men, white kings, black
    men, black kings) and word of its bitboard, the word of each position XORed with the one
    before it (the first with 0); then the side to move of each."""
    laid = []
    for kind in range(4):
        for k in range(w):
            before = 0
            for p in positions:
                word = (p.white_men, p.white_kings, p.black_men, p.black_kings)[kind] >> 64 * k
                word &= (1 << 64) - 1
                laid.append((word ^ before).to_bytes(8, "little"))
                before = word
    return b"".join(laid) + bytes(p.turn for p in positions)


def replayed(pairs: list[Pair]) -> Iterator[Replay]:
    return (r for _, r in pairs if r is not None and r.positions)


# -- both cores, the definitions, real games ---------------------------------------------------


def test_scan_and_texts_on_every_variant_of_the_corpus(c_core: Core, samples: list[Pair]) -> None:
    variants = set()
    for replay in replayed(samples):
        variants.add(replay.variant.name)
        ps = replay.positions
        w = words(ps[0].variant)
        mine = c_core.scan(ps, w, True)
        assert mine == PYTHON.scan(ps, w, True)
        assert mine[0] == [p.digest() for p in ps]
        assert mine[1] == packed_by_hand(ps, w)
        assert mine[2] == runs_by_grouping(ps)
        assert mine[3] == squares_by_or(ps)
        assert c_core.scan(ps, 0, False) == PYTHON.scan(ps, 0, False) == ([], b"", *mine[2:])
        names = labels(ps[0].geometry)
        sep = replay.variant.separator
        texts = c_core.move_texts(ps, replay.moves, names, sep)
        assert texts == PYTHON.move_texts(ps, replay.moves, names, sep)
        assert texts == texts_one_by_one(replay)
    assert {"english", "international", "italian", "russian", "frisian", "pool"} <= variants


def test_corpus_long_forms(samples: list[Pair]) -> None:
    """The captures of the samples written in full: each has a rival from the same start to the
    same end taking other pieces (listed by hand from the positions), and the path turns on the
    squares written between."""
    found = {}
    for game, replay in samples:
        if replay is None:
            continue
        for i, text in enumerate(main_line(replay)):
            if text.count(replay.variant.separator) > 1:
                found[Path(game.source.file).name, game.source.index + 1, i + 1] = text
    assert found == {
        # 10 jumps 14 and 22 by 17; its rival 15 and 23 by 19
        ("wiegerw-Tricks_traps_and_shots.pdn", 57, 37): "10x17x26",
        # 32x23 (27), then 18 and 10 by 14; the rival 19 and 11 by 16
        ("wiegerw-Tricks_traps_and_shots.pdn", 90, 22): "32x23x14x7",
        # a king takes 20, 28, 27 by 33 and 22; the rival 20, 19, 27 by 24 and 13
        ("bruno-29eme_Open_d_Avignon_2014.pdn", 40, 97): "15x33x22x31",
        # kings: 24, 34, 22 by 30 and 39; the rival 24, 40, 22 by 35 and 44
        ("mobydam-babasy4.pdn", 49, 86): "2x30x39x17",
        # 27, 8, 11 by 13 and 2; the rival 27, 12, 11 by 18 and 7
        ("wiegerw-schildpad.pdn", 3, 69): "36x13x2x16",
        # 18, 37, 29 by 31 and 42; the rival 18, 28, 29 by 22 and 33
        ("wiegerw-schildpad.pdn", 7, 111): "4x31x42x24",
        # 3x10 (6), then 14 and 22 by 19; the rival 13 and 21 by 17
        ("wiegerw-Campionato_Assoluto_2005.pdn", 46, 26): "3x10x19x26",
    }


@pytest.mark.slow
def test_scan_and_texts_on_the_whole_corpus(c_core: Core) -> None:
    """Every corpus game: both cores, and the definitions, game by game."""
    n = 0
    for _, replay in replay_paths([corpus_dir()], _pair):
        if replay is None or not replay.positions:
            continue
        ps = replay.positions
        w = words(ps[0].variant)
        mine = c_core.scan(ps, w, True)
        assert mine == PYTHON.scan(ps, w, True)
        assert mine == (
            [p.digest() for p in ps], packed_by_hand(ps, w), runs_by_grouping(ps),
            squares_by_or(ps),
        )  # fmt: skip
        names, sep = labels(ps[0].geometry), replay.variant.separator
        texts = c_core.move_texts(ps, replay.moves, names, sep)
        assert texts == PYTHON.move_texts(ps, replay.moves, names, sep) == texts_one_by_one(replay)
        n += 1
    assert n > 30_000


# -- by hand -------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("variant", "fen", "path", "text"),
    [
        # Black's man on 10 jumps 14 to 17 and 22 to 26, or 15 to 19 and 23 to 26: the square
        # where the path turns tells them apart (Tricks traps and shots, game 57)
        ("english", "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13", "10 17 26", "10x17x26"),
        ("english", "B:W14,15,18,21,22,23,30:B6,7,8,10,12,13", "10 19 26", "10x19x26"),
        # the king takes 12 landing on 8, 19 on 24, 29 and then 42 straight on to 47: PDN 3.0
        # writes 33, the square behind 29, where the path runs on without turning
        ("international", "W:WK26:B9,12,19,29,42", "26 8 24 38 47", "26x8x24x33x47"),
        # Frisian: 23 taken along the file (13, 23, 33), then 28 and 11 on the diagonal 33-6:
        # 22 is the square behind 28
        ("frisian", "W:WK13:B11,19,23,28", "13 33 17 6", "13x33x22x6"),
        # Russian writes squares by name and captures with ':'; the path turns on g5 and e7
        ("russian", "W:WKd2:Bc5,c7,f4,f6,g7", "d2 g5 e7 b4", "d2:g5:e7:b4"),
    ],
)
def test_long_forms_by_hand(c_core: Core, variant: str, fen: str, path: str, text: str) -> None:
    pos = parse_fen(fen, get_variant(variant))
    g = pos.geometry
    cells = tuple(g.parse_square(s) for s in path.split())
    (move,) = [m for m in pos.captures(Duplicates.PATHS) if m.path == cells]
    rivals = [
        m for m in pos.captures() if m.path[0] == cells[0] and m.path[-1] == cells[-1]
        and m.captured_mask != move.captured_mask
    ]  # fmt: skip
    assert rivals  # so the short form would not say which capture was played
    names, sep = labels(g), pos.variant.separator
    assert c_core.move_texts([pos], [move], names, sep) == [text]
    assert PYTHON.move_texts([pos], [move], names, sep) == [text]


def test_packed_boards_and_digest_by_hand(each_core: str) -> None:
    """English: square 32 is g1, bit 0 * 9 + 6 (rows of 8 squares and a ghost column); square
    1 is b8, bit 7 * 9 + 1 = 64, the first bit of a bitboard's second word."""
    pos = parse_fen("B:W32:B1", get_variant("english"))
    assert (pos.white_men, pos.black_men, pos.turn) == (1 << 6, 1 << 64, 1)
    white_men = b"\x40" + bytes(15)
    black_men = bytes(8) + b"\x01" + bytes(7)
    packed = white_men + bytes(16) + black_men + bytes(16) + b"\x01"
    text = b"english:(64, 0, 18446744073709551616, 0, 1)"
    digest = int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big", signed=True)
    core = CORES[each_core]
    reached = (1 << 6, 0, 1 << 64, 0)
    assert core.scan([pos], 2, True) == ([digest], packed, [(0, 1, (1, 0, 1, 0))], reached)
    assert core.scan([pos, pos], 0, False) == ([], b"", [(0, 2, (1, 0, 1, 0))], reached)
    # the boards row: format byte 1, then deflated, each word as a column over the positions,
    # XORed with the one before it (one position: the packing as it is)
    alone = stored(7, [pos])
    (gid, row), *_ = alone.boards
    assert (gid, row[0], zlib.decompress(row[1:], -15)) == (7, 1, packed)
    after = pos.play(pos.legal_moves()[0])  # 1-5 or 1-6: black's man moves within word 2
    two = stored(7, [pos, after])
    assert (after.black_men >> 64, after.white_men, after.turn) == (0, 1 << 6, 0)
    moved = after.black_men.to_bytes(8, "little")
    gone = (1 << 64).to_bytes(16, "little")[8:]  # word 2: the man left it, the change is his bit
    columns = (
        b"\x40" + bytes(7) + bytes(8),
        bytes(16),
        bytes(16),
        bytes(16),  # white men, kings
        bytes(8) + moved,
        gone + gone,
        bytes(16),
        bytes(16),  # black men: words 1 and 2; kings
    )
    assert zlib.decompress(two.boards[0][1][1:], -15) == b"".join(columns) + b"\x01\x00"
    # the squares where each kind stood, square n as bit n - 1
    assert alone.squares == ((7, 1 << 31, 0, 1 << 0, 0),)


def test_canadian_boards_take_three_words(c_core: Core) -> None:
    """12x12 with a ghost column: 156 bits, three words a bitboard. Square 72 is k1, bit 10;
    square 1 is b12, bit 11 * 13 + 1 = 144; square 6 is l12, bit 154: bits 16 and 26 of the
    third word."""
    v = get_variant("canadian")
    assert words(v) == 3
    pos = parse_fen("W:W72:B1,6", v)
    assert (pos.white_men, pos.black_men) == (1 << 10, 1 << 144 | 1 << 154)
    white_men = b"\x00\x04" + bytes(22)
    black_men = bytes(16) + b"\x00\x00\x01\x04" + bytes(4)
    packed = white_men + bytes(24) + black_men + bytes(24) + b"\x00"
    reached = (1 << 10, 0, 1 << 144 | 1 << 154, 0)
    for core in (c_core, PYTHON):
        assert core.scan([pos], 3, True) == (
            [pos.digest()], packed, [(0, 1, (1, 0, 2, 0))], reached
        )  # fmt: skip
    # square n as bit n - 1, folded into 63 bits: 72 is bit 71 - 63 = 8
    assert stored(7, [pos]).squares == ((7, 1 << 8, 0, 1 << 0 | 1 << 5, 0),)
    # a game played on from the start: every board, with its high squares, on both cores
    game = [Position.start(v)]
    for ply in range(200):
        moves = c_core.generate(game[-1], Duplicates.DROP)
        if not moves:
            break
        game.append(c_core.play(game[-1], moves[(ply * 7919) % len(moves)]))
    mine = c_core.scan(game, 3, True)
    assert mine == PYTHON.scan(game, 3, True)
    assert mine == (
        [p.digest() for p in game], packed_by_hand(game, 3), runs_by_grouping(game),
        squares_by_or(game),
    )  # fmt: skip
    assert mine[2][0][2] == (30, 0, 30, 0)


def test_material_runs_by_hand(each_core: str) -> None:
    """Runs of equal counts (white men, white kings, black men, black kings): a man taken
    changes them, so does a man crowned; the side to move does not."""
    v = get_variant("english")
    start = Position.start(v)
    wm, bm = start.white_men, start.black_men
    taken = Position(v, wm, 0, bm & (bm - 1), 0, WHITE)  # a black man less
    low = wm & -wm
    crowned = Position(v, wm ^ low, low, bm & (bm - 1), 0, WHITE)  # a white man made king
    line = [start, start, taken, taken.with_turn(1), taken, crowned, start]
    runs = [(0, 2, (12, 0, 12, 0)), (2, 3, (12, 0, 11, 0)), (5, 1, (11, 1, 11, 0)),
            (6, 1, (12, 0, 12, 0))]  # fmt: skip
    assert CORES[each_core].scan(line, 0, False)[2] == runs
    assert runs_by_grouping(line) == runs
    assert material_runs(line) == [MaterialRun(*r) for r in runs]


# -- build_record ----------------------------------------------------------------------------------


def test_line_rows_as_the_board_gives_them(c_core: Core) -> None:
    """Replay.line_rows of the sample games (and of samples/, whose English games write some
    captures with every square), a main line checked without a board played by the C kernel
    and by its twin, from its runs of plain moves where it has them: the moves, the scan of
    the positions and the first positions the board gives once the line is pushed on it.
    Moves the kernel's loop does not play (more than two squares written) are read by the
    board's reading, as the check read them."""
    root = Path(__file__).resolve().parents[1]
    paths = [corpus_dir() / s for s in SAMPLES] + [root / "samples" / "english-oca-first20.pdn"]
    long = checked = from_runs = 0
    for game, replay in replay_paths(paths, _pair):
        if replay is None or replay.first_position is None:
            continue
        w = words(replay.variant)
        kernel = replay._start is not None  # not pushed on a board: the kernel plays it
        from_runs += kernel and replay._written is None and plain_runs(game) is not None
        rows = []
        for core in (c_core, PYTHON):
            previous = use_core(core.name)
            rows.append(replay.line_rows(w, 8))
            use_core(previous.name)
        assert rows[0] == rows[1]
        written = plain_moves(game) or []
        long += kernel * sum(len(m) > 2 for m in written[: replay.plies])
        checked += kernel
        line = replay.positions[: replay.plies + 1]
        scanned = c_core.scan(line, w, True)
        assert rows[0] == LineRows(texts_one_by_one(replay), *scanned, line[:8])
    assert checked > 300 and long > 20 and from_runs > 300  # (379 games, 35 such, 325 runs)


def test_build_record_writes_the_one_by_one_rows(each_core: str, samples: list[Pair]) -> None:
    """The rows of every sample game: plies, material, boards, moves and identity as the
    definitions give them, on either core."""
    for game, replay in samples:
        record = build_record(game, replay)
        gid = record.row["id"]
        texts = texts_one_by_one(replay) if replay else []
        identity = game_identity(game, replay, texts)
        assert (record.row["game_hash"], record.row["moves_hash"]) == (
            identity.record,
            identity.moves,
        )
        stored = unpack(record.row["pdn"])
        assert unpack_moves(record.row["moves"], stored) == " ".join(texts)  # with the text
        ps = replay.positions[: len(texts) + 1] if replay else []
        digests = [p.digest() for p in ps]
        # each digest 8 bytes, little-endian, signed; the moves as written
        assert record.digests == b"".join(d.to_bytes(8, "little", signed=True) for d in digests)
        assert record.moves == tuple(texts)
        kept = digests[1 : OPENING_PLIES_KEPT + 1]
        assert record.row["opening"] == b"".join((d + 2**63).to_bytes(8, "big") for d in kept)
        runs = runs_by_grouping(ps)
        # each run staged as signature, first position and length, 4 bytes each, little-endian
        laid = [(signature(c), f, n) for f, n, c in runs]
        assert record.material == b"".join(x.to_bytes(4, "little") for r in laid for x in r)
        if ps:  # the boards as XOR deltas give back the packing one by one (as by hand above)
            w = words(ps[0].variant)
            ((at, row),) = record.boards
            boards, turns = board_arrays(row, w)
            assert (at, boards.tobytes() + turns.tobytes()) == (gid, boards_one_by_one(ps, w))
        else:
            assert record.boards == ()
        from_start = bool(ps) and ps[0] == Position.start(ps[0].variant)
        assert record.row["from_start"] == from_start
        assert (record.row["start_fen"] is None) == (from_start or (not ps and not game.fen))
        if ps:  # where each kind stood, square n as bit (n - 1) % 63 (as by hand above)
            g = ps[0].geometry
            bits = [reduce(or_, (1 << (g.number(s) - 1) % 63 for s in g.squares
                                 if board >> s & 1), 0)
                    for board in squares_by_or(ps)]  # fmt: skip
            assert list(record.squares) == [(gid, *bits)]
        else:
            assert record.squares == ()
        assert record.row["opening_hash"] == (digests[3] if len(texts) >= 3 else None)
        assert "final_hash" not in record.row  # (schema 15: nothing read it)
        assert pickle.loads(pickle.dumps(record)) == record  # as a worker sends it (no move: ())


def test_build_record_same_on_both_cores(c_core: Core, samples: list[Pair]) -> None:
    records = {}
    for name in ("c", "python"):
        previous = use_core(name)
        try:
            records[name] = [build_record(g, r) for g, r in samples]
        finally:
            use_core(previous.name)
    assert records["c"] == records["python"]
    assert len(records["c"]) == len(samples) > 400
