"""The replayed tree and its walk (pdn.walk): steps, statuses, variations, and the order in which
a visitor sees a game, checked by hand.

English squares (spec/pdn.md §6): 11 = f6, 12 = h6, 15 = e5, 16 = g5, 17 = b4, 18 = d4, 22 = c3,
23 = e3, 24 = g3, 25 = b2, 27 = f2, 28 = h2, 29 = a1, 30 = c1, 32 = g1; Black moves first.
"""

from __future__ import annotations

from pdn.game import Game
from pdn.notation import MoveForm, move_text
from pdn.read.movetext import plain_moves
from pdn.read.reader import read_string
from pdn.replay import Replay, replay_as, replay_game
from pdn.rules.fen import to_fen
from pdn.rules.variants import get_variant
from pdn.walk import SKIP, Line, SkipType, Status, Step, Visitor, unplayed, walk
from pdn.writer import PdnWriter

# Black f6 (11) takes e5 (15) to d4 (18), then c3 (22) to b2 (25): one capture in two parts.
# White then has g1 (32) only: 32-27 (f2) or 32-28 (h2). Variations:
#   on 32-27: the alternative 32-28 25-29, which holds two variations of 25-29: 25-30 28-24
#             (legal), and 12-17 28-24 (h6 to b4 is no move: illegal, 28-24 then unplayed);
#   on 32-27: (25-29) is Black's move, so no alternative to White's 32-27: a continuation.
GAME = (
    '[GameType "21"]\n[FEN "B:W15,22,32:B11,12"]\n'
    "{intro} 1. 11x18 18x25 {parts} 1... 32-27 "
    "(1... 32-28 $1 2. 25-29 (2. 25-30 28-24) (2. 12-17 28-24)) (2. 25-29) "
    "2. 25-30 27-23 *\n"
)


class Recorder(Visitor[list[tuple[object, ...]]]):
    """Every event as a tuple; a move as (ply, written, status, full move text or None)."""

    def __init__(self) -> None:
        self.events: list[tuple[object, ...]] = []

    def begin_game(self, game: Game) -> None:
        self.events.append(("begin_game",))

    def visit_header(self, name: str, value: str) -> None:
        self.events.append(("header", name, value))

    def end_headers(self) -> None:
        self.events.append(("end_headers",))

    def visit_comment(self, text: str, step: Step | None = None) -> None:
        self.events.append(("comment", text, step.written.text if step else None))

    def visit_move(self, step: Step) -> None:
        full = None
        if step.before is not None and step.move is not None:
            full = move_text(step.before, step.move, MoveForm.FULL)
        self.events.append(("move", step.ply, step.text, step.status.value, full))

    def visit_nag(self, nag: int) -> None:
        self.events.append(("nag", nag))

    def begin_variation(self, line: Line) -> SkipType | None:
        self.events.append(("(", line.first_ply, line.continuation))
        return None

    def end_variation(self, line: Line) -> None:
        self.events.append((")",))

    def visit_result(self, terminator: str | None) -> None:
        self.events.append(("result", terminator))

    def end_game(self) -> None:
        self.events.append(("end_game",))

    def result(self) -> list[tuple[object, ...]]:
        return self.events


def _replay(text: str) -> Replay:
    [game] = read_string(text)
    assert game.syntax_error is None
    return replay_game(game)


def test_the_visitor_sees_the_game_in_pdn_order() -> None:
    r = _replay(GAME)
    assert [(e.ply, e.move, e.variation) for e in r.errors] == [(3, "12-17", True)]
    assert r.accept(Recorder()) == [
        ("begin_game",),
        ("header", "GameType", "21"),
        ("header", "FEN", "B:W15,22,32:B11,12"),
        ("end_headers",),
        ("comment", "intro", "11x18"),  # written before the move
        ("move", 1, "11x18 18x25", "legal", "11x18x25"),  # the two parts: one step
        ("comment", "parts", "11x18"),  # after its second part
        ("move", 2, "32-27", "legal", "32-27"),
        ("(", 2, False),  # an alternative to 32-27
        ("move", 2, "32-28", "legal", "32-28"),
        ("nag", 1),
        ("move", 3, "25-29", "legal", "25-29"),
        ("(", 3, False),
        ("move", 3, "25-30", "legal", "25-30"),
        ("move", 4, "28-24", "legal", "28-24"),
        (")",),
        ("(", 3, False),
        ("move", 3, "12-17", "illegal", None),
        ("move", 4, "28-24", "unplayed", None),  # after the illegal move
        (")",),
        (")",),
        ("(", 3, True),  # Black's 25-29 follows White's 32-27: a continuation
        ("move", 3, "25-29", "legal", "25-29"),
        (")",),
        ("move", 3, "25-30", "legal", "25-30"),
        ("move", 4, "27-23", "legal", "27-23"),
        ("result", "*"),
        ("end_game",),
    ]


