"""The PDN reader on the real corpus and on each dialect of spec/pdn.md."""

from __future__ import annotations

import io
import re
import tempfile
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from lark import Token, Tree

from conftest import CorpusFile, corpus_dir, corpus_files, quick_spans_read, seams_held
from pdn.game import Game, GameWarning, MoveNode, Outcome, SetupNode, Tags
from pdn.read import lines
from pdn.read.movetext import plain_moves
from pdn.read.reader import (
    game_spans,
    quick_spans,
    read_file,
    read_games,
    read_string,
    span_steps,
)
from pdn.read.tokens import TOKEN_PATTERN, grammar, lark_token_pattern, token_re

OK_FILES = [f for f in corpus_files() if f.expect == "ok"]
ODD_FILES = [f for f in corpus_files() if f.expect == "odd"]


def _id(f: object) -> str:
    return str(getattr(f, "path", "")).split("corpus/")[-1]


@pytest.mark.parametrize("entry", OK_FILES, ids=_id)
def test_corpus_file_reads_with_the_listed_number_of_games(entry: object) -> None:
    corpus_dir()
    result = read_file(entry.path)  # type: ignore[attr-defined]
    assert [str(e) for e in result.errors] == []
    assert len(result.games) == entry.games  # type: ignore[attr-defined]


def test_corpus_has_files() -> None:
    corpus_dir()
    assert len(OK_FILES) > 100


def test_nested_comment_is_a_syntax_error_at_its_place(corpus: Path) -> None:
    path = corpus / "misc" / "wiegerw-FAIL-nested_comment.pdn"
    result = read_file(path)
    assert len(result.games) == 1
    [error] = result.errors
    # 1. 33-29 19-23 2. 35-30 { nested { comment } }: the comment ends at the first "}",
    # the second "}" stands in column 46 of line 1
    assert (error.line, error.column, error.game) == (1, 46, 0)
    assert error.text == "}"
    assert error.file == str(path)
    assert error.expected == ["a move", "a comment", "a variation", "a result"]
    assert str(error) == (
        f'{path}:1:46: game 1: found "}}" outside a comment; '
        "expected a move, a comment, a variation or a result"
    )


@pytest.mark.parametrize("entry", ODD_FILES, ids=_id)
def test_odd_files_read_as_their_listed_games(entry: CorpusFile) -> None:
    corpus_dir()
    games = list(read_games(entry.path))
    assert len(games) == entry.games  # SOURCES.tsv, counted by hand
    lines = entry.path.read_bytes().count(b"\n") + 1
    for n, game in enumerate(games, 1):
        if game.syntax_error is None:
            assert game.body, f"game {n}: no syntax error, yet no movetext read"
        else:
            assert 1 <= game.syntax_error.line <= lines, f"game {n}: {game.syntax_error}"


def test_cp1252_file_is_decoded_per_game(corpus: Path) -> None:
    path = corpus / "international" / "migo-Cannes_Open_Tournament_2002.pdn"
    games = read_file(path).games
    [kouame] = [g for g in games if g.black == "Kouamé"]
    assert kouame.source.encoding == "cp1252"
    data = path.read_bytes()
    bad = next(i for i in range(kouame.source.offset, len(data)) if data[i] >= 0x80)
    line = data.count(b"\n", 0, bad) + 1
    assert (
        str(kouame.warnings[0])
        == f"line {line}: not UTF-8 (byte 0x{data[bad]:02X}): this game read as cp1252"
    )
    ascii_only = [g for g in games if g.raw.isascii()]
    assert ascii_only and all(g.source.encoding == "utf-8" for g in ascii_only)
    assert not any("cp1252" in w.message for g in ascii_only for w in g.warnings)


def test_source_offset_points_at_the_first_line_of_the_game(corpus: Path) -> None:
    path = corpus / "english" / "wiegerw-gem.pdn"
    data = path.read_bytes()
    for game in read_games(path):
        line = data[game.source.offset :].split(b"\n", 1)[0]
        assert line.strip().startswith(b"["), (game.source, line)
        assert data.count(b"\n", 0, game.source.offset) + 1 == game.source.line


def test_italian_tag_names_are_aliases(corpus: Path) -> None:
    game = read_file(corpus / "italian" / "wiegerw-Campionato_Assoluto_2005.pdn").games[0]
    assert game.white == "BORGHETTI Michele"
    assert game.black == "MASCOLO Luca"
    assert game.result == "1-0"
    assert game.tags.items()[0] == ("Dati", "69° ASSOLUTO 1° TURNO")


