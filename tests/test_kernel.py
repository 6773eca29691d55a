"""The C kernel against its pure-Python twin: the same moves, counts, positions and hashes.

The published counts and rule-book cases run on both cores in test_perft.py and test_rules.py;
here random positions of every variant's rule row are held to identical results, and the corpus
is replayed on each core with identical reports.
"""

from __future__ import annotations

import hashlib
import json
import subprocess
import sys
from collections.abc import Callable, Sequence
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from typer.testing import CliRunner

from conftest import corpus_dir, need_core
from pdn.archive.validate import validate_paths
from pdn.board import one_written
from pdn.cli.app import app
from pdn.db.search import words
from pdn.mainline import square_labels
from pdn.notation import written_moves
from pdn.read.movetext import plain_moves, plain_runs
from pdn.read.reader import read_games
from pdn.rules import pykernel as PYTHON
from pdn.rules.fen import parse_fen
from pdn.rules.geometry import BLACK, WHITE, geometry
from pdn.rules.kernel import Kernel
from pdn.rules.position import CORES, Duplicates, Move, Position, core, use_core
from pdn.rules.variants import VARIANTS, Variant, get_variant

Core = Kernel[Position]  # a kernel as position.py holds it

RULE_ROWS = [*VARIANTS, *(f"{name}-nco" for name, v in VARIANTS.items() if v.width == 8)]
MODES = list(Duplicates)


@pytest.fixture(scope="module")
def c_core() -> Core:
    need_core("c")
    return CORES["c"]


@st.composite
def positions(draw: st.DrawFn, variant: Variant) -> Position:
    """A position of *variant*: about half the squares empty, kings rarer than men."""
    g = geometry(variant)
    cells = draw(st.lists(st.integers(0, 11), min_size=len(g.squares), max_size=len(g.squares)))
    boards = [0, 0, 0, 0]  # white men, white kings, black men, black kings
    for square, cell in zip(g.squares, cells, strict=True):
        if cell >= 6:
            boards[(0, 0, 2, 2, 1, 3)[cell - 6]] |= 1 << square
    turn = draw(st.sampled_from((WHITE, BLACK)))
    white_men, white_kings, black_men, black_kings = boards
    return Position(variant, white_men, white_kings, black_men, black_kings, turn)


def same(c: Core, call: Callable[..., Any]) -> Any:
    """call(c) and call(PYTHON), asserted equal; the value (call: a lambda, loop values bound as
    its defaults)."""
    ours, twin = call(c), call(PYTHON)
    assert ours == twin
    return twin


