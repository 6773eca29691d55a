"""What the commands print: values made visible, tables that never cut a value, files written
whole or not at all."""

from __future__ import annotations

import errno
import io
import json
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from pdn.cli import output
from pdn.cli.output import (
    Format,
    OutputError,
    cell_width,
    json_line,
    print_table,
    table_lines,
    tsv_field,
    visible,
    wrap,
    written,
)


def test_control_characters_are_made_visible() -> None:
    assert visible("A\x1b[31mRED") == "A\\x1b[31mRED"  # an escape code
    assert visible("\x9b2J") == "\\x9b2J"  # the one-byte CSI of C1
    assert visible("\x1b]8;;http://x\x1b\\link") == "\\x1b]8;;http://x\\x1b\\link"  # OSC-8
    assert visible("abc\u202edef") == "abc\\u202edef"  # right-to-left override
    assert visible("a\tb\nc\x00") == "a\\tb\\nc\\x00"
    assert visible("a\tb\nc", lines=True) == "a\tb\nc"
    assert visible(b"Z\xfcrich".decode("utf-8", "surrogateescape")) == "Z\\xfcrich"
    # markup and ordinary text stay as written
    assert visible("Cup [b]final[/b] x[/bold] Zürich 王") == "Cup [b]final[/b] x[/bold] Zürich 王"


def test_cell_width_counts_wide_characters_twice() -> None:
    assert cell_width("abc") == 3
    assert cell_width("王様") == 4
    assert cell_width("e\u0301") == 1  # e and a combining acute accent


@given(st.text(alphabet=st.sampled_from("ab 王\u0301-"), max_size=60), st.integers(1, 12))
def test_wrap_keeps_every_character(text: str, width: int) -> None:
    lines = wrap(text, width)
    assert "".join(lines).replace(" ", "") == text.replace(" ", "")
    assert all(cell_width(line) <= max(width, 2) for line in lines)


def test_table_wraps_long_values_to_the_width() -> None:
    rows = [
        ("1", "Sijbrands, Ton", "Andreiko, Iser Koeperman", "1-1"),
        ("2", "Wiersma, Harm", "Van der Wal, Jannes", "2-0"),
    ]
    lines = list(table_lines(["#", "white", "black", "result"], rows, 36))
    # 45 columns of values and 6 of gaps into 36: black narrowed to white's 14, then both in
    # turn down to 11 and 12; values wrap at their spaces
    assert lines == [
        "#  white" + " " * 8 + "black" + " " * 9 + "result",
        "─  ───────────  ────────────  ──────",
        "1  Sijbrands,   Andreiko,     1-1",
        "   Ton" + " " * 10 + "Iser",
        " " * 16 + "Koeperman",
        "2  Wiersma,     Van der Wal,  2-0",
        "   Harm" + " " * 9 + "Jannes",
    ]
    assert all(cell_width(line) <= 36 for line in lines)


def test_table_wraps_the_names_of_number_columns_before_any_text() -> None:
    rows = [("11-15 23-19", "english", 10, "50.0")]
    lines = list(table_lines(["opening", "variant", "white_wins", "draw_rate"], rows, 31))
    # 37 columns of values and 6 of gaps into 31: the number columns narrowed first, down to
    # their names' words (white_ and draw_), then the opening down to its header (7): no word
    # and no number is cut
    assert lines == [
        "opening  variant  white_  draw_",
        " " * 18 + "wins" + " " * 4 + "rate",
        "───────  ───────  ──────  ─────",
        "11-15    english      10   50.0",
        "23-19",
    ]


def test_a_table_that_would_cut_words_in_two_columns_is_shown_as_records() -> None:
    """Where fitting the width cuts the words of more than one text column, each row is a
    record: a line a column, its name then its value; a blank line between rows, the grouped
    column a heading. (At 80 columns, pdn query squeezed 14 columns to 4 characters a line.)"""
    heads = ["file", "white", "black", "event"]
    rows = [("f.pdn", "Wyllie, James", "Moorhead, Walter", "Manchester Match 1841"),
            ("f.pdn", "Wyllie, James", "Hay, W.", "Alwick 1842")]  # fmt: skip
    # 30 columns: the words fit (7 + 9 + 10 and the gaps), a table
    assert list(table_lines(heads, rows, 30, group=0))[:4] == [
        "white    black      event",
        "───────  ─────────  ──────────",
        "f.pdn",
        "Wyllie,  Moorhead,  Manchester",
    ]
    # 28: event and black would be cut within a word
    assert list(table_lines(heads, rows, 28, group=0)) == [
        "f.pdn",
        "white  Wyllie, James",
        "black  Moorhead, Walter",
        "event  Manchester Match 1841",
        "",
        "white  Wyllie, James",
        "black  Hay, W.",
        "event  Alwick 1842",
    ]
    assert list(table_lines(heads, rows, 20, group=0))[2:6] == [
        "black  Moorhead,", "       Walter", "event  Manchester", "       Match 1841",
    ]  # fmt: skip


