"""The reader's lexer: the terminals of pdn.lark as one compiled regular expression.

pdn.lark stays the one definition of PDN's tokens. Its terminals are joined here in the order Lark's
own lexer tries them (priority, then width), behind the grammar's ignored whitespace, with one more
alternative, ERROR, that takes any other character; the pattern is written out below as
TOKEN_PATTERN, and tests hold it to what Lark makes of pdn.lark. One ``finditer`` over a game's text
then yields every token, as python-chess's MOVETEXT_REGEX does; the reader (pdn/read/reader.py)
follows the grammar's only nesting, variations, with an explicit stack, so no input can exhaust
Python's recursion. The LALR parser of the grammar (:func:`grammar`) is kept for the tests, which
hold the reader to it on the corpus.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from functools import cache
from importlib.resources import files
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from lark import Lark

# Token kinds, named as in pdn.lark (LPAR and RPAR are Lark's names for "(" and ")")
TAGS = "TAGS"
PLAIN_RUN = "PLAIN_RUN"
RUN = "RUN"
RESULT = "RESULT"
STAR = "STAR"
COMMENT = "COMMENT"
LINE_COMMENT = "LINE_COMMENT"
PAREN_COMMENT = "PAREN_COMMENT"
NAG = "NAG"
SETUP = "SETUP"
LPAR = "LPAR"
RPAR = "RPAR"
JUNK = "JUNK"
ERROR = "ERROR"  # not in the grammar: a character no terminal takes


def _grammar_text() -> str:
    return files("pdn.read").joinpath("pdn.lark").read_text(encoding="utf-8")


@cache
def grammar() -> Lark:
    """The LALR parser of pdn.lark with its contextual lexer (built once)."""
    from lark import Lark

    return Lark(_grammar_text(), parser="lalr", lexer="contextual", maybe_placeholders=False)


def lark_token_pattern() -> str:
    """Whitespace, then one token, each alternative named for its terminal: pdn.lark's terminals
    in the order Lark's basic lexer tries them (TOKEN_PATTERN, as tests check)."""
    from lark import Lark

    lark = Lark(_grammar_text(), parser="lalr", lexer="basic")
    ignored = [t for t in lark.terminals if t.name in lark.ignore_tokens]
    kept = [t for t in lark.terminals if t.name not in lark.ignore_tokens]
    # the order of Lark's basic lexer: it takes the first alternative that matches
    kept.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    space = "|".join(t.pattern.to_regexp() for t in ignored)
    tokens = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in kept)
    # atomic: the whitespace is never given back for ERROR to take
    return f"(?>(?:{space})?)(?:{tokens}|(?P<{ERROR}>.))"


