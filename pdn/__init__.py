"""Draughts PDN toolkit: read and write PDN, replay games under every variant's rules."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pdn.board import (
        AmbiguousMoveError,
        Board,
        IllegalMoveError,
        InvalidMoveError,
        MoveTextError,
    )
    from pdn.game import (
        DeclaredResult,
        Game,
        GameWarning,
        MoveNode,
        Outcome,
        PdnSyntaxError,
        SetupNode,
        Tags,
    )
    from pdn.read.reader import read_file, read_games, read_string
    from pdn.rules.draw import Ending, Termination
    from pdn.rules.fen import FenError, parse_fen, to_fen
    from pdn.rules.geometry import Color
    from pdn.rules.move import Move
    from pdn.rules.position import Position, perft
    from pdn.rules.variants import VARIANTS, Variant, get_variant
    from pdn.writer import write_game, write_games

# Imported when first used, so that `import pdn.cli` (the `pdn` command starting) stays light
_HOMES = {
    "Color": "pdn.rules.geometry",
    "FenError": "pdn.rules.fen", "parse_fen": "pdn.rules.fen", "to_fen": "pdn.rules.fen",
    "Game": "pdn.game", "GameWarning": "pdn.game", "MoveNode": "pdn.game", "Outcome": "pdn.game",
    "DeclaredResult": "pdn.game",
    "PdnSyntaxError": "pdn.game", "SetupNode": "pdn.game", "Tags": "pdn.game",
    "AmbiguousMoveError": "pdn.board", "Board": "pdn.board", "Ending": "pdn.rules.draw",
    "IllegalMoveError": "pdn.board", "InvalidMoveError": "pdn.board",
    "MoveTextError": "pdn.board", "Termination": "pdn.rules.draw",
    "Move": "pdn.rules.move", "Position": "pdn.rules.position", "perft": "pdn.rules.position",
    "read_file": "pdn.read.reader", "read_games": "pdn.read.reader",
    "read_string": "pdn.read.reader",
    "VARIANTS": "pdn.rules.variants", "Variant": "pdn.rules.variants",
    "get_variant": "pdn.rules.variants",
    "write_game": "pdn.writer", "write_games": "pdn.writer",
}  # fmt: skip


def __getattr__(name: str) -> Any:
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'pdn' has no attribute {name!r}")
    value = getattr(importlib.import_module(home), name)
    globals()[name] = value
    return value


__version__ = "0.1.0"

__all__ = [
    "VARIANTS",
    "AmbiguousMoveError",
    "Board",
    "Color",
    "DeclaredResult",
    "Ending",
    "FenError",
    "Game",
    "GameWarning",
    "IllegalMoveError",
    "InvalidMoveError",
    "Move",
    "MoveNode",
    "MoveTextError",
    "Outcome",
    "PdnSyntaxError",
    "Position",
    "SetupNode",
    "Tags",
    "Termination",
    "Variant",
    "__version__",
    "get_variant",
    "parse_fen",
    "perft",
    "read_file",
    "read_games",
    "read_string",
    "to_fen",
    "write_game",
    "write_games",
]