def test_table_without_width_keeps_values_on_one_line() -> None:
    rows = [("a", "x" * 100, 3), ("bb", "y", 12)]
    lines = list(table_lines(["k", "long", "n"], rows, None, group=None))
    assert lines[2] == "a   " + "x" * 100 + "   3"
    assert lines[3] == "bb  y" + " " * 101 + "12"


def test_table_groups_a_column_into_headings() -> None:
    rows = [("f.pdn", 1, "A"), ("f.pdn", 2, "B"), ("g.pdn", 1, "C")]
    lines = list(table_lines(["file", "index", "white"], rows, 80, group=0))
    assert lines == [
        "index  white",
        "─────  ─────",
        "f.pdn",
        "    1  A",
        "    2  B",
        "g.pdn",
        "    1  C",
    ]


def test_tsv_fields_escape_what_would_break_a_line() -> None:
    assert tsv_field("a\tb\nc\\d\x1b") == "a\\tb\\nc\\\\d\\x1b"
    assert tsv_field(None) == "" and tsv_field(float("nan")) == "" and tsv_field(12) == "12"


def test_json_lines_escape_terminal_controls_and_read_back() -> None:
    value = "A\x1b[31m\x9b\u202eZ王"
    line = json_line({"v": value})
    assert line == '{"v": "A\\u001b[31m\\u009b\\u202eZ王"}'
    assert json.loads(line) == {"v": value}


def test_print_table_formats(capsys: pytest.CaptureFixture[str]) -> None:
    rows = [("Wyllie, J.", 44, None), ('say "x"', 3, 0.5)]
    assert print_table(["name", "plies", "score"], rows, Format.TSV) == 2
    assert capsys.readouterr().out == 'name\tplies\tscore\nWyllie, J.\t44\t\nsay "x"\t3\t0.5\n'
    print_table(["name", "plies", "score"], rows, Format.CSV)
    assert capsys.readouterr().out == 'name,plies,score\n"Wyllie, J.",44,\n"say ""x""",3,0.5\n'
    print_table(["name", "plies", "score"], rows, Format.JSON)
    assert [json.loads(x) for x in capsys.readouterr().out.splitlines()] == [
        {"name": "Wyllie, J.", "plies": 44, "score": None},
        {"name": 'say "x"', "plies": 3, "score": 0.5},
    ]


def test_a_file_appears_only_when_written_whole(tmp_path: Path) -> None:
    target = tmp_path / "out.txt"
    with written(target) as sink:
        sink.write("one\n")
        assert not target.exists()  # written beside it under a temporary name
    assert target.read_text() == "one\n" and list(tmp_path.iterdir()) == [target]
    with pytest.raises(RuntimeError), written(target) as sink:
        sink.write("two\n")
        raise RuntimeError("stopped half-way")
    assert target.read_text() == "one\n" and list(tmp_path.iterdir()) == [target]


class _FullDisk(io.StringIO):
    """A file on a disk that fills up after *room* characters."""

    def __init__(self, room: int) -> None:
        super().__init__()
        self.room = room

    def write(self, text: str) -> int:
        if self.tell() + len(text) > self.room:
            raise OSError(errno.ENOSPC, "No space left on device")
        return super().write(text)

    def fileno(self) -> int:
        raise OSError(errno.EBADF, "no descriptor")


def test_a_full_disk_leaves_no_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    part = tmp_path / ".out.txt.x.part"

    def fake_part(folder: Path, name: str, newline: str | None) -> tuple[io.StringIO, Path]:
        part.write_text("")
        return _FullDisk(10), part

    monkeypatch.setattr(output, "_open_part", fake_part)
    target = tmp_path / "out.txt"
    with (
        pytest.raises(OutputError, match=r"out\.txt: No space left on device"),
        written(target) as sink,
    ):
        sink.write("0123456789" * 3)
    assert list(tmp_path.iterdir()) == []


class _Terminal(io.StringIO):
    def isatty(self) -> bool:
        return True


def test_what_reaches_a_terminal_shows_control_characters(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    screen = _Terminal()
    monkeypatch.setattr("sys.stdout", screen)
    with written(None) as sink:  # stdout: converted games, exported PDN
        sink.write('[White "A\x1b[31mRED"]\n\t1. 32-28\n')
    assert screen.getvalue() == '[White "A\\x1b[31mRED"]\n\t1. 32-28\n'
