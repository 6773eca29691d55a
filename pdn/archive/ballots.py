"""Tournament opening ballots: the English three-move ballots, recognised by position."""

from __future__ import annotations

import json
from functools import cache
from importlib.resources import files

from pdn.rules.fen import parse_fen
from pdn.rules.variants import get_variant


@cache
def three_move_ballots() -> dict[int, str]:
    """Position digest after the three ballot moves → ballot name (``"001 09-13 21-17 05-09"``)."""
    data = json.loads(files("pdn").joinpath("data/3move_english.json").read_text("utf-8"))
    english = get_variant("english")
    return {parse_fen(fen, english).digest(): name for name, fen in data["all"].items()}
