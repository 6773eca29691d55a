"""The `pdn` command end to end: output, messages and exit codes."""

from __future__ import annotations

import importlib
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
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


def test_moves_of_a_side_that_cannot_move() -> None:
    """Nothing on stdout, and on stderr the ending (spec/rules.md: a player with no legal move
    on their turn loses); it printed nothing at all before. Black's man on 28 is blocked by
    White's on 32."""
    code, out, err = run("moves", "-v", "english", "--fen", "B:W32:B28")
    assert (code, out) == (0, "")
    assert err == "pdn: won: the side to move has no legal move (Black to move)\n"


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
        ("diagram", "-v", "english", "-o", "d.png"),  # (SVG text written into d.png before)
        ("replay", str(SAMPLES)),  # a folder (exit 1 before)
        ("query", "--db", str(SAMPLES), "--count"),  # a folder ("disk I/O error", exit 1)
    ):
        code, _, err = run(*args)
        assert code == 2, args
        assert len(err.strip().splitlines()) == 1 and err.startswith("pdn: "), (args, err)


def test_an_import_refused_for_its_options_makes_no_database(tmp_path: Path) -> None:
    """(It left an empty database file behind.)"""
    db = tmp_path / "games.db"
    sample = str(SAMPLES / "english-oca-first20.pdn")
    for options in (["-v", "nosuch"], ["--workers", "2", "--cluster", "local:2"],
                    ["--cluster", "nonsense"]):  # fmt: skip
        code, _, err = run("import", sample, "--db", str(db), *options)
        assert code == 2 and err.startswith("pdn: "), (options, err)
        assert list(tmp_path.iterdir()) == [], options


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
    assert err.splitlines() == [
        f'{path}:1:46: game 1: found "}}" outside a comment; '
        "expected a move, a comment, a variation or a result",
        "1 games, 1 syntax errors",
    ]
    assert len(out.splitlines()) == 2  # the header and the game's row


# -- start-up ----------------------------------------------------------------------------------

HEAVY = ("pandas", "numpy", "sqlalchemy", "dask", "distributed", "rich", "pyarrow", "psycopg")


def imported_by(*args: str) -> set[str]:
    """The modules `pdn ARGS` imports (read from -X importtime), run as the console script."""
    done = subprocess.run(
        [sys.executable, "-X", "importtime", "-m", "pdn.cli.app", *args],
        capture_output=True, text=True, env={**os.environ, "COLUMNS": "80"},
    )  # fmt: skip
    assert done.returncode in (0, 1), done.stderr[-2000:]
    return {
        line.split("|")[-1].strip()
        for line in done.stderr.splitlines()
        if line.startswith("import time:") and "|" in line
    }


def test_start_up_imports_no_heavy_library() -> None:
    for args in (
        ("--version",),
        ("--help",),
        ("list", str(SAMPLES / "pool-3-vs-1-king-theory.pdn")),
    ):
        modules = imported_by(*args)
        heavy = sorted(m for m in modules if m.split(".")[0] in HEAVY)
        assert heavy == [], (args, heavy)
    bare = imported_by("--version")
    assert "pdn.cli.output" in bare and "lark" not in bare and "pdn.read.reader" not in bare


def test_import_loads_no_pandas(tmp_path: Path) -> None:
    # pandas is for the questions; `pdn import` of a small file starts in half the time without
    sample = str(SAMPLES / "pool-3-vs-1-king-theory.pdn")
    modules = imported_by("import", sample, "--db", str(tmp_path / "games.db"))
    assert "pdn.db.store" in modules and "pandas" not in modules


def test_the_command_summaries_are_the_docstrings() -> None:
    from pdn.cli.app import COMMANDS, Lazy

    entries = [e for e in COMMANDS.values() if isinstance(e, Lazy)]
    entries += [e for g in COMMANDS.values() if isinstance(g, dict) for e in g.values()]
    for entry in entries:
        module, function = entry.target.split(":")
        assert callable(getattr(importlib.import_module(module), function)), entry.target


# -- usage errors and paths ----------------------------------------------------------------------


