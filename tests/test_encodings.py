"""Code pages by evidence: a file that is not UTF-8 is read in the code page its text is written
in (found once per file), or the one --encoding names."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from typer.testing import CliRunner

from conftest import corpus_files
from pdn.archive.validate import validate_paths
from pdn.cli.app import app
from pdn.db.connection import open_database
from pdn.db.report import html_report
from pdn.db.store import import_paths
from pdn.read import decoding
from pdn.read.decoding import (
    ENCODING_VARIABLE,
    code_page_named,
    detect_encoding,
    guess_code_page,
)
from pdn.read.reader import read_games

GAME = '[Event "{event}"]\n[White "{white}"]\n[Black "B"]\n[Result "*"]\n\n1. 11-15 23-19 *\n'


@pytest.mark.parametrize(
    ("text", "page"),
    [
        ("Müller, Jürgen; Françoise Bérénice", "cp1252"),
        ("40° Campionato Italiano, Bertè Daniele", "cp1252"),
        ("Mistrzostwa Polski, Łódź: Łukasz Żółć", "cp1250"),
        ("XXV первенство СССР, Абаулин В.", "cp1251"),
        ("XXV первенство СССР, Абаулин В.", "cp866"),
        ("XXV первенство СССР, Абаулин В.", "koi8_r"),
        ("Чемпионат России, Москва; Скобелев А. - Шварцман А.", "cp1251"),
        ("Чемпионат России, Москва; Скобелев А. - Шварцман А.", "cp866"),
        ("Чемпионат России, Москва; Скобелев А. - Шварцман А.", "koi8_r"),
    ],
)
def test_the_code_page_of_names_and_events(text: str, page: str) -> None:
    assert guess_code_page(text.encode(page)) == page


def test_the_cp1251_file_reads_as_cyrillic(corpus: Path) -> None:
    path = corpus / "russian/wiegerw2017-FAIL-abatsiev-cp1251.pdn"
    games = list(read_games(path))
    assert len(games) == 56 and {g.source.encoding for g in games} == {"cp1251"}
    assert (games[0].white, games[0].event) == ("Абаулин В.", "XXV первенство СССР")
    assert games[0].warnings[0].message.endswith("this game read as cp1251")
    twin = list(read_games(corpus / "russian/wiegerw-FAIL-abatsiev.pdn"))  # its UTF-8 original
    assert [(g.white, g.black, g.event) for g in games] == [
        (g.white, g.black, g.event) for g in twin
    ]


def test_every_corpus_file_reads_in_the_code_page_sources_tsv_gives(corpus: Path) -> None:
    files = [f for f in corpus_files() if f.path.is_file()]
    wrong = []
    for f in files:
        with f.path.open("rb") as fh:
            found = detect_encoding(fh)
        expected = {"utf-8": ("utf-8", "utf-8-sig"), "ascii": ("utf-8",)}.get(
            f.encoding.lower(), (f.encoding.lower(),)
        )
        if found not in expected:
            wrong.append((f.path.name, f.encoding, found))
    assert len(files) > 100 and not wrong


def test_the_code_page_is_found_once_per_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    names = ["Абаулин В.", "Абациев Н.", "Андреев А."]
    text = "\n".join(GAME.format(event="первенство СССР", white=n) for n in names)
    path = tmp_path / "cyrillic.pdn"
    path.write_bytes(text.encode("cp1251"))
    calls: list[bytes] = []
    real = decoding.guess_code_page

    def counted(data: bytes) -> str:
        calls.append(data)
        return real(data)

    monkeypatch.setattr(decoding, "guess_code_page", counted)
    games = list(read_games(path))
    assert [g.white for g in games] == names and len(calls) == 1


def test_encoding_forces_a_code_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "koi8.pdn"
    path.write_bytes(GAME.format(event="первенство", white="Абаулин В.").encode("koi8-r"))
    monkeypatch.setenv(ENCODING_VARIABLE, "cp1251")  # what --encoding cp1251 sets
    [wrong] = read_games(path)
    assert wrong.source.encoding == "cp1251" and wrong.white != "Абаулин В."
    monkeypatch.setenv(ENCODING_VARIABLE, "KOI8-R")
    [right] = read_games(path)
    assert (right.source.encoding, right.white) == ("koi8-r", "Абаулин В.")


def test_encoding_option_on_the_command_line(tmp_path: Path) -> None:
    path = tmp_path / "koi8.pdn"
    path.write_bytes(GAME.format(event="первенство", white="Абаулин В.").encode("koi8-r"))
    saved = os.environ.get(ENCODING_VARIABLE)
    try:
        done = CliRunner().invoke(app, ["list", "--encoding", "koi8-r", str(path)])
        assert done.exit_code == 0 and "Абаулин В." in done.output
        bad = CliRunner().invoke(app, ["list", "--encoding", "utf-32", str(path)])
        assert bad.exit_code == 2 and "--encoding: 'utf-32' is not a code page" in bad.output
        assert "Traceback" not in bad.output
    finally:
        if saved is None:
            os.environ.pop(ENCODING_VARIABLE, None)
        else:
            os.environ[ENCODING_VARIABLE] = saved


def test_code_page_names() -> None:
    assert code_page_named("KOI8-R") == "koi8-r" and code_page_named("windows-1251") == "cp1251"
    for name in ("utf-8", "utf-16", "nonsense"):
        with pytest.raises(LookupError):
            code_page_named(name)


def test_the_report_names_the_code_page_each_file_was_read_in(corpus: Path, tmp_path: Path) -> None:
    path = corpus / "russian/wiegerw2017-FAIL-abatsiev-cp1251.pdn"
    engine = open_database(str(tmp_path / "cp.db"))
    import_paths(engine, [path])
    page = html_report(engine, "cp1251")
    assert "Files not in UTF-8, and the code page each was read in" in page
    assert f"<td>{path}</td><td>cp1251</td>" in page
    [report, *_] = validate_paths([path])
    assert report.encoding == "cp1251" and report.as_dict()["encoding"] == "cp1251"
    engine.dispose()
