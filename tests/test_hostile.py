"""Hostile files and faults (issues 12 and 17): no traceback, every other game kept, the stated
error at its place, the documented exit code. Each test makes its own hostile file."""

from __future__ import annotations

import io
import json
import os
import re
import sqlite3
import subprocess
import sys
import threading
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from pdn.archive.listing import list_games
from pdn.cli.app import app
from pdn.game import GameWarning, MoveNode
from pdn.read.files import FileProblem, NoPdnFilesError, pdn_files
from pdn.read.parser import MAX_DEPTH
from pdn.read.reader import LIMIT_VARIABLE, read_games
from pdn.read.tokens import grammar

runner = CliRunner()


def cli(*args: str, stdin: bytes | None = None) -> tuple[int, str, str]:
    """Exit code, stdout and stderr of `pdn ARGS`; fails on a traceback."""
    result = runner.invoke(app, list(args), input=stdin)
    if result.exception is not None and not isinstance(result.exception, SystemExit):
        raise result.exception
    assert "Traceback" not in result.stdout + result.stderr
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(autouse=True)
def _limit_restored(monkeypatch: pytest.MonkeyPatch) -> None:
    """--max-game-size sets the environment for worker processes: undone after each test."""
    monkeypatch.setenv(LIMIT_VARIABLE, "")


def game(n: int, moves: str = "1. 32-28 19-23 2. 28x19 14x23", end: str = "*") -> str:
    """A valid International game named by its Event tag."""
    return f'[Event "game {n}"]\n[White "W{n}"]\n[Black "B{n}"]\n[GameType "20"]\n{moves} {end}\n'


def archive(tmp_path: Path, *games: str, name: str = "a.pdn") -> Path:
    path = tmp_path / name
    path.write_text("\n".join(games), encoding="utf-8")
    return path


def events(path: Path | io.BytesIO) -> list[str | None]:
    return [g.event for g in read_games(path)]


def line_col(text: str, needle: str, nth: int = 1) -> tuple[int, int]:
    """1-based line and column of the nth occurrence of *needle* in *text*."""
    at = -1
    for _ in range(nth):
        at = text.index(needle, at + 1)
    return text.count("\n", 0, at) + 1, at - (text.rfind("\n", 0, at) + 1) + 1


# -- issue 17.1: an unclosed { or ( ends at the next game ---------------------------------------


@pytest.mark.parametrize("opener", ["{", "("])
def test_an_unclosed_comment_or_variation_costs_only_its_game(tmp_path: Path, opener: str) -> None:
    broken = game(3, f"1. 32-28 {opener} never closed 19-23\n2. 37-32")
    path = archive(tmp_path, *(game(n) for n in (1, 2)), broken, *(game(n) for n in (4, 5, 6, 7)))
    games = list(read_games(path))
    assert [g.event for g in games] == [f"game {n}" for n in range(1, 8)]
    third = games[2]
    assert (third.white, third.black) == ("W3", "B3")  # not the next game's
    error = third.syntax_error
    assert error is not None and all(g.syntax_error is None for g in games if g is not third)
    text = path.read_text()
    assert (error.line, error.column) == line_col(text, opener + " never")
    what = "comment" if opener == "{" else "variation"
    assert error.message.startswith(f'{what} not closed: found "{opener}" with no')
    code, _, err = cli("list", str(path))
    assert code == 1 and err.splitlines() == [str(error), "7 games, 1 syntax errors"]


def test_a_comment_left_open_runs_to_the_blank_line_before_a_tag_line(tmp_path: Path) -> None:
    # a blank line alone does not end the comment: only a blank line and then a tag line
    broken = game(2, "1. 32-28 {open\n\nstill the comment\n\n1. 33-29")
    path = archive(tmp_path, game(1), broken, game(3))
    games = list(read_games(path))
    assert [g.event for g in games] == ["game 1", "game 2", "game 3"]
    assert games[1].raw.endswith("1. 33-29 *")
    assert games[2].syntax_error is None and games[2].ply_count() == 4


