"""A game's movetext: the element patterns, tag pairs and move texts, and the tree built from a
game's tokens only when it is first asked for (:class:`MovetextLoader`, :func:`plain_moves`)."""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Sequence
from functools import lru_cache

from pdn.game import (
    CommentNode,
    Game,
    MoveNode,
    Node,
    SetupNode,
)
from pdn.read.chunks import TAG_RE
from pdn.read.tokens import (
    COMMENT,
    JUNK,
    LINE_COMMENT,
    NAG,
    PAREN_COMMENT,
    PLAIN_RUN,
    RESULT,
    RUN,
    SETUP,
    STAR,
    TAGS,
)

# -- tokens to games ------------------------------------------------------------------------------

_ELEMENT = (
    r"(?P<a>[1-9]\d?)(?P<sep>[-x])(?P<b>[1-9]\d?)(?![-xX:\d!?*(]| [-xX:])"  # fast path: 32-28
    r"|(?P<num>\d+\s*\.(?:\s*\.\.)?|\.\.\.)"
    r"|(?P<move>\d{1,2}(?:[ \t]*[-xX:][ \t]*\d{1,2})+|\d{4}"
    r"|[a-lA-L](?:1[0-2]|[1-9])(?:(?:[ \t]*[-xX:][ \t]*)?[a-lA-L](?:1[0-2]|[1-9]))+"
    r"|[a-h][a-h][1-8]|-)"
    r"(?P<strength>[!?]+|\([!?]+\)|\*)?"
)
ELEMENT_RE = re.compile(_ELEMENT)
# a run of nothing but move numbers and moves of the fast path above, and those moves' squares
_PLAIN_RUN = re.compile(
    r"\s*(?:(?:[1-9]\d?[-x][1-9]\d?(?![-xX:\d!?*(]| [-xX:])|\d+\s*\.(?:\s*\.\.)?|\.\.\.)\s*)*"
)
_PLAIN_MOVE = re.compile(r"[1-9]\d?[-x][1-9]\d?")


class _PlainWords(dict[str, tuple[str, ...]]):
    """The squares of each word of a plain run, remembered: of a move written as numbers joined
    by "-" or "x" ("32-28", "26x17x8"); () for a move number ("12."). Looked up by a C loop
    (``map(_PLAIN_WORDS.__getitem__, words)``), as a run's words are many."""

    def __missing__(self, word: str) -> tuple[str, ...]:
        if len(self) >= 1 << 16:  # memory stays bounded
            self.clear()
        squares = () if word[-1] == "." else tuple(word.replace("x", "-").split("-"))
        self[word] = squares
        return squares


_PLAIN_WORDS = _PlainWords()


# the same elements with one group, the move number: findall gives "" for each move
_NUMBER_RE = re.compile(re.sub(r"\(\?P<(?!num>)\w+>", "(?:", _ELEMENT).replace("(?P<num>", "("))
_RUSSIAN_SHORT = re.compile(r"[a-h][a-h][1-8]")
_SQUARE_RE = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])|\d{1,2}")
_TAG_PARTS = re.compile(r'^\[\s*(.*?)\s*(?:"((?:\\.|[^"\\])*)"\s*)?\]$', re.S)
_PLAIN_TAG = re.compile(r'\[([A-Za-z_]\w*)[ \t]*"([^"\\\n]*)"[ \t]*\]')
_QUOTED_TAG = re.compile(r'\[[ \t]*[A-Za-z_&][^"\]]*"')  # [Name "... (a name, then a quote)
_TAG_NAME_VALUE = re.compile(r"^(\S+(?:\s+\S+)*?)\s+(\S.*)$")
_WS = re.compile(r"\s+")
_FEN_VALUE = re.compile(r'"([^"]*)"')


def moves_in_run(kind: str, run: str) -> int:
    """The number of moves in a RUN or PLAIN_RUN token (its move numbers left out)."""
    if kind == PLAIN_RUN:  # words that are moves or move numbers (one dot each)
        return len(run.split()) - run.count(".")
    return _NUMBER_RE.findall(run).count("")


