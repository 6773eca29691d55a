"""Validating archives: the real errors found in the corpus, one case per distinct reason, each
checked by hand; `pdn validate` output, report and exit codes."""

from __future__ import annotations

import json
import pickle
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from conftest import corpus_dir, corpus_files
from pdn.archive.validate import GameReport, validate_file, validate_paths
from pdn.cli.app import app

runner = CliRunner()
INTERNATIONAL_OPENING = [
    "31-26", "31-27", "32-27", "32-28", "33-28", "33-29", "34-29", "34-30", "35-30",
]  # fmt: skip


def game(relative: str, index: int) -> GameReport:
    path = corpus_dir() / relative
    return validate_file(path)[index - 1]


def only_error(report: GameReport) -> dict[str, object]:
    assert not report.valid
    [error] = report.errors
    return error


# --- real archives, one case per reason ------------------------------------------------------


def test_relocation_pseudo_move_in_a_ballot_collection() -> None:
    # "1. A1-A5": not a diagonal step; from the Russian start White has exactly these seven
    e = only_error(game("russian/hcheckers-idf64-2016-ballots.pdn", 2))
    assert (e["line"], e["column"], e["move"], e["reason"]) == (11, 4, "A1-A5", "illegal move")
    assert e["legal"] == ["a3-b4", "c3-b4", "c3-d4", "e3-d4", "e3-f4", "g3-f4", "g3-h4"]


def test_black_man_moving_backwards_in_a_tournament_record() -> None:
    # 32. 43-38 17-11: 17-11 takes a Black man backwards, and 43-38 had offered 32x43
    e = only_error(game("international/bruno-BrunoVsScan31.pdn", 11))
    assert (e["line"], e["column"], e["ply"], e["move"]) == (183, 28, 64, "17-11")
    assert e["legal"] == ["32x43"]


def test_fragment_after_the_last_game() -> None:
    # a stray "36x27 1-0" after the last game: nothing can capture in the start position
    report = game("international/wiegerw-FAIL-Cat.C1.pdn", 46)
    e = only_error(report)
    assert (e["line"], e["move"], e["legal"]) == (611, "36x27", INTERNATIONAL_OPENING)


def test_broken_variation_in_a_lidraughts_broadcast() -> None:
    # (1... 5-10): square 10 holds Black's own man, before and after 1. 34-30
    e = only_error(game("international/bruno-World_Title_Match_Women_2024.pdn", 2))
    assert (e["line"], e["column"], e["move"], e["variation"]) == (29, 45, "5-10", True)


def test_frisian_capture_of_less_than_the_highest_value() -> None:
    # after 7. 28x17, 7x27x38 takes two men (17 straight down, then 32): 11x22 takes one
    e = only_error(game("frisian/noamfav-20241114_144300.pdn", 1))
    assert (e["line"], e["column"], e["move"], e["legal"]) == (9, 100, "11x22", ["7x38"])


def test_unknown_moves_in_a_russian_archive() -> None:
    e = only_error(game("russian/migo-abatsiev.pdn", 36))
    assert (e["line"], e["column"], e["move"]) == (599, 4, "-")
    assert e["reason"] == "unknown move: the record does not say which move"


def test_ambiguous_capture_in_an_italian_archive() -> None:
    # 13. 24x6 3x26: Black's man on 3 (e8) takes 6, 14 and 22 (over c6 and e4) or 6, 13 and 21
    # (over c6 and a4), all men: equal under every FID precedence rule, and the game ends there
    e = only_error(game("italian/wiegerw-Campionato_Assoluto_2005.pdn", 46))
    assert (e["line"], e["column"], e["move"]) == (753, 43, "3x26")
    assert e["reason"] == "ambiguous move: it fits 3x10x19x26, 3x10x17x26"


def test_result_against_the_final_position() -> None:
    # 68... 18x9 leaves Black without pieces: White (KingsRow) won, the file says 1-0
    report = game("english/simonmaracine-kingsrow-1.pdn", 1)
    e = only_error(report)
    assert e["kind"] == "result" and report.termination == "win"
    assert e["reason"] == (
        "result 1-0 says Black won, but Black has no legal move "
        "(the file may follow the White-first result convention)"
    )


def test_problem_with_an_empty_fen() -> None:
    e = only_error(game("english/wiegerw-bridges.pdn", 14))
    assert e["kind"] == "fen" and e["reason"] == "bad FEN tag: FEN 'W::.' holds no pieces"


def test_problem_lines() -> None:
    report = game("international/bruno-BrunoVsScan31.pdn", 11)
    [line] = report.problems()
    assert line == (
        f"{corpus_dir() / 'international/bruno-BrunoVsScan31.pdn'}:183:28: game 11, "
        'move 32 (ply 64) "17-11": illegal move: a capture is compulsory; legal: 32x43'
    )