# -- issue 17.2: nested variations at any depth --------------------------------------------------


def nested(depth: int) -> str:
    return "1. 32-28 " + "(32-28 " * depth + ")" * depth + " 19-23"


@pytest.mark.parametrize("depth", [MAX_DEPTH + 1, 5000])
def test_variations_nested_too_deep_are_a_syntax_error_of_their_game(
    tmp_path: Path, depth: int
) -> None:
    text = "\n".join([game(1), game(2, nested(depth)), game(3)])
    path = archive(tmp_path, text)
    games = list(read_games(path))
    assert [g.event for g in games] == ["game 1", "game 2", "game 3"]
    error = games[1].syntax_error
    assert error is not None and games[0].syntax_error is None and games[2].syntax_error is None
    assert (error.line, error.column) == line_col(text, "(", MAX_DEPTH + 1)
    assert error.message == (
        f'variation nested too deep: "(" at level {MAX_DEPTH + 1}, at most {MAX_DEPTH} are read; '
        "expected ')'"
    )
    code, _, err = cli("list", str(path))
    assert code == 1 and err.rstrip().endswith("3 games, 1 syntax errors")
    code, out, _ = cli("validate", str(path))
    assert code == 1 and "\nsyntax errors\t1\n" in out
    db = tmp_path / "t.db"
    code, _, _ = cli("import", str(path), "--db", str(db))
    with sqlite3.connect(db) as conn:  # one record per game of the file (games 1 and 3 alike)
        assert conn.execute("select count(*) from occurrences").fetchone() == (3,)
    code, out, _ = cli("convert", str(path))
    assert code == 0 and out.count("[Event ") == 3
    code, _, _ = cli("annotate", str(path), "-o", str(tmp_path / "n.pdn"))
    assert code == 0 and (tmp_path / "n.pdn").read_text().count("[Event ") == 3


def test_variations_nested_to_the_limit_are_read_and_replayed_everywhere(tmp_path: Path) -> None:
    path = archive(tmp_path, game(1), game(2, nested(MAX_DEPTH)))
    [_, deep] = list(read_games(path))
    assert deep.syntax_error is None and deep.ply_count() == 2
    node, depth = deep.mainline()[0], 0
    while node.variations:
        child = node.variations[0][0]
        assert isinstance(child, MoveNode)
        node, depth = child, depth + 1
    assert depth == MAX_DEPTH
    for command in (["validate"], ["convert"], ["annotate", "-o", str(tmp_path / "n.pdn")]):
        code, _, _ = cli(*command, str(path))
        assert code == 0, command
    code, _, _ = cli("import", str(path), "--db", str(tmp_path / "t.db"))
    assert code == 0


# -- issue 17.4: a game or run of text over the size limit ---------------------------------------


def test_a_game_or_run_of_text_over_the_limit_is_reported_and_passed_over(tmp_path: Path) -> None:
    junk = "x" * 200_000  # one line without a line end, over a limit of 64 KB
    big = game(3, "1. 32-28 {" + "y" * 200_000 + "} 19-23")
    path = archive(tmp_path, game(1), junk, game(2), big, game(4))
    code, out, err = cli("list", "--max-game-size", "64KB", "--json", str(path))
    assert code == 1
    rows = [json.loads(line) for line in out.splitlines()]
    assert [r["event"] for r in rows] == ["game 1", "", "game 2", "game 3", "game 4"]
    text = path.read_text()
    # a chunk counts its lines with their line ends, the blank line after it included
    sizes = (len(junk) + 1, len(big) + 1)
    errors = err.splitlines()[:-1]
    assert errors == [
        f"{path}:{line_col(text, 'xxx')[0]}:1: game 2: game too large: {sizes[0]:,} bytes "
        "before the next game, over the limit of 65,536; passed over unread",
        f"{path}:{line_col(text, 'game 3')[0]}:1: game 4: game too large: {sizes[1]:,} bytes "
        "before the next game, over the limit of 65,536; passed over unread",
    ]
    assert rows[3]["white"] == "W3" and rows[3]["plies"] == 0  # its tag section was kept
    code, _, err = cli("list", "--max-game-size", "lots", str(path))
    assert code == 2 and err.startswith("pdn: --max-game-size: not a size: 'lots'")


