"""What the page asks the server, each answered as JSON-ready data (or an SVG board).

Games are found by the same query functions as `pdn query`, positions explored by the same
function as `pdn explore`; a game is read again from its stored text and replayed in Python for
the board, so every position shown comes from the replay.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, replace
from typing import Any

import pandas as pd
from sqlalchemy import Engine, func, select

from pdn.db.positions import reaching
from pdn.db.questions import (
    GameFilter,
    QuestionError,
    count_games,
    explore,
    find_games,
    position_digest,
)
from pdn.db.schema import GameRow, SourceFile
from pdn.notation import MoveForm, move_text
from pdn.read.movetext import make_move
from pdn.read.reader import read_string
from pdn.render.diagram import svg_diagram
from pdn.replay import candidates, replay_game
from pdn.rules.draw import ALIASES, RULE_SETS
from pdn.rules.fen import parse_fen, to_fen
from pdn.rules.geometry import SquareError
from pdn.rules.position import Move, Position
from pdn.rules.variants import VARIANTS, get_variant
from pdn.web.gametree import game_tree

GAME_COLUMNS = ["id", "white", "black", "event", "site", "date", "result", "variant", "plies",
                "valid", "termination", "file", "index"]  # fmt: skip


class NotFound(LookupError):
    """No such game."""


@dataclass(frozen=True, slots=True)
class Page:
    """A slice of a list: 1-based page number and rows per page."""

    number: int = 1
    size: int = 50

    @property
    def offset(self) -> int:
        """Rows before the page."""
        return (self.number - 1) * self.size


def _records(frame: pd.DataFrame, columns: list[str]) -> list[dict[str, Any]]:
    """Rows as dicts of plain values (game ids as text: JavaScript numbers hold 53 bits)."""
    rows = []
    for row in frame[columns].itertuples(index=False):
        record: dict[str, Any] = {}
        for name, value in zip(columns, row, strict=True):
            if name == "id":
                record[name] = str(int(value))
            elif value is None or (not isinstance(value, str) and pd.isna(value)):
                record[name] = None
            elif hasattr(value, "item"):  # numpy scalars
                record[name] = value.item()
            else:
                record[name] = value
        rows.append(record)
    return rows


def games(engine: Engine, where: GameFilter, page: Page) -> dict[str, Any]:
    """One page of the games matching *where*, and whether more follow."""
    frame = find_games(engine, where, page.size + 1, page.offset)
    return {
        "page": page.number,
        "size": page.size,
        "more": len(frame) > page.size,
        "games": _records(frame.head(page.size), GAME_COLUMNS),
    }


def count(engine: Engine, where: GameFilter) -> dict[str, Any]:
    """How many games match *where*."""
    return {"total": count_games(engine, where)}


def invalid_games(engine: Engine, page: Page) -> dict[str, Any]:
    """One page of the invalid games, each with its errors as the import reported them, and
    how many there are."""
    answer = games(engine, GameFilter(valid=False), page)
    answer["total"] = count_games(engine, GameFilter(valid=False))
    ids = [int(g["id"]) for g in answer["games"]]
    with engine.connect() as conn:
        rows = conn.execute(
            select(GameRow.id, GameRow.line, GameRow.errors).where(GameRow.id.in_(ids))
        ).all()
    found = {r.id: (r.line, json.loads(r.errors)) for r in rows}
    for g in answer["games"]:
        g["line"], errors = found[int(g["id"])]
        g["errors"] = [e if isinstance(e, dict) else {"kind": "syntax", "reason": e}
                       for e in errors]  # fmt: skip
    return answer


def game(engine: Engine, game_id: int) -> dict[str, Any]:
    """A game replayed for the board: tags, the tree of its moves with every position, errors."""
    with engine.connect() as conn:
        stored = conn.execute(
            select(GameRow.__table__, SourceFile.path.label("source"))
            .join(SourceFile, SourceFile.id == GameRow.file_id)
            .where(GameRow.id == game_id)
        ).first()
    if stored is None:
        raise NotFound(f"no game {game_id}")
    path = stored.source
    parsed = read_string(stored.pdn, path)
    if not parsed:
        raise NotFound(f"game {game_id}: its stored text holds no game")
    pdn_game = parsed[0]
    replay = None
    if pdn_game.syntax_error is None and stored.variant:
        rules = stored.rules if stored.rules in (*RULE_SETS, *ALIASES) else "common"
        replay = replay_game(pdn_game, get_variant(stored.variant), rules)
    tree = game_tree(pdn_game, replay)
    located = {(n.line, n.column): n.id for n in tree.nodes}
    shift = stored.line - 1  # the stored text starts at the game's first line in its file
    errors = [
        {"ply": e.ply, "move": e.move, "line": e.line + shift, "column": e.column,
         "reason": e.reason, "legal": e.legal, "variation": e.variation, "kind": e.kind,
         "node": located.get((e.line, e.column))}
        for e in (replay.errors if replay else [])
    ]  # fmt: skip
    if pdn_game.syntax_error is not None:  # as the import located it in its file
        said = [e for e in json.loads(stored.errors) if isinstance(e, str)]
        errors += [{"kind": "syntax", "reason": e, "node": None} for e in said]
    return {
        "id": str(game_id),
        "file": path,
        "index": stored.file_index,
        "line": stored.line,
        "variant": stored.variant,
        "valid": stored.valid,
        "result": stored.result,
        "termination": stored.termination,
        "termination_ply": stored.termination_ply,
        "plies": stored.plies,
        "tags": pdn_game.tags.items(),
        "start": tree.start,
        "offset": tree.offset,
        "nodes": [asdict(n) for n in tree.nodes],
        "line_items": [asdict(i) for i in tree.line],
        "errors": errors,
        "warnings": [str(w) for w in (replay.warnings if replay else []) + pdn_game.warnings],
        "text": stored.pdn,
    }


def moves(
    engine: Engine,
    variant: str,
    fen: str,
    where: GameFilter | None = None,
    result: str | None = None,
) -> dict[str, Any]:
    """The moves played from a position, counted as `pdn explore` counts them: by the same
    function, of the games *where* selects (its player, event and years) with *result*."""
    name = get_variant(variant).name
    frame = explore(engine, name, fen=fen, result=result, where=where)
    columns = list(frame.columns)
    return {"variant": name, "fen": fen, "columns": columns, "moves": _records(frame, columns)}


def reached(
    engine: Engine, variant: str, fen: str, page: Page, where: GameFilter | None = None
) -> dict[str, Any]:
    """The games that reached a position (as `pdn query --fen` finds them), of those *where*
    selects, each with the ply it was reached at."""
    name = get_variant(variant).name
    chosen = replace(where or GameFilter(), variant=name, fen=fen)
    found = find_games(engine, chosen, page.size + 1, page.offset)
    listed = _records(found.head(page.size), GAME_COLUMNS)
    digest = position_digest(name, fen=fen)
    ids = [int(g["id"]) for g in listed]
    at = reaching(engine, digest)
    query = select(GameRow.id, func.min(at.c.ply)).join(GameRow, GameRow.number == at.c.game)
    query = query.where(GameRow.id.in_(ids)).group_by(GameRow.id)
    with engine.connect() as conn:
        first = {game: ply for game, ply in conn.execute(query)}
    for g in listed:
        ply = first.get(int(g["id"]))
        g["reached"] = ply if ply is not None else g["plies"]
    return {"games": listed, "page": page.number, "more": len(found) > page.size}


def play(variant: str, fen: str, move: str) -> dict[str, Any]:
    """The position after *move* (as written) from *fen*: its FEN and the move's path."""
    pos = parse_fen(fen, get_variant(variant))
    try:
        found = candidates(pos, make_move(move).squares)
    except SquareError as exc:
        raise QuestionError(str(exc)) from None
    if len(found) != 1:
        raise QuestionError(f"{move} is {'ambiguous' if found else 'illegal'} here")
    after = pos.play(found[0])
    return {
        "fen": to_fen(after),
        "path": [pos.geometry.label(s) for s in found[0].path],
        "text": move_text(pos, found[0], MoveForm.SHORT),
    }


