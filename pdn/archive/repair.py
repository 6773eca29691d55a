"""Repair archives (`pdn fix`): cut a game at its first illegal move, set a result the final
position or a draw by rule where the moves end contradicts, add the PlyCount tag, drop the
games that stay invalid, split the games by event, year or variant. A game no repair touches
is written exactly as read; every change is said, one line each, so that nothing is changed
unseen."""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from enum import StrEnum
from functools import partial
from pathlib import Path

from pdn.archive.parallel import Runner
from pdn.archive.pipeline import OnProblem, Options, Progress, replay_paths
from pdn.game import CommentNode, Game, MoveNode, Node, Outcome
from pdn.replay import MoveError, Replay, replay_game
from pdn.rules.draw import Ending
from pdn.rules.geometry import Color
from pdn.writer import movetext, write_game


class SplitBy(StrEnum):
    """What the games are split by, one file each."""

    EVENT = "event"
    YEAR = "year"
    VARIANT = "variant"


@dataclass(frozen=True, slots=True)
class Repairs:
    """The repairs asked for."""

    truncate_at_error: bool = False
    fix_results: bool = False
    add_plycount: bool = False
    drop_invalid: bool = False
    split_by: SplitBy | None = None
    rules: str = "seed"


@dataclass(slots=True)
class Fixed:
    """One game after the repairs: its PDN text (None when dropped), the changes made, and the
    name of its group when split."""

    file: str
    index: int  # 1-based
    line: int
    text: str | None
    changes: list[str] = field(default_factory=list)
    group: str = ""

    def change_lines(self) -> list[str]:
        """One line per change: ``file:line: game N: change``."""
        return [f"{self.file}:{self.line}: game {self.index}: {c}" for c in self.changes]


# The results as the two conventions write them (spec/pdn.md §7): first player's score first
RESULTS = {
    "international": {Outcome.FIRST: "2-0", Outcome.SECOND: "0-2", Outcome.DRAW: "1-1"},
    "default": {Outcome.FIRST: "1-0", Outcome.SECOND: "0-1", Outcome.DRAW: "1/2-1/2"},
}


def _plain(text: str) -> str:
    """Text that can stand in a {comment}: braces turned into parentheses."""
    return text.replace("{", "(").replace("}", ")")


def _find(
    nodes: list[Node], line: int, column: int, parent: MoveNode | None = None
) -> tuple[list[Node], int, MoveNode | None] | None:
    """The line holding the move written at *line*:*column*, its index there and the move whose
    variation the line is (None for the main line)."""
    for i, node in enumerate(nodes):
        if not isinstance(node, MoveNode):
            continue
        if node.line == line and node.column == column:
            return nodes, i, parent
        for variation in node.variations:
            found = _find(variation, line, column, node)
            if found:
                return found
    return None