def test_text_after_a_game_is_not_glued_onto_its_stored_text(tmp_path: Path) -> None:
    path = archive(tmp_path, game(1) + "these words are no game\n", game(2))
    first, second = read_games(path)
    assert first.raw == game(1).strip()
    skipped = 'text outside any game skipped: "these words are no game"'
    assert first.warnings == [GameWarning(6, 1, skipped)]
    assert second.raw == game(2).strip() and not second.warnings


@pytest.mark.slow
def test_memory_stays_flat_on_a_50_mb_line_without_a_line_end(tmp_path: Path) -> None:
    path = tmp_path / "huge.pdn"
    with path.open("w") as fh:
        fh.write(game(1) + "\n" + "x" * 50_000_000 + "\n\n" + game(2))
    measured = (  # the command's own peak resident size in KB, printed last on stderr (not
        # getrusage: on Linux its maximum carries over from the forked test process)
        "import re, sys\nfrom pdn.cli.app import main\ntry:\n    main()\nfinally:\n"
        "    status = open('/proc/self/status').read()\n"
        "    print(re.search(r'VmHWM:\\s+(\\d+)', status).group(1), file=sys.stderr)"
    )
    command = [sys.executable, "-c", measured, "list", str(path)]
    done = subprocess.run(command, capture_output=True, text=True, timeout=600)
    assert done.returncode == 1 and "\n3 games, 1 syntax errors\n" in done.stderr
    assert "game too large: 50,000,002 bytes" in done.stderr  # the line and a blank one
    peak = int(done.stderr.split()[-1])
    assert peak < 300_000, f"peak {peak} KB"


# -- issue 17.5: decoding per game ---------------------------------------------------------------


def test_one_bad_byte_turns_only_its_own_game_to_cp1252(tmp_path: Path) -> None:
    data = "\n".join([game(1).replace("W1", "Zürich"), game(2), game(3).replace("W3", "Zürich")])
    raw = data.encode("utf-8").replace(b"W2", b"Kouam\xe9")
    path = tmp_path / "mixed.pdn"
    path.write_bytes(raw)
    first, second, third = read_games(path)
    assert (first.white, second.white, third.white) == ("Zürich", "Kouamé", "Zürich")
    assert [g.source.encoding for g in (first, second, third)] == ["utf-8", "cp1252", "utf-8"]
    line = raw[: raw.index(b"\xe9")].count(b"\n") + 1
    cp1252 = "not UTF-8 (byte 0xE9): this game read as cp1252"
    assert second.warnings == [GameWarning(line, None, cp1252)]
    assert not first.warnings and not third.warnings


@pytest.mark.parametrize("encoding", ["utf-16-le", "utf-16-be"])
def test_utf16_files_with_a_bom(tmp_path: Path, encoding: str) -> None:
    text = game(1).replace("W1", "Zürich") + "\r\n" + game(2)
    bom = "\ufeff".encode(encoding)
    path = tmp_path / "u16.pdn"
    path.write_bytes(bom + text.encode(encoding))
    first, second = read_games(path)
    assert (first.white, second.event) == ("Zürich", "game 2")
    assert [g.source.encoding for g in (first, second)] == [encoding, encoding]
    assert second.source.offset == len(bom) + len(
        text[: text.index('[Event "game 2')].encode(encoding)
    )
    assert second.source.line == 7


# -- issue 17.7: files and names -----------------------------------------------------------------