def test_steps_carry_positions_reasons_and_parts() -> None:
    r = _replay(GAME)
    first, second, third, fourth = r.tree.steps
    assert [n.text for n in first.nodes] == ["11x18", "18x25"] and first.parts
    assert first.before is not None and to_fen(first.before) == "B:W15,22,32:B11,12"
    assert first.after is not None and to_fen(first.after) == "W:W32:B12,25"  # 15, 22 taken
    alternative, continuation = second.variations
    assert alternative.start is first.after  # where 32-27 was played from
    assert second.after is not None and continuation.start is second.after
    assert to_fen(second.after) == "B:W27:B12,25"
    illegal = alternative.steps[1].variations[1].steps[0]
    assert illegal.status is Status.ILLEGAL and illegal.reason == "illegal move"
    # after 32-28, Black: h6 (12) to g5 (16), b2 (25) to a1 (29) or c1 (30)
    assert illegal.legal == ["12-16", "25-29", "25-30"]
    assert illegal.before is not None and illegal.move is None and illegal.after is None
    assert to_fen(illegal.before) == "B:W28:B12,25"
    assert (
        [s.written.text for s in (first, second, third, fourth)]
        == [n.text for n in r.nodes]
        == ["11x18", "32-27", "25-30", "27-23"]
    )
    assert r.moves == [s.move for s in r.tree.steps]


def test_a_resolved_ambiguity_is_a_step_with_its_reason() -> None:
    # spec/perft.md: king 4 takes 13, 20 and 32 or 37 to 15; only over 32 can 37-42 follow
    r = _replay('[GameType "20"]\n[FEN "W:WK4:B13,20,32,37,50"]\n1. 4x15 37-42 *')
    first, second = r.tree.steps
    assert first.status is Status.RESOLVED and second.status is Status.LEGAL
    assert first.reason.endswith("only 4x27x38x15 lets the game go on")
    alone = _replay('[GameType "20"]\n[FEN "W:WK4:B13,20,32,37,50"]\n1. 4x15 *')
    [step] = alone.tree.steps
    assert step.status is Status.AMBIGUOUS and step.move is not None
    assert step.reason == "ambiguous move: it fits 4x27x38x15, 4x31x42x15"


def test_the_main_line_stops_at_an_illegal_move() -> None:
    # e5 (15) to g3 (24) is no move
    r = _replay('[GameType "21"]\n1. 11-15 23-19 2. 15-24 (2. 8-11) 22-17 *')
    statuses = [s.status.value for s in r.tree.steps]
    assert statuses == ["legal", "legal", "illegal", "unplayed"]
    [variation] = r.tree.steps[2].variations
    assert variation.start is None and variation.steps[0].status is Status.UNPLAYED


def test_the_tree_of_plain_moves_is_made_when_asked_and_is_the_same() -> None:
    text = '[GameType "21"]\n1. 11-15 {a} 23-19 $2 2. 8-11 22-17 *'
    [lazy_game] = read_string(text)
    moves = plain_moves(lazy_game)
    assert moves is not None
    english = get_variant("english")
    lazy = replay_as(lazy_game, english, moves=moves)
    assert lazy._tree is None  # nothing built while replaying
    [game] = read_string(text)
    eager = replay_as(game, english)  # the movetext tree, move by move
    assert lazy.accept(Recorder()) == eager.accept(Recorder())
    assert [s.after for s in lazy.tree.steps] == lazy.positions[1:]


class _MainLineOnly(Recorder):
    def begin_variation(self, line: Line) -> SkipType:
        return SKIP


def test_a_skipped_variation_is_neither_walked_nor_ended() -> None:
    events = _replay(GAME).accept(_MainLineOnly())
    assert [e[2] for e in events if e[0] == "move"] == ["11x18 18x25", "32-27", "25-30", "27-23"]
    assert not [e for e in events if e[0] in ("(", ")")]


def test_an_unreplayed_game_walks_as_written() -> None:
    [game] = read_string(GAME)
    events = walk(game, unplayed(game.body, 1), Recorder())
    moves = [e[1:4] for e in events if e[0] == "move"]
    assert moves[:3] == [
        (1, "11x18", "unplayed"),
        (2, "18x25", "unplayed"),
        (3, "32-27", "unplayed"),
    ]
    assert ("(", 3, False) in events  # variations read as alternatives


def test_the_writer_numbers_moves_as_replayed() -> None:
    # Black moves first in English: 1. (Black) 1... (White) 2. (Black); the capture in two parts
    # is one ply, and the continuation (25-29, Black) is numbered after 32-27, not as 1...
    text = _replay(GAME).accept(PdnWriter())
    assert text.split("\n\n")[1] == (
        "{intro} 1. 11x18 18x25 {parts} 1... 32-27 (1... 32-28 $1 2. 25-29 (2. 25-30\n"
        "28-24) (2. 12-17 28-24)) (2. 25-29) 2. 25-30 27-23 *\n"
    )
