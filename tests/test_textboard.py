"""The text board and `pdn replay`."""

from __future__ import annotations

from pathlib import Path

from typer.testing import CliRunner

from pdn.cli.app import app
from pdn.fen import parse_fen
from pdn.textboard import text_board
from pdn.variants import get_variant

SAMPLES = Path(__file__).resolve().parents[1] / "samples"


def test_text_board_places_pieces_on_their_squares() -> None:
    # English: Black man on 14 (c5), White man on 18 (d4); dark squares only
    lines = text_board(parse_fen("B:W18:B14", get_variant("english"))).splitlines()
    assert lines[0] == " 8   .   .   .   ."
    assert lines[3] == " 5 .   b   .   .  "
    assert lines[4] == " 4   .   w   .   ."
    assert lines[-1] == "   a b c d e f g h"
    flipped = text_board(parse_fen("B:W18:B14", get_variant("english")), flip=True).splitlines()
    assert flipped[0].startswith(" 1") and flipped[-1] == "   h g f e d c b a"


def test_replay_command_marks_the_move_and_writes_diagrams(tmp_path: Path) -> None:
    path = SAMPLES / "english-oca-first20.pdn"
    result = CliRunner().invoke(
        app, ["replay", str(path), "--game", "1", "--ply", "43", "--svg", str(tmp_path)]
    )
    assert result.exit_code == 0
    assert "22. [18x27] 26x17x10x1" in " ".join(result.stdout.split())
    assert "after ply 43 of 44; White to move" in result.stdout
    assert len(list(tmp_path.glob("ply-*.svg"))) == 45  # the start and after each of 44 plies
    bad = CliRunner().invoke(app, ["replay", str(path), "--game", "99"])
    assert bad.exit_code == 2 and "there is no game 99" in bad.stderr