def test_a_file_name_that_is_not_utf8(tmp_path: Path) -> None:
    folder = tmp_path / "names"
    folder.mkdir()
    name = os.path.join(os.fsencode(folder), b"caf\xe9.pdn")
    with open(name, "w", encoding="utf-8") as fh:
        fh.write(game(1))
    shown = f"{folder}/caf\\xe9.pdn"
    code, out, _ = cli("list", "--json", str(folder))
    assert code == 0 and json.loads(out)["file"] == shown
    db = tmp_path / "t.db"
    code, _, _ = cli("import", str(folder), "--db", str(db))
    assert code == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("select path from source_files").fetchall() == [(shown,)]
        assert conn.execute("select count(*) from games").fetchone() == (1,)


def test_a_pipe_named_on_the_command_line_is_read(tmp_path: Path) -> None:
    fifo = tmp_path / "pipe.pdn"
    os.mkfifo(fifo)

    def write() -> None:
        with fifo.open("w") as fh:
            fh.write(game(1) + "\n" + game(2))

    for command in (["list"], ["validate"]):
        writer = threading.Thread(target=write)
        writer.start()
        code, out, err = cli(*command, str(fifo))
        writer.join()
        assert code == 0 and ("2 games," in err or "\nvalid\t2\n" in out), out


