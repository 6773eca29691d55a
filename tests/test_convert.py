"""Square numbering of every variant against the published maps (spec/pdn.md §6), and converting
archives between notations and formats."""

from __future__ import annotations

import json
from collections.abc import Iterable
from itertools import islice
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import corpus_dir, corpus_files
from pdn.archive.convert import (
    Captures,
    GameTypeForm,
    ResultStyle,
    Separator,
    Style,
    _Converter,
    convert_paths,
    converted_text,
)
from pdn.cli.app import app
from pdn.game import Game
from pdn.read.movetext import plain_runs
from pdn.read.reader import read_games, read_string
from pdn.replay import replay_game
from pdn.rules.geometry import geometry
from pdn.rules.position import Position
from pdn.rules.variants import Notation, get_variant

SAMPLES = Path(__file__).resolve().parents[1] / "samples"

# number -> algebraic name (White's view, a1 bottom left), as spec/pdn.md §6 and §3.2 give them
MAPS = {
    "international": {1: "b10", 5: "j10", 46: "a1", 50: "i1"},
    "frisian": {1: "b10", 5: "j10", 46: "a1", 50: "i1"},
    "english": {1: "b8", 4: "h8", 5: "a7", 29: "a1", 32: "g1"},
    "pool": {1: "b8", 4: "h8", 5: "a7", 29: "a1", 32: "g1"},
    "russian": {1: "b8", 4: "h8", 5: "a7", 29: "a1", 32: "g1"},
    "italian": {1: "a8", 4: "g8", 5: "b7", 29: "b1", 32: "h1"},
    "spanish": {1: "h1", 2: "f1", 4: "b1", 5: "g2", 8: "a2", 29: "g8", 32: "a8"},
    "portuguese": {1: "h1", 2: "f1", 4: "b1", 5: "g2", 8: "a2", 29: "g8", 32: "a8"},
    "canadian": {1: "b12", 6: "l12", 67: "a1", 72: "k1"},
    "thai": {1: "g1", 4: "a1", 5: "h2", 29: "h8", 32: "b8"},
}
# who stands where at the start (spec/pdn.md §3.2)
START = {
    "international": ("31-50", "1-20"),
    "english": ("21-32", "1-12"),
    "italian": ("21-32", "1-12"),
    "spanish": ("1-12", "21-32"),
    "canadian": ("43-72", "1-30"),
    "thai": ("1-8", "25-32"),
}


@pytest.mark.parametrize("variant", sorted(MAPS))
def test_square_numbers_match_the_published_maps(variant: str) -> None:
    g = geometry(get_variant(variant))
    for number, name in MAPS[variant].items():
        square = g.parse_square(str(number))
        assert g.algebraic(square) == name, (variant, number)
        assert g.number(g.parse_square(name)) == number


@pytest.mark.parametrize("variant", sorted(START))
def test_start_positions_stand_on_the_published_numbers(variant: str) -> None:
    v = get_variant(variant)
    pos = Position.start(v)
    g = pos.geometry

    def numbers(bits: int) -> list[int]:
        return sorted(g.number(s) for s in g.squares if bits >> s & 1)

    def span(text: str) -> list[int]:
        lo, hi = map(int, text.split("-"))
        return list(range(lo, hi + 1))

    white, black = START[variant]
    assert numbers(pos.white_men) == span(white)
    assert numbers(pos.black_men) == span(black)


def convert(paths: list[Path], style: Style, to: str = "pdn") -> str:
    return "".join(piece for piece, _ in convert_paths(paths, to, style) if piece is not None)


def test_russian_algebraic_to_numeric_and_back(tmp_path: Path) -> None:
    path = SAMPLES / "russian-computers-moscow-1998.pdn"
    numeric = convert([path], Style(squares=Notation.NUMERIC))
    # the first game opens g3-f4 f6-e5: on the numeric 8x8 board g3 = 24, f4 = 19, f6 = 11, e5 = 15
    assert "1. 24-19 11-15" in numeric
    there = tmp_path / "numeric.pdn"
    there.write_text(numeric, encoding="utf-8")
    assert convert([there], Style(squares=Notation.ALGEBRAIC)) == convert([path], Style())


def test_capture_forms_and_separator(tmp_path: Path) -> None:
    pdn = '[GameType "20"]\n[FEN "W:WK47:B14,19,29,31,42"]\n1. 47x38x24x13x36 *\n'
    path = tmp_path / "cap.pdn"
    path.write_text(pdn, encoding="utf-8")
    assert "1. 47x38x24x13x36 *" in convert([path], Style())  # ambiguous: long form needed
    assert "1. 47:38:24:13:36 *" in convert([path], Style(separator=Separator.COLON))
    full = convert([path], Style(captures=Captures.FULL))
    assert "1. 47x" in full and full.count("x") == 4


