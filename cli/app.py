"""The `pdn` command: a typer app whose commands are imported only when they run (so that
`pdn --help`, `pdn --version` and the light commands never load pandas, SQLAlchemy or Dask), and
one place that turns every usage error, write error and closed pipe into what the user sees."""

from __future__ import annotations

import gc
import importlib
import os
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Annotated, Any

import typer
from typer.core import TyperCommand, TyperGroup

from pdn import __version__
from pdn.cli import stopping
from pdn.cli.output import OutputError, say


@dataclass(frozen=True, slots=True)
class Lazy:
    """A command, by the module and function that define it, and its one-line summary."""

    target: str  # "module:function"
    summary: str

    def command(self, name: str) -> Any:
        """The command, its module imported; what is loaded by then lives as long as the run,
        so the garbage collector is told to stop walking it (an import holding its batches of
        rows spent 0.4 s of CPU on OCA_2.0.pdn in full collections that walked the libraries),
        and to look at new objects less often (a game's objects are gone before they are
        walked: 0.2 s of an import of OCA_2.0.pdn)."""
        module, function = self.target.split(":")
        callback = getattr(importlib.import_module(module), function)
        gc.freeze()
        gc.set_threshold(*GC_THRESHOLDS)
        single = typer.Typer(add_completion=False, rich_markup_mode=None)
        single.command(name, cls=Usage)(callback)
        return typer.main.get_command(single)  # one command: the command itself


class Usage(TyperCommand):
    """A command whose usage line names its arguments plainly: ``PATH...``, ``[PATH]...``
    (typer writes a required one ``{paths}...``)."""

    def collect_usage_pieces(self, ctx: Any) -> list[str]:
        pieces = [self.options_metavar] if self.options_metavar else []
        for param in self.get_params(ctx):
            if param.param_type_name != "argument":
                continue
            name = (param.metavar or param.name or "").upper()
            name = name if param.required else f"[{name}]"
            pieces.append(name + ("..." if param.nargs != 1 else ""))
        return pieces


COMMANDS: dict[str, Lazy | dict[str, Lazy]] = {
    "list": Lazy("pdn.cli.listing:list_command", "One row per game, as the files are read."),
    "moves": Lazy("pdn.cli.positions:moves", "The legal moves of a position, one per line."),
    "perft": Lazy("pdn.cli.positions:perft_command", "Count move sequences to each depth."),
    "validate": Lazy("pdn.cli.games:validate", "Replay every game: one line per problem."),
    "diagram": Lazy("pdn.cli.positions:diagram", "Draw a position as SVG."),
    "replay": Lazy("pdn.cli.replay:replay_command", "Show a game on a board, ply by ply."),
    "annotate": Lazy("pdn.cli.games:annotate_command", "Write games back with comments added."),
    "convert": Lazy("pdn.cli.games:convert", "Write games in another notation or format."),
    "fix": Lazy("pdn.cli.fixing:fix_command", "Repair games: cut, results, PlyCount, split."),
    "filter": Lazy("pdn.cli.filtering:filter_command", "The games of files that meet criteria."),
    "players": Lazy("pdn.cli.players:players_command", "Player names and their games."),
    "import": Lazy("pdn.cli.importing:import_command", "Replay and store every game."),
    "query": Lazy("pdn.cli.database:query", "The stored games that match."),
    "explore": Lazy("pdn.cli.database:explore", "The moves played from a position."),
    "duplicates": Lazy("pdn.cli.database:duplicates", "Games stored or read more than once."),
    "stats": {
        "openings": Lazy("pdn.cli.stats:stats_openings", "Openings and how they score."),
        "draws": Lazy("pdn.cli.stats:stats_draws", "Draw rates and how draws came about."),
        "players": Lazy("pdn.cli.stats:stats_players", "Each player's results and scores."),
        "event": Lazy("pdn.cli.standings:stats_event", "An event's standings and crosstable."),
    },
    "report": Lazy("pdn.cli.database:report", "One HTML page about an archive."),
    "serve": Lazy("pdn.cli.serve:serve", "A local web page to browse, replay and explore games."),
    "analyse": Lazy("pdn.cli.engine:analyse_command", "Judge every move with an engine."),
    "engine": Lazy("pdn.cli.engine:engine_command", "The built-in engine over the Hub protocol."),
}
GC_THRESHOLDS = (50_000, 20, 20)  # young objects between collections (default 700, 10, 10)
GROUPS = {"stats": "Opening, draw and player statistics."}


