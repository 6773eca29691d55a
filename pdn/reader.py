"""Read PDN: bytes → text → game chunks → Lark parse → Game, with errors located in the file.

A file is decoded as UTF-8 (BOM or not) or, when it is not valid UTF-8, as cp1252; it is then cut
into chunks of whole games by a line scanner (a tag line after movetext starts a new chunk), so a
broken game never costs the games after it and memory stays constant whatever the file's size.
"""

from __future__ import annotations

import codecs
import io
import os
import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from functools import cache
from importlib.resources import files
from pathlib import Path
from typing import BinaryIO, TextIO

from lark import Lark, Token, Tree
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken

from pdn.game import CommentNode, Game, MoveNode, Node, PdnSyntaxError, SetupNode, Source, Tags

Selector = Callable[[Tags], bool]
PdnSource = str | os.PathLike[str] | BinaryIO | TextIO
Lines = Iterator[tuple[int, str]]  # (byte offset, text) of each line


@cache
def parser() -> Lark:
    """The LALR parser of pdn.lark (built once)."""
    grammar = files("pdn").joinpath("pdn.lark").read_text(encoding="utf-8")
    return Lark(grammar, parser="lalr", lexer="contextual", maybe_placeholders=False)


# -- decoding and lines --------------------------------------------------------------------

_BLOCK = 1 << 20


def detect_encoding(fh: BinaryIO) -> str:
    """'utf-8-sig', 'utf-8' or 'cp1252' for the rest of a seekable binary stream."""
    start = fh.tell()
    head = fh.read(3)
    bom = head == codecs.BOM_UTF8
    decoder = codecs.getincrementaldecoder("utf-8")()
    data = head
    try:
        while data:
            decoder.decode(data)
            data = fh.read(_BLOCK)
        decoder.decode(b"", final=True)
        encoding = "utf-8-sig" if bom else "utf-8"
    except UnicodeDecodeError:
        encoding = "cp1252"
    fh.seek(start)
    return encoding


def _decode(raw: bytes, encoding: str) -> str:
    try:
        return raw.decode(encoding)
    except UnicodeDecodeError:
        return raw.decode("latin-1")  # bytes cp1252 leaves undefined


_EOL = re.compile(rb"\r\n|\r|\n")


def _binary_lines(fh: BinaryIO, encoding: str) -> Lines:
    """(byte offset, text) of each line; CRLF, CR and LF all end a line."""
    offset = 0
    for raw in fh:
        if raw.endswith(b"\n") and b"\r" not in raw:  # the common case: one LF line
            yield offset, _decode(raw[:-1], encoding)
            offset += len(raw)
            continue
        pos = 0
        for m in _EOL.finditer(raw):
            yield offset + pos, _decode(raw[pos : m.start()], encoding)
            pos = m.end()
        if pos < len(raw):
            yield offset + pos, _decode(raw[pos:], encoding)
        offset += len(raw)


def _text_lines(fh: TextIO) -> Lines:
    offset = 0
    for line in fh:
        body = line.rstrip("\r\n")
        for part in body.split("\r"):
            yield offset, part
            offset += len(part.encode("utf-8")) + 1
        offset += len(line.encode("utf-8")) - len(body.encode("utf-8")) - 1


# -- chunks ----------------------------------------------------------------------------------

_TAG_RE = re.compile(
    r'\[[ \t]*[^\s"\[\]]+(?:[ \t]+[^\s"\[\]]+)*'
    r'(?:[ \t]*(?:"(?:\\.|[^"\\\n])*"|"[^"\]\n]*|[^\]"\n]*))?[ \t]*\]'
)
_MISSING_BRACKET = re.compile(r'^[A-Za-z][\w ]*\s"[^"]*"\]$')
_JUNK_AFTER_TAGS = re.compile(r"^(?:\s|\\[rn])*$")