def squares_moved(kind: str, run: str) -> bool:
    """Whether a run holds a move from a square (not only "-", the unknown move)."""
    return kind == PLAIN_RUN or any(
        m.group("a") or m.group("move") not in (None, "-") for m in ELEMENT_RE.finditer(run)
    )


def parse_tag(text: str) -> tuple[str, str] | None:
    """Name and value of a tag token; None for a pseudo-tag without a value such as [Empty]."""
    m = _TAG_PARTS.match(text)
    if not m:
        return None
    name, quoted = m.group(1), m.group(2)
    if quoted is None and '"' in name:  # closing quote missing: [Round "11.1]
        name, _, quoted = name.partition('"')
        name = name.strip()
    if quoted is not None:
        return name, re.sub(r"\\([\\\"])", r"\1", quoted)  # only \" and \\ are escapes
    m2 = _TAG_NAME_VALUE.match(name)
    if m2:  # unquoted value: [Round 17]
        return m2.group(1), m2.group(2)
    return None


@lru_cache(maxsize=2)
def tag_pairs(
    token: str,
) -> tuple[Sequence[tuple[str, str]], Sequence[tuple[int, str]], bool]:
    """The tag pairs of a TAGS token, the (position, text) of its pseudo-tags, and whether a
    pair is written [Name "value"]: only such a pair starts a game ([Round 17] joins one).
    Cached: the token that starts a game is read twice (to start it, then for its tags)."""
    pairs: list[tuple[str, str]] = _PLAIN_TAG.findall(token)
    if len(pairs) == token.count("["):
        return pairs, (), bool(pairs)
    pairs, pseudo, quoted = [], [], False
    for m in TAG_RE.finditer(token):
        plain = _PLAIN_TAG.fullmatch(m.group())
        pair = (plain.group(1), plain.group(2)) if plain else parse_tag(m.group())
        if pair is None:
            pseudo.append((m.start(), m.group()))
        else:
            pairs.append(pair)
            quoted = quoted or bool(_QUOTED_TAG.match(m.group()))
    return pairs, pseudo, quoted


def make_move(raw: str, strength: str = "", line: int = 0, column: int = 0) -> MoveNode:
    """A move node from the move's text as written."""
    compact, squares = _move_squares(raw)
    capture = any(c in compact for c in "xX:")
    seps = re.findall(r"[-x:]", compact.replace("X", "x"))
    if squares and len(squares) > 1 and seps:
        text = seps[0].join(squares) if len(set(seps)) == 1 else compact
    else:
        text = (
            compact
            if not squares or (len(squares) == 2 and squares[0].isalpha())
            else ("".join(squares))
        )
    return MoveNode(text, squares, capture, strength, raw=raw, line=line, column=column)


def _move_squares(raw: str) -> tuple[str, list[str]]:
    """A move as written without spaces (``1115`` as ``11-15``), and its squares."""
    compact = raw.replace(" ", "").replace("\t", "")
    if compact.isdigit() and len(compact) == 4:
        compact = f"{compact[:2]}-{compact[2:]}"
    if _RUSSIAN_SHORT.fullmatch(compact):
        return compact, [compact[0], compact[1:]]
    squares = [s.lstrip("0") if s.isdigit() else s.lower() for s in _SQUARE_RE.findall(compact)]
    return compact, squares


def show_text(text: str, width: int = 20) -> str:
    """*text* quoted for a message, cut short, control characters made visible."""
    cut = text[:width] + ("..." if len(text) > width else "")
    return '"' + "".join(c if c.isprintable() else repr(c)[1:-1] for c in cut) + '"'


class GameText:
    """The text of a chunk, with line and column of any position in it."""

    __slots__ = ("_at", "_row", "_starts", "line", "text")

    def __init__(self, text: str, line: int) -> None:
        self.text = text
        self.line = line
        self._starts: list[int] | None = None
        self._at = self._row = 0  # a position and its row, where row() counted to

    def row(self, pos: int) -> int:
        """0-based row of *pos*: the line ends are counted from the position last asked, when
        *pos* is not before it (a chunk's games are asked in order)."""
        if pos < self._at:
            self._at = self._row = 0
        self._row += self.text.count("\n", self._at, pos)
        self._at = pos
        return self._row

    def where(self, pos: int) -> tuple[int, int]:
        """1-based line and column of *pos*."""
        starts = self._starts
        if starts is None:
            starts = self._starts = [0] + [m.end() for m in re.finditer("\n", self.text)]
        i = bisect_right(starts, pos) - 1
        return self.line + i, pos - starts[i] + 1