def test_delft_result_written_as_a_move_is_the_terminator(corpus: Path) -> None:
    game = read_file(corpus / "international" / "wiegerw-FAIL-delfts.pdn").games[0]
    assert game.terminator == "4-6"
    assert game.mainline()[-1].text == "13-19"
    assert game.outcome is Outcome.SECOND


# --- dialects, each on a small text written for it ----------------------------------------


def one(text: str) -> object:
    games = read_string(text)
    assert len(games) == 1, games
    assert games[0].syntax_error is None, games[0].syntax_error
    return games[0]


def moves(text: str) -> list[str]:
    return [m.text for m in one('[Event "x"]\n' + text).mainline()]  # type: ignore[attr-defined]


def test_several_tags_on_a_line_padded_names_escapes_and_case() -> None:
    g = one('[Event  "A \\"quoted\\" name"] [white "W"]\n[Black       "B"] [Round 17]\n1. 32-28 *')
    assert g.event == 'A "quoted" name'  # type: ignore[attr-defined]
    assert g.white == "W" and g.black == "B" and g.round == "17"  # type: ignore[attr-defined]
    assert g.tags.items()[1] == ("white", "W")  # type: ignore[attr-defined]


def test_backslashes_other_than_escapes_are_kept() -> None:
    g = one('[Comment "C:\\games\\bham.xml"] *')
    assert g.tags.get("Comment") == "C:\\games\\bham.xml"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("1. 32-28 19-23 2. 28x19 14x23", ["32-28", "19-23", "28x19", "14x23"]),
        ("1.32-28 1...19-23", ["32-28", "19-23"]),
        ("01. 34-29  18-22 02. 32-28 06-11", ["34-29", "18-22", "32-28", "6-11"]),
        ("1. ... 7-12 2. 22-18", ["7-12", "22-18"]),
        ("1. c3-d4 f6-g5 2. d4:f6 e7xg5 3. a3b4", ["c3-d4", "f6-g5", "d4:f6", "e7xg5", "a3b4"]),
        ("1. C3-D4 F6-G5", ["c3-d4", "f6-g5"]),
        ("1. 26x17x10x1 12X21", ["26x17x10x1", "12x21"]),
        ("1. 1- 6 47x 9 4 x 1", ["1-6", "47x9", "4x1"]),
        ("3228 1823", ["32-28", "18-23"]),
        ("1. ed4 dc5 2. ce7", ["ed4", "dc5", "ce7"]),
        ("12-21-32-23 29-18-27", ["12-21-32-23", "29-18-27"]),
        ("41. - -", ["-", "-"]),
    ],
)
def test_move_forms(text: str, expected: list[str]) -> None:
    assert moves(text + " *") == expected


def test_squares_and_capture_marks() -> None:
    m = one("1. 26x17x10x1 *").mainline()[0]  # type: ignore[attr-defined]
    assert (m.squares, m.capture) == (["26", "17", "10", "1"], True)
    m = one("1. c3:e5 *").mainline()[0]  # type: ignore[attr-defined]
    assert (m.squares, m.capture) == (["c3", "e5"], True)


def test_strength_nags_comments_and_variations() -> None:
    g = one(
        "1.32-28!? 19-23(!?!!!) 2.28x19 $3 {good} (2.37-32 (2.33-29? {no}) 14-19) "
        "; a line comment\n 14x23 % another\n*"
    )
    m1, m2, m3, m4 = g.mainline()  # type: ignore[attr-defined]
    assert (m1.strength, m2.strength) == ("!?", "(!?!!!)")
    assert m3.nags == [3] and m3.comments_after == ["good"]
    [variation] = m3.variations
    assert [n.text for n in variation] == ["37-32", "14-19"]
    assert variation[0].variations[0][0].comments_after == ["no"]
    assert m4.comments_before == ["a line comment"]
    assert m4.comments_after == ["another"]


def test_clock_commands_stay_in_their_comment() -> None:
    g = one("1. 32-28 {[%clock w0:03:00 B0:02:58]} 19-23 *")
    assert g.mainline()[0].comments_after == ["[%clock w0:03:00 B0:02:58]"]  # type: ignore[attr-defined]