@dataclass(slots=True)
class Chunk:
    """Consecutive lines holding one or more whole games."""

    text: str
    line: int  # 1-based line of the first line
    offset: int
    warnings: list[str] = field(default_factory=list)


def _chunks(lines: Iterable[tuple[int, str]], first_line: int = 1) -> Iterator[Chunk]:
    buf: list[str] = []
    start_line, start_offset = first_line, 0
    has_moves = False
    in_comment = False
    bracket_line = 0  # a lone "[" waiting for its tag
    warnings: list[str] = []
    for number, (offset, text) in enumerate(lines, first_line):
        if number == 1 and text.startswith("\ufeff"):
            text = text[1:]
        stripped = text.strip()
        if bracket_line:
            if stripped.startswith("[") or not stripped:
                warnings.append(f"line {bracket_line}: stray '[' skipped")
            else:
                text = stripped = "[" + stripped
            bracket_line = 0
        if not in_comment and stripped == "[":
            bracket_line = number
            if not buf:
                start_line, start_offset = number, offset
            buf.append("")
            continue
        if (
            not in_comment
            and stripped.endswith('"]')
            and stripped[0].isalpha()
            and _MISSING_BRACKET.match(stripped)
        ):
            warnings.append(f"line {number}: tag without its '[' read as {'[' + stripped!r}")
            text = stripped = "[" + stripped
        if not in_comment and stripped.startswith("["):
            if has_moves:
                yield Chunk("\n".join(buf), start_line, start_offset, warnings)
                buf, warnings, has_moves = [], [], False
            if not stripped.endswith("]") and not _JUNK_AFTER_TAGS.match(_TAG_RE.sub("", stripped)):
                has_moves = True
        elif stripped and not in_comment and stripped[0] not in "%;{":
            # a line of moves that ends with tags ("0-1[Event ...]") opens the next game itself
            has_moves = not (stripped.endswith("]") and _TAG_RE.search(stripped))
        if "{" in text or "}" in text:
            in_comment = _comment_state(text, in_comment)
        if not buf:
            if not stripped:
                continue
            start_line, start_offset = number, offset
        buf.append(text)
    if any(s.strip() for s in buf):
        yield Chunk("\n".join(buf), start_line, start_offset, warnings)


def _comment_state(text: str, inside: bool) -> bool:
    """Whether a { comment is still open after *text*."""
    for ch in text:
        if inside:
            if ch == "}":
                inside = False
        elif ch == "{":
            inside = True
        elif ch in ";%":
            break
    return inside


# -- turning a parse into games ---------------------------------------------------------------

_ELEMENT_RE = re.compile(
    r"(?P<a>[1-9]\d?)(?P<sep>[-x])(?P<b>[1-9]\d?)(?![-xX:\d!?*(]| [-xX:])"  # fast path: 32-28
    r"|(?P<num>\d+\s*\.(?:\s*\.\.)?)|(?P<ell>\.\.\.)"
    r"|(?P<move>\d{1,2}(?:[ \t]*[-xX:][ \t]*\d{1,2})+|\d{4}"
    r"|[a-lA-L](?:1[0-2]|[1-9])(?:(?:[ \t]*[-xX:][ \t]*)?[a-lA-L](?:1[0-2]|[1-9]))+"
    r"|[a-h][a-h][1-8]|-)"
    r"(?P<strength>[!?]+|\([!?]+\)|\*)?"
)
_SQUARE_RE = re.compile(r"[a-lA-L](?:1[0-2]|[1-9])|\d{1,2}")
_TAG_PARTS = re.compile(r'^\[\s*(.*?)\s*(?:"((?:\\.|[^"\\])*)"\s*)?\]$', re.S)
_PLAIN_TAG = re.compile(r'\[([A-Za-z_][\w]*)[ \t]*"([^"\\\n]*)"[ \t]*\]$')
_TAG_NAME_VALUE = re.compile(r"^(\S+(?:\s+\S+)*?)\s+(\S.*)$")
_WS = re.compile(r"\s+")


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


