"""Player names: keys, groups of variants, alias files."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from conftest import corpus_dir
from pdn.files import pdn_files
from pdn.players import AliasError, Aliases, alias_rows, group_names, name_key, player_counts
from pdn.reader import read_games


@pytest.mark.parametrize(
    ("name", "key"),
    [
        ("Sijbrands, Ton", ("sijbrands", "t")),
        ("T. Sijbrands", ("sijbrands", "t")),
        ("Sijbrands,T.", ("sijbrands", "t")),
        ("SIJBRANDS T", ("sijbrands", "t")),
        ("Ton Sijbrands", ("sijbrands", "t")),
        ("Sijbrands", ("sijbrands", "")),
        ("H.  van der Zee", ("vanderzee", "h")),
        ("van der Zee, H.", ("vanderzee", "h")),
        ("Van der Wal", ("vanderwal", "")),
        ("Reed, J.P.", ("reed", "jp")),
        ("James P. Reed", ("reed", "jp")),
        ("Wm. F. Ryan", ("ryan", "wf")),
        ("Walter Hellman", ("hellman", "w")),
        ("Шварцман А.", ("шварцман", "а")),
        ("Baba Sy", ("sy", "b")),
    ],
)
def test_name_keys(name: str, key: tuple[str, str]) -> None:
    assert name_key(name) == key


def test_groups_join_shorter_initials_only_when_unambiguous() -> None:
    counts = Counter({"Reed, J.P.": 144, "James P. Reed": 2, "Reed, J.E.": 13, "Reed, J.": 1,
                      "James Reed": 1, "Wyllie, J.": 606, "Wyllie": 16, "?": 9})  # fmt: skip
    groups = {tuple(sorted(v for v, _ in g.variants)) for g in group_names(counts)}
    assert groups == {
        ("James P. Reed", "Reed, J.P."),
        ("Reed, J.E.",),
        ("James Reed", "Reed, J."),  # J. could be J.P. or J.E.
        ("Wyllie", "Wyllie, J."),
    }


def test_sijbrands_in_the_corpus() -> None:
    # grep over the corpus: White and Black tags, "Sijbrands, Ton" 20 + 20, "T. Sijbrands"
    # 18 + 8, "Sijbrands,T." 10 + 11 (he never plays himself)
    pairs = [(g.white, g.black) for f in pdn_files([corpus_dir()]) for g in read_games(f)]
    groups = [g for g in group_names(player_counts(pairs)) if g.key == ("sijbrands", "t")]
    assert len(groups) == 1
    assert groups[0].variants == [
        ("Sijbrands, Ton", 40),
        ("T. Sijbrands", 26),
        ("Sijbrands,T.", 21),
    ]
    assert groups[0].name == "Sijbrands, Ton" and groups[0].games == 87


def test_player_counts_once_per_game() -> None:
    assert player_counts([("A", "B"), ("A", "A"), (None, "B")]) == Counter({"A": 2, "B": 2})


def test_alias_file(tmp_path: Path) -> None:
    path = tmp_path / "names.csv"
    path.write_text('alias,name\nT. Sijbrands,"Sijbrands, Ton"\nsijbrands,t.,"Sijbrands, Ton"\n'
                    "\n", encoding="utf-8")  # fmt: skip
    aliases = Aliases.load(path)
    assert aliases.name("T.  SIJBRANDS") == "Sijbrands, Ton"  # case and spaces do not matter
    assert aliases.name("Sijbrands, Ton") == "Sijbrands, Ton"
    assert aliases.name("Wiersma") == "Wiersma"
    written = ["T. Sijbrands", "Sijbrands, Ton", "Sijbrands", "Wiersma, Harm"]
    assert aliases.written(written, "sijbrands, t") == ["T. Sijbrands", "Sijbrands, Ton"]


def test_alias_file_errors(tmp_path: Path) -> None:
    for text, where in (("name,alias\nA,B\n", ":1:"), ("alias,name\nA\n", ":2:"),
                        ("alias,name\nA,\n", ":2:")):  # fmt: skip
        path = tmp_path / "bad.csv"
        path.write_text(text, encoding="utf-8")
        with pytest.raises(AliasError, match=where):
            Aliases.load(path)


def test_alias_rows_from_groups() -> None:
    groups = group_names(Counter({"Wyllie, J.": 606, "Wyllie": 16, "Ferrie, J.": 5}))
    assert alias_rows(groups) == [("Wyllie, J.", "Wyllie, J."), ("Wyllie", "Wyllie, J.")]
    assert ("Ferrie, J.", "Ferrie, J.") in alias_rows(groups, every=True)