def test_setup_keeps_its_place() -> None:
    g = one('1. 32-28 19-23 /FEN "B:W28,33:B19,23"/ 2... 23x32 *')
    kinds = [type(n).__name__ for n in g.body]  # type: ignore[attr-defined]
    assert kinds == ["MoveNode", "MoveNode", "SetupNode", "MoveNode"]
    assert isinstance(g.body[2], SetupNode) and g.body[2].fen == "B:W28,33:B19,23"  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    ("result", "outcome"),
    [
        ("1-0", Outcome.FIRST),
        ("0-1", Outcome.SECOND),
        ("1/2-1/2", Outcome.DRAW),
        ("2-0", Outcome.FIRST),
        ("0-2", Outcome.SECOND),
        ("1-1", Outcome.DRAW),
        ("0-0", Outcome.UNKNOWN),
        ("1:0", Outcome.FIRST),
        ("0:1", Outcome.SECOND),
        ("1/2:1/2", Outcome.DRAW),
        ("½-½", Outcome.DRAW),
        ("0.5-0.5", Outcome.DRAW),
    ],
)
def test_result_forms_end_the_game(result: str, outcome: Outcome) -> None:
    g = one(f"1. 32-28 19-23 {result}")
    assert g.terminator == result and g.outcome is outcome  # type: ignore[attr-defined]
    assert len(g.mainline()) == 2  # type: ignore[attr-defined]


def test_one_one_is_not_the_start_of_one_ten() -> None:
    assert moves("1. 1-10 10-15 1-1") == ["1-10", "10-15"]


def test_games_end_by_result_star_or_a_new_tag_section() -> None:
    games = read_string(
        '[Event "a"]\n1. 32-28 1-0\n[Event "b"]\n1. 33-29 *\n[Event "c"]\n1. 34-30\n'
        '[Event "d"]\n1. 35-30\n1/2-1/2 1. 31-26 *'
    )
    assert [g.event for g in games] == ["a", "b", "c", "d", None]
    assert [g.terminator for g in games] == ["1-0", "*", None, "1/2-1/2", "*"]


def test_tags_only_empty_games_and_a_trailing_lone_tag() -> None:
    games = read_string('[FEN "W:W31-50:B1-20"]\n*\n\n[Event "x"]\n1. 2-0\n\n[FILENAME ""]\n')
    assert len(games) == 2
    assert games[0].fen == "W:W31-50:B1-20" and games[0].body == []
    assert games[1].terminator == "2-0" and games[1].mainline() == []


def test_a_syntax_error_costs_only_its_game() -> None:
    games = read_string('[Event "a"]\n1. 32-28 )\n\n[Event "b"]\n1. 32-28 *\n', file="t.pdn")
    assert [g.event for g in games] == ["a", "b"]
    error = games[0].syntax_error
    assert error is not None and (error.file, error.line, error.column) == ("t.pdn", 2, 10)
    assert games[1].syntax_error is None and len(games[1].mainline()) == 1


def test_move_locations_are_exact() -> None:
    g = one('[Event "x"]\n\n1. 32-28 19-23\n  2. 37-32 {c}\n 14-19 *')
    assert [(m.line, m.column) for m in g.mainline()] == [(3, 4), (3, 10), (4, 6), (5, 2)]  # type: ignore[attr-defined]


def test_junk_from_real_exports_is_skipped_with_a_warning() -> None:
    g = one('[Event "x"]\\r\n[Site "y"]\\r\n[Empty]\n1. 32-28 8-11Redoverstepped. *')
    assert g.site == "y"  # type: ignore[attr-defined]
    assert moves('[Event "x"]\\r\n1. 32-28 *') == ["32-28"]
    assert g.mainline()[-1].comments_after == ["Redoverstepped."]  # type: ignore[attr-defined]
    assert len(g.warnings) >= 3  # type: ignore[attr-defined]


def test_paren_comments_of_checkerboard() -> None:
    g = one("1. 9-13 22-18 (Nemesis was out of book (as usual) here.) 2. 11-16 *")
    assert [m.text for m in g.mainline()] == ["9-13", "22-18", "11-16"]  # type: ignore[attr-defined]
    assert g.mainline()[1].comments_after == ["Nemesis was out of book (as usual) here."]  # type: ignore[attr-defined]


@pytest.mark.parametrize(
    "data",
    [
        b'\xef\xbb\xbf[Event "bom"]\r\n1. 32-28 *\r\n',
        b'[Event "bom"]\r1. 32-28 *\r',
        b'[Event "bom"]\n1. 32-28\r\n*\n',
    ],
    ids=["utf8-bom-crlf", "cr", "mixed"],
)
def test_encodings_and_line_ends(data: bytes) -> None:
    [g] = list(read_games(io.BytesIO(data)))
    assert g.event == "bom" and [m.text for m in g.mainline()] == ["32-28"]
    assert g.mainline()[0].line == 2


def test_latin1_bytes_decode_as_cp1252() -> None:
    [g] = list(read_games(io.BytesIO(b'[White "Kouam\xe9 \x93Q\x94"]\n*\n')))
    assert g.white == "Kouamé “Q”" and g.source.encoding == "cp1252"