def start(variant: str) -> dict[str, Any]:
    """The start position of a variant."""
    v = get_variant(variant)
    return {"variant": v.name, "fen": to_fen(Position.start(v))}


def variants() -> list[str]:
    """The variant names the page offers."""
    return sorted(VARIANTS)


def board(
    variant: str,
    fen: str,
    path: list[str] | None = None,
    flip: bool = False,
    legal: bool = False,
    marks: list[str] | None = None,
    best: str | None = None,
) -> str:
    """The SVG board of a position: the last move's *path* as an arrow, the legal moves as
    dashed arrows (*legal*), or the engine's *best* move (as written) as one, the *marks*
    squares outlined."""
    pos = parse_fen(fen, get_variant(variant))
    g = pos.geometry
    try:
        move = Move(tuple(g.parse_square(s) for s in path)) if path else None
        marked = [g.parse_square(s) for s in marks or []]
    except SquareError as exc:
        raise QuestionError(str(exc)) from None
    if move is not None and len(move.path) < 2:
        raise QuestionError("a move needs two squares or more")
    hints = pos.legal_moves() if legal else []
    if best and not legal:
        try:
            hints = candidates(pos, make_move(best).squares)[:1]
        except SquareError as exc:
            raise QuestionError(str(exc)) from None
    return svg_diagram(pos, move, flip, hints, marked)