class Commands(TyperGroup):
    """A group whose commands are built from :data:`COMMANDS` when first asked for; their help
    listing uses the summaries, so `--help` imports no command module."""

    entries: dict[str, Lazy | dict[str, Lazy]] = COMMANDS
    listing = False  # while help is formatted: stand-ins carrying the summaries

    def list_commands(self, ctx: Any) -> list[str]:
        return list(self.entries)

    def get_command(self, ctx: Any, cmd_name: str) -> Any:
        entry = self.entries.get(cmd_name)
        if entry is None:
            return None
        if isinstance(entry, dict):
            group = Subcommands(name=cmd_name, help=GROUPS[cmd_name], no_args_is_help=True,
                                rich_markup_mode=None)  # fmt: skip
            group.entries = entry  # type: ignore[assignment]
            return group
        if self.listing:
            return TyperCommand(name=cmd_name, help=entry.summary, rich_markup_mode=None)
        if cmd_name not in self.commands:
            self.commands[cmd_name] = entry.command(cmd_name)
        return self.commands[cmd_name]

    def parse_args(self, ctx: Any, args: list[str]) -> list[str]:
        """No command given: the help on stderr and exit code 2."""
        if not args and self.no_args_is_help and not ctx.resilient_parsing:
            sys.stderr.write(ctx.get_help() + "\n")
            ctx.exit(2)
        return super().parse_args(ctx, args)

    def format_help(self, ctx: Any, formatter: Any) -> None:
        self.listing = True
        try:
            super().format_help(ctx, formatter)
        finally:
            self.listing = False

    def invoke(self, ctx: Any) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:  # Ctrl-C or SIGTERM (cli/stopping.py): typer says nothing
            say("pdn: stopped", err=True)
            raise typer.Exit(stopping.exit_code()) from None
        except BrokenPipeError:  # the reader went away (`| head`): what was wanted is written
            _silence_stdout()
            raise typer.Exit(0) from None
        except OutputError as exc:
            say(f"pdn: {exc}", err=True)
            raise typer.Exit(1) from None
        except OSError as exc:  # a file that went away or broke while it was read
            where = f"{exc.filename}: " if exc.filename else ""
            say(f"pdn: {where}{exc.strerror or exc}", err=True)
            raise typer.Exit(1) from None

    def main(self, args: Sequence[str] | None = None, *more: Any, **extra: Any) -> Any:
        """Run the command; a usage error is one line on stderr, ``pdn: ...``, and exit code 2."""
        extra["standalone_mode"] = False
        try:
            code = super().main(args, *more, **extra)
        except typer.TyperException as exc:  # click's errors (usage, bad parameter) among them
            say(f"pdn: {_one_line(exc.format_message())}", err=True)
            sys.exit(exc.exit_code)
        except typer.Abort:
            say("pdn: stopped", err=True)
            sys.exit(130)
        sys.exit(code if isinstance(code, int) else 0)


class Subcommands(Commands):
    """A nested group of lazy commands (``pdn stats ...``)."""

    def main(self, args: Sequence[str] | None = None, *more: Any, **extra: Any) -> Any:
        return TyperGroup.main(self, args, *more, **extra)


def _one_line(message: str) -> str:
    """A usage message on one line (without the "Value error, " typer's validation adds)."""
    return " ".join(message.replace("Value error, ", "").split())


def _silence_stdout() -> None:
    """Point stdout at /dev/null, so that flushing it at exit raises nothing more."""
    try:
        fd = sys.stdout.fileno()
    except (AttributeError, OSError, ValueError):
        return  # not a real file (tests)
    null = os.open(os.devnull, os.O_WRONLY)
    os.dup2(null, fd)
    os.close(null)


app = typer.Typer(
    cls=Commands,
    help="Read, check and study draughts games in PDN.",
    no_args_is_help=True,
    add_completion=False,
    rich_markup_mode=None,
    pretty_exceptions_enable=False,
)


def _version(value: bool) -> None:
    if value:
        from pdn.rules.position import core  # the move kernel in use (C or its Python twin)

        say(f"pdn {__version__} ({core().title})")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Draughts PDN toolkit."""


def main() -> None:
    """Entry point of the `pdn` console script."""
    if hasattr(sys.stdout, "reconfigure"):  # a file name that is not UTF-8: its own bytes
        sys.stdout.reconfigure(errors="surrogateescape")
    stopping.catch_stops()
    # numpy sorts postings and counts here and calls no BLAS routine; OpenBLAS would start a
    # thread per core with it, which took 0.1 s of CPU in an import of OCA_2.0.pdn
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    app()


if __name__ == "__main__":
    main()