def check_position(c: Core, pos: Position) -> None:
    """Every kernel entry point gives the same answer on both cores."""
    drop = c.generate(pos, Duplicates.DROP)
    for mode in MODES:
        moves = same(c, lambda k, m=mode: k.generate(pos, m))
        same(c, lambda k, m=mode: k.captures(pos, m))
        assert same(c, lambda k, m=mode: k.count_moves(pos, m)) == len(moves)
    assert all(type(m) is Move for m in c.generate(pos, Duplicates.PATHS))
    assert same(c, lambda k: k.has_moves(pos)) == bool(moves)
    assert same(c, lambda k: k.has_captures(pos)) == bool(c.captures(pos, Duplicates.DROP))
    same(c, lambda k: k.digest(pos))
    line = [pos]
    for move in moves:  # every path, so every way a move can be written and played
        after, twin = c.play(pos, move), PYTHON.play(pos, move)
        assert (
            type(after) is Position
            and after.variant == twin.variant
            and after.geometry is pos.geometry
        )
        assert after.hash_key() == twin.hash_key()
        same(c, lambda k, p=after: k.digest(p))
        line.append(after)
    g = pos.geometry
    same(c, lambda k: k.scan(line, -(-g.size // 64), True))  # (not a game: any positions)
    names = tuple(g.label(s) if s in g.coords else "" for s in range(g.size))
    same(c, lambda k: k.move_texts([pos] * len(moves), moves, names, pos.variant.separator))
    mine = pos.pieces(pos.turn)
    pairs = {(m.path[0], m.path[-1]) for m in drop}
    for start in g.squares:
        if (mine[0] | mine[1]) >> start & 1:
            pairs |= {(start, g.squares[0]), (start, g.squares[-1])}
            for end in g.squares:
                same(c, lambda k, a=start, b=end: k.quiet_move(pos, a, b))
    for start, end in pairs:
        between = same(c, lambda k, a=start, b=end: k.moves_between(pos, a, b))
        assert between == [m for m in drop if m.path[0] == start and m.path[-1] == end]


@pytest.mark.parametrize("name", RULE_ROWS)
def test_random_positions_agree(c_core: Core, name: str) -> None:
    variant = get_variant(name)

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(positions(variant))
    def check(pos: Position) -> None:
        check_position(c_core, pos)

    check()


@pytest.mark.parametrize("name", RULE_ROWS)
def test_random_positions_perft_agree(c_core: Core, name: str) -> None:
    variant = get_variant(name)

    @settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
    @given(positions(variant), st.sampled_from(MODES))
    def check(pos: Position, mode: Duplicates) -> None:
        same(c_core, lambda k: k.perft(pos, 3, mode))

    check()


def test_games_agree_move_by_move(c_core: Core) -> None:
    """Random games from every start position, played on both cores side by side."""
    for name in RULE_ROWS:
        for seed in range(3):
            pos = Position.start(get_variant(name))
            for ply in range(120):
                moves = same(c_core, lambda k, p=pos: k.generate(p, Duplicates.DROP))
                if not moves:
                    break
                move = moves[(seed * 7919 + ply * 104729) % len(moves)]
                pos = same(c_core, lambda k, p=pos, m=move: k.play(p, m))


def _written_game(c_core: Core, name: str) -> tuple[list[Sequence[str]], list[Position]]:
    """A game of 150 plies at most, each move picked by a fixed rule among the legal ones and
    written a-b, then one never legal; the position before each written move."""
    variant = get_variant(name)
    g = geometry(variant)
    pos = Position.start(variant)
    written: list[Sequence[str]] = []
    before: list[Position] = []
    for ply in range(150):
        moves = c_core.generate(pos, Duplicates.DROP)
        if not moves:
            break
        move = moves[(ply * 104729) % len(moves)]
        written.append((g.label(move.start), g.label(move.end)))
        before.append(pos)
        pos = c_core.play(pos, move)
    written.append((g.label(g.squares[0]),) * 2)  # never legal
    before.append(pos)
    return written, before


def test_push_plain_agrees(c_core: Core) -> None:
    """Random games written a-b, played by Board.push_written's loop on both cores: the same
    records and the same stops (an a-b that fits several captures, a draw), from any ply on."""
    for name in RULE_ROWS:
        g = geometry(get_variant(name))
        written, before = _written_game(c_core, name)
        for counts, watch in (((True, 3, 8), True), ((False, 2, 1000), False)):
            i = 0
            while i < len(written):
                runs = []
                for k in (c_core, PYTHON):
                    history: dict[Any, int] = {before[i].hash_key(): 1}
                    out = k.push_plain(before[i], written, i, g._names, history, 0, watch, counts)
                    runs.append((out, history))
                assert runs[0] == runs[1]
                played, draw, records = runs[0][0][1], runs[0][0][3], runs[0][0][4]
                assert [r[1] for r in records] == before[i:played]  # the position before each
                assert all(r[3] == r[1].play(r[0]).hash_key() for r in records)
                assert not draw or watch
                assert played > i or not draw
                i = played if draw else played + 1  # past a move not played


def _never(pos: Position, squares: Sequence[str]) -> Move | None:
    return None


def test_check_plain_agrees(c_core: Core) -> None:
    """check_plain on both cores, from any ply of the random games on: the same position
    reached, plies played, quiet count and first draw (repetitions among them: Turkish men move
    sideways and back, kings shuffle), with the board's reading of the moves the loop does not
    play or without; without, the same stops as push_plain's."""
    repeated = 0
    for name in RULE_ROWS:
        g = geometry(get_variant(name))
        written, before = _written_game(c_core, name)
        for counts in ((True, 3, 8), (False, 2, 1 << 40), (False, 3, 1 << 40)):
            for i in range(0, len(written), 3):
                rest = written[i:]
                for resolve in (one_written, _never):
                    out = c_core.check_plain(before[i], rest, g._names, counts, resolve)
                    assert out == PYTHON.check_plain(before[i], rest, g._names, counts, resolve)
                pushed = c_core.push_plain(before[i], rest, 0, g._names, {}, 0, False, counts)
                assert out[:3] == pushed[:3]  # nothing watched: no draw stops the loop
                # the first draw counted over every position (the kernel looks back only to the
                # last capture or crowning): the keys after each ply, the quiet count after it
                keys = [before[i].hash_key()] + [r[3] for r in pushed[4]]
                quiets = [r[2] for r in pushed[4][1:]] + [pushed[2]]
                first = next(
                    (
                        (ply, keys[: ply + 1].count(keys[ply]))
                        for ply in range(1, len(keys))
                        if keys[: ply + 1].count(keys[ply]) >= counts[1]
                        or quiets[ply - 1] >= counts[2]
                    ),
                    (0, 0),
                )
                assert out[3:] == first
                repeated += counts[2] > 1000 and out[3] > 0
    assert repeated > 0


def test_line_rows_agrees(c_core: Core) -> None:
    """line_rows on both cores over the random games, the whole line and a part of it, with the
    board's reading of the moves the loop does not play or without: the moves check_plain plays
    (as push_plain records them), their short forms as move_texts writes them, the scan of the
    positions (digests included) and the first positions, as the board gives them; the same
    moves written as runs of plain moves (line_rows_runs) give the same."""
    ran = 0
    for name in RULE_ROWS:
        v = get_variant(name)
        g = geometry(v)
        written, before = _written_game(c_core, name)
        labels = square_labels(g)
        for count, keep in ((len(written), 8), (len(written) // 2, 200), (0, 3)):
            for resolve in (one_written, _never):
                args = (g._names, resolve, count, words(v), labels, v.separator, keep)
                out = c_core.line_rows(before[0], written, *args)
                assert out == PYTHON.line_rows(before[0], written, *args)
                if all(s.isdigit() for m in written for s in m):  # the same moves as runs
                    runs = _runs_of(written)
                    assert c_core.line_rows_runs(before[0], runs, *args) == out
                    assert PYTHON.line_rows_runs(before[0], runs, *args) == out
                    ran += 1
                plies = c_core.check_plain(before[0], written[:count], g._names, (False, 3, 80),
                                           resolve)[1]  # fmt: skip
                pushed = c_core.push_plain(before[0], written[:plies], 0, g._names, {}, 0, False,
                                           (False, 3, 80))[4]  # fmt: skip
                assert len(pushed) == plies  # (the random games' moves are plain ones)
                line = before[: plies + 1]
                texts = c_core.move_texts(line, [r[0] for r in pushed], labels, v.separator)
                assert out == (texts, *c_core.scan(line, words(v), True), line[:keep])
    start = Position.start(get_variant("english"))
    names, labels = start.geometry._names, square_labels(start.geometry)
    for k in (c_core, PYTHON):  # refused alike: no buffer sized from a word count of 2**59
        for count, w, keep in ((-1, 2, 8), (1, 2, -1), (1, 9, 8), (1, 1 << 59, 8)):
            with pytest.raises(ValueError):
                k.line_rows(start, [("11", "15")], names, one_written, count, w, labels, "x", keep)
        with pytest.raises(ValueError):
            k.scan([start], 1 << 59, False)
        with pytest.raises(ValueError):
            k.line_rows_runs(start, ["1. 11-15 a"], names, one_written, 1, 1, labels, "x", 8)
    assert ran > 30


def _runs_of(written: list[Sequence[str]]) -> list[str]:
    """Numeric moves as runs of plain moves: move numbers between them, over two runs and
    lines."""
    words = [f"{i // 2 + 1}." * (i % 2 == 0) + " " + "-".join(m) for i, m in enumerate(written)]
    half = len(words) // 2
    return ["\n".join(words[:half]), "\t".join(words[half:])]


def test_check_runs_reads_the_words_check_plain_is_given(c_core: Core) -> None:
    """check_runs on both cores: over runs of the random games' numeric moves (move numbers
    between them, split over two runs and lines) the result of check_plain over their squares,
    then the number of moves; a word that is not a move or a move number is refused alike."""
    for name in RULE_ROWS:
        g = geometry(get_variant(name))
        written, before = _written_game(c_core, name)
        if not all(s.isdigit() for m in written for s in m):
            continue  # runs hold numbers only
        runs = _runs_of(written)
        for counts in ((True, 3, 8), (False, 2, 1 << 40)):
            out = c_core.check_runs(before[0], runs, g._names, counts, one_written)
            assert out == PYTHON.check_runs(before[0], runs, g._names, counts, one_written)
            plain = c_core.check_plain(before[0], written, g._names, counts, one_written)
            assert out == (*plain, len(written))
    start = Position.start(get_variant("international"))
    names = start.geometry._names
    for runs in (["1. 32-28 a"], ["32-28 \u0663\u0662-28"], ["32-28\x0b19-23"]):
        for k in (c_core, PYTHON):
            with pytest.raises(ValueError):
                k.check_runs(start, runs, names, (False, 3, 80), one_written)
    for runs in (["05-10 32-28"], ["32x28x23"], ["32-"], ["3228"]):  # not played, alike
        out = c_core.check_runs(start, runs, names, (False, 3, 80), one_written)
        assert out == PYTHON.check_runs(start, runs, names, (False, 3, 80), one_written)
        assert out[1] == 0


def test_top_square_is_the_largest_number_check_runs_reads(c_core: Core) -> None:
    """top_square on both cores: the largest of the squares check_runs reads from runs (a word
    ending with "." a move number, the others squares joined by "-" or "x") that are digits
    alone, past 99 as 100, 0 for none; on every corpus game with runs of plain moves, the
    largest square of its plain_moves (the notation's candidates ask no more); a word
    check_runs refuses refused alike."""
    cases = [
        ([], 0), ([""], 0), (["1. 11-15 23-19 2. 8-11"], 23), (["45. 1-5"], 5),
        (["12. 32x23x14", "13. 9-13"], 32), (["1... 11-15"], 15), (["11-15."], 0),
        (["1.11-15"], 15), (["11--15"], 15), (["123-5"], 100), ([" \t\n46-41\r\n"], 46),
    ]  # fmt: skip
    for runs, top in cases:
        assert c_core.top_square(runs) == PYTHON.top_square(runs) == top, runs
    for runs in (["1. 32-28 a"], ["32-28 \u0663\u0662-28"], ["32-28\x0b19-23"]):
        for k in (c_core, PYTHON):
            with pytest.raises(ValueError):
                k.top_square(runs)
    read = 0
    for path in sorted(corpus_dir().rglob("*.pdn")):
        for game in read_games(path):
            plain, moves = plain_runs(game), plain_moves(game)
            if plain is None or moves is None:
                continue
            squares = [min(int(s), 100) for m in moves for s in m if s.isdigit()]
            assert same(c_core, lambda k, r=plain: k.top_square(r)) == max(squares, default=0)
            read += 1
    assert read > 20_000


def test_the_loop_plays_a_capture_written_with_its_whole_path(c_core: Core) -> None:
    """A capture written with its start and every landing square (PDN's full form, OCA_2.0.pdn's
    26x17x10x1 among three legal moves) is played by the kernel's loop itself on both cores, as
    the board's reading (written_moves) reads it, from a list of squares and from runs; a path
    with a landing square left out or a square it does not land on is left to resolve."""
    pos = parse_fen("W:W8,12,26,31,32:B3,6,9,14,20,22,27,28", get_variant("english"))
    g = pos.geometry
    full = ("26", "17", "10", "1")
    [move] = written_moves(pos, full)
    assert len(pos.legal_moves()) == 3 and len(move.captured) == 3
    for k in (c_core, PYTHON):
        after = k.check_plain(pos, [full], g._names, (False, 3, 80), _never)
        assert after[:2] == (pos.play(move), 1)
        assert k.check_runs(pos, ["1. 26x17x10x1"], g._names, (False, 3, 80), _never)[:2] == (
            pos.play(move), 1)  # fmt: skip
        rows = k.line_rows(
            pos, [full], g._names, _never, 1, words(pos.variant), square_labels(g), "x", 0
        )
        assert rows[0] == ["26x1"]
        for other in (("26", "10", "1"), ("26", "19", "10", "1")):
            assert k.check_plain(pos, [other], g._names, (False, 3, 80), _never)[1] == 0
        partial = k.check_plain(pos, [("26", "10", "1")], g._names, (False, 3, 80), one_written)
        assert partial[:2] == (pos.play(move), 1)  # the board's reading: landing squares in order


def test_large_boards_use_high_squares(c_core: Core) -> None:
    """Canadian squares lie past bit 128: the man on 13 (b10) takes 8 (c11), lands on the last
    row at 2 (d12), takes 9 (e11) backwards and ends on 15 (f10), still a man."""
    pos = parse_fen("W:W13:B8,9", get_variant("canadian"))
    check_position(c_core, pos)
    (move,) = c_core.generate(pos, Duplicates.DROP)
    g = pos.geometry
    assert [g.number(s) for s in move.path] == [13, 2, 15]
    assert [g.number(s) for s in move.captured] == [8, 9]
    assert not move.crowns and max(move.path) > 128


def test_turkish_depth_7_counts_every_path_as_kish_does(c_core: Core) -> None:
    """The kish crate's perft table (examples/perft.rs), the source of spec/perft.md's Turkish
    row, goes on to 10,782,382 at depth 7: the first depth where two capture paths differ only
    in their landing squares, so kish counts every path (our paths mode)."""
    start = Position.start(get_variant("turkish"))
    assert c_core.perft(start, 7, Duplicates.PATHS) == 10_782_382


def test_rule_tables_of_a_custom_geometry(c_core: Core) -> None:
    """The kernel reads a position's own geometry object, not a copy of its own."""
    v = get_variant("frisian")
    pos = Position(v, 1 << geometry(v).squares[20], 0, 1 << geometry(v).squares[30], 0, WHITE)
    check_position(c_core, pos)


def test_digest_is_the_databases_blake2b(c_core: Core) -> None:
    """Stored digests stay valid: blake2b-64 of "name:(white men, ..., turn)", on any fields."""
    v = get_variant("canadian")
    start = Position.start(v)
    text = f"canadian:{start.hash_key()}".encode()
    expected = int.from_bytes(hashlib.blake2b(text, digest_size=8).digest(), "big", signed=True)
    assert c_core.digest(start) == PYTHON.digest(start) == expected
    for odd in (Position(v, 0, 0, 0, 0, True), Position(v, 1 << 300, 0, 0, 0, BLACK)):
        assert c_core.digest(odd) == PYTHON.digest(odd)


def test_bad_positions_are_refused(c_core: Core) -> None:
    v = get_variant("english")
    ghost = next(s for s in range(geometry(v).size) if s not in geometry(v).coords)
    with pytest.raises(ValueError, match="off the board"):
        c_core.generate(Position(v, 1 << ghost, 0, 0, 0, WHITE), Duplicates.DROP)
    with pytest.raises(ValueError, match="turn"):
        c_core.generate(Position(v, 0, 0, 0, 0, 2), Duplicates.DROP)


def test_use_core_switches_and_version_says_which() -> None:
    runner = CliRunner()
    for name, title in (("python", "pure-Python core"), ("c", "C kernel")):
        need_core(name)
        previous = use_core(name)
        try:
            assert core().name == name
            assert runner.invoke(app, ["--version"]).stdout.strip().endswith(f"({title})")
        finally:
            use_core(previous.name)
    with pytest.raises(ValueError, match="no 'rust' core"):
        use_core("rust")


def test_environment_forces_the_python_core() -> None:
    code = "from pdn.rules.position import core; print(core().name)"
    run = subprocess.run(
        [sys.executable, "-c", code],
        env={"PDN_CORE": "python", "PATH": ""},
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout.strip() == "python"


@pytest.mark.slow
def test_corpus_reports_identical_on_both_cores(corpus_reports: list[dict[str, object]]) -> None:
    """Every corpus game replayed on each core: the same JSON report, game by game."""
    need_core("c")
    other = "python" if core().name == "c" else "c"
    previous = use_core(other)
    try:
        theirs = [r.as_dict() for r in validate_paths([corpus_dir()], workers=1)]
    finally:
        use_core(previous.name)
    assert len(theirs) == len(corpus_reports) > 30_000
    for ours, twin in zip(corpus_reports, theirs, strict=True):
        assert json.dumps(ours, sort_keys=True) == json.dumps(twin, sort_keys=True)
