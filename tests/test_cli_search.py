"""`pdn filter`, the criteria `pdn query` shares, `pdn players` and `pdn stats players` end to
end, on the hand-counted archive (tests/data/README.md)."""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path

import pytest
from sqlalchemy import Engine
from typer.testing import CliRunner

from conftest import corpus_dir
from pdn.cli.app import app
from pdn.db.store import ImportStats

HAND = Path(__file__).resolve().parent / "data" / "hand-counted.pdn"
runner = CliRunner()


def run(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> str:
    path = str(tmp_path_factory.mktemp("cli") / "hand.db")
    assert run("import", str(HAND), "--db", path)[0] == 0
    return path


# the same options to filter (files) and query (database), the games found by hand
OPTIONS: list[tuple[list[str], int]] = [
    ([], 9),
    (["--player", "wyllie"], 5),
    (["--white", "wyllie*"], 2),
    (["--event", "1872", "--result", "black"], 1),
    (["--date-from", "1870", "--date-to", "1980"], 3),
    (["--result", "draw"], 2),
    (["--variant", "international"], 3),
    (["--plies-min", "6"], 3),
    (["--plies-max", "2"], 3),
    (["--invalid"], 2),
    (["--valid"], 7),
    (["--termination", "as-recorded"], 9),
    (["--termination", "undecided"], 9),
    (["-v", "english", "--moves", "11-15 23-19"], 2),
    (["-v", "international", "--fen", "W:W47,48,49,K46:BK1"], 1),
    (["--material", "W:3K1,B:1K", "--material-plies", "7"], 1),
    (["--material", "W:3K1,B:1K", "--material-plies", "8"], 0),
    (["--material", "W:11,B:11"], 2),
    (["--pattern", "WK46:BK1"], 1),
    (["--pattern", "W:B22", "-v", "english"], 1),
]


@pytest.mark.parametrize(("options", "games"), OPTIONS)
def test_filter_and_query_count_the_same(db: str, options: list[str], games: int) -> None:
    code, out, _ = run("filter", str(HAND), *options, "--count")
    assert (code, out) == (0, f"{games}\n")
    code, out, _ = run("query", "--db", db, *options, "--count")
    assert (code, out) == (0, f"{games}\n")


def test_aliases_in_filter_and_query(db: str, tmp_path: Path) -> None:
    names = tmp_path / "names.csv"
    names.write_text('alias,name\nJ. Wyllie,"Wyllie, J."\nWyllie,"Wyllie, J."\n', "utf-8")
    plain = ["--player", "Wyllie, J."]
    assert run("filter", str(HAND), *plain, "--count")[1] == "3\n"
    assert run("filter", str(HAND), *plain, "--aliases", str(names), "--count")[1] == "5\n"
    assert run("query", "--db", db, *plain, "--aliases", str(names), "--count")[1] == "5\n"


def test_filter_writes_the_games_as_read(tmp_path: Path) -> None:
    out = tmp_path / "out.pdn"
    code, _, err = run("filter", str(HAND), "--variant", "international", "-o", str(out))
    assert code == 0 and err == "3 games\n"
    blocks = HAND.read_text("utf-8").split("\n\n")
    assert out.read_text("utf-8") == "\n".join(b.strip() + "\n" for b in blocks[3:6])
    _, text, _ = run("filter", str(HAND), "--event", "Moscow", "--to", "json")
    assert json.loads(text)["moves"][0]["text"] == "c3-d4"
    code, text, _ = run("filter", str(HAND), "--event", "Moscow", "--to", "pdn",
                        "--squares", "numeric")  # fmt: skip
    assert code == 0 and "1. 22-18 " in text  # c3-d4 on the Russian numbered board
    _, text, _ = run("filter", str(HAND), "--event", "Manchester", "--to", "csv")
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [r["move"] for r in rows] == ["11-15", "22-18", "15x22", "25x18"]


def test_filter_converts_as_convert_does() -> None:
    # every game of the archive selected: the same output as pdn convert, game 8 (which does
    # not parse) included as the JSON object convert writes for it, not as its PDN text
    for to in ("pdn", "json", "csv"):
        code, filtered, _ = run("filter", str(HAND), "--to", to)
        assert code == 0 and filtered == run("convert", str(HAND), "--to", to)[1], to
    _, text, _ = run("filter", str(HAND), "--to", "json")
    eighth = json.loads(text.splitlines()[7])
    assert (eighth["index"], eighth["valid"]) == (8, False) and eighth["pdn"].startswith("[")


def test_filter_drops_duplicates(tmp_path: Path) -> None:
    for name in ("a.pdn", "b.pdn"):
        (tmp_path / name).write_text(HAND.read_text("utf-8"), "utf-8")
    assert run("filter", str(tmp_path), "--count")[1] == "18\n"
    assert run("filter", str(tmp_path), "--count", "--drop-duplicates", "copies")[1] == "9\n"
    assert run("filter", str(tmp_path), "--count", "--workers", "2")[1] == "18\n"


@pytest.mark.parametrize(
    "options",
    [
        ["--material", "W:3Q"],
        ["--pattern", "X12"],
        ["--moves", "11-15"],  # no --variant
        ["-v", "english", "--moves", "11-16 11-16"],
        ["-v", "english", "--moves", "zzz"],  # no square: a traceback (IndexError) before
        ["-v", "english", "--moves", "11-15 --"],
        ["--result", "whit"],  # a misspelling matched no game, with exit 0, before
        ["--aliases", "no/such/file.csv"],
        ["--drop-duplicates", "some"],
        ["--to", "xml"],
        ["--squares", "numeric"],  # without --to
        ["--count", "--to", "json"],
    ],
)
def test_filter_usage_errors(options: list[str]) -> None:
    code, _, err = run("filter", str(HAND), *options)
    assert code == 2 and err.startswith("pdn: ") and len(err.strip().splitlines()) == 1, err


@pytest.mark.parametrize("command", ["query", "explore"])
def test_a_word_that_names_no_square_is_a_usage_error(db: str, command: str) -> None:
    """(An IndexError's traceback before: the reason for an illegal move read its first square.)"""
    code, _, err = run(command, "--db", db, "-v", "english", "--moves", "11-15 foo")
    assert (code, err) == (2, "pdn: move 2 (foo) in english: illegal move: no square written\n")


@pytest.mark.parametrize(
    "command", [["query", "--count"], ["explore", "-v", "english"], ["stats", "draws"]]
)
def test_a_misspelt_result_is_a_usage_error(db: str, command: list[str]) -> None:
    code, _, err = run(*command, "--db", db, "--result", "whit")
    assert code == 2
    assert err == ("pdn: --result 'whit': give white, black, draw, unknown, first, second, "
                   "or a result as written (1-0)\n")  # fmt: skip
    assert run(*command, "--db", db, "--result", "White")[0] == 0  # a word, any case
    assert run(*command, "--db", db, "--result", "1/2-1/2")[0] in (0, 1)  # as written


@pytest.mark.parametrize("options", [["-o", "n.txt"], ["-f", "pdn"]])
def test_query_count_takes_no_output(db: str, options: list[str]) -> None:
    """(The count went to stdout and no file was written, with exit 0.)"""
    code, _, err = run("query", "--db", db, "--count", *options)
    assert (code, err) == (2, "pdn: --count only counts: it takes no --format or --output\n")


def test_ballots_take_no_plies(db: str) -> None:
    """(--plies was read as 3 in silence.)"""
    code, _, err = run("stats", "openings", "--db", db, "--ballots", "--plies", "4")
    assert (code, err) == (
        2,
        "pdn: --ballots groups by the three-move ballot: it takes no --plies\n",
    )
    assert run("stats", "openings", "--db", db, "--ballots")[0] == 0


def test_players(db: str, tmp_path: Path) -> None:
    code, out, _ = run("players", str(HAND), "-f", "csv")
    assert code == 0
    out_all = out
    rows = list(csv.reader(io.StringIO(out)))
    assert rows[0] == ["player", "written", "games"]
    assert rows[1:4] == [["Wyllie, J.", "Wyllie, J.", "3"], ["Wyllie, J.", "J. Wyllie", "1"],
                         ["Wyllie, J.", "Wyllie", "1"]]  # fmt: skip
    assert run("players", "--db", db, "-f", "csv")[1] == out
    aliases = tmp_path / "names.csv"
    assert run("players", str(HAND), "--write-aliases", str(aliases))[0] == 0
    written = list(csv.reader(aliases.open(encoding="utf-8")))
    assert written[0] == ["alias", "name"] and ["J. Wyllie", "Wyllie, J."] in written
    code, out, _ = run("stats", "players", "--db", db, "--aliases", str(aliases), "--player",
                       "wyllie", "-f", "csv")  # fmt: skip
    assert code == 0
    assert out.splitlines()[1] == '"Wyllie, J.",5,1,1,0,1,0,0,2,83.3,33.3'
    _, out, _ = run("stats", "players", "--db", db, "--aliases", str(aliases), "--player",
                    "wyllie", "--vs", "martins", "-f", "csv")  # fmt: skip
    assert out.splitlines()[1] == '"Wyllie, J.",2,0,1,0,1,0,0,0,75.0,50.0'
    # a file without games among the files: one line for it, the names of the others, exit 1
    folder = tmp_path / "archive"
    folder.mkdir()
    (folder / "hand.pdn").write_bytes(HAND.read_bytes())
    (folder / "empty.pdn").write_text("no game here\n", encoding="utf-8")
    code, again, err = run("players", str(folder), "-f", "csv")
    assert (code, err) == (1, f"{folder / 'empty.pdn'}: no games found\n")
    assert again == out_all


def test_opening_names_in_explore_and_stats(db: str) -> None:
    sample = str(Path(__file__).resolve().parents[1] / "samples" / "english-openings.csv")
    code, out, _ = run("stats", "openings", "--db", db, "-v", "english", "--plies", "3",
                       "--openings", sample, "-f", "csv")  # fmt: skip
    assert code == 0 and "11-15 22-18 15x22,english," in out and ",ballot 120\n" in out
    code, out, _ = run("explore", "-v", "english", "--db", db, "--moves", "11-15", "-f", "csv")
    assert code == 0 and out.splitlines()[0].startswith("move,games,")
    assert out.splitlines()[0].endswith(",name")
    code, _, err = run("explore", "-v", "english", "--db", db, "--openings", "no/such.csv")
    assert code == 2 and err == "pdn: no/such.csv: No such file or directory\n"


def test_draws_by_player_with_aliases(db: str, tmp_path: Path) -> None:
    names = tmp_path / "names.csv"
    names.write_text('alias,name\nJ. Wyllie,"Wyllie, J."\nWyllie,"Wyllie, J."\n', "utf-8")
    code, out, _ = run("stats", "draws", "--db", db, "--by", "player", "--aliases", str(names),
                       "-f", "csv")  # fmt: skip
    rows = {r["player"]: r for r in csv.DictReader(io.StringIO(out))}
    assert code == 0 and rows["Wyllie, J."]["games"] == "5" and "J. Wyllie" not in rows


@pytest.mark.slow
def test_filter_and_query_on_the_corpus(corpus_db: tuple[Engine, ImportStats]) -> None:
    """pdn filter on the corpus files, copies dropped as the database drops them, and pdn query
    on the corpus imported count the same games."""
    engine, _ = corpus_db
    db = engine.url.render_as_string(hide_password=False)
    options = ["--player", "Sijbrands"]
    code, files, _ = run("filter", str(corpus_dir()), *options, "--drop-duplicates", "copies",
                         "--count")  # fmt: skip
    assert code == 0 and run("query", "--db", db, *options, "--count")[1] == files
    assert int(files) > 0


def test_traditional_names_in_stats_openings(tmp_path: Path) -> None:
    """`pdn stats openings` and `pdn explore` name the openings of samples/english-oca-first20.pdn
    by the shipped traditional names; two of its games open 11-15 24-20, "Moorhead, W." v.
    "Wyllie, J." (Manchester 1841, 0-1) and "Hay, W." v. "Wyllie, J." (Alwick 1842, drawn)."""
    db = str(tmp_path / "oca.db")
    sample = Path(__file__).resolve().parents[1] / "samples" / "english-oca-first20.pdn"
    assert run("import", str(sample), "--db", db)[0] == 0
    code, out, _ = run("stats", "openings", "--db", db, "-v", "english", "--plies", "2",
                       "-f", "csv")  # fmt: skip
    rows = {r["opening"]: r for r in csv.DictReader(io.StringIO(out))}
    assert code == 0 and rows["11-15 24-20"]["name"] == "Ayrshire Lassie"
    assert (rows["11-15 24-20"]["games"], rows["11-15 24-20"]["draws"]) == ("2", "1")
    assert rows["11-15 23-19"]["name"] == ""  # no source read names it
    code, out, _ = run("stats", "openings", "--db", db, "--ballots", "-f", "csv")
    ballots = {r["ballot"]: r for r in csv.DictReader(io.StringIO(out))}
    assert code == 0 and ballots["ballot 130"]["name"] == "Ayrshire Lassie"
    code, out, _ = run("explore", "-v", "english", "--db", db, "--moves", "11-15", "-f", "csv")
    moves = {r["move"]: r["name"] for r in csv.DictReader(io.StringIO(out))}
    assert code == 0 and moves["24-20"] == "Ayrshire Lassie"
    mine = tmp_path / "mine.csv"
    mine.write_text("variant,moves,name\nenglish,11-15 24-20,My lassie\n", encoding="utf-8")
    code, out, _ = run("stats", "openings", "--db", db, "-v", "english", "--plies", "2",
                       "--openings", str(mine), "-f", "csv")  # fmt: skip
    rows = {r["opening"]: r for r in csv.DictReader(io.StringIO(out))}
    assert code == 0 and rows["11-15 24-20"]["name"] == "My lassie"


def test_the_database_reads_case_as_filter_does(tmp_path: Path) -> None:
    """Beyond ASCII too: SQLite's lower() left "Абациев" as written, so the database found none
    of the 56 games filter finds (a Russian archive of the corpus, its names in Cyrillic)."""
    pdn = str(corpus_dir() / "russian" / "wiegerw-FAIL-abatsiev.pdn")
    db = str(tmp_path / "ru.db")
    assert run("import", pdn, "--db", db)[0] in (0, 1)  # (a game of it is invalid: exit 1)
    for option, text in (("--player", "Абациев"), ("--player", "*АБАЦИЕВ*"), ("--event", "СССР")):
        in_files = run("filter", pdn, option, text, "--count")[1]
        assert int(in_files) > 0, (option, text)
        assert run("query", "--db", db, option, text, "--count")[1] == in_files, (option, text)