@pytest.mark.slow
def test_whole_corpus_validates_with_only_the_known_problems(
    corpus_reports: list[dict[str, Any]],
) -> None:
    reasons = {(e["kind"], e["reason"].split(":")[0]) for r in corpus_reports for e in r["errors"]}
    assert len(corpus_reports) == sum(f.games for f in corpus_files())  # counted by hand
    errors = sum(f.games for f in corpus_files() if f.expect == "error")
    assert sum(1 for r in corpus_reports if r["syntax_error"]) == errors == 1
    assert reasons == {
        ("move", "illegal move"),
        ("move", "unknown move"),
        ("move", "ambiguous move"),
        ("result", "result 1-0 says Black won, but Black has no legal move (the file may follow"
                   " the White-first result convention)"),
        ("result", "result 0-1 says White won, but White has no legal move (the file may follow"
                   " the White-first result convention)"),
        ("fen", "bad FEN tag"),
    }  # fmt: skip


# --- the command ----------------------------------------------------------------------------


def test_validate_command_report_and_exit_codes(tmp_path: Path) -> None:
    bad = tmp_path / "bad.pdn"
    bad.write_text('[Event "x"]\n[GameType "21"]\n1. 11-15 24-20 2. 12-17 *\n', encoding="utf-8")
    good = tmp_path / "good.pdn"
    good.write_text('[GameType "20"]\n1. 32-28 19-23 *\n', encoding="utf-8")
    report = tmp_path / "r.jsonl"
    result = runner.invoke(app, ["validate", str(tmp_path), "--report", str(report)])
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == (
        f'{bad}:3:19: game 1, move 2 (ply 3) "12-17": illegal move; '
        "legal: 10-14, 12-16, 15-18, 15-19, 7-11, 8-11, 9-13, 9-14"
    )
    rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
    assert [r["valid"] for r in rows] == [False, True]
    keys = {"file", "index", "line", "variant", "variant_source", "valid", "plies", "result",
            "termination", "termination_ply", "errors"}  # fmt: skip
    assert keys <= set(rows[0])
    assert rows[0]["errors"][0]["ply"] == 3 and rows[1]["variant"] == "international"
    assert runner.invoke(app, ["validate", str(good)]).exit_code == 0
    assert runner.invoke(app, ["validate", str(good), "--rules", "fide"]).exit_code == 2
    assert runner.invoke(app, ["validate", str(good), "--variant", "chess"]).exit_code == 2


def test_candidates_only_when_asked(tmp_path: Path) -> None:
    # 11-15 24-20 is legal English, Spanish (d3-c4, a6-b5) and pool, not Italian or 10x10; the
    # second game's GameType decides its variant: nothing else is tried
    archive = tmp_path / "two.pdn"
    archive.write_text('1. 11-15 24-20 *\n\n[GameType "20"]\n1. 32-28 19-23 *\n', encoding="utf-8")
    report = tmp_path / "r.jsonl"
    for asked, expected in ((False, [[], []]), (True, [["spanish", "pool"], []])):
        options = ["--candidates"] if asked else []
        result = runner.invoke(app, ["validate", str(archive), "--report", str(report), *options])
        assert result.exit_code == 0
        rows = [json.loads(line) for line in report.read_text(encoding="utf-8").splitlines()]
        assert [r["variant"] for r in rows] == ["english", "international"]
        assert [r["candidates"] for r in rows] == expected
        assert ("fit other variants too" in result.stdout) is asked
    db = tmp_path / "games.db"
    result = runner.invoke(app, ["import", str(archive), "--db", str(db), "--candidates"])
    assert result.exit_code == 0
    assert "fit other variants too\t1\n" in result.stdout  # the summary, tab-separated


def test_workers_give_the_same_reports(corpus: Path) -> None:
    folder = corpus / "international"
    one = [r.as_dict() for r in validate_paths([folder], workers=1)]
    two = [r.as_dict() for r in validate_paths([folder], workers=2)]
    listed = sum(f.games for f in corpus_files() if f.variant == "international")
    assert one == two and len(one) == listed == 2466


def test_spans_of_a_large_file_give_the_same_reports(
    corpus: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import pdn.archive.parallel

    monkeypatch.setattr(
        pdn.archive.parallel, "SPAN_BYTES", 10_000
    )  # cut this 160 kB file into spans
    path = corpus / "russian" / "migo-World_Championship_1998.pdn"
    whole = [r.as_dict() for r in validate_file(path)]
    assert len(pdn.archive.parallel.file_tasks([path], 1, lambda _: None)) >= 10  # about 16 spans
    one = [r.as_dict() for r in validate_paths([path], workers=1)]
    two = [r.as_dict() for r in validate_paths([path], workers=2)]
    assert whole == one == two and [r["index"] for r in two] == list(range(1, 461))


def test_a_report_is_pickled_as_its_fields_in_order(tmp_path: Path) -> None:
    """Workers send a report of every game back: each field's value, not its name."""
    path = tmp_path / "g.pdn"
    path.write_text(
        '[GameType "20"]\n1. 32-28 19-23 2. 28x19 14x23 3. 99-98 *\n\n'
        '[Event "x"]\n1. 32-28 {open\n\n[Event "y"]\n1. 32-28 *\n',
        encoding="utf-8",
    )
    reports = list(validate_paths([path]))
    assert [(bool(r.errors), bool(r.syntax_error)) for r in reports] == [
        (True, False),
        (False, True),
        (False, False),
    ]
    for report in reports:
        data = pickle.dumps(report)
        assert pickle.loads(data) == report and b"termination_ply" not in data
