"""`pdn validate --warnings` and the warnings `pdn import` counts (issue 28)."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pdn.cli.app import app

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_validate_lists_each_warning_at_its_column(corpus: Path) -> None:
    # wiegerw-Tricks_traps_and_shots.pdn writes two short captures that two paths fit: line 660
    # of the file has "10x26" at column 73, line 1023 "32x7" at column 11 (read by hand)
    path = corpus / "english" / "wiegerw-Tricks_traps_and_shots.pdn"
    code, out, _ = run("validate", "--warnings", str(path))
    assert code == 0
    lines = [line for line in out.splitlines() if ": warning: " in line]
    assert lines == [
        f"{path}:660:73: game 57: warning: 10x26 is ambiguous (10x19x26, 10x17x26); "
        "only 10x17x26 lets the game go on",
        f"{path}:1023:11: game 90: warning: 32x7 is ambiguous (32x23x16x7, 32x23x14x7); "
        "only 32x23x14x7 lets the game go on",
    ]
    assert "warnings\t2\n" in out


def test_summary_hints_at_the_option(corpus: Path) -> None:
    path = corpus / "english" / "wiegerw-Tricks_traps_and_shots.pdn"
    code, out, _ = run("validate", str(path))
    assert code == 0 and ": warning: " not in out
    assert "warnings\t2 (--warnings lists them)" in out


def test_listed_warnings_number_the_summarys(corpus: Path) -> None:
    path = corpus / "international" / "wiegerw2017-FAIL-40Camp-latin1.pdn"
    _, out, _ = run("validate", "--warnings", str(path))
    listed = sum(": warning: " in line for line in out.splitlines())
    row = next(line for line in out.splitlines() if line.startswith("warnings\t"))
    assert listed > 0 and row == f"warnings\t{listed}"


def test_import_counts_the_warnings(corpus: Path, tmp_path: Path) -> None:
    path = corpus / "english" / "wiegerw-Tricks_traps_and_shots.pdn"
    code, out, _ = run("import", str(path), "--db", str(tmp_path / "g.db"))
    assert code == 0
    assert "warnings (pdn validate --warnings lists them)\t2" in out