def _facts(game: Game) -> tuple[object, ...]:
    """Everything a read says of a game but its movetext tree."""
    src = game.source
    error = str(game.syntax_error) if game.syntax_error else None
    return (src.file, src.index, src.line, src.offset, src.encoding, game.tags.items(),
            game.terminator, game.raw, error, tuple(game.warnings), game.ply_count())  # fmt: skip


def _line_starts(data: bytes) -> dict[int, int]:
    """Byte offset of each line start -> its 1-based line number (CR, LF and CRLF end lines)."""
    starts = {0: 1}
    for number, m in enumerate(re.finditer(rb"\r\n|\r|\n", data), 2):
        starts[m.end()] = number
    return starts


def assert_one_reading_loop(source: Path | bytes) -> list[Game]:
    """Full, headers-only, select-all and selective reads agree on every game they give; offsets
    point at the start of each game's line; the main line is counted as it is built."""

    def read(**options: Any) -> list[Game]:
        return list(read_games(io.BytesIO(source) if isinstance(source, bytes) else source,
                               **options))  # fmt: skip

    full = read()
    facts = [_facts(g) for g in full]
    headers = read(headers_only=True)
    assert [_facts(g) for g in headers] == facts
    assert all(g.body == [] for g in headers)
    assert [_facts(g) for g in read(select=lambda tags: True)] == facts
    wins = read(select=lambda tags: tags.get("Result") == "1-0")
    assert [_facts(g) for g in wins] == [_facts(g) for g in full if g.tags.get("Result") == "1-0"]
    assert [g.source.index for g in full] == list(range(len(full)))
    assert all(g.ply_count() == len(g.mainline()) for g in full)
    data = source if isinstance(source, bytes) else source.read_bytes()
    starts = _line_starts(data)  # a BOM belongs to line 1
    for g in full:
        if g.source.encoding.startswith("utf-16"):
            continue
        assert starts.get(g.source.offset) == g.source.line, (g.source, g.raw[:40])
    return full


def _by_size(files: list[Any]) -> list[Any]:
    """The corpus files, those over 1 MB behind the slow marker."""
    return [
        pytest.param(f, marks=[pytest.mark.slow] if f.path.stat().st_size > 1 << 20 else [])
        for f in files
    ]


@pytest.mark.parametrize("entry", _by_size(corpus_files()), ids=_id)
def test_corpus_reads_agree_whatever_is_kept(entry: object) -> None:
    corpus_dir()
    assert_one_reading_loop(entry.path)  # type: ignore[attr-defined]


def _parsed(tree: Tree[Token]) -> list[tuple[str, str]]:
    """The tokens of a Lark parse tree in order, a variation as "(" ... ")"."""
    out: list[tuple[str, str]] = []
    for child in tree.children:
        if isinstance(child, Token):
            out.append((child.type, str(child)))
        elif child.data == "variation":
            out += [("LPAR", "("), *_parsed(child), ("RPAR", ")")]
        else:
            out += _parsed(child)
    return out


@pytest.mark.parametrize("entry", _by_size(corpus_files()), ids=_id)
def test_the_reader_lexes_each_game_as_the_grammar_parses_it(entry: object) -> None:
    corpus_dir()
    for game in read_games(entry.path):  # type: ignore[attr-defined]
        if game.syntax_error is None:
            ours = [(m.lastgroup, m.group(m.lastgroup or 0)) for m in token_re().finditer(game.raw)]
            assert ours == _parsed(grammar().parse(game.raw)), game.source


def test_headers_only_keeps_a_last_game_whose_only_tag_stands_alone() -> None:
    text = b'[Event "a"]\n1. 32-28 *\n\n[Event "b"]\n1. 33-29 19-23\n'
    games = assert_one_reading_loop(text)
    assert [(g.event, g.ply_count()) for g in games] == [("a", 1), ("b", 2)]


def test_two_untagged_games_of_a_chunk_are_two_games() -> None:
    text = b'[Event "a"]\n1. 32-28 1-0\n1. 33-29 0-1 1. 34-30 *\n'
    games = assert_one_reading_loop(text)
    assert [(g.event, g.terminator, g.source.line) for g in games] == [
        ("a", "1-0", 1), (None, "0-1", 3), (None, "*", 3)]  # fmt: skip
    # the third game starts mid-line: its offset is that of its line
    assert games[2].source.offset == text.index(b"1. 33-29")


def test_select_yields_only_the_games_it_accepts_with_their_own_indexes() -> None:
    text = b'[Result "1-0"]\n1. 32-28 1-0\n[Result "0-1"]\n1. 33-29 0-1\n[Result "1-0"]\n1-0\n'
    chosen = list(read_games(io.BytesIO(text), select=lambda t: t.get("Result") == "1-0"))
    found = [(g.source.index, g.source.line, g.ply_count()) for g in chosen]
    assert found == [(0, 1, 1), (2, 5, 0)]


