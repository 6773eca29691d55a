"""SVG board diagrams: well-formed, pieces on the squares of the position, the move drawn."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

from typer.testing import CliRunner

from pdn.cli.app import app
from pdn.render.diagram import svg_diagram
from pdn.rules.fen import parse_fen
from pdn.rules.position import Position
from pdn.rules.variants import get_variant

NS = {"svg": "http://www.w3.org/2000/svg"}


def pieces(svg: str) -> dict[str, str]:
    root = ET.fromstring(svg)
    return {
        c.get("data-square", ""): c.get("class", "")
        for c in root.iterfind(".//svg:circle", NS)
        if c.get("data-square")
    }


def test_start_position_pieces_and_numbers() -> None:
    svg = svg_diagram(Position.start(get_variant("international")))
    found = pieces(svg)
    assert sorted(int(s) for s, c in found.items() if "black" in c) == list(range(1, 21))
    assert sorted(int(s) for s, c in found.items() if "white" in c) == list(range(31, 51))
    assert ">46</text>" in svg and ">50</text>" in svg  # numbers on the playing squares


def test_kings_algebraic_squares_and_the_move_arrow() -> None:
    pos = parse_fen("W:Wh6:Bg7,c5,d2,Ke1", get_variant("russian"))
    # crowned on f8, the new king takes c5 and lands on b4 or a3 (e1 blocks the way on)
    moves = {pos.geometry.algebraic(m.end): m for m in pos.legal_moves()}
    assert sorted(moves) == ["a3", "b4"]
    move = moves["b4"]
    svg = svg_diagram(pos, move)
    found = pieces(svg)
    assert found["h6"] == "piece white man" and found["e1"] == "piece black king"
    line = ET.fromstring(svg).find(".//svg:polyline", NS)
    assert line is not None and len(line.get("points", "").split()) == len(move.path)


def test_diagram_command(tmp_path: Path) -> None:
    out = tmp_path / "board.svg"
    args = ["diagram", "--variant", "english", "--move", "11-15", "-o", str(out)]
    assert CliRunner().invoke(app, args).exit_code == 0
    assert len(pieces(out.read_text(encoding="utf-8"))) == 24
    bad = CliRunner().invoke(app, ["diagram", "--variant", "english", "--move", "11-19"])
    assert bad.exit_code == 2 and "not legal" in bad.stderr


def test_hints_and_marked_squares() -> None:
    pos = Position.start(get_variant("english"))  # Black's seven opening moves
    svg = svg_diagram(pos, hints=pos.legal_moves(), marked=[pos.geometry.parse_square("22")])
    root = ET.fromstring(svg)
    hints = root.findall(".//svg:polyline[@class='hint']", NS)
    ends = [h.get("points", "").split()[-1] for h in hints]
    assert len(hints) == 7 and len(set(ends)) == 4  # from 9-12 onto the four squares 13-16
    (mark,) = root.findall(".//svg:rect[@class='marked']", NS)
    x, y = float(mark.get("x", "")), float(mark.get("y", ""))
    assert (x, y) == (20 + 2 * 40 + 2, 20 + 5 * 40 + 2)  # square 22 is c3: file 2, rank 3