def test_every_usage_error_is_one_line() -> None:
    sample = str(SAMPLES / "pool-3-vs-1-king-theory.pdn")
    for args in (
        ("nosuch",),
        ("list", "--bogus", sample),
        ("list", "--format", "xml", sample),
        ("validate", sample, "--rules", "fide"),
        ("convert", sample, "--to", "xml"),
        ("perft", "--variant", "english"),  # --depth missing
        ("list", "-j", "0", sample),
        ("stats", "nosuch"),
    ):
        code, _, err = run(*args)
        assert code == 2, (args, err)
        assert len(err.splitlines()) == 1 and err.startswith("pdn: "), (args, err)
        assert "Traceback" not in err and "╭" not in err


@pytest.fixture(scope="module")
def small_db(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("db") / "games.db")
    assert run("import", str(SAMPLES / "english-oca-first20.pdn"), "--db", db)[0] == 0
    return db


def _commands_writing(target: str, small_db: str) -> list[tuple[str, ...]]:
    sample = str(SAMPLES / "english-oca-first20.pdn")
    return [
        ("diagram", "-v", "english", "-o", target),
        ("convert", sample, "-o", target),
        ("report", sample, "-o", target),
        ("report", small_db, "-o", target),
        ("query", "--db", small_db, "-o", target),
        ("explore", "-v", "english", "--db", small_db, "-o", target),
        ("stats", "openings", "--db", small_db, "-o", target),
        ("stats", "draws", "--db", small_db, "-o", target),
        ("validate", sample, "--report", target),
        ("annotate", sample, "-o", target),
        ("list", sample, "-o", target),
        ("replay", sample, "--svg", target),
    ]


def test_a_bad_output_path_is_one_line(tmp_path: Path, small_db: str) -> None:
    a_file = tmp_path / "file.txt"
    a_file.write_text("x")
    for bad, says in (
        (tmp_path / "missing" / "out.x", "the folder"),  # a folder that does not exist
        (a_file / "out.x", "is not a folder"),  # a file where a folder is expected
    ):
        for args in _commands_writing(str(bad), small_db):
            code, _, err = run(*args)
            assert code == 2 and err.startswith("pdn: ") and says in err, (args, err)
            assert len(err.splitlines()) == 1, (args, err)
    for args in _commands_writing(str(tmp_path), small_db):  # a folder where a file is expected
        if args[0] == "replay":
            args = (*args[:-1], str(a_file))  # and a file where --svg wants a folder
        code, _, err = run(*args)
        assert code == 2 and len(err.splitlines()) == 1 and "give a " in err, (args, err)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["file.txt"]


def test_a_missing_input_is_one_line(tmp_path: Path) -> None:
    missing = str(tmp_path / "nothing.pdn")
    for args in (("list", missing), ("validate", missing), ("convert", missing),
                 ("annotate", missing, "-o", str(tmp_path / "o.pdn")), ("replay", missing),
                 ("import", missing, "--db", str(tmp_path / "x.db"))):  # fmt: skip
        code, _, err = run(*args)
        assert code == 2 and err == f"pdn: {missing}: no such file or folder\n", (args, err)


# -- what is printed -----------------------------------------------------------------------------

HOSTILE = (
    '[Event "Cup [b]final[/b]"]\n[White "A\x1b[31mRED\x1b[0m"]\n[Black "x[/bold]"]\n'
    '[Site "\x1b]8;;http://evil.example/\x1b\\\\click\x1b]8;;\x1b\\\\"]\n[Result "2-0"]\n'
    "1. 32-28 19-23 2-0\n"
)


def test_values_are_printed_as_written_never_as_markup(tmp_path: Path) -> None:
    path = tmp_path / "hostile.pdn"
    path.write_text(HOSTILE, encoding="utf-8")
    db = str(tmp_path / "h.db")
    outputs = []
    for args in (
        ("list", str(path)),
        ("list", str(path), "--format", "table"),
        ("list", str(path), "--json"),
        ("validate", str(path)),
        ("replay", str(path)),
        ("import", str(path), "--db", db),
        ("query", "--db", db),
        ("query", "--db", db, "--format", "table"),
        ("stats", "openings", "--db", db),
        ("stats", "draws", "--db", db, "--by", "event"),
    ):
        code, out, err = run(*args)
        assert code == 0, (args, err)
        assert "\x1b" not in out + err, args
        outputs.append(out)
    listed = outputs[0].splitlines()[1].split("\t")
    assert listed[3:6] == ["A\\x1b[31mRED\\x1b[0m", "x[/bold]", "Cup [b]final[/b]"]
    assert "Cup [b]final[/b]" in outputs[-1]  # the event, grouped by
    assert json.loads(outputs[2])["white"] == "A\x1b[31mRED\x1b[0m"  # JSON: escaped, exact
    assert "\\x1b]8;;http://evil.example/" in outputs[6]
    # PDN out is data: written exactly as read (control characters are made visible only on a
    # terminal, see test_output.py)
    assert run("convert", str(path))[1] == HOSTILE.replace(
        "1. 32-28", '[GameType "20"]\n\n1. 32-28'
    )
    assert run("query", "--db", db, "--format", "pdn")[1] == HOSTILE