Item = tuple[str, object, int]  # (token kind, text or the items of a variation, position)
TRAILING_KINDS = frozenset((COMMENT, LINE_COMMENT, PAREN_COMMENT, TAGS))  # may trail a game's end
RUN_KINDS = frozenset((PLAIN_RUN, RUN))
END_KINDS = frozenset((RESULT, STAR))
WAITING_KINDS = frozenset((COMMENT, LINE_COMMENT, PAREN_COMMENT, NAG, SETUP))
VARIATION = "VARIATION"


class MovetextLoader:
    """Builds one game's movetext tree from its tokens when it is first asked for."""

    __slots__ = ("drop_last", "items", "text")

    def __init__(self, items: list[Item], text: GameText, drop_last: bool) -> None:
        self.items = items
        self.text = text
        self.drop_last = drop_last

    def plies(self) -> int:
        """The moves of the main line, counted from its tokens."""
        moves = sum(
            moves_in_run(kind, str(token)) for kind, token, _ in self.items if kind in RUN_KINDS
        )
        return moves - self.drop_last

    def __call__(self, game: Game) -> list[Node]:
        body: list[Node] = []
        self._add(body, self.items)
        if self.drop_last:
            for i in range(len(body) - 1, -1, -1):
                if isinstance(body[i], MoveNode):
                    del body[i]
                    break
        return body

    def _add(self, body: list[Node], items: list[Item]) -> None:
        """Append parse items to a movetext body (a variation at most MAX_DEPTH deep)."""
        for kind, token, pos in items:
            if kind == PLAIN_RUN:
                self._add_plain_run(body, str(token), pos)
            elif kind == RUN:
                self._add_run(body, str(token), pos)
            elif kind == VARIATION:
                nodes: list[Node] = []
                assert isinstance(token, list)
                self._add(nodes, token)
                move = _last_move(body)
                if move is not None:
                    move.variations.append(nodes)
                else:
                    body.append(CommentNode("(variation)"))
            elif kind in (COMMENT, LINE_COMMENT, PAREN_COMMENT):
                comment = _comment_text(str(token))
                last = body[-1] if body else None
                if isinstance(last, MoveNode) and not last.variations:
                    last.comments_after.append(comment)
                else:
                    body.append(CommentNode(comment))
            elif kind == NAG:
                move = _last_move(body)
                if move is not None:
                    move.nags.append(int(str(token)[1:]))
            elif kind == SETUP:
                fen = _FEN_VALUE.search(str(token))
                line, column = self.text.where(pos)
                body.append(SetupNode(fen.group(1) if fen else "", line, column))
            elif kind == JUNK:
                last = body[-1] if body else None
                text = str(token)
                if isinstance(last, MoveNode) and text[:1].isalpha():
                    last.comments_after.append(text)

    def _add_run(self, body: list[Node], value: str, pos: int) -> None:
        line, column = self.text.where(pos)
        line_start = 1 - column  # index where the token's first line starts
        scanned = 0
        append = body.append
        for m in ELEMENT_RE.finditer(value):
            k = m.start()
            nl = value.rfind("\n", scanned, k)
            if nl >= 0:
                line += value.count("\n", scanned, k)
                line_start = nl + 1
            scanned = k
            a = m.group("a")
            if a is not None:  # a plain two-square move: the common case, built directly
                text = m.group(0)
                node = MoveNode(
                    text,
                    [a, m.group("b")],
                    m.group("sep") == "x",
                    raw=text,
                    line=line,
                    column=k - line_start + 1,
                )
            else:
                raw = m.group("move")
                if raw is None:
                    continue
                node = make_move(raw, m.group("strength") or "", line, k - line_start + 1)
            if body and isinstance(body[-1], CommentNode):
                _comments_before(body, node)
            append(node)

    def _add_plain_run(self, body: list[Node], value: str, pos: int) -> None:
        """_add_run() of a PLAIN_RUN token, whose words are move numbers ("12.") and moves
        written as numbers joined by "-" or "x": each move as the fast path there builds it."""
        line, column = self.text.where(pos)
        line_start = 1 - column  # index where the token's first line starts
        scanned = 0
        append = body.append
        for m in _WORD.finditer(value):
            word = m.group()
            if word[-1] == ".":
                continue
            k = m.start()
            nl = value.rfind("\n", scanned, k)
            if nl >= 0:
                line += value.count("\n", scanned, k)
                line_start = nl + 1
            scanned = k
            node = MoveNode(
                word,
                list(_PLAIN_WORDS[word]),
                "x" in word,
                raw=word,
                line=line,
                column=k - line_start + 1,
            )
            if body and isinstance(body[-1], CommentNode):
                _comments_before(body, node)
            append(node)


