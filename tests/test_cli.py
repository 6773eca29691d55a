"""The `pdn` command end to end: output, messages and exit codes."""

from __future__ import annotations

import json
from pathlib import Path

from typer.testing import CliRunner

from pdn.cli.app import app

runner = CliRunner()
SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_version_and_help() -> None:
    code, out, _ = run("--version")
    assert code == 0 and out.startswith("pdn ")
    code, out, _ = run("--help")
    assert code == 0 and "list" in out and "perft" in out


def test_moves_prints_full_paths_sorted() -> None:
    code, out, _ = run("moves", "--variant", "international", "--fen", "W:WK47:B9,12,33")
    assert code == 0
    assert out.split() == ["47x20x3x17", "47x20x3x21", "47x20x3x26"]


def test_moves_default_start_position() -> None:
    code, out, _ = run("moves", "--variant", "english")
    assert code == 0
    # Black moves first from 9-12: the seven opening moves of checkers
    assert out.split() == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]


def test_moves_keep_duplicates() -> None:
    fen = "W:WK4:B13,20,32,37"
    assert (
        len(run("moves", "-v", "international", "--fen", fen, "--duplicates", "keep")[1].split())
        == 2
    )


def test_moves_every_path() -> None:
    # King on 46 takes 37 then 19 on one diagonal; it may touch down on 32, 28 or 23 between the
    # two and stop on 14, 10 or 5: one move per end square, but nine paths
    fen = "W:WK46:B37,19"
    drop = run("moves", "-v", "international", "--fen", fen)[1].split()
    assert drop == ["46x32x5", "46x32x10", "46x32x14"]
    paths = run("moves", "-v", "international", "--fen", fen, "--duplicates", "paths")[1].split()
    assert paths == [f"46x{a}x{b}" for a in (23, 28, 32) for b in (5, 10, 14)]


def test_perft_lines() -> None:
    code, out, _ = run("perft", "--variant", "russian", "--depth", "4")
    lines = out.splitlines()
    assert code == 0 and lines[:4] == ["1 7", "2 49", "3 302", "4 1469"]
    assert lines[4].endswith("nodes/s")


def test_usage_errors_exit_2_with_one_line() -> None:
    for args in (
        ("moves", "--variant", "chess"),
        ("perft", "--variant", "english", "--depth", "0"),
        ("moves", "--variant", "english", "--fen", "X:W1"),
        ("moves", "--variant", "english", "--duplicates", "maybe"),
        ("list", "no/such/file.pdn"),
    ):
        code, _, err = run(*args)
        assert code == 2, args
        assert len(err.strip().splitlines()) == 1 and err.startswith("pdn: "), (args, err)


def test_list_samples_json() -> None:
    code, out, err = run("list", str(SAMPLES), "--json")
    rows = [json.loads(line) for line in out.splitlines()]
    assert code == 0 and len(rows) == 50
    assert err.strip() == "50 games, 0 syntax errors"
    first = next(r for r in rows if r["file"].endswith("english-oca-first20.pdn"))
    assert (first["index"], first["line"], first["white"], first["result"]) == (
        1,
        1,
        "Wyllie, J.",
        "0-1",
    )
    assert first["plies"] == 44  # 22 full moves, ending 22. 18x27 26x17x10x1


def test_list_reports_syntax_errors_and_exits_1(corpus: Path) -> None:
    path = corpus / "misc" / "wiegerw-FAIL-nested_comment.pdn"
    code, out, err = run("list", str(path))
    assert code == 1
    assert err.strip() == (
        f'{path}:1:46: game 1: found "}}" outside a comment; '
        "expected a move, a comment, a variation or a result"
    )
    assert out.strip().endswith("1 games, 1 syntax errors")