def test_a_closed_pipe_ends_quietly() -> None:
    for args in (("list", "--json"), ("list",), ("convert",), ("validate",)):
        proc = subprocess.Popen(
            [sys.executable, "-m", "pdn.cli.app", *args, str(SAMPLES)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
        )  # fmt: skip
        assert proc.stdout is not None and proc.stderr is not None
        proc.stdout.readline()
        proc.stdout.close()  # like `| head -1`
        err = proc.stderr.read().decode()
        assert proc.wait() == 0, (args, err)
        assert "Broken pipe" not in err and "Traceback" not in err, (args, err)


# -- write errors --------------------------------------------------------------------------------


def test_a_full_device_is_one_line_and_exit_1() -> None:
    code, _, err = run("convert", str(SAMPLES), "-o", "/dev/full")
    assert code == 1 and err == "pdn: /dev/full: No space left on device\n"


def _in_tiny_filesystem(
    tmp_path: Path, options: str, command: str
) -> subprocess.CompletedProcess[str]:
    """Run *command* with a 16 kB tmpfs mounted on tmp_path/fs (a mount namespace of its own)."""
    if shutil.which("unshare") is None:
        pytest.skip("unshare is not installed")
    fs = tmp_path / "fs"
    fs.mkdir()
    script = f"mount -t tmpfs -o size=16k,{options} tmpfs {fs} && {command}; echo rc=$?; ls -a {fs}"
    probe = subprocess.run(["unshare", "-rm", "true"], capture_output=True)
    if probe.returncode != 0:
        pytest.skip("mount namespaces are not allowed here (the fake full disk test runs)")
    return subprocess.run(["unshare", "-rm", "sh", "-c", script], capture_output=True, text=True)


def test_a_full_disk_leaves_no_half_written_file(tmp_path: Path) -> None:
    pdn = f"{sys.executable} -m pdn.cli.app"
    out = tmp_path / "fs" / "out.pdn"
    done = _in_tiny_filesystem(tmp_path, "rw", f"{pdn} convert {SAMPLES} -o {out}")
    assert done.stderr == f"pdn: {out}: No space left on device\n", done.stderr
    assert done.stdout.split() == ["rc=1", ".", ".."]  # nothing left, not even a .part file


def test_a_read_only_folder_is_refused(tmp_path: Path) -> None:
    pdn = f"{sys.executable} -m pdn.cli.app"
    out = tmp_path / "fs" / "out.pdn"
    done = _in_tiny_filesystem(tmp_path, "ro", f"{pdn} convert {SAMPLES} -o {out}")
    assert done.stderr == f"pdn: {out}: cannot write in {out.parent} (read-only)\n"
    assert done.stdout.split()[0] == "rc=2"


def test_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    folder = tmp_path / "archive"
    folder.mkdir()
    name = os.fsdecode(b"Z\xfcrich.pdn")  # Latin-1 bytes: the name does not decode as UTF-8
    (folder / name).write_bytes((SAMPLES / "pool-3-vs-1-king-theory.pdn").read_bytes())
    pdn = [sys.executable, "-m", "pdn.cli.app"]
    listed = subprocess.run([*pdn, "list", str(folder)], capture_output=True)
    assert listed.returncode == 0, listed.stderr
    # a game's file is named as the user reads it: the byte that does not decode as \xNN (a
    # backslash that TSV doubles, as it doubles every backslash)
    assert listed.stdout.splitlines()[1].startswith(os.fsencode(folder) + b"/Z\\\\xfcrich.pdn\t")
    as_json = subprocess.run([*pdn, "list", "--json", str(folder)], capture_output=True)
    assert json.loads(as_json.stdout.splitlines()[0])["file"] == f"{folder}/Z\\xfcrich.pdn"
    checked = subprocess.run([*pdn, "validate", str(folder)], capture_output=True)
    assert checked.returncode == 0 and b"Traceback" not in checked.stderr


def test_dash_as_output_writes_stdout(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """`-o -` writes the games to stdout, as `-` among the inputs reads stdin, and the summary
    to stderr; no file named "-" is made (annotate and fix have no stdout without it)."""
    monkeypatch.chdir(tmp_path)
    sample = str(SAMPLES / "english-oca-first20.pdn")
    commands = [
        ["annotate"],
        ["fix", "--add-plycount"],
        ["convert"],
        ["filter", "--player", "wyllie"],
    ]
    for command in commands:
        args = [*command, sample, "-o", "-"]
        code, out, err = run(*args)
        assert code == 0, (args, err)
        assert out.startswith('[Event "Manchester 1841"]\n'), args
        assert out.count("[Event ") >= 5 and "[Event " not in err, args
    assert list(tmp_path.iterdir()) == []


def test_an_output_never_replaces_what_is_read(tmp_path: Path) -> None:
    """Writing over a file being read, or two files into one name of a folder, is one line and
    exit 2, before anything is written: no file read is replaced, no file annotated lost."""
    sample = SAMPLES / "english-oca-first20.pdn"
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    a, b = tmp_path / "a" / "x.pdn", tmp_path / "b" / "x.pdn"
    shutil.copy(sample, a)
    shutil.copy(sample, b)
    kept = a.read_bytes()
    folder, same = str(tmp_path / "a"), str(a)
    for args in (["annotate", same, "-o", same], ["convert", same, "-o", same],
                 ["filter", same, "-o", same], ["fix", same, "--add-plycount", "-o", same],
                 ["list", folder, "-o", same], ["validate", same, "--report", same],
                 ["annotate", same, "-o", f"{folder}/"]):  # fmt: skip
        code, _, err = run(*args)
        assert (code, err) == (2, f"pdn: {a}: is also read; write the output elsewhere\n"), args
    code, _, err = run("annotate", str(a), str(b), "-o", f"{tmp_path / 'out'}/")
    assert code == 2 and err == (f"pdn: {a} and {b} would both be written to "
                                 f"{tmp_path / 'out' / 'x.pdn'}: annotate them into separate "
                                 "folders\n")  # fmt: skip
    assert a.read_bytes() == kept and not (tmp_path / "out").exists()


def test_fix_says_what_it_cannot_do(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """fix: -o and --in-place together, --split-by into stdout, stdin rewritten in place: each one
    line and exit 2, nothing written (no folder named "-")."""
    monkeypatch.chdir(tmp_path)
    sample = str(SAMPLES / "english-oca-first20.pdn")
    for args, said in (
        (["fix", sample, "--in-place", "-o", "out.pdn"], "give -o OUT or --in-place, not both"),
        (["fix", sample, "--split-by", "year", "-o", "-"],
         "--split-by writes a folder: give one with -o, not -"),
        (["fix", "-", "--in-place"], "- (stdin) cannot be rewritten in place: give -o OUT"),
    ):  # fmt: skip
        assert run(*args)[::2] == (2, f"pdn: {said}\n"), args
    assert list(tmp_path.iterdir()) == []


def test_stdin_annotated_into_a_folder_is_stdin_pdn(tmp_path: Path) -> None:
    text = (SAMPLES / "english-oca-first20.pdn").read_text(encoding="utf-8")
    result = runner.invoke(app, ["annotate", "-", "-o", f"{tmp_path}/"], input=text)
    assert result.exit_code == 0
    assert [p.name for p in tmp_path.iterdir()] == ["stdin.pdn"]


def test_a_filter_spec_no_game_can_meet_is_refused() -> None:
    sample = str(SAMPLES / "english-oca-first20.pdn")
    assert run("filter", sample, "--material", "")[::2] == (2, "pdn: an empty material spec\n")
    code, _, err = run("filter", sample, "--termination", "draw-40-move", "--count")
    assert code == 2 and err.startswith("pdn: unknown termination 'draw-40-move'; one of: ")
    assert "draw-40-moves" in err and "draw-repetition" in err and "as-recorded" in err
    recorded = run("filter", sample, "--termination", "as-recorded", "--count")
    assert run("filter", sample, "--termination", "undecided", "--count") == recorded  # old name
