"""Convert games between notations: PDN 3.0 with the squares and capture forms asked for, JSON
(one object per game) and CSV (one row per move). Games that do not replay are kept unchanged."""

from __future__ import annotations

import csv
import io
import json
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from pdn.fen import to_fen
from pdn.files import pdn_files
from pdn.game import Game, MoveNode, Node, Outcome, SetupNode, Tags
from pdn.notation import MoveForm, move_text, pdn_path
from pdn.position import Move, Position
from pdn.reader import make_move, read_games
from pdn.replay import Replay, candidates, replay_game
from pdn.validate import file_preference
from pdn.variants import Notation, Variant, get_variant
from pdn.writer import write_game


class Captures(StrEnum):
    """How captures are written."""

    SHORT = "short"  # PDN 3.0: start and end, long form only where two moves share them
    LONG = "long"  # the PDN 3.0 long form (turning squares, else the square behind) always
    FULL = "full"  # every landing square


@dataclass(frozen=True, slots=True)
class Style:
    """The notation to convert to (None: the variant's own)."""

    squares: Notation | None = None
    captures: Captures = Captures.SHORT
    separator: str | None = None
    result_style: str | None = None  # "international" (2-0 1-1 0-2) or "default" (1-0 ...)
    gametype: str = "short"  # "short" ("20") or "long" ("20,W,10,10,N2,0")


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
    "ply", "move", "path", "captured", "crowns", "fen",
]  # fmt: skip


def game_csv_rows(game: Game, replay: Replay) -> Iterator[dict[str, Any]]:
    """One row per move of the main line."""
    data = game_json(game, replay)
    for m in data["moves"]:
        yield {
            "file": data["file"],
            "index": data["index"],
            "white": game.white or "",
            "black": game.black or "",
            "event": game.event or "",
            "date": game.date or "",
            "result": game.result or "",
            "variant": data["variant"],
            "ply": m["ply"],
            "move": m["text"],
            "path": "-".join(m["path"]),
            "captured": ",".join(m["captured"]),
            "crowns": m["crowns"],
            "fen": m["fen"],
        }


def csv_text(rows: Iterable[dict[str, Any]], header: bool) -> str:
    """CSV lines for *rows* (with the header line first when asked)."""
    buf = io.StringIO()
    writer = csv.DictWriter(buf, CSV_COLUMNS, lineterminator="\n")
    if header:
        writer.writeheader()
    writer.writerows(rows)
    return buf.getvalue()


def json_line(game: Game, replay: Replay) -> str:
    """The game as one JSON line."""
    return json.dumps(game_json(game, replay), ensure_ascii=False)


FORMATS = ("pdn", "json", "csv")


def convert_paths(
    paths: Iterable[str | Path],
    to: str = "pdn",
    style: Style | None = None,
    variant: str | None = None,
    rules: str = "seed",
) -> Iterator[tuple[str, str | None]]:
    """Pieces of the converted output, each with a warning for a game kept as written (or None).

    PDN: each game (converted, or unchanged when it does not replay) followed by a blank line;
    JSON: one line per game; CSV: a header, then one row per move.
    """
    if to not in FORMATS:
        raise ValueError(f"unknown format {to!r}; choose one of {', '.join(FORMATS)}")
    style = style or Style()
    v = get_variant(variant) if variant else None
    first = True
    for path in pdn_files(paths):
        prefer = file_preference(path, variant, rules)
        for game in read_games(path):
            where = f"{game.source.file}:{game.source.line}: game {game.source.index + 1}"
            parsed = game.syntax_error is None
            replay = replay_game(game, v, rules, prefer) if parsed else None
            broken = replay is None or bool(replay.errors)
            warning = f"{where}: kept as written (it does not replay)" if broken else None
            if to == "pdn":
                if replay is None or broken:
                    text = game.raw.strip() + "\n"
                else:
                    text = write_game(convert_game(game, replay, style))
                yield ("" if first else "\n") + text, warning
            elif to == "json":
                if replay is None:
                    yield json.dumps({"file": game.source.file, "index": game.source.index + 1,
                                      "pdn": game.raw, "valid": False}) + "\n", warning  # fmt: skip
                else:
                    yield json_line(game, replay) + "\n", warning
            else:
                rows = list(game_csv_rows(game, replay)) if replay else []
                yield csv_text(rows, header=first), warning
            first = False