def test_the_second_game_of_a_line_has_its_own_offset() -> None:
    text = b'[Event "a"]\r\n1. 32-28 0-1[Event "b"]\r\n1. 33-29 *\r\n'
    a, b = assert_one_reading_loop(text)
    assert (a.source.offset, b.source.line, b.source.offset) == (0, 2, 13)
    assert b.event == "b" and b.raw == '[Event "b"]\n1. 33-29 *'


# -- generated files: every reading agrees -----------------------------------------------------

_NAMES = st.sampled_from(["Event", "Site", "White", "Black", "Result", "Round", "GameType", "fen"])
_VALUE = st.text(st.characters(codec="utf-8", exclude_characters='"[]\\\r\n'), max_size=12)
_WORD = st.text(st.sampled_from("abcdefgh xyz.,!?"), min_size=1, max_size=15)


@st.composite
def _movetext(draw: st.DrawFn, depth: int = 0) -> str:
    parts: list[str] = []
    for i in range(draw(st.integers(0, 8))):
        kind = draw(st.sampled_from(
            ["move", "move", "move", "number", "comment", "nag", "line", "variation", "junk"]
        ))  # fmt: skip
        if kind == "move":
            a, b = draw(st.integers(1, 50)), draw(st.integers(1, 50))
            mark = draw(st.sampled_from(["", "!", "?!"]))
            parts.append(f"{a}{draw(st.sampled_from('-x'))}{b}{mark}")
        elif kind == "number":
            parts.append(f"{i + 1}{draw(st.sampled_from(['.', '...', '. ...']))}")
        elif kind == "comment":
            parts.append("{" + draw(_WORD) + draw(st.sampled_from(["", "\n", "\n\n"])) + "}")
        elif kind == "nag":
            parts.append(f"${draw(st.integers(1, 200))}")
        elif kind == "line":
            parts.append(f"% {draw(_WORD)}\n")
        elif kind == "variation" and depth < 3:
            parts.append("(" + draw(_movetext(depth + 1)) + ")")
        elif kind == "junk":
            parts.append(draw(_WORD))
    return draw(st.sampled_from([" ", "\n"])).join(parts)


@st.composite
def _pdn_file(draw: st.DrawFn) -> bytes:
    blocks = []
    for _ in range(draw(st.integers(0, 5))):
        kind = draw(st.sampled_from(["game", "game", "game", "untagged", "junk", "lone"]))
        if kind == "junk":
            blocks.append(draw(_WORD))
            continue
        if kind == "lone":
            blocks.append(f'[{draw(_NAMES)} "{draw(_VALUE)}"]')
            continue
        tags = [f'[{draw(_NAMES)} "{draw(_VALUE)}"]' for _ in range(draw(st.integers(1, 4)))]
        head = draw(st.sampled_from(["\n", " "])).join(tags) if kind == "game" else ""
        end = draw(st.sampled_from(["", " *", " 1-0", "\n0-1", " 2-0", " 1/2-1/2"]))
        blocks.append((head + "\n" if head else "1. 32-28 ") + draw(_movetext()) + end)
    eol = draw(st.sampled_from(["\n", "\r\n", "\r"]))
    gap = draw(st.sampled_from(["\n", "\n\n", " "]))
    return (gap.join(blocks) + "\n").replace("\n", eol).encode("utf-8")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pdn_file())
def test_generated_files_read_alike_whatever_is_kept(data: bytes) -> None:
    games = assert_one_reading_loop(data)
    text = data.decode("utf-8").replace("\r\n", "\n").replace("\r", "\n")
    assert all(g.raw in text for g in games)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pdn_file(), st.booleans())
def test_a_string_reads_as_a_stream_of_it(data: bytes, bom: bool) -> None:
    """read_string cuts a text without CR into lines at once, one with CR line by line: the
    games are those of io.StringIO(text) either way."""
    text = ("\ufeff" if bom else "") + data.decode("utf-8")
    stream = io.StringIO(text)
    stream.name = "<string>"
    games = read_string(text)
    assert [_facts(g) for g in games] == [_facts(g) for g in read_games(stream)]
    assert games == list(read_games(io.StringIO(text)))  # the movetext trees too


def test_move_node_keeps_raw_text() -> None:
    m = one("1. 01 - 06 *").mainline()[0]  # type: ignore[attr-defined]
    assert isinstance(m, MoveNode) and m.text == "1-6" and m.raw == "01 - 06"


