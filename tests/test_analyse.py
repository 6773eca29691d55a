"""`pdn analyse` (pdn.engine.analysis): lidraughts's winning chances and marks, and corpus files
analysed end to end with the built-in engine and with dame-rs's `dame hub`: the output
validates as its input does, every replayed move carries its %eval and %loss, marks carry their
NAG, the game's own comments stay, and two workers write the same bytes."""

from __future__ import annotations

import json
import math
import re
import sys
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import corpus_dir, dame_hub
from pdn.archive.validate import validate_paths
from pdn.cli.app import app
from pdn.engine import Limit, Score
from pdn.engine.analysis import (
    Mark,
    analyse_paths,
    ceiled_men,
    judge,
    winning_chances,
)
from pdn.read.reader import read_games

EVAL = re.compile(r"\[%eval (#-?\d+|-?\d+\.\d\d)\] \[%loss (\d+\.\d\d)\]")


def _file(name: str) -> Path:
    return corpus_dir() / name


def _analyse(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(app, ["analyse", *args])
    return result.exit_code, result.stderr


def _validity(path: Path) -> list[tuple[bool, int, list[tuple[str, str, int]]]]:
    """Per game: valid, plies replayed, and each error's kind, move and ply."""
    reports = validate_paths([path])
    return [(r.valid, r.plies, [(e["kind"], e["move"], e["ply"]) for e in r.errors])
            for r in reports]  # fmt: skip


# -- lidraughts's numbers ----------------------------------------------------------------------


def test_winning_chances_are_lidraughts_formula() -> None:
    """ui/ceval/src/winningChances.ts: 2 / (1 + exp(-0.004 cp)) - 1, cp clamped to +-1000, a
    win in N moves as (21 - min(10, N)) * 100."""
    assert winning_chances(Score.of_men(0.0)) == 0.0
    assert winning_chances(Score.of_men(1.0)) == pytest.approx(2 / (1 + math.exp(-0.4)) - 1)
    assert winning_chances(Score.of_men(10.0)) == pytest.approx(0.96403, abs=1e-5)
    assert winning_chances(Score.of_men(25.0)) == winning_chances(Score.of_men(10.0))
    assert winning_chances(Score.win(1)) == pytest.approx(2 / (1 + math.exp(-8)) - 1)  # 1 move
    assert winning_chances(Score.win(-40)) == pytest.approx(-(2 / (1 + math.exp(-4.4)) - 1))
    assert ceiled_men(Score.win(5)) == 10.0 and ceiled_men(Score.of_men(-12.5)) == -10.0


def test_marks_by_advice_scala_thresholds() -> None:
    """modules/analyse/src/main/Advice.scala: a fall of .075 in winning chances is an
    inaccuracy, .15 a mistake, .3 a blunder. From 0.00: -0.75 men falls 0.1489, -0.76 men
    0.1508; -1.54 falls 0.2993, -1.56 0.3029."""
    even = Score.of_men(0.0)
    assert judge(even, Score.of_men(-0.37)) is None  # 0.0739
    assert judge(even, Score.of_men(-0.38)) is Mark.INACCURACY  # 0.0759
    assert judge(even, Score.of_men(-0.75)) is Mark.INACCURACY
    assert judge(even, Score.of_men(-0.76)) is Mark.MISTAKE
    assert judge(even, Score.of_men(-1.54)) is Mark.MISTAKE
    assert judge(even, Score.of_men(-1.56)) is Mark.BLUNDER
    assert judge(Score.of_men(12.0), Score.of_men(10.0)) is None  # both past the ceiling
    assert (Mark.INACCURACY.nag, Mark.MISTAKE.nag, Mark.BLUNDER.nag) == (6, 2, 4)


# -- end to end ----------------------------------------------------------------------------------


def _check_analysed(source: Path, out: Path, report: Path) -> list[dict[str, Any]]:
    """The output validates as the source does; per game, one %eval/%loss per replayed ply,
    the marks' NAGs as the report counts them; the report's summaries add up."""
    assert _validity(out) == _validity(source)
    rows = [json.loads(line) for line in report.read_text().splitlines()]
    games = list(read_games(out))
    assert len(games) == len(rows) == len(list(read_games(source)))
    for game, row in zip(games, rows, strict=True):
        evals = [EVAL.search(" ".join(n.comments_after)) for n in game.mainline()]
        found = [m for m in evals if m]
        assert len(found) == row["plies"] == len(row["moves"])
        assert [m[1] for m in found] == [p["eval"] for p in row["moves"]]
        for side in ("white", "black"):
            marked = [p for p in row["moves"] if p["side"] == side and p["mark"]]
            summary = row["sides"][side]
            assert (
                len(marked) == summary["inaccuracies"] + summary["mistakes"] + summary["blunders"]
            )
            losses = [p["loss"] for p in row["moves"] if p["side"] == side]
            assert summary["moves"] == len(losses)
            if losses:
                assert summary["average_loss"] == pytest.approx(sum(losses) / len(losses), abs=2e-3)
        nags = {6: "inaccuracy", 2: "mistake", 4: "blunder"}
        marks = [nags[x] for n in game.mainline() for x in n.nags if x in nags]
        assert marks == [p["mark"] for p in row["moves"] if p["mark"]]
    return rows


def test_analyse_builtin_end_to_end(tmp_path: Path) -> None:
    """BrunoVsScan31.pdn: 11 games, the fifth of which has an illegal move at ply 64 (line 183):
    analysed up to it, the line told on stderr, exit 1; the rest whole."""
    source = _file("international/bruno-BrunoVsScan31.pdn")
    out, report = tmp_path / "out.pdn", tmp_path / "report.jsonl"
    code, err = _analyse(str(source), "--depth", "2", "-o", str(out), "--report", str(report))
    assert code == 1
    assert err.strip().endswith("bruno-BrunoVsScan31.pdn:183:28: analysed up to ply 63: "
                                "17-11: illegal move: a capture is compulsory")  # fmt: skip
    rows = _check_analysed(source, out, report)
    assert [r["error"] is None for r in rows].count(False) == 1
    assert rows[0]["engine"].startswith("pdn builtin") and rows[0]["limit"] == {"depth": 2}
    assert sum(r["sides"]["white"]["blunders"] + r["sides"]["black"]["blunders"] for r in rows)
    text = out.read_text()
    assert "$4 {[%eval" in text and "Blunder. Best move was" in text


def test_two_workers_write_the_same(tmp_path: Path) -> None:
    source = _file("international/bruno-Partie_avec_FEN1.pdn")
    outputs = []
    for workers in ("1", "2"):
        out, report = tmp_path / f"out{workers}.pdn", tmp_path / f"report{workers}.jsonl"
        args = [str(source), "--depth", "4", "-j", workers, "-o", str(out), "--report", str(report)]
        assert _analyse(*args)[0] == 0
        outputs.append((out.read_bytes(), report.read_bytes()))
    assert outputs[0] == outputs[1]


def test_composed_wins_are_found(tmp_path: Path) -> None:
    """Partie_avec_FEN1.pdn holds compositions by Tjalling Goedemoed whose solutions are the
    games: the first, 43-39 37x46 28-23 46x35 23x5 17x28 5x40 35x44 49x40, wins for White, so
    every evaluation is a White win, shorter each White move, and the last is the won game."""
    source = _file("international/bruno-Partie_avec_FEN1.pdn")
    (first, *_) = analyse_paths([source], "builtin", Limit(depth=6))
    rows = first.report["moves"]
    assert [r["move"] for r in rows] == [
        "43-39",
        "37x46",
        "28-23",
        "46x35",
        "23x5",
        "17x28",
        "5x40",
        "35x44",
        "49x40",
    ]
    assert [r["eval"] for r in rows] == ["#4", "#4", "#3", "#3", "#2", "#2", "#1", "#1", "#0"]
    assert all(r["mark"] is None and r["loss"] == 0 for r in rows)
    assert first.problem() is None


def test_own_comments_and_variations_kept(tmp_path: Path) -> None:
    """3_vs_1_King_Theory.pdn (pool): its comments and variations are all in the output, in
    their order; the analysis adds to them."""
    source = _file("pool/migo-3_vs_1_King_Theory.pdn")
    out, report = tmp_path / "out.pdn", tmp_path / "report.jsonl"
    assert _analyse(str(source), "--depth", "4", "-o", str(out), "--report", str(report))[0] == 0
    _check_analysed(source, out, report)
    (before,), (after,) = read_games(source), read_games(out)
    for old, new in zip(before.mainline(), after.mainline(), strict=True):
        assert new.comments_after[: len(old.comments_after)] == old.comments_after
        assert new.variations[: len(old.variations)] == old.variations
        assert new.nags[: len(old.nags)] == old.nags


def test_analyse_with_dame_hub(tmp_path: Path) -> None:
    """dame-rs's Hub engine, a real external one, on International games."""
    dame = " ".join(dame_hub())
    for name in ("bruno-Partie_avec_FEN1.pdn", "bruno-BrunoVsScan31.pdn"):
        source = _file(f"international/{name}")
        out, report = tmp_path / f"{name}.out", tmp_path / f"{name}.jsonl"
        code, _ = _analyse(str(source), "-e", dame, "--depth", "6", "-o", str(out),
                           "--report", str(report))  # fmt: skip
        assert code == (1 if "Scan31" in name else 0)
        rows = _check_analysed(source, out, report)
        assert all(r["engine"] == "dame 0.2.0" or r["engine"].startswith("dame ") for r in rows)


def test_engine_that_fails_is_one_line(tmp_path: Path) -> None:
    source = _file("international/bruno-Brigitte.pdn")
    code, err = _analyse(str(source), "-e", "/nonexistent/engine hub", "-o", str(tmp_path / "o"))
    assert code == 2
    assert err.strip() == "pdn: engine hub: cannot start: No such file or directory"
    code, err = _analyse(str(source), "-e", f"{sys.executable} -c pass")
    assert code == 2 and err.count("\n") == 1 and "the engine" in err


CRASHES = """
import sys
for line in sys.stdin:
    word = line.split()[0] if line.split() else ""
    if word == "hub":
        print("id name=crasher", flush=True)
        print("wait", flush=True)
    elif word == "init":
        print("ready", flush=True)
    elif word == "go":
        sys.exit(3)
"""


def test_engine_crash_is_told_per_game(tmp_path: Path) -> None:
    """An engine that dies at its first search: each game is written back unjudged, its line
    told once on stderr, exit 1; the output validates as the input does."""
    script = tmp_path / "crasher.py"
    script.write_text(CRASHES)
    source = _file("international/bruno-Partie_avec_FEN1.pdn")
    out, report = tmp_path / "out.pdn", tmp_path / "report.jsonl"
    code, err = _analyse(str(source), "-e", f"{sys.executable} {script}", "-o", str(out),
                         "--report", str(report))  # fmt: skip
    assert code == 1
    lines = err.strip().splitlines()
    assert len(lines) == 4 and all("the engine exited with code 3" in line for line in lines)
    assert _validity(out) == _validity(source)
    assert "[%eval" not in out.read_text()


def test_a_game_whose_fen_cannot_be_set_up_is_told(tmp_path: Path) -> None:
    """Where validate places it (the game's first line), why, exit 1, and the error in the
    report (it was analysed to ply 0 without a word, its report's error null)."""
    source = tmp_path / "badfen.pdn"
    source.write_text('[GameType "25"]\n[FEN "W:Wz9:Ba1"]\n\n1. c3-d4 *\n', encoding="utf-8")
    report = tmp_path / "r.jsonl"
    code, err = _analyse(str(source), "--depth", "1", "-o", str(tmp_path / "o.pdn"),
                         "--report", str(report))  # fmt: skip
    why = "bad FEN tag: square 'z9' is not a playing square of russian at column 3 of FEN"
    assert code == 1 and err == f"{source}:1:1: not analysed: {why} 'W:Wz9:Ba1'\n"
    row = json.loads(report.read_text())
    assert (row["error"], row["error_at"]) == (f"not analysed: {why} 'W:Wz9:Ba1'", [1, 1])
