"""Tokens to games: the reader's one loop over a chunk's tokens, cutting them into games with
their tags, movetext items, syntax errors and warnings located by line and column."""

from __future__ import annotations

from dataclasses import dataclass, field

from pdn.game import (
    Game,
    GameWarning,
    PdnSyntaxError,
    Source,
    located,
)
from pdn.read.chunks import TAG_RE, Chunk
from pdn.read.decoding import decode_lines
from pdn.read.movetext import (
    ELEMENT_RE,
    END_KINDS,
    RUN_KINDS,
    TRAILING_KINDS,
    VARIATION,
    WAITING_KINDS,
    GameText,
    Item,
    MovetextLoader,
    moves_in_run,
    parse_tag,
    show_text,
    squares_moved,
    tag_pairs,
)
from pdn.read.tokens import (
    ERROR,
    JUNK,
    LPAR,
    NAG,
    PLAIN_RUN,
    RPAR,
    RUN,
    SETUP,
    STAR,
    TAGS,
    lex,
)

MAX_DEPTH = 50  # variations nested deeper are a syntax error of their game (the corpus: 4)
PROSE_PLIES = 2  # a tagless "game" that breaks before its second move is prose, not a game

_BEFORE_MOVES = ["a tag", "a move", "a comment", "a result"]
_IN_GAME = ["a move", "a comment", "a variation", "a result"]
_IN_VARIATION = ["a move", "a comment", "')'"]


class _Building:
    """The game being read: its tokens so far, its open variations, what it holds."""

    __slots__ = (
        "end",
        "escapes",
        "game",
        "has_move",
        "items",
        "level",
        "moved",
        "movetext",
        "plies",
        "skip_depth",
        "stack",
        "start",
    )

    def __init__(self, game: Game, start: int) -> None:
        self.game = game
        self.items: list[Item] = []
        self.level = self.items  # the item list tokens go to (the innermost open variation)
        self.stack: list[tuple[list[Item], int, bool]] = []  # (outer list, "(" position, moved)
        self.moved = False  # a move stands at the current level (since the last setup)
        self.has_move = False  # a move anywhere
        self.movetext = False  # moves, move numbers or a setup: a tag section now starts anew
        self.plies = 0  # moves of the main line
        self.start = start  # where the game's text starts in the chunk
        self.end = start  # and ends
        self.escapes: list[int] = []  # lines of a literal "\r" after a tag
        self.skip_depth = -1  # >= 0 after a syntax error: the depth while passing over the rest


_REST = 1 << 30  # skip_depth of a game that takes the rest of its chunk (an unclosed comment)


@dataclass(slots=True)
class _Segment:
    """What a chunk holds, in order: a game, or a run of text outside any game."""

    game: Game | None
    warning: GameWarning | None = None
    escapes: list[int] = field(default_factory=list)  # lines of a literal "\r" (broken export)


@dataclass(slots=True)
class _Ended:
    """The game that just ended with a result or "*", and where its text starts."""

    game: Game
    start: int
    loader: MovetextLoader | None
    escapes: list[int]  # lines of a literal "\r" in the game and after its end