# lark_token_pattern() written out, so that reading does not build a Lark lexer first (0.09 s)
TOKEN_PATTERN = (
    "(?>(?:[ \t\x0c\r\n\xa0\ufeff]+)?)(?:(?P<PAREN_COMMENT>\\((?=[^(){}%;]*[A-Za"
    "-z]{3})(?:[^(){}%;]|\\([^(){}%;]*\\))*\\))|(?P<RESULT>(?:1\\/2-1"
    "\\/2|1\\/2:1\\/2|½-½|0\\.5-0\\.5|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1|"
    "0:0)(?![\\d\\/.:-]))|(?P<PLAIN_RUN>(?>(?:(?!1-1(?![\\d\\/.:-]))[1-9]\\d?+("
    "?:[-x][1-9]\\d?+)++|\\d++\\.)(?:[ \t\r\n]++(?:(?!1-1(?![\\d\\/.:-]))[1-9]"
    "\\d?+(?:[-x][1-9]\\d?+)++|\\d++\\.))*+)(?![!?*(\\d."
    "\\-xX:]|[ \t\r\n]*(?!(?:1\\/2-1\\/2|1\\/2:1\\/2|½-½|0\\.5-0\\.5|1-0|0-"
    "1|2-0|0-2|1-1|0-0|1:0|0:1|0:0)(?![\\d\\/.:-]))[0-9a-lA-L.\\-xX:"
    "]))|(?P<RUN>(?:(?:(?!0\\.5-)\\d+\\s*\\.(?:\\s*\\.\\.(?!\\.))?|\\.\\.\\."
    ")|(?!(?:1\\/2-1\\/2|1-0|0-1|2-0|0-2|1-1|0-0|1:0|0:1)(?![\\d\\/.:"
    "-]))(?:[a-lA-L](?:1[0-2]|[1-9])(?:(?:[ \t]*[-xX:][ \t]*)?[a-lA"
    "-L](?:1[0-2]|[1-9]))+|\\d{1,2}(?:[ \t]*[-xX:][ \t]*\\d{1,2})+|\\d"
    "{4}(?![\\d.])|[a-h][a-h][1-8](?!\\d)|-(?=\\s|$))(?:[!?]+|\\([!?]"
    "+\\)|\\*(?![ \t]*(?:$|\n|\\[)))?)(?:[ \t\r\n]*(?:(?:(?!0\\.5-)\\d+\\s*\\"
    ".(?:\\s*\\.\\.(?!\\.))?|\\.\\.\\.)|(?!(?:1\\/2-1\\/2|1-0|0-1|2-0|0-2|"
    "1-1|0-0|1:0|0:1)(?![\\d\\/.:-]))(?:[a-lA-L](?:1[0-2]|[1-9])(?:"
    "(?:[ \t]*[-xX:][ \t]*)?[a-lA-L](?:1[0-2]|[1-9]))+|\\d{1,2}(?:[ "
    "\t]*[-xX:][ \t]*\\d{1,2})+|\\d{4}(?![\\d.])|[a-h][a-h][1-8](?!\\d)"
    "|-(?=\\s|$))(?:[!?]+|\\([!?]+\\)|\\*(?![ \t]*(?:$|\n|\\[)))?))*)|(?"
    'P<TAGS>\\[[ \t]*[^\\s"\\[\\]]+(?:[ \t]+[^\\s"\\[\\]]+)*(?:[ \t]*(?:"[^"\\'
    '\\\n]*+(?:\\\\.[^"\\\\\n]*+)*+"|"[^"\\]\n]*|[^\\]"\n]*))?[ \t]*\\](?:[ \t'
    '\r\n]*\\[[ \t]*[^\\s"\\[\\]]+(?:[ \t]+[^\\s"\\[\\]]+)*(?:[ \t]*(?:"[^"\\\\'
    '\n]*+(?:\\\\.[^"\\\\\n]*+)*+"|"[^"\\]\n]*|[^\\]"\n]*))?[ \t]*\\])*)|(?P<JU'
    "NK>\\\\[rn]|\\d+[A-Za-"
    "z](?=\\s)|[A-Za-z][A-Za-z'’,.!?]{2,}|[\\[\\]]|[^\\s\\w{}()\\[\\]\"*$"
    '%;\\/\\\\-]+)|(?P<SETUP>(?i:\\/\\s*FEN\\s*"[^"]*"\\s*\\/))|(?P<COMME'
    "NT>\\{[^}]*\\})|(?P<LINE_COMMENT>[;%][^\n]*)|(?P<NAG>\\$\\d+)|(?P"
    "<LPAR>\\()|(?P<RPAR>\\))|(?P<STAR>\\*)|(?P<ERROR>.))"
)


@cache
def token_re() -> re.Pattern[str]:
    """Whitespace, then one token, each alternative named for its terminal (TOKEN_PATTERN)."""
    return re.compile(TOKEN_PATTERN)


PlainRun = Callable[[str, int], "tuple[int, int] | None"]  # a kernel's plain_run


def lex(text: str, plain_run: PlainRun) -> Iterator[tuple[str, str, int, int]]:
    """The tokens ``token_re().finditer(text)`` finds, each as its kind, text, start and end;
    a run of plain moves found by *plain_run* (pdn.rules.pyreader.plain_run, or the C kernel's),
    the common token and the lexer's slowest, without the lexer."""
    search = token_re().search
    pos = 0
    kind: str | None = None
    while True:
        if kind != PLAIN_RUN:  # two runs in a row are rare: the lexer finds the second
            run = plain_run(text, pos)
            if run is not None:
                start, pos = run
                kind = PLAIN_RUN
                yield kind, text[start:pos], start, pos
                continue
        m = search(text, pos)
        if m is None:
            return
        kind = m.lastgroup
        assert kind is not None
        pos = m.end()
        yield kind, m.group(kind), m.start(kind), pos
