"""Smaller wrong answers from a user's tour (issue 24), each with the case that showed it."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from pdn.archive.convert import Style, convert_paths
from pdn.archive.criteria import Criteria
from pdn.archive.selection import SpecError, parse_material, parse_pattern
from pdn.cli.app import app
from pdn.cli.output import Format, print_table
from pdn.read.reader import read_games, read_string
from pdn.replay import replay_game
from pdn.rules.position import Position
from pdn.rules.variants import get_variant

FEN_ONLY = '[FEN "W:W24,23,22,21,27,26,25,32,31,30,29:B4,3,2,1,7,6,5,11,10,9,15"] *\n'


def test_a_fen_only_game_is_read_as_its_file_says(corpus: Path) -> None:
    # italian/checkerboard-11_man_italian.pdn: 2400 positions, no GameType, no moves; every
    # 1-32 numbering fits them, and they were all taken for English
    path = corpus / "italian/checkerboard-11_man_italian.pdn"
    replays = [replay_game(g) for g in read_games(path)]
    assert len(replays) == 2400
    assert {r.variant.name for r in replays} == {"italian"}
    assert not any(r.warnings for r in replays)


def test_a_guessed_variant_is_said(tmp_path: Path) -> None:
    path = tmp_path / "positions.pdn"
    path.write_text(FEN_ONLY, encoding="utf-8")
    [game] = read_games(path)
    guessed = replay_game(game)
    assert guessed.variant.name == "english"
    [warning] = guessed.warnings
    assert warning.message.startswith("variant guessed: read as english, but the game has no ")
    assert warning.message.endswith("say which with a GameType tag or --variant")
    [typed] = read_string('[GameType "22"]\n' + FEN_ONLY)
    assert replay_game(typed).variant.name == "italian" and not replay_game(typed).warnings
    [moved] = read_string("1. 11-15 23-19 *\n")  # moves: the first variant they fit
    assert not replay_game(moved).warnings


def test_a_pattern_or_material_the_variant_cannot_have_is_a_usage_error(tmp_path: Path) -> None:
    with pytest.raises(SpecError, match="square 45 is not on the english board"):
        Criteria(variant="english", pattern=parse_pattern("W:WK45")).check()
    Criteria(variant="international", pattern=parse_pattern("W:WK45")).check()  # it has 45
    Criteria(pattern=parse_pattern("W:WK45")).check()  # any variant: 10x10 boards have it
    with pytest.raises(SpecError, match="fits the board of no variant"):
        Criteria(pattern=parse_pattern("W:WK99")).check()
    # 29 is a1 on the English board, not on the International one
    with pytest.raises(SpecError, match="'W29:Ba1' asks for two things on one square"):
        Criteria(variant="english", pattern=parse_pattern("W29:Ba1")).check()
    Criteria(variant="international", pattern=parse_pattern("W29:Ba1")).check()
    Criteria(pattern=parse_pattern("W29:Ba1")).check()
    # 21 is a3 there: a white man on it is a white piece on it, one piece asked for twice
    english = get_variant("english")
    Criteria(variant="english", pattern=parse_pattern("W21:W*a3")).check()
    masks = parse_pattern("W21:W*a3").compile(english)
    assert masks is not None and masks.matches(Position.start(english))  # White's men: 21-32
    with pytest.raises(SpecError, match="W would need 13 pieces, and a side has 12 in english"):
        Criteria(variant="english", material=parse_material("W:13")).check()
    Criteria(variant="international", material=parse_material("W:13")).check()
    path = tmp_path / "one.pdn"
    path.write_text('[GameType "21"]\n1. 11-15 23-19 *\n', encoding="utf-8")
    done = CliRunner().invoke(app, ["filter", "--pattern", "W:WK45", "-v", "english", str(path)])
    assert done.exit_code == 2
    assert done.output.strip().splitlines() == [
        "pdn: the pattern 'W:WK45': square 45 is not on the english board"
    ]


def test_prose_with_a_few_move_like_words_holds_no_game(tmp_path: Path) -> None:
    # a README's prose whose line starts with `ed4`, a Russian short move, was read as a game
    # with a syntax error and stored as a record (the project's README then; it now shows PDN)
    readme = (
        "## Moves\n\nA capture written with its first and last square is legal when the\n"
        "`ed4` form names one capture; the PDN 3.0 forms (the square behind a piece taken,\n"
        "or the turning square) are read too. After an illegal move, `legal` lists them.\n"
    )
    assert read_string(readme) == []
    prose = "Notes\n\nThe first move 11-15 is common.\n`ed4`, a capture written in parts.\n"
    assert read_string(prose) == []
    [broken] = read_string("1. 11-15 23-19 2. x *\n")  # two moves, then a mistake: a game
    assert broken.syntax_error is not None
    path = tmp_path / "notes.pdn"
    path.write_text(prose, encoding="utf-8")
    done = CliRunner().invoke(app, ["import", str(path), "--db", f"sqlite:///{tmp_path}/n.db"])
    assert f"{path}: no games found" in done.output
    assert "games added\t0" in done.output


def test_csv_keeps_games_without_moves_and_every_tag(tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text(
        '[GameType "21"]\n[White "Wyllie"]\n[Annotator "A"]\n[Annotator "B"]\n'
        '[FEN "B:W21,22:B1,2"]\n*\n\n'
        '[GameType "21"]\n[Black "Martins"]\n1. 11-15 23-19 *\n',
        encoding="utf-8",
    )
    text = "".join(piece or "" for piece, _ in convert_paths([path], "csv", Style()))
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["index"], r["ply"], r["move"]) for r in rows] == [
        ("1", "0", ""), ("2", "1", "11-15"), ("2", "2", "23-19"),
    ]  # fmt: skip
    assert rows[0]["fen"] == "B:W21,22:B1,2" and rows[0]["white"] == "Wyllie"
    assert json.loads(rows[0]["tags"]) == {
        "GameType": "21", "White": "Wyllie", "Annotator": ["A", "B"], "FEN": "B:W21,22:B1,2",
    }  # fmt: skip
    assert json.loads(rows[1]["tags"]) == {"GameType": "21", "Black": "Martins"}


def test_json_writes_64_bit_ids_as_strings(tmp_path: Path) -> None:
    out = tmp_path / "rows.json"
    rows = [(5714267946476972096, 61, 2**53 - 1)]
    print_table(["id", "plies", "largest"], rows, Format.JSON, out)
    record = json.loads(out.read_text(encoding="utf-8"))
    # a double holds integers up to 2**53 exactly: the id would come back as ...2000 in JS
    assert record == {"id": "5714267946476972096", "plies": 61, "largest": 2**53 - 1}
