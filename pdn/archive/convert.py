"""Convert games between notations: PDN 3.0 with the squares and capture forms asked for, JSON
(one object per game) and CSV (one row per move). Every move of the replayed tree is written in
the style, in the main line and in the variations; games that do not replay, or with a move that
cannot be written so, are kept unchanged."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from functools import partial
from pathlib import Path
from typing import Any

from pdn.archive.identity import Same, game_identity
from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, replay_paths
from pdn.game import Game, Outcome
from pdn.mainline import main_line
from pdn.notation import MoveForm, move_text
from pdn.read.movetext import make_move, plain_runs
from pdn.replay import Replay, candidates
from pdn.rules.fen import to_fen
from pdn.rules.move import pdn_path
from pdn.rules.position import Move, Position
from pdn.rules.variants import Notation, Variant
from pdn.walk import Step
from pdn.writer import PdnWriter, sides


class Captures(StrEnum):
    """How captures are written."""

    SHORT = "short"  # PDN 3.0: start and end, long form only where two moves share them
    LONG = "long"  # the PDN 3.0 long form (turning squares, else the square behind) always
    FULL = "full"  # every landing square


class Separator(StrEnum):
    """The capture separator."""

    X = "x"
    COLON = ":"


class ResultStyle(StrEnum):
    """How results are written."""

    INTERNATIONAL = "international"  # 2-0, 1-1, 0-2
    DEFAULT = "default"  # 1-0, 1/2-1/2, 0-1


class GameTypeForm(StrEnum):
    """How the GameType tag is written."""

    SHORT = "short"  # "20"
    LONG = "long"  # "20,W,10,10,N2,0"


@dataclass(frozen=True, slots=True)
class Style:
    """The notation to convert to (None: the variant's own)."""

    squares: Notation | None = None
    captures: Captures = Captures.SHORT
    separator: Separator | None = None
    result_style: ResultStyle | None = None
    gametype: GameTypeForm = GameTypeForm.SHORT


def write_move(pos: Position, move: Move, style: Style) -> str:
    """A move in the style asked for."""
    g = pos.geometry
    if not move.captured:
        return f"{g.label(move.start, style.squares)}-{g.label(move.end, style.squares)}"
    sep = style.separator or pos.variant.separator
    if style.captures is Captures.SHORT:
        return move_text(pos, move, MoveForm.SHORT, style.squares, sep, pos.captures())
    squares = list(move.path) if style.captures is Captures.FULL else pdn_path(g, move)
    return sep.join(g.label(s, style.squares) for s in squares)


_RESULTS = {
    "international": {Outcome.FIRST: "2-0", Outcome.SECOND: "0-2", Outcome.DRAW: "1-1"},
    "default": {Outcome.FIRST: "1-0", Outcome.SECOND: "0-1", Outcome.DRAW: "1/2-1/2"},
}


def _result(game: Game, variant: Variant, style: Style) -> str | None:
    """The result in the style asked for, or None to keep it as written."""
    wanted = style.result_style or variant.result_style
    return _RESULTS[wanted].get(game.outcome)


def _same(a: Move, b: Move) -> bool:
    """Whether two moves reach the same position (from the same one)."""
    return (a.start, a.end, a.captured_mask, a.crowns) == (
        b.start,
        b.end,
        b.captured_mask,
        b.crowns,
    )


class _Converter(PdnWriter):
    """Writes a replayed game with every move in a style; a move that cannot be written so is
    written as it was, and listed in ``failed``."""

    def __init__(self, replay: Replay, style: Style) -> None:
        super().__init__()
        self.variant = replay.variant
        self.style = style
        self.wanted = _result(replay.game, replay.variant, style)
        self.failed: list[Step] = []
        self._gametype = (
            self.variant.gametype_tag() if style.gametype == "long" else str(self.variant.gametype)
        )

    def begin_game(self, game: Game) -> None:
        super().begin_game(game)
        # the GameType tag written names the variant replayed, which moves first
        self.first, self.side = sides(game, self.variant)

    def visit_header(self, name: str, value: str) -> None:
        key = name.lower()
        if key == "gametype":
            value = self._gametype
        elif key == "result" and self.wanted:
            value = self.wanted
        super().visit_header(name, value)

    def end_headers(self) -> None:
        game = self.game
        if game is not None and game.tags.get("GameType") is None:
            super().visit_header("GameType", self._gametype)

    def move_text(self, step: Step) -> str:
        """The move in the style, if it reads back as the move played; else as written."""
        before, move = step.before, step.move
        if before is not None and move is not None and step.status.played:
            new = make_move(write_move(before, move, self.style), step.written.strength)
            found = candidates(before, new.squares)
            if len(found) == 1 and _same(found[0], move):
                return new.text + new.strength
        self.failed.append(step)
        return step.text

    def visit_result(self, terminator: str | None) -> None:
        wanted = self.wanted
        super().visit_result(wanted if wanted and terminator not in (None, "*") else terminator)


def _short_forms(style: Style, variant: Variant) -> bool:
    """Whether *style* writes every move of *variant* in the short form a stored game's moves
    have (pdn.rules.kernel.Kernel.move_texts): the variant's squares and separator, captures
    written short."""
    return (
        style.squares in (None, variant.notation)
        and style.captures is Captures.SHORT
        and style.separator in (None, variant.separator)
    )


def converted_text(game: Game, replay: Replay, style: Style) -> tuple[str, str | None]:
    """The game written anew in *style* as PDN text, or, when a move cannot be written so (or
    the game has errors), as read, with the reason."""
    if replay.errors or replay.first_position is None:
        return game.raw.strip() + "\n", "it does not replay"
    converter = _Converter(replay, style)
    if _short_forms(style, replay.variant) and plain_runs(game, bare=True) is not None:
        # runs of plain moves alone, fully played, each written in the short form the kernel
        # gives (Replay.line_rows): the walk's text, with no tree or board built for it
        return converter.plain_game(game, replay.line_rows(0, 0).texts), None
    text = replay.accept(converter)
    if converter.failed:
        step = converter.failed[0]
        node = step.written
        notation = style.squares or replay.variant.notation
        why = f"{step.text} (line {node.line}:{node.column}) cannot be written in {notation}"
        return game.raw.strip() + "\n", f"{why} notation"
    return text, None


def game_json(game: Game, replay: Replay) -> dict[str, Any]:
    """One game as a JSON-ready object: tags, variant, start FEN, and each move."""
    moves = []
    texts = main_line(replay)  # each move's short form, by the kernel in one call
    for i, move in enumerate(replay.moves):
        before, after = replay.positions[i], replay.positions[i + 1]
        g = before.geometry
        moves.append(
            {
                "ply": i + 1,
                "text": texts[i],
                "path": [g.label(s) for s in move.path],
                "captured": [g.label(s) for s in move.captured],
                "crowns": move.crowns,
                "fen": to_fen(after),
            }
        )
    return {
        "file": game.source.file,
        "index": game.source.index + 1,
        "tags": dict(game.tags.items()),
        "variant": replay.variant.name,
        "start_fen": to_fen(replay.positions[0]) if replay.positions else game.fen,
        "result": game.result,
        "termination": replay.termination,
        "valid": replay.valid,
        "moves": moves,
    }


CSV_COLUMNS = [
    "file", "index", "white", "black", "event", "date", "result", "variant",
    "ply", "move", "path", "captured", "crowns", "fen", "tags",
]  # fmt: skip


def game_csv_rows(game: Game, replay: Replay) -> Iterator[dict[str, Any]]:
    """One row per move of the main line, the position after it in ``fen``; a game without
    moves is one row of ply 0 with its start position. ``tags`` holds every tag of the game as
    a JSON object (the columns before it repeat the common ones)."""
    data = game_json(game, replay)
    game_columns = {
        "file": data["file"],
        "index": data["index"],
        "white": game.white or "",
        "black": game.black or "",
        "event": game.event or "",
        "date": game.date or "",
        "result": game.result or "",
        "variant": data["variant"],
        "tags": json.dumps(_every_tag(game), ensure_ascii=False),
    }
    if not data["moves"]:
        empty = {"move": "", "path": "", "captured": "", "crowns": ""}
        yield {**game_columns, "ply": 0, **empty, "fen": data["start_fen"] or ""}
    for m in data["moves"]:
        yield {
            **game_columns,
            "ply": m["ply"],
            "move": m["text"],
            "path": "-".join(m["path"]),
            "captured": ",".join(m["captured"]),
            "crowns": m["crowns"],
            "fen": m["fen"],
        }


def _every_tag(game: Game) -> dict[str, str | list[str]]:
    """The tags of *game* in file order, a name given more than once with the list of its
    values."""
    out: dict[str, str | list[str]] = {}
    for name, value in game.tags.items():
        seen = out.get(name)
        if seen is None:
            out[name] = value
        else:
            out[name] = [*([seen] if isinstance(seen, str) else seen), value]
    return out


def csv_text(rows: Iterable[dict[str, Any]], header: bool) -> str:
    """CSV lines for *rows* (with the header line first when asked)."""
    buf = io.StringIO()
    writer = csv.writer(buf, lineterminator="\n")
    if header:
        writer.writerow(CSV_COLUMNS)
    writer.writerows([row[c] for c in CSV_COLUMNS] for row in rows)  # (DictWriter: 20% slower)
    return buf.getvalue()


class Target(StrEnum):
    """What games are converted to."""

    PDN = "pdn"
    JSON = "json"
    CSV = "csv"


@dataclass(slots=True)
class Converted:
    """One game converted (in a worker): PDN text, a JSON-ready object or CSV rows, and whether
    it was kept as written (it does not replay, or a move of it cannot be written in the
    style), and why."""

    file: str
    index: int  # 1-based
    line: int
    kept: bool
    text: str = ""
    data: dict[str, Any] | None = None
    rows: list[dict[str, Any]] | None = None
    key: str | None = None  # the game's record or moves key, when duplicates are dropped
    why: str = "it does not replay"  # why it was kept as written


def convert_one(
    game: Game, replay: Replay | None, to: Target, style: Style, drop: Same | None = None
) -> Converted:
    """A game converted to *to* (kept as written when it does not replay, or in PDN when a move
    cannot be written in *style*), with its key of kind *drop* when asked."""
    kept = replay is None or bool(replay.errors)
    src = game.source
    done = Converted(src.file, src.index + 1, src.line, kept)
    if drop is not None:
        done.key = game_identity(game, replay).key(drop)
    if to is Target.PDN:
        if replay is None:
            done.text = game.raw.strip() + "\n"
        else:
            done.text, why = converted_text(game, replay, style)
            done.kept, done.why = why is not None, why or ""
    elif to is Target.JSON:
        done.data = (
            {"file": src.file, "index": src.index + 1, "pdn": game.raw, "valid": False}
            if replay is None
            else game_json(game, replay)
        )
    else:
        done.rows = list(game_csv_rows(game, replay)) if replay else []
    return done


def renumber_converted(done: Converted, by: int) -> Converted:
    """The converted game, changed in place, as it is for the game *by* places on in its file
    (its JSON object and CSV rows hold the index too)."""
    done.index += by
    if done.data is not None:
        done.data["index"] += by
    for row in done.rows or ():
        row["index"] += by
    return done


def convert_paths(
    paths: Iterable[str | Path],
    to: str = "pdn",
    style: Style | None = None,
    variant: str | None = None,
    rules: str = "common",
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
    drop: Same | None = None,
) -> Iterator[tuple[str | None, str | None]]:
    """Pieces of the converted output, each with a warning for a game kept as written (or None),
    the same whatever runs the conversion (see :mod:`pdn.archive.pipeline`).

    PDN: each game (converted, or unchanged when it does not replay) followed by a blank line;
    JSON: one line per game; CSV: a header, then one row per move. *drop*: a game with the
    same record (copies) or moves (moves) as a game before it is left out: no piece (None), and
    a warning naming the game it repeats.
    """
    if to not in set(Target):
        raise ValueError(f"unknown format {to!r}; choose one of {', '.join(Target)}")
    target = Target(to)
    work = partial(convert_one, to=target, style=style or Style(), drop=drop)
    first = True
    options = Options(variant, rules)
    seen: dict[str, str] = {}  # key of each game kept -> where it was read
    done: Converted
    for done in replay_paths(
        paths, work, options, workers, progress, on_problem, renumber_converted
    ):
        where = f"{done.file}:{done.line}: game {done.index}"
        if drop is not None:
            if done.key in seen:
                what = "a copy of" if drop is Same.COPIES else "the same moves as"
                yield None, f"{where}: dropped, {what} {seen[done.key]}"
                continue
            if done.key is not None:
                seen[done.key] = f"{done.file}:{done.line} (game {done.index})"
        if target is Target.PDN:
            piece = ("" if first else "\n") + done.text
        elif target is Target.JSON:
            piece = json.dumps(done.data, ensure_ascii=False) + "\n"
        else:
            piece = csv_text(done.rows or [], header=first)
        yield piece, f"{where}: kept as written ({done.why})" if done.kept else None
        first = False