def make_move(raw: str, strength: str = "", line: int = 0, column: int = 0) -> MoveNode:
    """A move node from the move's text as written."""
    compact = raw.replace(" ", "").replace("\t", "")
    if compact.isdigit() and len(compact) == 4:
        compact = f"{compact[:2]}-{compact[2:]}"
    if re.fullmatch(r"[a-h][a-h][1-8]", compact):
        squares = [compact[0], compact[1:]]
    else:
        squares = [s.lstrip("0") if s.isdigit() else s.lower() for s in _SQUARE_RE.findall(compact)]
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


def _comment_text(token: str) -> str:
    token = token[1:-1] if token.startswith(("{", "(")) else token[1:]
    return _WS.sub(" ", token).strip()


class _Builder:
    """Cuts the flat item list of one chunk into games; their movetext is built on demand."""

    def __init__(self, chunk: Chunk, file: str, index: int, encoding: str) -> None:
        self.chunk = chunk
        self.file = file
        self.encoding = encoding
        self.index = index
        self.games: list[Game] = []
        self.items: list[Tree[Token] | Token] = []
        self.game = self._new()
        self.has_moves = False
        self.escapes: list[int] = []  # lines of literal "\r" junk in the current game
        self.start: int | None = None  # where the current game's text starts in the chunk
        self.end = 0  # and ends
        self.last_start = 0  # where the text of the game before starts
        self.open_end = False  # the last item was a variation: the text runs on

    def _new(self) -> Game:
        source = Source(self.file, self.index, self.chunk.line, self.chunk.offset, self.encoding)
        return Game(source=source)

    def _line(self, tok: Token) -> int:
        return self.chunk.line + (tok.line or 1) - 1

    def _finish(self, terminator: str | None, next_start: int | None = None) -> None:
        if self.open_end:
            tail = self.chunk.text[self.end : next_start]
            self.end += len(tail.rstrip())
            self.open_end = False
        g = self.game
        g.terminator = terminator
        if self.escapes:
            g.warnings.append(
                f"line {self.escapes[0]}: {len(self.escapes)} literal '\\r' skipped (broken export)"
            )
            self.escapes = []
        items = self.items
        drop_last = terminator is None and _result_as_last_move(g, items)
        if not len(g.tags) and not self.has_moves and not g.terminator:
            # comments or junk after a game's end: they belong to the game before
            if items and self.games:
                last = self.games[-1]
                loader = last._loader
                if isinstance(loader, _Loader):
                    loader.items.extend(items)
                    last.raw = self.chunk.text[self.last_start : self.end]
            self.items = []
            self.start = None
            return
        if len(g.tags) or items or g.terminator:
            g.raw = self.chunk.text[self.start or 0 : self.end]
            self.last_start = self.start or 0
            g.body = []
            if items:
                g._body = None
                g._loader = _Loader(self, items, drop_last)
            self.games.append(g)
            self.index += 1
        self.game = self._new()
        self.items = []
        self.has_moves = False
        self.start = None

    def _extent(self, item: Tree[Token] | Token) -> None:
        """Note where *item* lies, to keep the game's text.

        A variation has no position of its own: when one ends a game, the game's text runs to
        the next item (its closing parenthesis is in between).
        """
        if isinstance(item, Tree):
            self.open_end = True
            return
        if self.start is None:
            self.start = item.start_pos or 0
        if self.open_end:
            tail = self.chunk.text[self.end : item.start_pos]
            self.end += len(tail.rstrip())
        self.end = max(self.end, item.end_pos or 0)
        self.open_end = False

    def build(self, tree: Tree[Token]) -> list[Game]:
        for item in tree.children:
            if isinstance(item, Tree) and item.data == "tags":
                tok = item.children[0]
                assert isinstance(tok, Token)
                if self.has_moves:
                    self._finish(None, tok.start_pos)
                self._extent(tok)
                if not len(self.game.tags) and not self.items:
                    self.game.source.line = self._line(tok)
                for m in _TAG_RE.finditer(tok):
                    plain = _PLAIN_TAG.match(m.group(0))
                    pair = plain.groups() if plain else parse_tag(m.group(0))
                    if pair is None:
                        line = self._line(tok) + tok.count("\n", 0, m.start())
                        self.game.warnings.append(f"line {line}: pseudo-tag {m.group(0)} skipped")
                    else:
                        self.game.tags.add(*pair)
            elif isinstance(item, Token) and item.type in ("RESULT", "STAR"):
                self._extent(item)
                self._finish(str(item))
            elif isinstance(item, Token) and item.type == "JUNK" and item.startswith("\\"):
                self._extent(item)
                self.escapes.append(self._line(item))  # a literal \r after a tag
            else:
                self._extent(item)
                if isinstance(item, Token) and item.type in ("RUN", "SETUP"):
                    if not self.has_moves and not len(self.game.tags) and not self.items:
                        self.game.source.line = self._line(item)
                    self.has_moves = True
                self.items.append(item)
        self._finish(None)
        for g in self.games:
            g.warnings[:0] = self.chunk.warnings
        return self.games


