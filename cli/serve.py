"""`pdn serve`: the local web page over a database, or over PDN files imported for it."""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Annotated

import typer

from pdn.cli.common import check_inputs, fail, say
from pdn.cli.connect import import_into
from pdn.cli.selection import AliasesOpt, load_aliases
from pdn.db.connection import DEFAULT_DB, DatabaseRefused, DatabaseUnavailable, shown
from pdn.read.files import MissingPathError, pdn_files


def serve(
    paths: Annotated[
        list[Path] | None,
        typer.Argument(help="PDN files or folders, imported into a temporary database."),
    ] = None,
    db: Annotated[
        str | None,
        typer.Option("--db", help=f"SQLite file or PostgreSQL URL (default {DEFAULT_DB})."),
    ] = None,
    port: Annotated[int, typer.Option(help="Port (0: any free one).", min=0, max=65535)] = 8000,
    host: Annotated[
        str, typer.Option(help="Address to listen on; other than 127.0.0.1, others can connect.")
    ] = "127.0.0.1",
    aliases: AliasesOpt = None,
) -> None:
    """A local web page to browse, replay and explore the games (read-only); Ctrl-C stops it."""
    try:
        from pdn.web.server import ServeError, address, bind, open_read_only
        from pdn.web.server import serve as run
    except ModuleNotFoundError as exc:
        if exc.name in ("starlette", "uvicorn"):
            fail("pdn serve needs the web extra: pip install 'pdn-toolkit[web]'")
        raise
    if paths and db:
        fail("give a database (--db) or PDN files, not both")
    names = load_aliases(aliases)
    with tempfile.TemporaryDirectory() as tmp:
        if paths:
            check_inputs(paths)
            try:
                files = list(pdn_files(paths))
            except MissingPathError as exc:
                fail(str(exc))
            source = str(Path(tmp) / "serve.db")
            stats, _ = import_into(source, files)  # (the files not read told, not fatal)
            say(f"imported {stats.games} games from {stats.files} files", err=True)
            title = ", ".join(str(p) for p in paths)
        else:
            source = db or DEFAULT_DB
            title = shown(source)
        try:
            engine = open_read_only(source)
            sock = bind(host, port)
        except DatabaseUnavailable as exc:  # a server that does not answer, a damaged file
            fail(str(exc), 1)
        except (DatabaseRefused, ServeError) as exc:
            fail(str(exc))
        say(f"pdn: serving {title} at {address(sock)} (Ctrl-C stops)")
        run(engine, title, sock, names)
    say("pdn: stopped")
