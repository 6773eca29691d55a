"""Material and pattern specs: parsing, and matching on positions worked out by hand."""

from __future__ import annotations

import pytest

from pdn import Position, get_variant, parse_fen, read_string
from pdn.archive.selection import (
    ANY,
    Count,
    Material,
    MaterialRun,
    SpecError,
    has_material,
    longest_stand,
    material_runs,
    parse_material,
    parse_pattern,
    reaches_pattern,
)
from pdn.replay import replay_game

# English: Black (men on 1-12) moves first. 15x22 takes the white man on 18, 25x18 the black
# man on 22: White loses a man at ply 3, Black at ply 4.
EXCHANGE = '[GameType "21"]\n1. 11-15 22-18 2. 15x22 25x18 *\n'


def positions(text: str) -> list[Position]:
    return replay_game(read_string(text)[0]).positions


def test_material_spec_forms() -> None:
    exact = Count
    assert parse_material("W:3K1,B:1K") == Material(exact(3, 3), exact(1, 1), exact(0, 0),
                                                    exact(1, 1))  # fmt: skip
    assert parse_material("B:K2") == Material(ANY, ANY, exact(0, 0), exact(2, 2))
    assert parse_material("w: 5") == Material(exact(5, 5), exact(0, 0), ANY, ANY)
    assert parse_material("W:2-4K*, b:3+k0") == Material(
        exact(2, 4), ANY, Count(3, None), exact(0, 0)
    )
    assert parse_material("W:*K1+") == Material(ANY, Count(1, None), ANY, ANY)


@pytest.mark.parametrize(
    "bad", ["", "W3", "X:3", "W:3,W:4", "W:3Q", "W:5-3", "W:K", "W:3K1K", "W:3;B:1"]
)
def test_material_spec_errors(bad: str) -> None:
    with pytest.raises(SpecError):
        parse_material(bad)


def test_material_runs_of_an_exchange() -> None:
    runs = material_runs(positions(EXCHANGE))
    # counts: white men, white kings, black men, black kings
    assert runs == [
        MaterialRun(0, 3, (12, 0, 12, 0)),
        MaterialRun(3, 1, (11, 0, 12, 0)),
        MaterialRun(4, 1, (11, 0, 11, 0)),
    ]


def test_material_stands_for_plies() -> None:
    runs = material_runs(positions(EXCHANGE))
    even = parse_material("W:11,B:11")
    assert has_material(runs, even) and not has_material(runs, even, plies=2)
    assert longest_stand(runs, parse_material("W:12,B:12")) == 3
    # a range spans runs: 11 or 12 men each, all five positions
    assert longest_stand(runs, parse_material("W:11-12,B:11-12")) == 5
    assert has_material(runs, parse_material("W:11+"), 5)
    assert not has_material(runs, parse_material("W:11+"), 6)
    assert not has_material(runs, parse_material("W:11K1"))


def test_kings_counted() -> None:
    pos = parse_fen("W:W18,K3:BK29,K30", get_variant("english"))
    assert pos.counts() == (1, 1, 0, 2)
    assert parse_material("W:1K1,B:2K").matches(pos.counts())
    assert not parse_material("W:1K1,B:1K").matches(pos.counts())


def test_pattern_on_start_position() -> None:
    start = Position.start(get_variant("international"))
    fits = {
        "W31-50:B1-20": True,
        "W:W31": True,  # White moves first
        "B:W31": False,
        "E21-30": True,
        "E20": False,
        "WK31": False,  # a man, not a king
        "W*31": True,
        "B*5,K6": False,
        "W:W33:B18:E28": True,
    }
    for text, expected in fits.items():
        masks = parse_pattern(text).compile(start.variant)
        assert masks is not None and masks.matches(start) is expected, text


@pytest.mark.parametrize("bad", ["", "W", "X12", "WQ12", "W12-10", "EK12", "Wa1-c3", "W12-c3"])
def test_pattern_errors(bad: str) -> None:
    with pytest.raises(SpecError):
        parse_pattern(bad)


def test_pattern_square_off_the_board() -> None:
    english = get_variant("english")
    assert parse_pattern("W45").compile(english) is None
    # a square asked for twice: no position of the board fits it, and naming the board for it
    # is a usage error
    assert parse_pattern("W12:B12").compile(english) is None
    with pytest.raises(SpecError, match="asks for two things on one square"):
        parse_pattern("W12:B12").check(english)


def test_pattern_reached_in_a_game() -> None:
    line = positions(EXCHANGE)
    # after 15x22 a black man stands on 22 and White is to move; 25x18 takes it
    assert reaches_pattern(line, parse_pattern("W:B22"))
    assert not reaches_pattern(line, parse_pattern("B:B22"))
    assert not reaches_pattern(line, parse_pattern("W18:B22"))
    assert reaches_pattern(line, parse_pattern("W18:E22,25"))


def test_pattern_algebraic_squares() -> None:
    start = Position.start(get_variant("russian"))
    assert parse_pattern("Wa1,c3:Bh8:Ed4").compile(start.variant).matches(start)  # type: ignore[union-attr]