class _Loader:
    """Builds one game's movetext tree from its parse items when it is first asked for."""

    __slots__ = ("drop_last", "items", "line0")

    def __init__(self, builder: _Builder, items: list[Tree[Token] | Token], drop_last: bool):
        self.items = items
        self.line0 = builder.chunk.line
        self.drop_last = drop_last

    def __call__(self, game: Game) -> list[Node]:
        body: list[Node] = []
        for item in self.items:
            self._add(body, item, game)
        if self.drop_last and body and isinstance(body[-1], MoveNode):
            body.pop()
        return body

    def _line(self, tok: Token) -> int:
        return self.line0 + (tok.line or 1) - 1

    def _add(self, body: list[Node], item: Tree[Token] | Token, game: Game) -> None:
        """Append one parse item to a movetext body."""
        last = body[-1] if body else None
        if isinstance(item, Tree):  # variation
            nodes: list[Node] = []
            for child in item.children:
                self._add(nodes, child, game)
            if isinstance(last, MoveNode):
                last.variations.append(nodes)
            else:
                game.warnings.append("variation before any move kept as a comment")
                body.append(CommentNode("(variation)"))
            return
        kind = item.type
        text = str(item)
        if kind == "RUN":
            self._add_run(body, item)
        elif kind in ("COMMENT", "LINE_COMMENT", "PAREN_COMMENT"):
            comment = _comment_text(text)
            if isinstance(last, MoveNode) and not last.variations:
                last.comments_after.append(comment)
            else:
                body.append(CommentNode(comment))
        elif kind == "NAG":
            if isinstance(last, MoveNode):
                last.nags.append(int(text[1:]))
            else:
                game.warnings.append(f"line {self._line(item)}: NAG {text} before any move ignored")
        elif kind == "SETUP":
            fen = re.search(r'"([^"]*)"', text)
            body.append(SetupNode(fen.group(1) if fen else "", self._line(item), item.column or 0))
        elif kind == "JUNK":
            game.warnings.append(f"line {self._line(item)}:{item.column}: junk {text!r} skipped")
            if isinstance(last, MoveNode) and text[:1].isalpha():
                last.comments_after.append(text)
        elif kind == "STAR":
            game.warnings.append(f"line {self._line(item)}: '*' inside a variation ignored")

    def _add_run(self, body: list[Node], tok: Token) -> None:
        value = str(tok)
        line = self._line(tok)
        line_start = 1 - (tok.column or 1)  # index where the token's first line starts
        scanned = 0
        append = body.append
        for m in _ELEMENT_RE.finditer(value):
            k = m.start()
            nl = value.rfind("\n", scanned, k)
            if nl >= 0:
                line += value.count("\n", scanned, k)
                line_start = nl + 1
            scanned = k
            a = m.group("a")
            if a is not None:  # a plain two-square move: the common case, built directly
                sep = m.group("sep")
                text = m.group(0)
                node = MoveNode(
                    text,
                    [a, m.group("b")],
                    sep == "x",
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
                while body and isinstance(body[-1], CommentNode):  # comments waiting for it
                    node.comments_before.insert(0, body.pop().text)  # type: ignore[union-attr]
            append(node)


def _result_as_last_move(game: Game, items: list[Tree[Token] | Token]) -> bool:
    """Whether the last "move" is the Result tag (such as 4-6 in Delft scoring); sets it."""
    result = game.tags.get("Result")
    if not result or not items:
        return False
    last = items[-1]
    if not isinstance(last, Token) or last.type != "RUN":
        return False
    moves = [m.group(0) for m in _ELEMENT_RE.finditer(last) if not m.group("num")]
    if moves and moves[-1].replace(" ", "") == result.replace(" ", ""):
        game.terminator = result.strip()
        return True
    return False


def _error_record(exc: UnexpectedInput, chunk: Chunk, file: str, index: int) -> PdnSyntaxError:
    line = chunk.line + (exc.line or 1) - 1 if exc.line and exc.line > 0 else chunk.line
    column = exc.column if exc.column and exc.column > 0 else 1
    lines = chunk.text.split("\n")
    rel = (exc.line or 1) - 1
    snippet = lines[rel][column - 1 : column + 19] if 0 <= rel < len(lines) else ""
    expected: list[str] = []
    if isinstance(exc, UnexpectedToken):
        expected = sorted(exc.expected)
        msg = f"unexpected {exc.token.type} {str(exc.token)[:20]!r}"
        snippet = str(exc.token)[:20]
    elif isinstance(exc, UnexpectedCharacters):
        expected = sorted(exc.allowed or ())
        msg = f"unexpected character {exc.char!r}"
    elif isinstance(exc, UnexpectedEOF):
        expected = sorted(exc.expected)
        msg = "unexpected end of game"
    else:
        msg = str(exc).splitlines()[0]
    names = {"RPAR": "')'", "LPAR": "'('"}
    readable = [names.get(e, e) for e in expected]
    if readable:
        msg += f"; expected {', '.join(readable[:8])}"
    return PdnSyntaxError(file, line, column, index, snippet.strip(), readable, msg)


def _salvage(chunk: Chunk, file: str, index: int, encoding: str, error: PdnSyntaxError) -> Game:
    """A game that did not parse: its tags, read line by line, and the error."""
    game = Game(source=Source(file, index, chunk.line, chunk.offset, encoding))
    for m in _TAG_RE.finditer(chunk.text):
        pair = parse_tag(m.group(0))
        if pair:
            game.tags.add(*pair)
    game.syntax_error = error
    game.raw = chunk.text
    return game


# -- public API ------------------------------------------------------------------------------


@dataclass(slots=True)
class ReadResult:
    """Per file: the games and the syntax errors, in file order."""

    games: list[Game] = field(default_factory=list)
    errors: list[PdnSyntaxError] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class Span:
    """A byte range of a file that starts at a game boundary."""

    start: int
    end: int  # exclusive
    line: int  # line number of the first line
    encoding: str


def game_spans(path: str | os.PathLike[str], parts: int) -> list[Span]:
    """Cut a file into about *parts* byte ranges of whole games (for parallel work)."""
    with Path(path).open("rb") as fh:
        encoding = detect_encoding(fh)
        size = fh.seek(0, os.SEEK_END)
        fh.seek(0)
        target = max(1, size // max(1, parts))
        starts = [(0, 1)]
        for chunk in _chunks(_binary_lines(fh, encoding)):
            if chunk.offset - starts[-1][0] >= target:
                starts.append((chunk.offset, chunk.line))
    ends = [s for s, _ in starts[1:]] + [size]
    return [Span(s, e, line, encoding) for (s, line), e in zip(starts, ends, strict=True)]


def _lines_between(fh: BinaryIO, span: Span) -> Lines:
    """The lines of a span, with offsets counted from the start of the file."""
    fh.seek(span.start)
    limited = io.BytesIO(fh.read(span.end - span.start))
    for offset, text in _binary_lines(limited, span.encoding):
        yield span.start + offset, text


def _open_lines(
    source: PdnSource, span: Span | None = None
) -> tuple[str, str, Lines, Callable[[], None]]:
    """File name, encoding, lines and a closer for any kind of source."""
    if isinstance(source, str | os.PathLike):
        path = Path(source)
        fh = path.open("rb")
        if span is not None:
            return str(path), span.encoding.replace("-sig", ""), _lines_between(fh, span), fh.close
        encoding = detect_encoding(fh)
        return str(path), encoding.replace("-sig", ""), _binary_lines(fh, encoding), fh.close
    name = str(getattr(source, "name", "<stream>"))
    if isinstance(source, io.TextIOBase):
        return name, "utf-8", _text_lines(source), lambda: None
    binary: BinaryIO = source  # type: ignore[assignment]
    if not binary.seekable():
        binary = io.BytesIO(binary.read())
    encoding = detect_encoding(binary)
    return name, encoding.replace("-sig", ""), _binary_lines(binary, encoding), lambda: None


def read_games(
    source: PdnSource,
    *,
    select: Selector | None = None,
    headers_only: bool = False,
    span: Span | None = None,
) -> Iterator[Game]:
    """Yield the games of a PDN file or stream one at a time.

    A game that does not parse is yielded with its tags and a ``syntax_error`` attribute (a
    :class:`PdnSyntaxError`); reading goes on with the next game. ``select`` sees the tags of each
    game and skips the movetext parse of games it rejects; ``headers_only`` never parses movetext.
    ``span`` (from :func:`game_spans`) reads one byte range of a file; game indexes then count
    from the start of the range.
    """
    name, encoding, lines, close = _open_lines(source, span)
    index = 0
    held: Game | None = None  # one game is held back to recognise a trailing lone tag
    try:
        for chunk in _chunks(lines, span.line if span else 1):
            if headers_only or select is not None:
                tags = Tags()
                for m in _TAG_RE.finditer(chunk.text):
                    pair = parse_tag(m.group(0))
                    if pair:
                        tags.add(*pair)
                if headers_only or (select is not None and not select(tags)):
                    if held is not None:
                        yield held
                    source_ = Source(name, index, chunk.line, chunk.offset, encoding)
                    held = Game(tags, source=source_)
                    index += 1
                    continue
            try:
                tree = parser().parse(chunk.text)
            except UnexpectedInput as exc:
                error = _error_record(exc, chunk, name, index)
                if held is not None:
                    yield held
                held = _salvage(chunk, name, index, encoding, error)
                index += 1
                continue
            games = _Builder(chunk, name, index, encoding).build(tree)
            index += len(games)
            for game in games:
                if held is not None:
                    yield held
                held = game
        if held is not None and not _trailing_lone_tag(held, index):
            yield held
    finally:
        close()


def _trailing_lone_tag(game: Game, count: int) -> bool:
    """A lone tag after the last game, such as [FILENAME ""]: not a game of its own."""
    return (
        count > 1
        and game.syntax_error is None
        and len(game.tags) == 1
        and not game.body
        and not game.terminator
    )


def read_file(source: PdnSource) -> ReadResult:
    """All games and syntax errors of one file (convenience over :func:`read_games`)."""
    result = ReadResult()
    for game in read_games(source):
        result.games.append(game)
        if game.syntax_error is not None:
            result.errors.append(game.syntax_error)
    return result


def read_string(text: str, file: str = "<string>") -> list[Game]:
    """The games of PDN text."""
    stream = io.StringIO(text)
    stream.name = file
    return list(read_games(stream))