def _comments_before(body: list[Node], node: MoveNode) -> None:
    """The comments at the end of *body* moved onto *node*, the move they wait for."""
    while body and isinstance(body[-1], CommentNode):
        node.comments_before.insert(0, body.pop().text)  # type: ignore[union-attr]


_WORD = re.compile(r"\S+")
_PLAIN_KINDS = frozenset((PLAIN_RUN, RUN, COMMENT, LINE_COMMENT, PAREN_COMMENT, NAG, JUNK))


def plain_moves(game: Game) -> list[Sequence[str]] | None:
    """The squares of the main line's moves, read from the game's tokens without building its
    movetext tree, when the movetext holds no variation, no setup and no unknown move ``-``:
    then these are ``[n.squares for n in game.mainline()]``. None otherwise, and once the tree
    is built (then read Game.body)."""
    loader = game._loader
    if not isinstance(loader, MovetextLoader) or game._body is not None:
        return None
    moves: list[Sequence[str]] = []
    for kind, token, _ in loader.items:
        if kind == PLAIN_RUN:  # words: move numbers ("12.") and moves ("32-28", "26x17x8")
            moves += filter(None, map(_PLAIN_WORDS.__getitem__, str(token).split()))
        elif kind == RUN:
            if _PLAIN_RUN.fullmatch(str(token)):
                moves += map(_PLAIN_WORDS.__getitem__, _PLAIN_MOVE.findall(str(token)))
                continue
            for a, _, b, number, move, _ in ELEMENT_RE.findall(str(token)):
                if a:
                    moves.append((a, b))
                elif not number:
                    if move == "-":
                        return None
                    moves.append(_move_squares(move)[1])
        elif kind not in _PLAIN_KINDS:
            return None
    if loader.drop_last and moves:
        moves.pop()
    return moves


_RUN_FREE_KINDS = _PLAIN_KINDS - {RUN}


def plain_runs(game: Game, bare: bool = False) -> list[str] | None:
    """The PLAIN_RUN tokens of the main line, when its movetext holds nothing else but comments,
    NAGs and junk (*bare*: nothing else at all), and its last move is not the result: then
    their moves (the words that are not move numbers, each one's squares its numbers) are
    plain_moves(game). None otherwise."""
    loader = game._loader
    if not isinstance(loader, MovetextLoader) or game._body is not None or loader.drop_last:
        return None
    runs = []
    free = () if bare else _RUN_FREE_KINDS
    for kind, token, _ in loader.items:
        if kind == PLAIN_RUN:
            runs.append(str(token))
        elif kind not in free:
            return None
    return runs


def _last_move(body: list[Node]) -> MoveNode | None:
    """The last move of a line since its last setup, where a NAG or a variation belongs."""
    for node in reversed(body):
        if isinstance(node, MoveNode):
            return node
        if isinstance(node, SetupNode):
            return None
    return None


def _comment_text(token: str) -> str:
    token = token[1:-1] if token.startswith(("{", "(")) else token[1:]
    return _WS.sub(" ", token).strip()
