"""The rest of a user's tour (issue 28): usage lines, --top 0, filter -f, annotate into a
folder, replay --interactive from ply 0 with the ending, --candidates on move-less records."""

from __future__ import annotations

import types
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pdn.cli.app import app

runner = CliRunner()
ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "samples" / "english-oca-first20.pdn"


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_usage_lines_name_the_paths_plainly() -> None:
    assert run("validate", "--help")[1].splitlines()[0].endswith(" validate [OPTIONS] PATH...")
    assert run("validate")[2] == "pdn: Missing argument 'PATH'.\n"


def test_top_zero_means_all_as_limit_zero(tmp_path: Path) -> None:
    db = str(tmp_path / "g.db")
    assert run("import", str(SAMPLE), "--db", db)[0] == 0
    every = run("stats", "openings", "--db", db, "-f", "tsv")
    assert run("stats", "openings", "--db", db, "-f", "tsv", "--top", "0") == every
    assert len(every[1].splitlines()) > 2
    assert run("query", "--db", db, "--limit", "0", "-f", "tsv")[1].count("\n") == 21  # 20 games


def test_filter_takes_f() -> None:
    assert run("filter", str(SAMPLE), "-f", "json") == run("filter", str(SAMPLE), "--to", "json")


def test_annotate_into_a_folder(tmp_path: Path) -> None:
    out = tmp_path / "notes"
    code, _, _ = run("annotate", str(SAMPLE), "-o", f"{out}/")
    assert code == 0 and [p.name for p in out.iterdir()] == [SAMPLE.name]
    assert (out / SAMPLE.name).read_text().count("[Event ") == 20


def test_gitignore_covers_sqlite_side_files() -> None:
    lines = (ROOT / ".gitignore").read_text().split()
    assert {"*.db", "*.db-wal", "*.db-shm"} <= set(lines)


def test_candidates_leave_out_records_without_moves(tmp_path: Path) -> None:
    path = tmp_path / "two.pdn"
    path.write_text('[Event "no moves"]\n[Result "*"]\n*\n\n[Event "moves"]\n1. 11-15 24-20 *\n')
    _, out, _ = run("validate", "--candidates", str(path))
    assert "fit other variants too\t1\n" in out  # the second only: 11-15 24-20 fits 8x8 others


def test_interactive_replay_starts_at_ply_0(monkeypatch: pytest.MonkeyPatch) -> None:
    import pdn.cli.replay as replay_cli

    seen: dict[str, Any] = {}

    def stepping(game: Any, replay: Any, browser: Any, flip: bool) -> None:
        seen["ply"], seen["ending"] = browser.ply, replay_cli.ending(replay)

    terminal = types.SimpleNamespace(isatty=lambda: True)
    monkeypatch.setattr(replay_cli, "sys", types.SimpleNamespace(stdin=terminal, stdout=terminal))
    monkeypatch.setattr(replay_cli, "_interactive", stepping)
    assert run("replay", str(SAMPLE), "-i")[0] == 0
    assert seen == {
        "ply": 0,
        "ending": [
            "ended: as recorded: no rule ended the game, the result tag says how it ended (0-1)"
        ],
    }
