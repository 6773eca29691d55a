"""The reader's lexer: runs of plain moves found by the kernel's plain_run (C and its pure-Python
twin) exactly where, and as far as, the one regular expression of pdn.lark's terminals finds a
PLAIN_RUN token; every token of the corpus the same either way. And the chunker: its look at
lines for comments and variations, a span of lines at a time, and the common lines of a game
added by the kernel's plain_lines (C and twin alike), every corpus file cut alike by both."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from conftest import corpus_dir, need_core
from pdn.read.chunks import ODD_SPAN, _more_odd, _odd_lines, game_chunks
from pdn.read.lines import binary_lines
from pdn.read.tokens import PLAIN_RUN, TOKEN_PATTERN, lex, token_re
from pdn.rules import pykernel as PYTHON
from pdn.rules import pyreader
from pdn.rules.position import CORES, use_core

# digits, separators and spaces, the characters around them that decide where a run ends (a
# strength mark, a letter RUN reads, a result's "/" and ":", "½"), the lexer's other spaces, an
# Arabic-Indic digit (a regular expression's \d), and characters of other tokens
ALPHABET = "0123456789-x. \n\t\r" * 4 + '1-1/:!?*(abXAL{}[]"\xa0\f\ufeff½\u0663eM;%$'
# and words: moves, move numbers, results, and what is neither, between spaces of either kind
WORDS = [
    "32-28",
    "1.",
    "12.",
    "26x17x8",
    "1-1",
    "1-10",
    "1-1x5",
    "1-0",
    "0-1",
    "1/2-1/2",
    "2-0",
    "0.5-0.5",
    "05-10",
    "12-345",
    "1..",
    "...",
    "e3-d4",
    "32-28!",
    "{c}",
    "*",
    "(",
    "1:0",
    "7",
]
SPACES = [" ", "\n", "\t", "\r\n", "  ", "\xa0", "\f", ""]


def lexer_run(text: str, pos: int) -> tuple[int, int] | None:
    """The span of the lexer's token at *pos* when it is PLAIN_RUN, else None."""
    m = token_re().search(text, pos)
    if m is None or m.start() != pos or m.lastgroup != PLAIN_RUN:
        return None
    return m.span(PLAIN_RUN)


def test_plain_run_is_the_lexers_terminal() -> None:
    assert f"(?P<PLAIN_RUN>{pyreader.PLAIN_RUN})" in TOKEN_PATTERN
    assert TOKEN_PATTERN.startswith(f"(?>(?:{pyreader.LEXER_SPACE}+)?)")


def test_plain_run_finds_the_lexers_runs_on_both_cores() -> None:
    need_core("c")
    c = CORES["c"]
    rnd = random.Random(29)
    found = 0
    for i in range(60_000):
        if i % 2:
            text = "".join(rnd.choice(ALPHABET) for _ in range(rnd.randint(0, 24)))
        else:
            text = "".join(rnd.choice(WORDS) + rnd.choice(SPACES) for _ in range(rnd.randint(0, 6)))
        pos = rnd.randint(0, len(text))
        expected = lexer_run(text, pos)
        assert PYTHON.plain_run(text, pos) == expected, (text, pos)
        assert c.plain_run(text, pos) == expected, (text, pos)
        found += expected is not None
    assert 2_000 < found < 50_000  # runs found, and runs refused


@pytest.mark.parametrize(
    ("text", "span"),
    [
        ("1. 32-28 19-23 1-0", (0, 14)),  # a result after the run: not one of its words
        ("\n 32-28 1/2-1/2", (2, 7)),
        ("32-28 1-1", (0, 5)),  # 1-1 is a result, 1-10 a move
        ("32-28 1-10", (0, 10)),
        ("32-28 e4", None),  # RUN reads on: a letter of a square
        ("32-28!", None),
        ("32-28 {good}", (0, 5)),
        ("32-28\xa019-23", (0, 5)),  # a space of the lexer's, not of the run's
        ("3\u0663-28", (0, 5)),  # \d takes any decimal digit
        ("12-345", None),
        ("", None),
    ],
)
def test_plain_run_ends(text: str, span: tuple[int, int] | None) -> None:
    assert lexer_run(text, 0) == span
    for k in CORES.values():
        assert k.plain_run(text, 0) == span


@pytest.mark.parametrize("name", ["c", "python"])
def test_the_corpus_lexes_alike(name: str) -> None:
    """Every token of every corpus file, read by lex() with the core's plain_run, is the one
    the lexer's finditer finds."""
    need_core(name)
    plain_run = CORES[name].plain_run
    runs = 0
    for path in sorted(corpus_dir().rglob("*.pdn")):
        text = path.read_bytes().decode("utf-8", "replace")
        ours = list(lex(text, plain_run))
        theirs = [(m.lastgroup, m.group(m.lastgroup), m.start(m.lastgroup), m.end())
                  for m in token_re().finditer(text) if m.lastgroup]  # fmt: skip
        assert ours == theirs, path.name
        runs += sum(kind == PLAIN_RUN for kind, _, _, _ in ours)
    assert runs > 20_000


