"""`pdn fix`: repairs of real corpus files, each change said, the output valid (issue 28)."""

from __future__ import annotations

import shutil
from pathlib import Path

from typer.testing import CliRunner

from pdn.archive.validate import validate_file
from pdn.cli.app import app
from pdn.read.reader import read_file

runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


def test_truncate_at_error_keeps_the_legal_moves(corpus: Path, tmp_path: Path) -> None:
    # game 11 of bruno-BrunoVsScan31.pdn, line 183 column 28: "32. 43-38 17-11" where Black
    # must take 32x43 (the record's next move): the game is cut after ply 63
    path = corpus / "international" / "bruno-BrunoVsScan31.pdn"
    out = tmp_path / "fixed.pdn"
    code, _, err = run("fix", str(path), "-o", str(out), "--truncate-at-error")
    assert code == 0
    assert f'{path}:168: game 11: cut at ply 64 "17-11": illegal move' in err
    assert f"{path}:168: game 11: result 0-2 set to * (the game was cut)" in err
    # games 1, 8 and 10 end without a result: a * follows each, so that no game joins the next
    assert f"{path}:118: game 8: * written after it (it had no result to end it)" in err
    assert err.splitlines()[-1] == "pdn fix: 5 changes in 4 games; 11 games written, 0 dropped"
    reports = validate_file(out)
    assert len(reports) == 11 and all(r.valid for r in reports)
    game = read_file(out).games[10]
    assert game.ply_count() == 63 and game.result == "*"
    assert "not replayed: 32... 17-11 33. 32x43" in str(game.body[-1])


def test_fix_results_from_the_final_position(corpus: Path, tmp_path: Path) -> None:
    # simonmaracine-kingsrow-2.pdn ends 46. 11x4: Black's 91st ply leaves White without a
    # move, so Black, who moves first in English, won: 1-0, not the 0-1 written
    path = corpus / "english" / "simonmaracine-kingsrow-2.pdn"
    out = tmp_path / "fixed.pdn"
    code, _, err = run("fix", str(path), "-o", str(out), "--fix-results", "--add-plycount")
    assert code == 0
    assert f"{path}:2: game 1: result 0-1 set to 1-0 (the final position)" in err
    assert f"{path}:2: game 1: PlyCount 91 (added)" in err
    [game] = read_file(out).games
    assert game.tags.get("Result") == "1-0" and game.tags.get("PlyCount") == "91"
    assert validate_file(out)[0].valid


def test_drop_invalid_and_untouched_games_as_read(corpus: Path, tmp_path: Path) -> None:
    # wiegerw-bridges.pdn: 267 games; game 14, from line 118, has the FEN tag "W::." (no pieces)
    path = corpus / "english" / "wiegerw-bridges.pdn"
    out = tmp_path / "fixed.pdn"
    code, _, err = run("fix", str(path), "-o", str(out), "--drop-invalid")
    assert code == 0
    assert f"{path}:118: game 14: dropped (it does not replay)" in err
    reports = validate_file(out)
    assert len(reports) == 266 and all(r.valid for r in reports)
    source = read_file(path).games
    assert [g.raw.strip() for g in read_file(out).games] == [
        g.raw.strip() for i, g in enumerate(source) if i != 13
    ]


def test_split_by_event(corpus: Path, tmp_path: Path) -> None:
    # bruno-Mini.pdn: 4 games of "Championnat de France 2021", 2 of "Cpt France 2021" (grep)
    path = corpus / "international" / "bruno-Mini.pdn"
    out = tmp_path / "events"
    code, _, _ = run("fix", str(path), "-o", str(out), "--split-by", "event")
    assert code == 0
    counts = {p.name: len(read_file(p).games) for p in out.iterdir()}
    assert counts == {"Championnat_de_France_2021.pdn": 4, "Cpt_France_2021.pdn": 2}


def test_in_place_keeps_a_backup(corpus: Path, tmp_path: Path) -> None:
    path = tmp_path / "kingsrow.pdn"
    shutil.copy(corpus / "english" / "simonmaracine-kingsrow-1.pdn", path)
    before = path.read_text()
    code, _, err = run("fix", str(path), "--in-place", "--fix-results")
    assert code == 0 and "set to 0-1" in err
    assert (tmp_path / "kingsrow.pdn.bak").read_text() == before
    assert validate_file(path)[0].valid


def test_an_output_is_asked_for(corpus: Path) -> None:
    path = corpus / "english" / "simonmaracine-kingsrow-1.pdn"
    code, _, err = run("fix", str(path), "--fix-results")
    assert (
        code == 2
        and err == "pdn: give -o OUT, or --in-place to rewrite the files (a backup kept)\n"
    )


def test_split_by_year(corpus: Path, tmp_path: Path) -> None:
    # bruno-Mini.pdn: 6 games dated 2021 (2021.08.12 or 12-08-2021); bruno-games4.pdn: 11
    # games dated 2025.01.26 (grep of their Date tags)
    paths = [str(corpus / "international" / n) for n in ("bruno-Mini.pdn", "bruno-games4.pdn")]
    out = tmp_path / "years"
    code, _, err = run("fix", *paths, "-o", str(out), "--split-by", "year")
    assert code == 0 and err.splitlines()[-1].endswith("17 games written, 0 dropped")
    counts = {p.name: len(read_file(p).games) for p in out.iterdir()}
    assert counts == {"2021.pdn": 6, "2025.pdn": 11}