def test_each_unreadable_file_gets_one_line_and_the_others_are_read(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "archive"
    (folder / "locked").mkdir(parents=True)
    archive(folder, game(1), name="a.pdn")
    archive(folder, game(2), name="b.pdn")
    archive(folder / "locked", game(3), name="c.pdn")
    archive(folder, game(4), name="d.pdn")
    os.mkfifo(folder / "e.pdn")
    (folder / "f.pdn").symlink_to(folder / "nowhere.pdn")
    # root reads any file: the refusals of a normal user's system are made here
    real_access, real_scandir = os.access, os.scandir

    def access(path: object, mode: int) -> bool:
        return not str(path).endswith("b.pdn") and real_access(path, mode)  # type: ignore[arg-type]

    def scandir(path: object) -> object:
        if str(path).endswith("locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[call-overload]

    monkeypatch.setattr(os, "access", access)
    monkeypatch.setattr(os, "scandir", scandir)
    expected = [
        f"{folder}/b.pdn: not read: permission denied",
        f"{folder}/e.pdn: not read: not a regular file",
        f"{folder}/f.pdn: not read: No such file or directory",
        f"{folder}/locked: folder not read: Permission denied",
    ]
    problems: list[FileProblem] = []
    assert pdn_files([folder], problems) == [folder / "a.pdn", folder / "d.pdn"]
    assert sorted(map(str, problems)) == expected
    problems.clear()
    rows = list(list_games([folder], on_problem=problems.append))
    assert sorted(map(str, problems)) == expected
    assert [r.event for r in rows] == ["game 1", "game 4"]
    for command in (["list"], ["validate"], ["import", "--db", str(tmp_path / "t.db")]):
        code, _, err = cli(*command, str(folder))
        assert code == 1, command
        named = [line for line in err.splitlines() if line.startswith(f"{folder}/")]
        assert sorted(named) == expected, command  # list's count of games follows them
    with sqlite3.connect(tmp_path / "t.db") as conn:
        assert conn.execute("select count(*) from occurrences").fetchone() == (2,)


def test_an_unreadable_file_named_on_the_command_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    good, bad = (
        archive(tmp_path, game(1), name="good.pdn"),
        archive(tmp_path, game(2), name="x.pdn"),
    )
    real_open = Path.open

    def refuse(self: Path, *args: Any, **kwargs: Any) -> Any:
        if self.name == "x.pdn":
            raise PermissionError(13, "Permission denied", str(self))
        return real_open(self, *args, **kwargs)

    monkeypatch.setattr(Path, "open", refuse)
    for command in (["list"], ["validate"]):
        code, _, err = cli(*command, str(bad), str(good))
        assert code == 1 and err.splitlines()[0] == f"{bad}: not read: Permission denied"


def test_dash_reads_standard_input(tmp_path: Path) -> None:
    data = (game(1) + "\n" + game(2)).encode()
    code, out, _ = cli("list", "--json", "-", stdin=data)
    assert code == 0 and out.count('"file": "<stdin>"') == 2
    code, out, _ = cli("validate", "-", stdin=data)
    assert code == 0 and "\nvalid\t2\n" in out
    db = tmp_path / "t.db"
    code, _, _ = cli("import", "-", "--db", str(db), stdin=data)
    assert code == 0
    with sqlite3.connect(db) as conn:
        assert conn.execute("select path, games from source_files").fetchall() == [("<stdin>", 2)]


# -- issue 12: junk is not a game ------------------------------------------------------------------

README = """# A project

Some words, a list and a link:

- one item, 2-3 minutes
- [a link](https://example.org) and [Round 17]
1. first step: run it
2. second step (takes 3-4 s) **bold** 1-0 here
"""


@pytest.mark.parametrize(
    "content",
    [README.encode(), bytes(range(256)) * 40, b"\x7fELF\x02\x01\x01" + bytes(5000), b"", b"\n \n"],
    ids=["readme", "binary", "elf", "empty", "blank"],
)
def test_a_file_without_tag_or_move_is_no_games_found(tmp_path: Path, content: bytes) -> None:
    path = tmp_path / "README.md"
    path.write_bytes(content)
    assert list(read_games(path)) == []
    problems: list[FileProblem] = []
    assert list(list_games([path], on_problem=problems.append)) == []
    assert problems == [FileProblem(str(path), "no games found")]
    db = tmp_path / "t.db"
    for command in (["list"], ["validate"], ["import", "--db", str(db)]):
        code, _, err = cli(*command, str(path))
        assert code == 1 and err.splitlines()[0] == f"{path}: no games found", command
    with sqlite3.connect(db) as conn:
        assert conn.execute("select count(*) from games").fetchone() == (0,)
        assert conn.execute("select count(*) from source_files").fetchone() == (0,)


def test_an_empty_folder_or_one_without_pdn_files_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    (tmp_path / "other").mkdir()
    (tmp_path / "other" / "notes.txt").write_text("1. 32-28 *")
    with pytest.raises(NoPdnFilesError):
        pdn_files([tmp_path / "empty"])
    for folder in ("empty", "other"):
        for command in ("list", "validate", "convert"):
            code, _, err = cli(command, str(tmp_path / folder))
            expected = f"pdn: {tmp_path / folder}: no PDN files (*.pdn) in this folder\n"
            assert (code, err) == (2, expected), command


HOSTILE = [
    "1. 32-28 }",
    "1. 32-28 )",
    "1. 32-28 (19-23 1-0)",
    '1. 32-28 "quoted"',
    "1. 32-28 \\ 19-23",
    '1. 32-28 (19-23 [Event "x"] *',
    "1. 32-28 {open",
    "1. 32-28 (open",
    "1. 32-28 _ 19-23",
]


@pytest.mark.parametrize("movetext", HOSTILE)
def test_syntax_errors_name_what_was_found_and_expected_in_words(movetext: str) -> None:
    text = '[Event "x"]\n' + movetext + " *\n"
    [g, *_] = read_games(io.BytesIO(text.encode()))
    error = g.syntax_error
    assert error is not None and error.expected
    terminals = {t.name for t in grammar().terminals} | {"LPAR", "RPAR", "ERROR"}
    assert not set(re.findall(r"[A-Z_]{3,}", error.message)) & terminals, error.message
    assert error.message.startswith(("found ", "comment not closed", "variation not closed"))
    assert "found " in error.message and (
        "expected " in error.message or " with no " in error.message
    )
    found = text.splitlines()[error.line - 1][error.column - 1 :]
    assert found.startswith(error.text[:1]) or error.text == ""
