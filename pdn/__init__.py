"""Draughts PDN toolkit: read and write PDN, replay games under every variant's rules."""

from pdn.fen import FenError, parse_fen, to_fen
from pdn.game import Game, MoveNode, Outcome, PdnSyntaxError, SetupNode, Tags
from pdn.gameboard import (
    AmbiguousMoveError,
    Board,
    Ending,
    IllegalMoveError,
    InvalidMoveError,
    MoveTextError,
    Termination,
)
from pdn.position import Move, Position, perft
from pdn.reader import read_file, read_games, read_string
from pdn.variants import VARIANTS, Variant, get_variant
from pdn.writer import write_game, write_games

__version__ = "0.1.0"

__all__ = [
    "VARIANTS",
    "AmbiguousMoveError",
    "Board",
    "Ending",
    "FenError",
    "Game",
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