class GameReader:
    """Cuts the chunks of one file into games: the one reading loop."""

    def __init__(
        self, name: str, family: str, headers_only: bool, limit: int, code_page: str | None = None
    ) -> None:
        self.name = name
        self.family = family  # 'bytes' or a UTF-16 form
        self.code_page = code_page  # of the lines that are not UTF-8: found once per file
        self.headers_only = headers_only
        self.limit = limit
        self.index = 0  # games so far
        from pdn.rules.position import core  # the kernel chosen: it finds runs of plain moves

        self.plain_run = core().plain_run

    # -- one chunk ------------------------------------------------------------------------------

    def read(self, chunk: Chunk) -> list[_Segment]:
        """The games and the runs of outside text of one chunk, in order."""
        if chunk.too_large:
            return [_Segment(self._too_large(chunk))]
        text, self.bad_lines, self.code_page = decode_lines(chunk.lines, self.code_page)
        self.text = GameText(text, chunk.line)
        self.chunk = chunk
        self.encoding = "utf-8" if self.family == "bytes" else self.family
        self.segments: list[_Segment] = []
        self.cur: _Building | None = None
        self.pending: list[Item] = []  # comments, NAGs, setups, pseudo-tags outside a game
        self.ended: _Ended | None = None
        self.outside = -1  # start and end of a run of text outside any game
        self.outside_end = -1
        self._tokens(text)
        if self.cur is not None:
            self._finish(None)
        self._settle_pending()
        self._close_outside()
        games = [s.game for s in self.segments if s.game is not None]
        if self.bad_lines:
            for game in games:
                first = game.source.line - chunk.line
                self._decoded(game, first, first + game.raw.count("\n"))
        for seg in self.segments:
            if seg.game is not None and seg.escapes:
                message = f"{len(seg.escapes)} literal '\\r' skipped (broken export)"
                seg.game.warnings.append(located(seg.escapes[0], None, message))
        for line, message in reversed(chunk.warnings):
            owner = next((g for g in reversed(games) if g.source.line <= line), None)
            owner = owner or (games[0] if games else None)
            if owner is not None:
                owner.warnings.insert(0, located(line, None, message))
            else:
                self.segments.insert(0, _Segment(None, located(line, None, message)))
        return self.segments

    def _tokens(self, text: str) -> None:
        for kind, token, pos, end in lex(text, self.plain_run):
            cur = self.cur
            if cur is None:
                if not self._outside(kind, token, pos, end):
                    continue
                cur = self.cur
                assert cur is not None
            elif cur.skip_depth >= 0:
                if self._skipping(cur, kind, token, pos, end):
                    return
                continue
            level = cur.level
            if kind in RUN_KINDS:
                level.append((kind, token, pos))
                cur.movetext = True
                if kind == PLAIN_RUN and not self.headers_only:
                    # its words are move numbers and moves (with "-" or "x"); counted when
                    # asked (MovetextLoader.plies), as a full read keeps the tokens
                    moved = "-" in token or "x" in token
                else:
                    n = moves_in_run(kind, token)
                    moved = n > 0
                    if not cur.stack:
                        cur.plies += n
                if moved:
                    cur.moved = cur.has_move = True
                cur.end = end
            elif kind == TAGS:
                if cur.stack:
                    self._error_unclosed(cur)
                if cur.stack or cur.movetext:
                    self._finish(None)
                    self._start(pos)
                self._tags(token, pos)
            elif kind in END_KINDS:
                if not cur.stack:
                    cur.end = end
                    self._finish(token)
                elif kind == STAR:
                    self._warn(cur.game, pos, "'*' inside a variation ignored")
                    cur.end = end
                else:
                    found = f"found result {show_text(token)} inside a variation"
                    self._error(cur, pos, found, _IN_VARIATION)
            elif kind == LPAR:
                if len(cur.stack) >= MAX_DEPTH:
                    found = f'variation nested too deep: "(" at level {MAX_DEPTH + 1}, at most '
                    self._error(cur, pos, found + f"{MAX_DEPTH} are read", ["')'"])
                    continue
                if not cur.moved:
                    self._warn(cur.game, pos, "variation before any move kept as a comment")
                inner: list[Item] = []
                level.append((VARIATION, inner, pos))
                cur.stack.append((level, pos, cur.moved))
                cur.level, cur.moved = inner, False
                cur.end = end
            elif kind == RPAR:
                if not cur.stack:
                    expected = _IN_GAME if cur.movetext else _BEFORE_MOVES
                    self._error(cur, pos, 'found ")" with no variation open', expected)
                    continue
                cur.level, _, moved = cur.stack.pop()
                cur.moved = moved
                cur.end = end
            elif kind == JUNK:
                if token[0] == "\\":
                    cur.escapes.append(self.text.where(pos)[0])
                else:
                    level.append((JUNK, token, pos))
                    self._warn(cur.game, pos, f"junk {token!r} skipped")
                cur.end = end
            elif kind == ERROR:
                self._error_char(cur, token, pos)
            else:  # COMMENT, LINE_COMMENT, PAREN_COMMENT, NAG, SETUP
                if kind == NAG and not cur.moved:
                    self._warn(cur.game, pos, f"NAG {token} before any move ignored")
                elif kind == SETUP:
                    cur.movetext = True
                    cur.moved = False
                level.append((kind, token, pos))
                cur.end = end

    def _outside(self, kind: str, token: str, pos: int, end: int) -> bool:
        """A token outside any game: True when it starts one (then it is read as its first).

        Comments, NAGs, setups, pseudo-tags, move numbers and punctuation wait for the game that
        may follow; words, stray characters and a move after them on its line are text outside
        any game.
        """
        if kind == TAGS:
            if tag_pairs(token)[2]:
                self._start(pos)
                return True
            self.pending.append((kind, token, pos))
            return False
        if kind in RUN_KINDS:
            if not moves_in_run(kind, token):
                self.pending.append((RUN, token, pos))
                return False
            if self._line_is_clean(pos) and squares_moved(kind, token):
                self._start(pos)
                return True
        elif kind in WAITING_KINDS:
            self.pending.append((kind, token, pos))
            return False
        elif kind == JUNK and token[0] == "\\" and self.ended is not None and self.outside < 0:
            self.ended.escapes.append(self.text.where(pos)[0])  # the export's line end
            return False
        elif kind == JUNK and not token[-1].isalpha():  # punctuation, brackets
            self.pending.append((kind, token, pos))
            return False
        elif kind in END_KINDS and self.ended is not None and self.outside < 0 and not self.pending:
            self._glue(self.ended, end)  # a second end to the game just ended ("1-0 *")
            self._warn(self.ended.game, pos, f"second game end {show_text(token)} ignored")
            return False
        self._settle_pending()
        if self.outside < 0:
            self.outside = pos
        self.outside_end = end
        return False

    def _line_is_clean(self, pos: int) -> bool:
        """Whether no text outside any game stands before *pos* on its line."""
        return self.outside_end < 0 or self.text.text.rfind("\n", self.outside_end, pos) >= 0

    def _settle_pending(self) -> None:
        """Items held outside a game that no game took: comments trail the game that just
        ended; anything else is text outside any game."""
        if not self.pending:
            return
        _, token, pos = self.pending[-1]
        end = pos + len(str(token))
        trailing = all(k in TRAILING_KINDS for k, _, _ in self.pending)
        if self.ended is not None and self.outside < 0 and trailing:
            self._glue(self.ended, end)
        else:
            if self.outside < 0:
                self.outside = self.pending[0][2]
            self.outside_end = max(self.outside_end, end)
        self.pending = []

    def _glue(self, ended: _Ended, end: int) -> None:
        """Extend the game that just ended with what trails it: comments, a second result."""
        for kind, token, pos in self.pending:
            if kind == TAGS:
                for at, text in tag_pairs(str(token))[1]:
                    self._warn(ended.game, pos + at, f"pseudo-tag {text} skipped", column=False)
            elif ended.loader is not None:
                ended.loader.items.append((kind, token, pos))
        self.pending = []
        ended.game.raw = self.text.text[ended.start : end]

    def _close_outside(self) -> None:
        if self.outside < 0:
            return
        text = self.text.text[self.outside : self.outside_end]
        line, column = self.text.where(self.outside)
        message = f"text outside any game skipped: {show_text(text, 30)}"
        self.segments.append(_Segment(None, located(line, column, message)))
        self.outside = self.outside_end = -1

    # -- starting and finishing games -----------------------------------------------------------

    def _start(self, pos: int) -> None:
        self._close_outside()
        self.ended = None
        pending, self.pending = self.pending, []
        start = pending[0][2] if pending else pos
        source = Source(self.name, self.index, 0, 0, self.encoding)
        cur = self.cur = _Building(Game(source=source), start)
        self.index += 1
        for kind, token, at in pending:
            if kind == TAGS:
                self._tags(str(token), at)
                continue
            if kind == NAG:
                self._warn(cur.game, at, f"NAG {token} before any move ignored")
            elif kind == JUNK:
                self._warn(cur.game, at, f"junk {token!r} skipped")
            elif kind in (SETUP, RUN):
                cur.movetext = True
            cur.items.append((kind, token, at))
            cur.end = at + len(str(token))

    def _tags(self, token: str, pos: int) -> None:
        cur = self.cur
        assert cur is not None
        pairs, pseudo, _ = tag_pairs(token)
        cur.game.tags.extend(pairs)
        for at, text in pseudo:
            self._warn(cur.game, pos + at, f"pseudo-tag {text} skipped", column=False)
        cur.end = pos + len(token)

    def _finish(self, terminator: str | None) -> None:
        cur = self.cur
        assert cur is not None
        self.cur = None
        game = cur.game
        if cur.stack and cur.skip_depth < 0:
            self._error_unclosed(cur)
        game.terminator = terminator
        drop_last = (
            terminator is None and game.syntax_error is None and _result_as_last_move(game, cur)
        )
        if drop_last:
            cur.plies -= 1
        prose = not len(game.tags) and game.syntax_error is not None and _few_moves(cur.items)
        if (not len(game.tags) and not cur.has_move and game.syntax_error is None) or prose:
            self.index -= 1  # neither a tag nor a move, or prose with a move-like word: not a game
            if self.outside < 0:
                self.outside = cur.start
            self.outside_end = max(self.outside_end, cur.end)
            return
        text = self.text.text
        game.raw = text[cur.start : cur.end]
        row = self.text.row(cur.start)
        game.source.line = self.chunk.line + row
        game.source.offset = self.chunk.offsets[row]
        game._plies = cur.plies if game.syntax_error is None else 0  # a broken game: no moves
        loader = None
        if cur.items and not self.headers_only and game.syntax_error is None:
            loader = MovetextLoader(cur.items, self.text, drop_last)
            game._body = None
            game._loader = loader
            game._plies = loader.plies
        self.segments.append(_Segment(game, escapes=cur.escapes))
        if terminator is not None:
            self.ended = _Ended(game, cur.start, loader, cur.escapes)

    def _decoded(self, game: Game, first: int, last: int) -> None:
        """Note a game whose rows *first* to *last* hold a line that is not UTF-8."""
        for row, byte in self.bad_lines:
            if first <= row <= last:
                game.source.encoding = page = self.code_page or "cp1252"
                message = f"not UTF-8 (byte 0x{byte:02X}): this game read as {page}"
                game.warnings.insert(0, located(self.chunk.line + row, None, message))
                return

    def _too_large(self, chunk: Chunk) -> Game:
        encoding = "utf-8" if self.family == "bytes" else self.family
        offset = chunk.offsets[0] if chunk.offsets else 0
        source = Source(self.name, self.index, chunk.line, offset, encoding)
        self.index += 1
        game = Game(source=source)
        text, _, self.code_page = decode_lines(chunk.lines, self.code_page)
        for m in TAG_RE.finditer(text):
            pair = parse_tag(m.group())
            if pair:
                game.tags.add(*pair)
        message = (
            f"game too large: {chunk.too_large:,} bytes before the next game, over the limit "
            f"of {self.limit:,}; passed over unread"
        )
        game.syntax_error = PdnSyntaxError(self.name, chunk.line, 1, source.index, "", [], message)
        game.warnings = [located(line, None, message) for line, message in chunk.warnings]
        return game

    # -- errors and warnings --------------------------------------------------------------------

    def _warn(self, game: Game, pos: int, message: str, column: bool = True) -> None:
        line, col = self.text.where(pos)
        game.warnings.append(located(line, col if column else None, message))

    def _error(self, cur: _Building, pos: int, message: str, expected: list[str]) -> None:
        """A syntax error: the game keeps it, and the rest of the game is passed over."""
        line, column = self.text.where(pos)
        found = self.text.text[pos : pos + 20].split("\n", 1)[0].strip()
        if expected:
            message += "; expected " + (
                f"{', '.join(expected[:-1])} or {expected[-1]}" if len(expected) > 1
                else expected[0]
            )  # fmt: skip
        cur.game.syntax_error = PdnSyntaxError(
            self.name, line, column, cur.game.source.index, found, expected, message
        )
        cur.skip_depth = len(cur.stack)

    def _error_unclosed(self, cur: _Building) -> None:
        message = 'variation not closed: found "(" with no ")" before the end of the game'
        self._error(cur, cur.stack[0][1], message, [])
        cur.game.syntax_error.expected = ["')'"]  # type: ignore[union-attr]

    def _error_char(self, cur: _Building, char: str, pos: int) -> None:
        if char == "{":
            message = 'comment not closed: found "{" with no "}" before the next game'
            self._error(cur, pos, message, [])
            cur.game.syntax_error.expected = ["'}'"]  # type: ignore[union-attr]
            cur.end = len(self.text.text.rstrip())
            cur.skip_depth = _REST
            return
        message = (
            'found "}" outside a comment' if char == "}"
            else f"found unexpected character {show_text(char)}"
        )  # fmt: skip
        expected = _IN_VARIATION if cur.stack else _IN_GAME if cur.movetext else _BEFORE_MOVES
        self._error(cur, pos, message, expected)
        cur.end = pos + 1

    def _skipping(self, cur: _Building, kind: str, token: str, pos: int, end: int) -> bool:
        """A token after a syntax error: True when the rest of the chunk belongs to the game."""
        if cur.skip_depth == _REST:
            return True
        if kind == LPAR:
            cur.skip_depth += 1
        elif kind == RPAR:
            cur.skip_depth = max(0, cur.skip_depth - 1)
        elif kind == ERROR and token == "{":
            cur.end = len(self.text.text.rstrip())
            return True
        elif cur.skip_depth == 0 and kind in END_KINDS:
            cur.end = end
            self._finish(token)
            return False
        elif cur.skip_depth == 0 and kind == TAGS:
            if cur.movetext:
                self._finish(None)
                self._start(pos)
            self._tags(token, pos)
            return False
        elif kind in (RUN, PLAIN_RUN, SETUP):
            cur.movetext = True
        cur.end = end
        return False


def _result_as_last_move(game: Game, cur: _Building) -> bool:
    """Whether the last "move" is the Result tag (such as 4-6 in Delft scoring); sets it."""
    result = game.tags.get("Result")
    if not result or not cur.items:
        return False
    kind, last, _ = cur.items[-1]
    if kind not in RUN_KINDS:
        return False
    moves = [m.group(0) for m in ELEMENT_RE.finditer(str(last)) if not m.group("num")]
    if moves and moves[-1].replace(" ", "") == result.replace(" ", ""):
        game.terminator = result.strip()
        return True
    return False


def _few_moves(items: list[Item]) -> bool:
    """Whether *items* (a game's main line) hold fewer than PROSE_PLIES moves."""
    n = 0
    for kind, token, _ in items:
        if kind in RUN_KINDS:
            n += moves_in_run(kind, str(token))
            if n >= PROSE_PLIES:
                return False
    return True
