"""`pdn replay`: a game on a board with its square numbers, ply by ply; with --interactive the
arrow keys step through it in the terminal, v through its variations."""

from __future__ import annotations

import html
import os
import re
import sys
from contextlib import suppress
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer

from pdn.cli.common import (
    EncodingOpt,
    GameVariantOpt,
    MaxSizeOpt,
    Rules,
    RulesOpt,
    check_inputs,
    check_output_folder,
    fail,
    say,
    variant_named,
)
from pdn.cli.output import visible, wrap, write_file, written_folder
from pdn.notation import MoveForm, move_text
from pdn.read.reader import read_games
from pdn.render.browser import Browser, main_line, view
from pdn.render.diagram import svg_diagram
from pdn.replay import ending_line, replay_game

if TYPE_CHECKING:
    from pdn.game import Game
    from pdn.replay import Replay

KEYS = "→ next  ← back  Home/End  v variations  ↑ leave variation  q quit"
SVG_FILES = re.compile(r"index\.html|ply-\d{3,}\.svg")


def replay_command(
    file: Annotated[Path, typer.Argument(help="A PDN file.")],
    game: Annotated[int, typer.Option("--game", "-g", help="Game number (1-based).", min=1)] = 1,
    ply: Annotated[
        int | None, typer.Option("--ply", "-p", help="Show the position after this ply.")
    ] = None,
    variant: GameVariantOpt = None,
    rules: RulesOpt = Rules.COMMON,
    flip: Annotated[bool, typer.Option("--flip", help="Black at the bottom.")] = False,
    interactive: Annotated[
        bool,
        typer.Option(
            "--interactive", "-i", help="Step through the game with the arrow keys (v: variations)."
        ),
    ] = False,
    svg: Annotated[
        Path | None,
        typer.Option("--svg", help="Write a folder with one SVG diagram per ply and index.html."),
    ] = None,
    max_game_size: MaxSizeOpt = None,
    encoding: EncodingOpt = None,
) -> None:
    """Show a game: the board after a ply with its square numbers, the side to move, the FEN,
    the marked move list, comments and how it ended."""
    check_inputs([file])
    if file.is_dir():
        fail(f"{file}: a folder, where a PDN file is expected")
    if svg:
        check_output_folder(svg)
    if interactive and not (sys.stdin.isatty() and sys.stdout.isatty()):
        fail("--interactive needs a terminal")
    chosen = next((g for g in read_games(file) if g.source.index + 1 == game), None)
    if chosen is None:
        fail(f"{file}: there is no game {game}")
    if chosen.syntax_error is not None:
        fail(str(chosen.syntax_error))
    replay = replay_game(chosen, variant_named(variant) if variant else None, rules)
    last = len(replay.moves)
    at = (0 if interactive else last) if ply is None else ply  # stepping starts at the start
    if not 0 <= at <= last:
        fail(f"--ply must be between 0 and {last}")
    browser = Browser([main_line(chosen, replay)], at)
    if svg:
        _write_svgs(svg, chosen, replay, flip)
    if interactive:
        _interactive(chosen, replay, browser, flip)
    else:
        for line in [*view(chosen, replay, browser, flip, 78), *ending(replay)]:
            say(line)
    raise typer.Exit(0 if replay.valid else 1)


def ending(replay: Replay) -> list[str]:
    """How the game ended, and its errors: the last lines of the view, stepping or not."""
    errors = [f"error at ply {e.ply} ({e.move}): {e.reason}" for e in replay.errors]
    return [f"ended: {ending_line(replay)}", *errors]


def _write_svgs(folder: Path, game: Game, replay: Replay, flip: bool) -> None:
    """One SVG per position of the main line, and index.html showing them in order."""
    title = html.escape(f"{game.white or '?'} - {game.black or '?'} {game.event or ''}")
    items = []
    with written_folder(folder, SVG_FILES) as part:
        for i, position in enumerate(replay.positions):
            move = replay.moves[i - 1] if i else None
            name = f"ply-{i:03d}.svg"
            write_file(part / name, svg_diagram(position, move, flip))
            caption = "start" if move is None else (
                f"ply {i}: {move_text(replay.positions[i - 1], move, MoveForm.SHORT)}"
            )  # fmt: skip
            items.append(f'<figure><img src="{name}" alt="{caption}"><figcaption>{caption}'
                         "</figcaption></figure>")  # fmt: skip
        write_file(
            part / "index.html",
            f'<!doctype html>\n<html><head><meta charset="utf-8"><title>{title}</title>'
            "<style>figure{display:inline-block;margin:8px}img{width:240px}</style></head>"
            f"<body><h1>{title}</h1>\n" + "\n".join(items) + "\n</body></html>\n",
        )
    say(f"wrote {len(replay.positions)} diagrams and index.html in {folder}", err=True)


def _interactive(game: Game, replay: Replay, browser: Browser, flip: bool) -> None:
    """Step through the game in the terminal until q."""
    import curses
    import locale

    locale.setlocale(locale.LC_ALL, "")
    os.environ.setdefault("ESCDELAY", "25")  # Esc alone: do not wait a second for more
    steps = {
        curses.KEY_RIGHT: browser.forward, ord("l"): browser.forward, ord(" "): browser.forward,
        curses.KEY_LEFT: browser.back, ord("h"): browser.back,
        curses.KEY_HOME: browser.home, ord("g"): browser.home,
        curses.KEY_END: browser.end, ord("G"): browser.end,
        ord("v"): browser.variations,
        curses.KEY_UP: browser.leave, ord("u"): browser.leave, 27: browser.leave,
    }  # fmt: skip

    def loop(screen: Any) -> None:
        with suppress(curses.error):
            curses.curs_set(0)  # no cursor, where the terminal allows it
        while True:
            height, width = screen.getmaxyx()
            rows: list[str] = []
            last = [r for line in ending(replay) for r in wrap(visible(line), width - 1)]
            room = max(height - 1 - len(last), 1)  # the ending shown wherever the stepping is
            for line in view(game, replay, browser, flip, width - 1, room):
                rows.extend(wrap(visible(line), width - 1))
            rows = rows[:room] + last
            screen.erase()
            for y, text in enumerate(rows[: height - 1]):
                screen.addstr(y, 0, text)
            screen.addstr(height - 1, 0, KEYS[: width - 1])
            screen.refresh()
            key = screen.getch()
            if key in (ord("q"), ord("Q")):
                return
            step = steps.get(key)
            if step is not None:
                step()

    curses.wrapper(loop)
