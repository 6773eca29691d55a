"""Converting never mixes notations (issue 24): every move of a converted game, in the main line
and in the variations, after an ambiguity the replay resolved too, is written in the notation
asked for, and the output reads back to the same moves."""

from __future__ import annotations

from functools import partial
from pathlib import Path

import pytest

from conftest import corpus_dir, corpus_files
from pdn.archive import convert
from pdn.archive.convert import Style, Target, convert_one, convert_paths
from pdn.archive.pipeline import replay_paths
from pdn.game import Game, MoveNode, Node
from pdn.read.reader import read_string
from pdn.replay import Replay, replay_game
from pdn.rules.position import Move, Position
from pdn.rules.variants import Notation
from pdn.walk import Line, Step, Visitor


class _Moves(Visitor[list[object]]):
    """Every move of a replayed game in PDN order: its ply, whether it was played and the
    position it reaches; with the variations' bounds."""

    def __init__(self) -> None:
        self.seen: list[object] = []

    def visit_move(self, step: Step) -> None:
        m = step.move
        key = None if m is None else (m.start, m.end, m.captured_mask, m.crowns)
        self.seen.append((step.ply, step.status.played, key))  # written anew: no ambiguity

    def begin_variation(self, line: Line) -> None:
        self.seen.append("(")

    def end_variation(self, line: Line) -> None:
        self.seen.append(")")

    def result(self) -> list[object]:
        return self.seen


def _squares(nodes: list[Node]) -> list[str]:
    """Every square written in *nodes*, variations included."""
    out: list[str] = []
    for n in nodes:
        if isinstance(n, MoveNode):
            out += n.squares
            for v in n.variations:
                out += _squares(v)
    return out


def _written_in(notation: Notation, square: str) -> bool:
    if notation is Notation.NUMERIC:
        return square.isdigit()
    return square[:1].isalpha() and square[1:].isdigit()


def _check(game: Game, replay: Replay | None, notations: tuple[Notation, ...]) -> int:
    """Convert *game* (as replayed by the pipeline) to each of *notations*; assert it is
    written in it and reads back to the same moves, in the same tree. 1 if it was converted."""
    where = f"{Path(game.source.file).name} game {game.source.index + 1}"
    for notation in notations:
        done = convert_one(game, replay, Target.PDN, Style(squares=notation))
        if replay is None or replay.errors:  # kept as written: it does not parse or replay
            assert done.kept and done.text == game.raw.strip() + "\n", where
            continue
        assert not done.kept, (where, done.why)
        [out] = read_string(done.text)
        bad = [s for s in _squares(out.body) if not _written_in(notation, s)]
        assert not bad, f"{where}: {bad[:5]}"
        again = replay_game(out)
        assert again.valid and again.variant == replay.variant, where
        assert again.accept(_Moves()) == replay.accept(_Moves()), where
    return int(replay is not None and not replay.errors)


def check_conversion(paths: list[Path], notations: tuple[Notation, ...]) -> int:
    """_check every game of *paths*; the number of games converted."""
    return sum(replay_paths(paths, partial(_check, notations=notations)))


def test_migo_converts_to_numeric_after_resolved_ambiguities() -> None:
    path = corpus_dir() / "russian" / "migo-World_Championship_1998.pdn"
    assert check_conversion([path], (Notation.NUMERIC,)) == 460  # SOURCES.tsv: 460 games, ok
    text = "".join(p or "" for p, _ in convert_paths([path], style=Style(Notation.NUMERIC)))
    # written there as 29. 8-4 14-18 30. hg7 ba5: hg7 is h8-g7 (4-8), ba5 b6-a5 (9-13), by
    # the Russian numbering of spec/pdn.md §6 (1 = b8, 4 = h8, 5 = a7, 9 = b6, 13 = a5)
    assert "29. 8-4 14-18 30. 4-8 9-13" in text.replace("\n", " ")


@pytest.mark.parametrize("notation", list(Notation))
def test_variations_are_converted_too(notation: Notation, tmp_path: Path) -> None:
    # Russian short moves (spec/pdn.md §6: 1 = b8, rows of 4 down to 29 = a1): cd4 = c3-d4
    # (22-18), ab4 = a3-b4 (21-17), fg5 = f6-g5 (11-16), dc5 = d4-c5 (18-14)
    path = tmp_path / "russian.pdn"
    path.write_text('[GameType "25"]\n1. cd4 (1. ab4 fg5) fg5 2. dc5 *\n', encoding="utf-8")
    [(text, warning)] = list(convert_paths([path], style=Style(squares=notation)))
    assert warning is None and text is not None
    expected = {
        Notation.NUMERIC: "1. 22-18 (1. 21-17 11-16) 1... 11-16 2. 18-14 *",
        Notation.ALGEBRAIC: "1. c3-d4 (1. a3-b4 f6-g5) 1... f6-g5 2. d4-c5 *",
    }
    assert text.strip().endswith(expected[notation])


CORPUS_PDN = [f for f in corpus_files() if f.path.suffix.lower() == ".pdn"]


@pytest.mark.slow
def test_every_corpus_file_converts_without_mixing() -> None:
    corpus_dir()
    converted = check_conversion([f.path for f in CORPUS_PDN if f.path.is_file()], tuple(Notation))
    assert converted > 10_000


def test_a_move_that_cannot_be_written_keeps_the_game_as_written(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # as if the style could not write 9-14 (written at column 14): swapped, it reads as no move
    original = convert.write_move

    def write(pos: Position, move: Move, style: Style) -> str:
        text = original(pos, move, style)
        return "14-9" if text == "9-14" else text

    monkeypatch.setattr(convert, "write_move", write)
    path = tmp_path / "english.pdn"
    text = '[GameType "21"]\n1. 11-15 (1. 9-14) 23-19 *\n'
    path.write_text(text + "\n" + text.replace("9-14", "10-14"), encoding="utf-8")
    (first, why), (second, fine) = convert_paths([path], style=Style(Notation.NUMERIC))
    assert first == text and why is not None
    assert why.endswith("game 1: kept as written (9-14 (line 2:14) cannot be written in "
                        "numeric notation)")  # fmt: skip
    assert fine is None and second is not None and "(1. 10-14)" in second
