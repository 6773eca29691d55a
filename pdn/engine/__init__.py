"""Engines that judge positions, shaped like python-chess's ``chess.engine``: the built-in
search and any engine speaking the Hub protocol, behind one :class:`Engine` protocol.

>>> from pdn.board import Board
>>> with open_engine("builtin", "english") as engine:
...     info = engine.analyse(Board("english", "W:W18:B14"), Limit(depth=4))[0]
>>> info.score.white().text()
'#1'
"""

from __future__ import annotations

import shlex

from pdn.engine.builtin import BuiltinEngine
from pdn.engine.hub import HubEngine
from pdn.engine.types import Engine, EngineError, Info, Limit, PovScore, Score
from pdn.rules.variants import Variant, get_variant

__all__ = [
    "BUILTIN",
    "BuiltinEngine",
    "Engine",
    "EngineError",
    "HubEngine",
    "Info",
    "Limit",
    "PovScore",
    "Score",
    "open_engine",
]

BUILTIN = "builtin"


def open_engine(spec: str, variant: Variant | str = "international") -> Engine:
    """The engine *spec* names: ``builtin`` (the toolkit's own search, under the draw rules of
    the boards it is given), or a command line that starts a Hub engine (``"scan hub"``,
    ``"dame hub"``) set up for *variant*. EngineError if it cannot be started."""
    if spec.strip() == BUILTIN:
        return BuiltinEngine()
    v = get_variant(variant) if isinstance(variant, str) else variant
    words = shlex.split(spec)
    if not words:
        raise EngineError("no engine given: builtin or a command line")
    return HubEngine(words, v)