def test_each_game_keeps_its_raw_text() -> None:
    games = read_string(
        '[Event "a"]\n1. 32-28 (33-29) 19-23 1-0 {after}\n[Event "b"]\n1. 31-27 (32-28)\n\n'
        '[Event "c"]\n1. 31-27 (a b) *\n'
    )
    assert [g.raw for g in games] == [
        '[Event "a"]\n1. 32-28 (33-29) 19-23 1-0 {after}',
        '[Event "b"]\n1. 31-27 (32-28)',
        '[Event "c"]\n1. 31-27 (a b) *',
    ]
    assert games[2].syntax_error is not None  # a broken last game is never dropped


def test_result_meaning_follows_the_first_player_convention() -> None:
    [english] = read_string('[GameType "21"]\n[Result "1-0"]\n1. 11-15 1-0')
    assert english.outcome is Outcome.FIRST and english.winner("B") == "black"
    [international] = read_string('[GameType "20"]\n[Result "0-2"]\n1. 32-28 0-2')
    assert international.winner("W") == "black"
    [draw] = read_string("1. 32-28 1-1")
    assert draw.winner("W") is None and draw.outcome is Outcome.DRAW


# -- lines: blocks, line ends, the size limit --------------------------------------------------


@settings(max_examples=300, deadline=None)
@given(
    st.binary(max_size=40).map(lambda b: bytes(b"ab\r\n"[x % 4] for x in b)),
    st.sampled_from([1, 2, 3, 7, 1 << 20]),
    st.sampled_from(["utf-8", "utf-16-le", "utf-16-be"]),
)
def test_lines_are_cut_alike_whatever_the_blocks(data: bytes, block: int, encoding: str) -> None:
    """CR, LF and CRLF end lines, also where a block boundary cuts them; offsets are those of
    the file; a line over the limit (3 characters here) gives its size, not its bytes."""
    expected, pos = [], 0
    for m in re.finditer(rb"\r\n|\r|\n", data):
        expected.append((pos, data[pos : m.start()]))
        pos = m.end()
    if pos < len(data):
        expected.append((pos, data[pos:]))
    width = 1 if encoding == "utf-8" else 2
    raw = (
        data if encoding == "utf-8" else "\ufeff".encode(encoding) + data.decode().encode(encoding)
    )
    bom = 0 if encoding == "utf-8" else 2
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(lines, "BLOCK", block)
        batches = list(lines.binary_lines(io.BytesIO(raw), 3 * width, encoding=encoding))
    got = [
        line
        for starts, texts, size in batches
        for line in ([(starts[0], size)] if size else zip(starts, texts, strict=True))
    ]
    assert got == [(bom + o * width, d if len(d) <= 3 else len(d) * width) for o, d in expected]
    assert all(len(starts) == 1 and not texts for starts, texts, size in batches if size)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pdn_file(), st.integers(2, 6), st.integers(0, 3))
def test_spans_of_a_file_give_the_games_of_the_whole_file(
    data: bytes, parts: int, finer: int
) -> None:
    """Worker processes read spans of whole games: together they give what one read gives."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.pdn"
        path.write_bytes(data * 8)  # longer, for several spans
        whole = [_facts(g)[2:] for g in read_games(path)]
        spans = game_spans(path, parts, max_game_bytes=1 << 20, finer=finer)
        assert spans[0].start == 0 and spans[-1].end == len(data) * 8
        assert all(a.end == b.start for a, b in pairwise(spans))
        pieces = [_facts(g)[2:] for s in spans for g in read_games(path, span=s)]
    assert pieces == whole


@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_pdn_file(), st.integers(2, 6), st.integers(0, 3))
def test_quick_spans_read_on_past_their_ends_give_the_whole_file(
    data: bytes, parts: int, finer: int
) -> None:
    """Spans cut without reading the games, each read with its games numbered from 0 and on
    past a guessed end to where a span may start; the spans that read passed over left out,
    the one it ended in read from there, and counted on from the spans before, they give what
    one read gives."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.pdn"
        path.write_bytes(data * 8)
        whole = [_facts(g)[1:] for g in read_games(path, max_game_bytes=1 << 20)]
        spans = quick_spans(path, parts, finer=finer)
        assert spans[0].start == 0 and spans[-1].end == len(data) * 8
        assert all(a.end == b.start for a, b in pairwise(spans))
        assert [_facts(g)[1:] for g in quick_spans_read(path, spans)] == whole