def test_lines_with_comment_or_variation_marks_are_found_span_by_span() -> None:
    """The chunker's flags of the lines where a comment or a variation may open or close (a
    brace, a parenthesis, ";" or "%"), found ODD_SPAN lines at a time, over a file's lines."""
    path = corpus_dir() / "english" / "OCA_2.0.pdn"
    lines = path.read_bytes().split(b"\n")
    assert len(lines) > 3 * ODD_SPAN
    flags = bytearray()
    while len(flags) < len(lines):
        _more_odd(flags, lines)
    assert list(flags) == [any(c in line for c in b"{}();%") for line in lines]
    assert 0 < sum(flags) < len(lines)


# lines the chunker meets: tags (one, two on a line, unclosed), moves, results alone and at the
# end of moves, comments and variations, a lone "[", blank lines and spaces of every kind
LINES = [
    b'[Event "x"]', b'[White "a"][Black "b"]', b'[Site "y"', b"1. 11-15 23-19 2. 9-14", b"1-0",
    b"*", b"22-18 1/2-1/2", b"22-18 0-1 *", b"15-19 {a comment} 24-15", b"{open", b"close}",
    b"(9-14 22-17)", b"; a line comment", b"% escape", b"[", b"", b"  ", b"\t1-0\r", b"x1-0",
    b"\x0b*\x0c", b"12-16 2-0", b"32-28]", b"1:0 0:1",
]  # fmt: skip


def test_plain_lines_twin_and_c_agree() -> None:
    """The kernel's plain_lines and its twin add the same lines and leave the same state, from
    every state, over random runs of the lines a chunker meets, within random limits."""
    need_core("c")
    c = CORES["c"]
    rnd = random.Random(29)
    stopped = set()
    for _ in range(40_000):
        lines = [rnd.choice(LINES) for _ in range(rnd.randint(0, 12))]
        odd = _odd_lines(lines)[: rnd.randint(0, len(lines))]  # flags found so far
        state = (rnd.randint(0, len(lines)), rnd.random() < 0.5, rnd.random() < 0.5)
        size, limit = rnd.randint(0, 40), rnd.choice([30, 80, 1 << 20])
        expected = PYTHON.plain_lines(lines, odd, *state, size, limit)
        assert c.plain_lines(lines, odd, *state, size, limit) == expected, (lines, state)
        stopped.add(expected[0] - state[0] if expected[0] < len(odd) else -1)
    assert {0, 1, 2, -1} <= stopped  # runs stopped at once, after some lines, and at the end


# the results a line of moves ends with, after a space or alone on it (spec/pdn.md's results
# and the older ones the corpus writes)
GAME_END = re.compile(rb"(?:^|\s)(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|\*)$")
LONE_END = re.compile(rb"(?:1/2-1/2|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|\*)")


def test_game_end_is_the_chunkers_pattern() -> None:
    """The results at the end of a line of moves (pyreader.game_end, which the chunker and the
    kernel's plain_lines read) are those of the chunker's patterns."""
    rnd = random.Random(29)
    alphabet = b"10/2-:* \t\x0b\x0cxa"
    for _ in range(100_000):
        text = bytes(rnd.choice(alphabet) for _ in range(rnd.randint(0, 9))).strip()
        assert pyreader.game_end(text) == bool(GAME_END.search(text)), text
        assert pyreader.game_end(text, alone=True) == bool(LONE_END.fullmatch(text)), text


def test_the_corpus_is_cut_alike_on_both_cores() -> None:
    """Every corpus file cut into chunks (and with a small size limit, chunks over it) by the C
    kernel's plain_lines and by its twin: the same chunks."""
    need_core("c")

    def cut(path: Path, limit: int) -> list[tuple[object, ...]]:
        with path.open("rb") as fh:
            return [(k.lines, k.line, k.offsets, k.warnings, k.tag_start, k.too_large)
                    for k in game_chunks(binary_lines(fh, 1 << 16), 1, limit)]  # fmt: skip

    chunks = 0
    for path in sorted(p for p in corpus_dir().rglob("*") if p.suffix.lower() == ".pdn"):
        for limit in (1 << 22, 2000):
            previous = use_core("c")
            try:
                by_c = cut(path, limit)
                use_core("python")
                assert cut(path, limit) == by_c, (path.name, limit)
            finally:
                use_core(previous.name)
            chunks += len(by_c)
    assert chunks > 60_000
