"""Commands over PDN files: list, validate, replay, annotate, convert."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Annotated

import typer
from rich.table import Table

from pdn.annotate import Notes, annotate_paths
from pdn.board import WHITE
from pdn.cli.common import (
    CandidatesOpt,
    ClusterOpt,
    MaxSizeOpt,
    OutputOpt,
    Paths,
    WorkersOpt,
    byte_progress,
    err,
    fail,
    input_files,
    out,
    replay_inputs,
    runner_for,
    variant_named,
)
from pdn.convert import Captures, Style, convert_paths
from pdn.diagram import svg_diagram
from pdn.files import FileProblem, MissingPathError
from pdn.listing import list_games
from pdn.reader import read_games
from pdn.replay import replay_game
from pdn.textboard import comments_at, move_list, text_board
from pdn.validate import Summary, validate_paths
from pdn.variants import Notation


def list_command(
    paths: Paths,
    as_json: Annotated[bool, typer.Option("--json", help="JSON Lines instead of a table.")] = False,
    max_game_size: MaxSizeOpt = None,
) -> None:
    """One row per game, then the number of games and of syntax errors."""
    table = Table("file", "#", "line", "White", "Black", "Event", "Date", "Result", "plies")
    games = errors = problems = 0
    try:
        for row in list_games(paths):
            if isinstance(row, FileProblem):
                problems += 1
                err.print(str(row), markup=False, highlight=False)
                continue
            games += 1
            if row.error is not None:
                errors += 1
                err.print(str(row.error), markup=False, highlight=False)
            if as_json:
                sys.stdout.write(json.dumps(row.as_dict(), ensure_ascii=False) + "\n")
            else:
                table.add_row(
                    Path(row.file).name,
                    str(row.index),
                    str(row.line),
                    row.white,
                    row.black,
                    row.event,
                    row.date,
                    row.result,
                    str(row.plies),
                )
    except OSError as exc:  # a missing path included (MissingPathError)
        fail(str(exc))
    if not as_json and games:
        out.print(table)
    summary = f"{games} games, {errors} syntax errors"
    if problems:
        summary += f", {problems} files not read or without games"
    (err if as_json else out).print(summary, markup=False, highlight=False)
    raise typer.Exit(1 if errors or problems else 0)


def _summary_table(summary: Summary, candidates: bool = False) -> Table:
    table = Table("", "games", title="Summary", show_header=False)
    for label, value in (
        ("games", summary.games),
        ("valid", summary.valid),
        ("invalid", summary.invalid),
        ("syntax errors", summary.syntax_errors),
        ("warnings", summary.warnings),
    ):
        table.add_row(label, str(value))
    if candidates:
        table.add_row("fit other variants too", str(summary.also_fit))
    for term, n in sorted(summary.terminations.items()):
        table.add_row(f"ended: {term}", str(n))
    for variant, n in sorted(summary.variants.items()):
        table.add_row(f"{variant}", f"{n} ({summary.invalid_by_variant[variant]} invalid)")
    return table


def validate(
    paths: Paths,
    variant: Annotated[
        str | None,
        typer.Option("--variant", "-v", help="Variant of games without a GameType tag."),
    ] = None,
    rules: Annotated[
        str, typer.Option("--rules", help="Draw rules: seed (40 moves, 3-fold) or official.")
    ] = "seed",
    report: Annotated[
        Path | None, typer.Option("--report", help="Write one JSON object per game here.")
    ] = None,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    candidates: CandidatesOpt = False,
    max_game_size: MaxSizeOpt = None,
) -> None:
    """Replay every game: one line per problem, a summary, exit 1 if any game is invalid."""
    files = replay_inputs(paths, variant, rules, workers, cluster)
    summary = Summary()
    sink = report.open("w", encoding="utf-8") if report else None
    progress, done = byte_progress("validating", files)
    try:
        with runner_for(workers, cluster) as runner, progress:
            reports = validate_paths(
                files, variant, rules, runner, on_done=done, candidates=candidates
            )
            for rep in reports:
                summary.add(rep)
                for line in rep.problems():
                    out.print(line, markup=False, highlight=False, soft_wrap=True)
                if sink:
                    sink.write(json.dumps(rep.as_dict(), ensure_ascii=False) + "\n")
    except OSError as exc:
        fail(str(exc))
    finally:
        if sink:
            sink.close()
    out.print(_summary_table(summary, candidates))
    raise typer.Exit(0 if summary.ok and not files.problems else 1)


def replay_command(
    file: Annotated[Path, typer.Argument(help="A PDN file.")],
    game: Annotated[int, typer.Option("--game", "-g", help="Game number (1-based).")] = 1,
    ply: Annotated[
        int | None, typer.Option("--ply", "-p", help="Show the position after this ply.")
    ] = None,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Variant if the game has no GameType.")
    ] = None,
    flip: Annotated[bool, typer.Option("--flip", help="Black at the bottom.")] = False,
    svg: Annotated[
        Path | None, typer.Option("--svg", help="Write one SVG diagram per position here.")
    ] = None,
    max_game_size: MaxSizeOpt = None,
) -> None:
    """Show a game: the board after a ply, the marked move list, comments and how it ended."""
    try:
        chosen = next((g for g in read_games(file) if g.source.index + 1 == game), None)
    except OSError as exc:
        fail(str(exc))
    if chosen is None:
        fail(f"{file}: there is no game {game}")
    if chosen.syntax_error is not None:
        fail(str(chosen.syntax_error))
    replay = replay_game(chosen, variant_named(variant) if variant else None)
    last = len(replay.moves)
    at = last if ply is None else ply
    if not 0 <= at <= last:
        fail(f"--ply must be between 0 and {last}")
    pos = replay.positions[at]
    first_is_white = replay.variant.first == "W"
    offset = 0 if (replay.positions[0].turn == WHITE) == first_is_white else 1
    out.print(
        f"{chosen.white or '?'} - {chosen.black or '?'}  {chosen.event or ''}  "
        f"{chosen.result or ''}  ({replay.variant.title})",
        markup=False, highlight=False, soft_wrap=True,
    )  # fmt: skip
    out.print(text_board(pos, flip), markup=False, highlight=False)
    out.print(f"after ply {at} of {last}; {'White' if pos.turn == WHITE else 'Black'} to move",
              markup=False, highlight=False)  # fmt: skip
    out.print(move_list(chosen, at, offset), markup=False, highlight=False)
    for comment in comments_at(chosen, at):
        out.print(f"{{{comment}}}", markup=False, highlight=False)
    ended = replay.termination
    if replay.termination_ply is not None:
        ended += f" at ply {replay.termination_ply}"
    out.print(f"ended: {ended}", markup=False, highlight=False)
    for e in replay.errors:
        out.print(f"error at ply {e.ply} ({e.move}): {e.reason}", markup=False, highlight=False)
    if svg:
        svg.mkdir(parents=True, exist_ok=True)
        for i, position in enumerate(replay.positions):
            move = replay.moves[i - 1] if i else None
            (svg / f"ply-{i:03d}.svg").write_text(svg_diagram(position, move, flip), "utf-8")
    raise typer.Exit(0 if replay.valid else 1)


def annotate_command(
    paths: Paths,
    output: Annotated[Path, typer.Option("--output", "-o", help="The annotated PDN file.")],
    fen_every: Annotated[int, typer.Option(help="Add the FEN every N plies (0: never).")] = 0,
    material: Annotated[
        bool, typer.Option("--material", help="Add the material after captures and crowning.")
    ] = False,
    events: Annotated[
        bool,
        typer.Option(
            "--events/--no-events",
            help="Comment multi-captures, crowning, draws by rule, illegal moves, the final FEN.",
        ),
    ] = True,
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Variant of games without GameType.")
    ] = None,
    max_game_size: MaxSizeOpt = None,
) -> None:
    """Write the games back with comments where something happens; their own comments kept."""
    if fen_every < 0:
        fail(f"--fen-every must be 0 or more, not {fen_every}")
    if variant:
        variant_named(variant)
    files = input_files(paths)
    try:
        with output.open("w", encoding="utf-8") as sink:
            for text in annotate_paths(files, Notes(events, fen_every, material), variant):
                sink.write(text)
    except OSError as exc:
        fail(str(exc))
    raise typer.Exit(1 if files.problems else 0)


def convert(
    paths: Paths,
    output: OutputOpt = None,
    to: Annotated[
        str, typer.Option("--to", help="pdn, json (a line per game) or csv (a row per move).")
    ] = "pdn",
    squares: Annotated[
        str | None, typer.Option(help="numeric or algebraic (default: the variant's own).")
    ] = None,
    captures: Annotated[
        str,
        typer.Option(
            help="short (PDN 3.0), long (PDN 3.0 long form) or full (every landing square)."
        ),
    ] = "short",
    separator: Annotated[str | None, typer.Option(help="Capture separator: x or ':'.")] = None,
    result_style: Annotated[
        str | None,
        typer.Option(help="international (2-0, 1-1, 0-2) or default (1-0, 1/2-1/2, 0-1)."),
    ] = None,
    gametype: Annotated[str, typer.Option(help="GameType tag: short (20) or long.")] = "short",
    variant: Annotated[
        str | None, typer.Option("--variant", "-v", help="Variant of games without GameType.")
    ] = None,
    max_game_size: MaxSizeOpt = None,
) -> None:
    """Replay each game and write it normalised; a game that does not replay is kept as read."""
    for name, value, allowed in (
        ("--to", to, ("pdn", "json", "csv")),
        ("--squares", squares, (None, "numeric", "algebraic")),
        ("--captures", captures, ("short", "long", "full")),
        ("--separator", separator, (None, "x", ":")),
        ("--result-style", result_style, (None, "international", "default")),
        ("--gametype", gametype, ("short", "long")),
    ):
        if value not in allowed:
            choices = ", ".join(str(a) for a in allowed if a)
            fail(f"{name} must be one of {choices}, not {value!r}")
    notation = Notation(squares) if squares else None
    style = Style(notation, Captures(captures), separator, result_style, gametype)
    if variant:
        variant_named(variant)
    files = input_files(paths)
    kept = 0
    sink = output.open("w", encoding="utf-8", newline="") if output else sys.stdout
    try:
        for piece, warning in convert_paths(files, to, style, variant):
            sink.write(piece)
            if warning:
                kept += 1
                err.print(warning, markup=False, highlight=False)
    except (MissingPathError, ValueError) as exc:
        fail(str(exc))
    finally:
        if output:
            sink.close()
    if kept:
        err.print(f"{kept} games kept as written", markup=False, highlight=False)
    raise typer.Exit(1 if files.problems else 0)


# -- database --------------------------------------------------------------------------------
