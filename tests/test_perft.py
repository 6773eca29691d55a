"""Published perft counts from spec/perft.md (start positions, both duplicate modes)."""

from __future__ import annotations

import pytest

from pdn.rules.position import Duplicates, Position, perft
from pdn.rules.variants import get_variant

pytestmark = pytest.mark.usefixtures("each_core")  # every count on both cores

# variant -> counts from depth 1 (spec/perft.md, start positions)
START = {
    "international": [9, 81, 658, 4265, 27117, 167140, 1049442],
    "english": [7, 49, 302, 1469, 7361, 36768, 179740, 845931],
    "russian": [7, 49, 302, 1469, 7482, 37986, 190146],
    "brazilian": [7, 49, 302, 1469, 7473, 37628, 187302],
    "pool": [7, 49, 302, 1469, 7482, 37986, 190146],
    "italian": [7, 49, 302, 1469, 7361, 36473, 177532, 828783],
    "spanish": [7, 49, 302, 1469, 7361, 36473, 177532, 828783],
    "czech": [7, 49, 302, 1469, 7361, 36768, 179740, 845931],
    "frisian": [9, 81, 658, 3874, 21265],
    "turkish": [8, 64, 708, 7538, 85090, 931312],
}
# depths where the two counting conventions differ: (variant, depth, drop, keep)
SPLIT = [
    ("frisian", 4, 3874, 3880),
    ("frisian", 5, 21265, 21345),
    ("international", 8, 6483961, 6483971),
    ("russian", 8, 929899, 929905),
    ("brazilian", 8, 907830, 907836),
    ("pool", 8, 929896, 929902),
]
FAST_NODES = 200_000


def _cases(slow: bool) -> list[tuple[str, int, int]]:
    out = []
    for name, counts in START.items():
        for depth, count in enumerate(counts, 1):
            if (count > FAST_NODES) == slow:
                out.append((name, depth, count))
    return out


@pytest.mark.parametrize(("variant", "depth", "expected"), _cases(slow=False))
def test_start_perft(variant: str, depth: int, expected: int) -> None:
    assert perft(Position.start(get_variant(variant)), depth) == expected


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "depth", "expected"), _cases(slow=True))
def test_start_perft_deep(variant: str, depth: int, expected: int) -> None:
    assert perft(Position.start(get_variant(variant)), depth) == expected


@pytest.mark.parametrize(
    ("variant", "depth", "drop", "keep"),
    [c if c[2] <= FAST_NODES else pytest.param(*c, marks=pytest.mark.slow) for c in SPLIT],
)
def test_duplicate_modes(variant: str, depth: int, drop: int, keep: int) -> None:
    start = Position.start(get_variant(variant))
    assert perft(start, depth, Duplicates.DROP) == drop
    assert perft(start, depth, Duplicates.KEEP) == keep


def test_drop_and_keep_agree_where_the_table_says_so() -> None:
    start = Position.start(get_variant("international"))
    assert perft(start, 5, Duplicates.KEEP) == 27117
