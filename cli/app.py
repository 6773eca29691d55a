"""The `pdn` command: the typer app, with the commands of cli/games.py, cli/positions.py and
cli/database.py registered on it."""

from __future__ import annotations

from typing import Annotated

import typer

from pdn import __version__
from pdn.cli import database, games, positions, serve
from pdn.cli.common import out
from pdn.position import core

app = typer.Typer(
    help="Read, check and study draughts games in PDN.",
    no_args_is_help=True,
    add_completion=False,
)


def _version(value: bool) -> None:
    if value:
        out.print(f"pdn {__version__} ({core().title})")
        raise typer.Exit()


@app.callback()
def main_options(
    version: Annotated[
        bool, typer.Option("--version", callback=_version, is_eager=True, help="Show the version.")
    ] = False,
) -> None:
    """Draughts PDN toolkit."""


app.command("list")(games.list_command)
app.command("moves")(positions.moves)
app.command("perft")(positions.perft_command)
app.command("validate")(games.validate)
app.command("diagram")(positions.diagram)
app.command("replay")(games.replay_command)
app.command("annotate")(games.annotate_command)
app.command("convert")(games.convert)
app.command("import")(database.import_command)
app.command("query")(database.query)
app.command("explore")(database.explore)

stats_app = typer.Typer(help="Opening and draw statistics.", no_args_is_help=True)
stats_app.command("openings")(database.stats_openings)
stats_app.command("draws")(database.stats_draws)
app.add_typer(stats_app, name="stats")
app.command("report")(database.report)
app.command("serve")(serve.serve)


def main() -> None:
    """Entry point of the `pdn` console script."""
    app()


if __name__ == "__main__":
    main()