def _cut(game: Game, error: MoveError, first: str, offset: int) -> bool:
    """Cut the line of *game* holding the illegal move of *error* before it: what follows goes
    into a comment saying why; a variation cut at its first move goes whole. *offset*: 1 when
    the game starts with the second player to move."""
    found = _find(game.body, error.line, error.column)
    if found is None:
        return False
    nodes, i, parent = found
    half = error.ply - 1 + offset
    side = first if half % 2 == 0 else ("B" if first == "W" else "W")
    rest = movetext(nodes[i:], first, side, half // 2 + 1)
    note = CommentNode(
        _plain(f"pdn fix: cut at {error.move}, {error.reason}; not replayed: {rest}")
    )
    del nodes[i:]
    if i == 0 and parent is not None:
        parent.variations = [v for v in parent.variations if v is not nodes]
        parent.comments_after.append(note.text)
    else:
        nodes.append(note)
    return True


def _style(game: Game, replay: Replay) -> dict[Outcome, str]:
    """The results as this game writes them (else as its variant does)."""
    written = (game.result or "").replace(" ", "")
    for style in RESULTS.values():
        if written in style.values():
            return style
    return RESULTS[replay.variant.result_style]


def _set_result(game: Game, result: str) -> None:
    game.tags.set("Result", result)
    game.terminator = result


def _decided(replay: Replay) -> Outcome | None:
    """The result the rules decide where the main line ends: the side to move has no legal move
    and has lost (rules.md, the end of the game), else None."""
    if replay.termination != "win" or replay.final is None:
        return None
    first = Color.of(replay.variant.first)
    return Outcome.SECOND if replay.final.turn == first else Outcome.FIRST


def _drawn(replay: Replay) -> Ending | None:
    """The draw by rule that ended the game where its main line ends, when the result written
    says it was won: a rule of the rule set replayed under that ends the game by itself
    (pdn.rules.draw: the repetition, moves and endgame rules, each with its rule book's
    article), reached at the last move written. None when the moves go on after it (the
    players did not play under that rule: not this repair's to judge), when the rule only lets
    a player claim the draw, or when the result says a draw or nothing."""
    ending = replay.rules_ending  # a draw there is one the rules end the game with by itself
    won = replay.game.outcome in (Outcome.FIRST, Outcome.SECOND)
    if not won or replay.final is None or ending is None or ending.winner is not None:
        return None
    return ending if ending.ply == replay.plies else None


def _say_drawn(game: Game, was: str, result: str, draw: Ending) -> str:
    """Say in a comment after the last move why the result was set: the rule, its ply and its
    source; the change as listed."""
    source = f" ({draw.rule.source})" if draw.rule else ""
    why = f"{draw.text()} at ply {draw.ply}{source}"
    game.body.append(CommentNode(_plain(f"pdn fix: result {was} set to {result}: {why}")))
    return f"result {was} set to {result} ({why})"


def fix_game(game: Game, replay: Replay | None, repairs: Repairs) -> Fixed:
    """*game* repaired as *repairs* ask, its changes listed (*replay*: None when it did not
    parse)."""
    src = game.source
    done = Fixed(src.file, src.index + 1, src.line, None)
    changed = False
    if replay is not None and repairs.truncate_at_error:
        first = replay.variant.first
        start = replay.first_position.turn if replay.first_position else Color.of(first)
        offset = 0 if start == Color.of(first) else 1
        moves = [e for e in replay.errors if e.kind == "move"]
        for error in moves:
            if _cut(game, error, first, offset):
                where = "a variation" if error.variation else f"ply {error.ply}"
                done.changes.append(f'cut at {where} "{error.move}": {error.reason}')
                changed = True
        if any(not e.variation for e in moves) and (game.result or "*") != "*":
            done.changes.append(f"result {game.result} set to * (the game was cut)")
            _set_result(game, "*")
        if changed:
            replay = replay_game(game, replay.variant, repairs.rules)
    if replay is not None and repairs.fix_results:
        decided = _decided(replay)
        if decided is not None and any(e.kind == "result" for e in replay.errors):
            result = _style(game, replay)[decided]
            done.changes.append(f"result {game.result} set to {result} (the final position)")
            _set_result(game, result)
            changed = True
            replay = replay_game(game, replay.variant, repairs.rules)
        drawn = _drawn(replay) if decided is None else None
        if drawn is not None:
            result = _style(game, replay)[Outcome.DRAW]
            done.changes.append(_say_drawn(game, game.result or "*", result, drawn))
            _set_result(game, result)
            changed = True
            replay = replay_game(game, replay.variant, repairs.rules)
    if replay is not None and repairs.add_plycount and not replay.errors:
        written = game.tags.get("PlyCount")
        if written != str(replay.plies):
            was = "added" if written is None else f"was {written}"
            done.changes.append(f"PlyCount {replay.plies} ({was})")
            game.tags.set("PlyCount", str(replay.plies))
            changed = True
    valid = replay is not None and replay.valid
    if repairs.drop_invalid and not valid:
        why = "it does not parse" if replay is None else "it does not replay"
        done.changes.append(f"dropped ({why})")
        return done
    if changed:
        done.text = write_game(game)
    elif game.terminator is None:  # else the next game read after it would join it
        done.changes.append("* written after it (it had no result to end it)")
        done.text = game.raw.strip() + "\n*\n"
    else:
        done.text = game.raw.strip() + "\n"
    if repairs.split_by is not None:
        done.group = group_of(game, replay, repairs.split_by)
    return done


def group_of(game: Game, replay: Replay | None, by: SplitBy) -> str:
    """The name of the file a game goes to when split *by* event, year or variant."""
    if by is SplitBy.EVENT:
        value = (game.event or "").strip()
        return value if value and value != "?" else "no event"
    if by is SplitBy.YEAR:
        return str(game.year) if game.year else "no year"
    variant = replay.variant if replay else game.declared_variant
    return variant.name if variant else "no variant"


def renumber_fixed(fixed: Fixed, by: int) -> Fixed:
    """The repaired game, changed in place, as it is for the game *by* places on in its file."""
    fixed.index += by
    return fixed


def fix_paths(
    paths: Iterable[str | Path],
    repairs: Repairs,
    variant: str | None = None,
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
) -> Iterator[Fixed]:
    """Every game under *paths* repaired, in file order, the same whatever runs them (see
    :mod:`pdn.archive.pipeline`)."""
    work = partial(fix_game, repairs=repairs)
    options = Options(variant, repairs.rules)
    yield from replay_paths(paths, work, options, workers, progress, on_problem, renumber_fixed)


_UNSAFE = re.compile(r"[^\w.-]+")


def file_names(groups: Iterable[str]) -> dict[str, str]:
    """A file name for each group: its words joined by ``_``, ``.pdn`` added; two groups that
    would share a name are told apart by a number."""
    names: dict[str, str] = {}
    taken: set[str] = set()
    for group in groups:
        if group in names:
            continue
        stem = _UNSAFE.sub("_", group).strip("_.") or "games"
        name, n = f"{stem}.pdn", 1
        while name in taken:
            n += 1
            name = f"{stem}-{n}.pdn"
        names[group] = name
        taken.add(name)
    return names
