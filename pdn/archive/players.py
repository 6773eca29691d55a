"""Player names: variants that look like one person, and alias files that say who is who.

Archives write one player many ways: "Sijbrands, Ton", "T. Sijbrands", "Sijbrands,T.",
"SIJBRANDS T". :func:`name_key` reduces a name to its surname and first initial, so that
:func:`group_names` can show the variants side by side; a person decides which are the same
player and writes an alias file (:class:`Aliases`) that the queries and statistics then use.
Names themselves are never changed in the archive or the database.
"""

from __future__ import annotations

import csv
import unicodedata
from collections import Counter, defaultdict
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path

# Words that start a surname after the given names: "H. van der Zee", "Jan de Jong"
_PARTICLES = frozenset(
    ("van", "von", "der", "den", "de", "del", "della", "di", "da", "das", "dos", "du", "des",
     "le", "la", "ten", "ter", "te", "het")
)  # fmt: skip


def _plain(text: str) -> str:
    """Lower case without accents, dots as separators, single spaces."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(c for c in decomposed if not unicodedata.combining(c)).casefold()
    return " ".join(bare.replace(".", ". ").replace("_", " ").split())


def _is_initials(word: str) -> bool:
    """ "T.", "T", "J.M." (as split on spaces after _plain: "j." "m.")."""
    letters = word.replace(".", "").replace("-", "")
    return 0 < len(letters) <= 2 and (len(letters) == 1 or word.count(".") >= 1)


def name_key(name: str) -> tuple[str, str]:
    """(surname, initials) of a player's name as written; the initials are "" when the name
    gives none. "Sijbrands, Ton", "T. Sijbrands" and "Sijbrands T." all give ("sijbrands", "t");
    "Reed, J.P." and "James P. Reed" give ("reed", "jp")."""
    plain = _plain(name)
    if "," in plain:
        surname, _, given = plain.partition(",")
        words = given.split()
    else:
        words = plain.split()
        if len(words) <= 1:
            return (plain.replace(" ", ""), "")
        if all(_is_initials(w) for w in words[1:]) and not _is_initials(words[0]):
            surname, words = words[0], words[1:]  # "Sijbrands T.", "Sijbrands J. M."
        else:
            start = next((i for i, w in enumerate(words[:-1]) if w in _PARTICLES), len(words) - 1)
            surname, words = " ".join(words[start:]), words[:start]
    surname = surname.replace(" ", "").replace("-", "").strip(".")
    return (surname, "".join(w[0] for w in words if w[:1].isalpha()))


@dataclass(slots=True)
class NameGroup:
    """Names as written that look like one player, each with its number of games."""

    key: tuple[str, str]
    variants: list[tuple[str, int]] = field(default_factory=list)  # most games first

    @property
    def games(self) -> int:
        """Games under any of the names."""
        return sum(n for _, n in self.variants)

    @property
    def name(self) -> str:
        """The name written most often, the longest of those (a suggestion for the alias
        file)."""
        return self.variants[0][0]


NO_NAME = ("", "?", "-", "*")  # a White or Black tag that names no player (stripped)


def group_names(counts: Mapping[str, int]) -> list[NameGroup]:
    """Names grouped by surname and initials, most games first. Names whose initials begin the
    initials of exactly one longer group of the same surname join it ("Reed, J." joins "Reed,
    J.P." unless there is a "Reed, J.E." too; "Wyllie" joins "Wyllie, J."); what names no
    player (NO_NAME) is left out."""
    groups: dict[tuple[str, str], NameGroup] = {}
    for name, n in counts.items():
        if name.strip() in NO_NAME:
            continue
        key = name_key(name)
        groups.setdefault(key, NameGroup(key)).variants.append((name, n))
    by_surname: dict[str, list[str]] = defaultdict(list)
    for surname, initials in groups:
        by_surname[surname].append(initials)
    for surname, all_initials in by_surname.items():
        longest = [
            i for i in all_initials if not any(o != i and o.startswith(i) for o in all_initials)
        ]
        for initials in all_initials:
            wider = [w for w in longest if w != initials and w.startswith(initials)]
            if len(wider) == 1:
                group = groups.pop((surname, initials))
                groups[(surname, wider[0])].variants.extend(group.variants)
    for group in groups.values():
        group.variants.sort(key=lambda v: (-v[1], -len(v[0]), v[0]))
    return sorted(groups.values(), key=lambda g: (-g.games, g.name))


def player_counts(pairs: Iterable[tuple[str | None, str | None]]) -> Counter[str]:
    """Games per name as written, from (White, Black) pairs (a game counts once per player)."""
    counts: Counter[str] = Counter()
    for white, black in pairs:
        for name in {white, black}:
            if name is not None:
                counts[name] += 1
    return counts


class AliasError(ValueError):
    """An alias file that cannot be read."""


def _alias_key(name: str) -> str:
    return " ".join(name.split()).casefold()


class Aliases:
    """Which name stands for which player: each alias (a name as written, compared without
    regard to case or repeated spaces) maps to one name; names not listed stand for
    themselves."""

    __slots__ = ("_names",)

    def __init__(self, pairs: Iterable[tuple[str, str]] = ()) -> None:
        self._names: dict[str, str] = {}
        for alias, name in pairs:
            self._names[_alias_key(alias)] = name.strip()
            self._names.setdefault(_alias_key(name), name.strip())

    def __bool__(self) -> bool:
        return bool(self._names)

    def __len__(self) -> int:
        return len(self._names)

    def name(self, written: str) -> str:
        """The player a name as written stands for."""
        return self._names.get(_alias_key(written), written)

    def written(self, names: Iterable[str], player: str) -> list[str]:
        """The names among *names* (as written) that stand for a player whose name contains
        *player* (case-insensitive)."""
        want = player.casefold()
        return [n for n in names if want in self.name(n).casefold()]

    @classmethod
    def load(cls, path: Path) -> Aliases:
        """An alias file: CSV with the header ``alias,name``, one name as written per row."""
        try:
            with path.open(encoding="utf-8-sig", newline="") as fh:
                rows = list(csv.reader(fh))
        except UnicodeDecodeError as exc:
            raise AliasError(f"{path}: not UTF-8 text ({exc.reason})") from None
        if not rows or [c.strip().lower() for c in rows[0][:2]] != ["alias", "name"]:
            raise AliasError(f"{path}:1: the first line must be the header alias,name")
        pairs = []
        for line, row in enumerate(rows[1:], 2):
            if not any(c.strip() for c in row):
                continue
            if len(row) < 2 or not row[0].strip() or not row[1].strip():
                raise AliasError(f"{path}:{line}: expected an alias and a name")
            if any(c.strip() for c in row[2:]):  # an unquoted "Last, First" read as two fields
                raise AliasError(
                    f"{path}:{line}: {len(row)} fields where an alias and a name are two "
                    '(quote a name that holds a comma: "Sijbrands, Ton")'
                )
            pairs.append((row[0], row[1]))
        return cls(pairs)


def alias_rows(groups: Iterable[NameGroup], every: bool = False) -> list[tuple[str, str]]:
    """(alias, name) rows for an alias file: each variant of a group of several names mapped to
    the group's suggested name (with *every*, single names too)."""
    return [
        (variant, group.name)
        for group in groups
        if every or len(group.variants) > 1
        for variant, _ in group.variants
    ]
