"""The reader's lexer: the terminals of pdn.lark as one compiled regular expression.

pdn.lark stays the one definition of PDN's tokens. Its terminals are joined here in the order
Lark's own lexer tries them (priority, then width), behind the grammar's ignored whitespace, with
one more alternative, ERROR, that takes any other character. One ``finditer`` over a game's text
then yields every token, as python-chess's MOVETEXT_REGEX does; the reader (pdn/reader.py) follows
the grammar's only nesting, variations, with an explicit stack, so no input can exhaust Python's
recursion. The LALR parser of the grammar (:func:`grammar`) is kept for the tests, which hold the
reader to it on the corpus.
"""

from __future__ import annotations

import re
from functools import cache
from importlib.resources import files

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
    return files("pdn").joinpath("pdn.lark").read_text(encoding="utf-8")


@cache
def grammar() -> Lark:
    """The LALR parser of pdn.lark with its contextual lexer (built once)."""
    return Lark(_grammar_text(), parser="lalr", lexer="contextual", maybe_placeholders=False)


@cache
def token_re() -> re.Pattern[str]:
    """Whitespace, then one token, each alternative named for its terminal."""
    lark = Lark(_grammar_text(), parser="lalr", lexer="basic")  # half the time to build
    ignored = [t for t in lark.terminals if t.name in lark.ignore_tokens]
    kept = [t for t in lark.terminals if t.name not in lark.ignore_tokens]
    # the order of Lark's basic lexer: it takes the first alternative that matches
    kept.sort(key=lambda t: (-t.priority, -t.pattern.max_width, -len(t.pattern.value), t.name))
    space = "|".join(t.pattern.to_regexp() for t in ignored)
    tokens = "|".join(f"(?P<{t.name}>{t.pattern.to_regexp()})" for t in kept)
    # atomic: the whitespace is never given back for ERROR to take
    return re.compile(f"(?>(?:{space})?)(?:{tokens}|(?P<{ERROR}>.))")
