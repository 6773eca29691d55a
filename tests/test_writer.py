"""PDN 3.0 writing and the read → write → read round trip (corpus and generated games)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import corpus_dir, corpus_files
from pdn.game import CommentNode, Game, MoveNode, Node, Tags
from pdn.read.movetext import make_move
from pdn.read.reader import read_games, read_string
from pdn.writer import Terminator, escape, write_game

FILES = [f for f in corpus_files() if f.expect != "error"]


def _id(f: object) -> str:
    return str(getattr(f, "path", "")).split("corpus/")[-1]


@pytest.mark.parametrize("entry", FILES, ids=_id)
def test_corpus_round_trip(entry: object) -> None:
    corpus_dir()
    for game in read_games(entry.path):  # type: ignore[attr-defined]
        if game.syntax_error is not None:
            continue
        text = write_game(game)
        again = read_string(text)
        assert again == [game], (game.source, text[:300])
        for line in text.splitlines():
            assert len(line) <= 80 or line.startswith(("[", "%")) or " " not in line, line


def test_writing_grammar_details() -> None:
    [g] = read_string(
        '[Event "say \\"hi\\""]\n[GameType "20"]\n'
        "1. 32-28 {c} 19-23 2. 28x19 (2. 37-32 $1) 14x23 1-1"
    )
    text = write_game(g)
    assert text == (
        '[Event "say \\"hi\\""]\n[GameType "20"]\n\n'
        "1. 32-28 {c} 1... 19-23 2. 28x19 (2. 37-32 $1) 2... 14x23 1-1\n"
    )
    assert write_game(g, Terminator.STAR).rstrip().endswith("14x23 *")


def test_english_numbering_starts_with_black_and_a_fen_side() -> None:
    [g] = read_string('[GameType "21"]\n1. 11-15 23-19 2. 8-11 *')
    assert "1. 11-15 23-19 2. 8-11 *" in write_game(g)
    [g] = read_string('[GameType "21"]\n[FEN "W:W23:B11"]\n1. ... 23-19 2. 11-15 *')
    assert "1... 23-19 2. 11-15 *" in write_game(g)


def test_escape() -> None:
    assert escape('a "b" \\ c') == 'a \\"b\\" \\\\ c'


# --- generated games --------------------------------------------------------------------------

_text = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cc", "Cs", "Zl", "Zp"), blacklist_characters="{}\r\n"
    ),
    max_size=30,
).map(lambda s: " ".join(s.split()))
_square = st.integers(1, 50).map(str)


@st.composite
def _move(draw: st.DrawFn, depth: int) -> MoveNode:
    squares = draw(st.lists(_square, min_size=2, max_size=4, unique=True))  # "1-1" is a result
    sep = draw(st.sampled_from(["-", "x"]))
    node = make_move(sep.join(squares), draw(st.sampled_from(["", "!", "?!", "(?)"])))
    node.nags = draw(st.lists(st.integers(1, 200), max_size=2))
    node.comments_after = draw(st.lists(_text.filter(bool), max_size=1))
    if depth < 2:
        node.variations = draw(st.lists(_line(depth + 1), max_size=1))
    return node


def _line(depth: int) -> st.SearchStrategy[list[Node]]:
    return st.lists(_move(depth), min_size=1, max_size=5)


@st.composite
def _game(draw: st.DrawFn) -> Game:
    tags = Tags()
    names = st.from_regex(r"[A-Z][A-Za-z0-9_]{0,8}", fullmatch=True)
    for name in draw(st.lists(names, max_size=4)):
        tags.add(name, draw(_text))
    body: list[Node] = []
    lead = draw(st.lists(_text.filter(bool), max_size=1))
    moves = draw(_line(0))
    first = moves[0]
    assert isinstance(first, MoveNode)
    first.comments_before = lead
    body.extend(moves)
    result = draw(st.sampled_from(["*", "1-0", "0-1", "1/2-1/2", "2-0", "1-1"]))
    return Game(tags, body, result)


@settings(max_examples=150, deadline=None)
@given(_game())
def test_generated_games_round_trip(game: Game) -> None:
    text = write_game(game)
    assert read_string(text) == [game], text


def test_comment_node_at_start_becomes_comment_before() -> None:
    game = Game(Tags(), [CommentNode("intro"), make_move("32-28")], "*")
    [again] = read_string(write_game(game))
    assert again.mainline()[0].comments_before == ["intro"]
