"""Convert games between notations: PDN 3.0 with the squares and capture forms asked for, JSON
(one object per game) and CSV (one row per move). Games that do not replay are kept unchanged."""

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
from pdn.game import Game, MoveNode, Node, Outcome, SetupNode, Tags
from pdn.notation import MoveForm, move_text, pdn_path
from pdn.read.movetext import make_move
from pdn.replay import Replay, candidates
from pdn.rules.fen import to_fen
from pdn.rules.position import Move, Position
from pdn.rules.variants import Notation, Variant
from pdn.writer import write_game


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


def _convert_line(pos: Position, nodes: list[Node], style: Style) -> list[Node]:
    """Copies of *nodes* with every move rewritten; from a move that does not replay, as is."""
    out: list[Node] = []
    ok = True
    for node in nodes:
        if isinstance(node, SetupNode):
            out.append(node)
            ok = False  # a new position: keep what follows as written
            continue
        if not isinstance(node, MoveNode):
            out.append(node)
            continue
        found = candidates(pos, node.squares) if ok else []
        if len(found) != 1:
            ok = False
            out.append(node)
            continue
        move = found[0]
        new = make_move(write_move(pos, move, style), node.strength)
        new.nags, new.comments_before = list(node.nags), list(node.comments_before)
        new.comments_after = list(node.comments_after)
        new.variations = [_convert_line(pos, v, style) for v in node.variations]
        out.append(new)
        pos = pos.play(move)
    return out


def convert_game(game: Game, replay: Replay, style: Style) -> Game:
    """The game written anew in *style* (a game with errors is returned unchanged)."""
    if replay.errors or not replay.positions:
        return game
    variant = replay.variant
    tags = Tags()
    result = _result(game, variant, style)
    for name, value in game.tags.items():
        key = name.lower()
        if key == "gametype":
            value = variant.gametype_tag() if style.gametype == "long" else str(variant.gametype)
        elif key == "result" and result:
            value = result
        tags.add(name, value)
    if game.tags.get("GameType") is None:
        tags.add(
            "GameType",
            variant.gametype_tag() if style.gametype == "long" else str(variant.gametype),
        )
    body = _convert_line(replay.positions[0], game.body, style)
    terminator = result if result and game.terminator not in (None, "*") else game.terminator
    out = Game(tags, body, terminator, game.source)
    out.raw = game.raw
    return out


def game_json(game: Game, replay: Replay) -> dict[str, Any]:
    """One game as a JSON-ready object: tags, variant, start FEN, and each move."""
    moves = []
    for i, move in enumerate(replay.moves):
        before, after = replay.positions[i], replay.positions[i + 1]
        g = before.geometry
        moves.append(
            {
                "ply": i + 1,
                "text": move_text(before, move, MoveForm.SHORT, legal=before.captures()),
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
    writer = csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n")
    if header:
        writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


class Target(StrEnum):
    """What games are converted to."""

    PDN = "pdn"
    JSON = "json"
    CSV = "csv"


@dataclass(slots=True)
class Converted:
    """One game converted (in a worker): PDN text, a JSON-ready object or CSV rows, and whether
    it was kept as written because it does not replay."""

    file: str
    index: int  # 1-based
    line: int
    kept: bool
    text: str = ""
    data: dict[str, Any] | None = None
    rows: list[dict[str, Any]] | None = None
    key: str | None = None  # the game's record or moves key, when duplicates are dropped


def convert_one(
    game: Game, replay: Replay | None, to: Target, style: Style, drop: Same | None = None
) -> Converted:
    """A game converted to *to* (kept as written when it does not replay), with its key of
    kind *drop* when asked."""
    kept = replay is None or bool(replay.errors)
    src = game.source
    done = Converted(src.file, src.index + 1, src.line, kept)
    if drop is not None:
        done.key = game_identity(game, replay).key(drop)
    if to is Target.PDN:
        done.text = (
            game.raw.strip() + "\n"
            if kept
            else write_game(
                convert_game(game, replay, style)  # type: ignore[arg-type]
            )
        )
    elif to is Target.JSON:
        done.data = (
            {"file": src.file, "index": src.index + 1, "pdn": game.raw, "valid": False}
            if replay is None
            else game_json(game, replay)
        )
    else:
        done.rows = list(game_csv_rows(game, replay)) if replay else []
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
    for done in replay_paths(paths, work, options, workers, progress, on_problem):
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
        yield piece, f"{where}: kept as written (it does not replay)" if done.kept else None
        first = False