def test_the_last_parts_of_a_file_are_cut_finer() -> None:
    """With workers, a file's last spans are a quarter of the others, so that the workers that
    take them in turn end nearly together."""
    # a whole step until it would run past the last two parts' bytes (800 on), then a quarter
    steps = [span_steps(1000, 10, 2)(at) for at in (0, 700, 750, 799, 800, 999)]
    assert steps == [100, 100, 50, 25, 25, 25]
    game = '[Event "g{n:03}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'  # 50 bytes
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.pdn"
        path.write_text("".join(game.format(n=n) for n in range(400)))  # 20,000 bytes
        # steps of 2,500 bytes up to 15,000, then of 625; a cut is at a game's start, at the
        # step (game_spans) or at the first game starting after the line the step falls in
        fine = [s.end - s.start for s in game_spans(path, 8, finer=2)]
        assert fine == [2500] * 6 + [650] * 7 + [450]
        quick = [s.end - s.start for s in quick_spans(path, 8, finer=2)]
        assert quick == [2550] * 5 + [2300] + [650] * 7 + [400]  # 12,750 + 2,250: 15,050
        assert len(quick_spans(path, 8)) == len(game_spans(path, 8)) == 8


def test_spans_counted_in_a_file_that_grew_stop_where_it_was_sized() -> None:
    game = '[Event "g{n:03}"]\n[Result "1-0"]\n1. 32-28 19-23 1-0\n\n'  # 50 bytes
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.pdn"
        path.write_text("".join(game.format(n=n) for n in range(400)))  # sized at 10,000
        spans = game_spans(path, 8, upto=10_000)
        assert spans[-1].end == 10_000 and all(s.start < s.end for s in spans)
        events = [g.event for s in spans for g in read_games(path, span=s)]
        assert events == [f"g{n:03}" for n in range(200)]


def test_a_seam_in_a_comment_moves() -> None:
    """A tag pair's line inside a comment of many lines looks like a game's start to the quick
    cut; the read of the span before it goes on to the next game's start and says so."""
    note = "{a note of many lines\n" + "more of it\n" * 8 + '[Event "in it"]\n}'
    game = '[Event "g{n}"]\n[Result "1-0"]\n1. 32-28 19-23 {note} 1-0\n\n'
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "g.pdn"
        path.write_text("".join(game.format(n=n, note=note) for n in range(200)))
        spans = quick_spans(path, 12)
        assert len(spans) == 12 and False in seams_held(path, spans)
        games = quick_spans_read(path, spans)
        assert [g.event for g in games] == [f"g{n}" for n in range(200)]
        assert [_facts(g)[1:] for g in games] == [_facts(g)[1:] for g in read_games(path)]


def test_warnings_are_records_with_their_place() -> None:
    games = read_string('[Event "x"]\n1. 32-28 $1 (19-23) 8-11Redo. *\n[Empty]\n[Round 17]\n1-0')
    [g] = games
    assert g.warnings == [
        GameWarning(2, 25, "junk 'Redo.' skipped"),
        GameWarning(3, 1, 'text outside any game skipped: "[Empty]\\n[Round 17]\\n1-0"'),
    ]
    assert [str(w) for w in g.warnings] == [
        "line 2:25: junk 'Redo.' skipped",
        'line 3:1: text outside any game skipped: "[Empty]\\n[Round 17]\\n1-0"',
    ]
    assert str(GameWarning(7, None, "x")) == "line 7: x"


def test_an_unquoted_tag_joins_the_game_that_follows_it() -> None:
    [g] = read_string("[Round 17] [Empty]\n1. 32-28 *")
    assert g.round == "17" and g.raw == "[Round 17] [Empty]\n1. 32-28 *"
    assert g.warnings == [GameWarning(1, None, "pseudo-tag [Empty] skipped")]


def test_plain_moves_are_the_main_lines_squares() -> None:
    text = (
        '[Event "a"]\n1. 32-28 19-23 2. 28x19 14x23 {a comment} 3. 33-29! 1923 1/2-1/2\n\n'
        '[Event "b"]\n1. 11-15 (1. 9-13) 23-19 *\n\n'
        '[Event "c"]\n1. 11-15 22-18 2. - 8-11 *\n\n'
        '[Event "d"]\n1. 11-15 /FEN "B:W21:B1"/ 1-5 *\n\n'
        '[Event "e"]\n1. cd4 fe5 2. d4xf6 g7xe5 *\n\n'
        '[Event "f"]\n[Result "4-6"]\n1. 32-28 19-23 4-6\n'
    )
    games = read_string(text)
    found = [plain_moves(g) for g in games]
    assert found[0] == [("32", "28"), ("19", "23"), ("28", "19"), ("14", "23"), ["33", "29"],
                        ["19", "23"]]  # fmt: skip
    assert found[1:4] == [None, None, None]  # a variation, an unknown move, a setup
    assert found[4] == [["c", "d4"], ["f", "e5"], ["d4", "f6"], ["g7", "e5"]]
    assert found[5] == [("32", "28"), ("19", "23")]  # the Delft result 4-6 is not a move
    for game, moves in zip(games, found, strict=True):
        squares = [n.squares for n in game.mainline()]  # builds the tree: then None
        assert moves is None or [list(m) for m in moves] == squares
        assert plain_moves(game) is None