def test_result_style_and_gametype() -> None:
    path = SAMPLES / "english-oca-first20.pdn"
    text = convert(
        [path], Style(result_style=ResultStyle.INTERNATIONAL, gametype=GameTypeForm.LONG)
    )
    [first, *_] = read_string(text)
    assert first.tags.get("GameType") == "21,B,8,8,N1,0"
    assert first.tags.get("Result") == "0-2" and first.terminator == "0-2"


def test_json_and_csv() -> None:
    path = SAMPLES / "english-oca-first20.pdn"
    first = json.loads(convert([path], Style(), "json").splitlines()[0])
    assert first["variant"] == "english" and first["index"] == 1
    assert first["moves"][0] == {
        "ply": 1, "text": "11-15", "path": ["11", "15"], "captured": [], "crowns": False,
        "fen": "W:W21,22,23,24,25,26,27,28,29,30,31,32:B1,2,3,4,5,6,7,8,9,10,12,15",
    }  # fmt: skip
    # 22. ... 26x17x10x1: White's last move takes three men and crowns on 1
    assert first["moves"][-1]["captured"] == ["22", "14", "6"]
    assert first["moves"][-1]["crowns"] is True
    lines = convert([path], Style(), "csv").splitlines()
    assert lines[0].startswith("file,index,white,black,event,date,result,variant,ply,move")
    assert len(lines) == 1 + sum(len(g.mainline()) for g in read_string(path.read_text()))


def test_games_that_do_not_replay_are_kept_with_a_warning(tmp_path: Path) -> None:
    path = tmp_path / "mixed.pdn"
    path.write_text('[GameType "21"]\n1. 11-15 12-17 *\n\n[GameType "21"]\n1. 9-13 *\n')
    result = CliRunner().invoke(app, ["convert", str(path), "--squares", "algebraic"])
    assert result.exit_code == 0
    assert '[GameType "21"]\n1. 11-15 12-17 *' in result.stdout  # unchanged
    assert "1. b6-a5 *" in result.stdout  # 9-13 is b6-a5
    assert "game 1: kept as written" in result.stderr


@pytest.mark.slow
@pytest.mark.parametrize(
    "entry", [f for f in corpus_files() if f.expect == "ok"], ids=lambda f: f.path.name
)
def test_corpus_round_trip_through_the_other_notation(entry: object, tmp_path: Path) -> None:
    corpus_dir()
    path = entry.path  # type: ignore[attr-defined]
    direct = convert([path], Style())
    algebraic = entry.variant in ("russian", "brazilian", "czech")  # type: ignore[attr-defined]
    other = Notation.NUMERIC if algebraic else Notation.ALGEBRAIC
    there = tmp_path / f"{other.value}.pdn"
    there.write_text(convert([path], Style(squares=other)), encoding="utf-8")
    assert convert([there], Style()) == direct


def test_a_game_without_gametype_is_numbered_as_its_variant_moves(tmp_path: Path) -> None:
    """An English game read without a GameType tag (the file's variant guessed) is written with
    its GameType, and numbered as English is played: Black's 11-15 and White's 24-20 are
    move 1 (spec/pdn.md: the first player's move opens a move number)."""
    text = '[Event "Manchester 1841"]\n1. 11-15 24-20 2. 8-11 28-24 0-1\n'
    path = tmp_path / "untagged.pdn"
    path.write_text(text, encoding="utf-8")
    written = convert([path], Style())
    assert '[GameType "21"]' in written and "1. 11-15 24-20 2. 8-11 28-24 0-1" in written


def test_plain_games_are_written_from_the_kernels_texts_as_their_walk_writes_them(
    each_core: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A game of plain moves alone, fully played, is written from the main line's short forms
    (no tree or board built): the text the walk of its replayed tree writes, in the styles that
    write short forms, for the first 800 games of corpus files of four variants."""
    styles = [Style(), Style(result_style=ResultStyle.INTERNATIONAL, gametype=GameTypeForm.LONG)]
    names = ["english/OCA_2.0.pdn", "international/migo-wk2003.pdn",
             "russian/migo-World_Championship_1998.pdn", "italian/migo-ci98-fero.pdn"]  # fmt: skip
    fast: list[str] = []  # the games written from their texts
    plain_game = _Converter.plain_game

    def from_texts(converter: _Converter, game: Game, texts: Iterable[str]) -> str:
        fast.append(game.raw)
        return plain_game(converter, game, texts)

    monkeypatch.setattr(_Converter, "plain_game", from_texts)
    plain = 0
    for name in names:
        for game in islice(read_games(corpus_dir() / name), 800):
            replay = replay_game(game)
            if replay.errors or plain_runs(game, bare=True) is None:
                continue
            plain += 1
            written = [converted_text(game, replay, style) for style in styles]
            walked = [replay_game(game).accept(_Converter(replay, style)) for style in styles]
            assert written == [(text, None) for text in walked], (name, game.source.line)
    assert plain > 800 and len(fast) == 2 * plain  # each written from the texts