@pytest.mark.slow
def test_plain_moves_on_the_corpus() -> None:
    corpus = corpus_dir()
    plain = 0
    for path in sorted(corpus.rglob("*.pdn")):
        for game in read_games(path):
            moves = plain_moves(game)
            if moves is not None:
                plain += 1
                assert [list(m) for m in moves] == [n.squares for n in game.mainline()]
    assert plain > 20_000


def test_the_token_pattern_is_what_lark_makes_of_the_grammar() -> None:
    assert lark_token_pattern() == TOKEN_PATTERN


def test_moves_of_a_plain_run_are_located() -> None:
    # a run of numbers and moves joined by - or x, over two lines, after a comment
    [game] = read_string('[Event "a"]\n{start} 1. 32-28 19-23\n2. 28x19 14x23x32 *')
    found = [(n.text, n.squares, n.capture, n.line, n.column) for n in game.mainline()]
    assert found == [
        ("32-28", ["32", "28"], False, 2, 12),
        ("19-23", ["19", "23"], False, 2, 18),
        ("28x19", ["28", "19"], True, 3, 4),
        ("14x23x32", ["14", "23", "32"], True, 3, 10),
    ]
    assert game.mainline()[0].comments_before == ["start"]


# the chunk scanner's short path: each case has a line on each side of its condition
_CUTS = {
    # a tag line after movetext starts a game: a tag pair alone on its line, and two tags
    '[Event "a"]\n1. 32-28 19-23\n[Event "b"]\n1. 33-29 *':
        ['[Event "a"]\n1. 32-28 19-23', '[Event "b"]\n1. 33-29 *'],
    '[Event "a"]\n1. 32-28 19-23\n[Event "b"] [Site "c"]\n1. 33-29 *':
        ['[Event "a"]\n1. 32-28 19-23', '[Event "b"] [Site "c"]\n1. 33-29 *'],
    # moves after a game's end start a game, with a comment or without; a lone end does not
    '[Event "a"]\n1. 32-28 1-0\n1. 33-29 *': ['[Event "a"]\n1. 32-28 1-0', "1. 33-29 *"],
    '[Event "a"]\n1. 32-28 1-0\n1. 33-29 {c} *': ['[Event "a"]\n1. 32-28 1-0', "1. 33-29 {c} *"],
    '[Event "a"]\n1. 32-28 1-0\n*\n': ['[Event "a"]\n1. 32-28 1-0\n*'],
    # a result in a variation left open on an earlier line ends no game (it is an error)
    '[Event "a"]\n1. 32-28 (19-23\n1. 33-29 1-0\n28x19) *':
        ['[Event "a"]\n1. 32-28 (19-23\n1. 33-29 1-0\n28x19) *'],
    # a tag line in a comment left open on an earlier line is the comment's
    '[Event "a"]\n1. 32-28 {open\n[Event "b"]\n} 19-23 *':
        ['[Event "a"]\n1. 32-28 {open\n[Event "b"]\n} 19-23 *'],
}  # fmt: skip


@pytest.mark.parametrize("text", _CUTS)
def test_common_lines_cut_games_as_the_others(text: str) -> None:
    assert [g.raw for g in read_string(text)] == _CUTS[text]


def test_common_lines_over_the_limit_are_counted_line_by_line() -> None:
    text = '[Event "a"]\n' + "1. 32-28 19-23\n" * 10 + "*\n\n" + '[Event "b"]\n1. 33-29 *\n'
    big, small = read_games(io.BytesIO(text.encode()), max_game_bytes=100)
    # 12 bytes of tag line, 10 lines of 15, "*" and the blank line, each with its line end
    message = "game too large: 165 bytes before the next game, over the limit of 100"
    assert big.syntax_error is not None and message in big.syntax_error.message
    assert big.tags.items() == [("Event", "a")]  # its tag section is kept
    assert small.raw == '[Event "b"]\n1. 33-29 *' and small.syntax_error is None


def test_tags_extended_after_a_lookup_are_found() -> None:
    tags = Tags()
    tags.extend([("Event", "a")])
    assert tags.get("Site") is None
    tags.extend([("Site", "b"), ("Event", "c")])
    assert (tags.get("Site"), tags.get("Event"), len(tags)) == ("b", "a", 3)
