"""Serving the page: the database opened read-only, the address bound before the server starts
(a port in use is one clear error), uvicorn running until Ctrl-C."""

from __future__ import annotations

import errno
import ipaddress
import socket

import uvicorn
from sqlalchemy import Engine

from pdn.archive.players import Aliases
from pdn.db.connection import open_database
from pdn.web.app import LOOPBACK_NAMES, make_app


class ServeError(Exception):
    """The server cannot start (address in use, host unknown)."""


def open_read_only(db: str) -> Engine:
    """An engine that only reads *db*, checked as `pdn query` checks it and opened as it opens
    it: an SQLite file in read-only mode (a file the user may read but not write is served),
    PostgreSQL in read-only transactions."""
    return open_database(db, create=False, readonly=True)


def is_loopback(host: str) -> bool:
    """Whether *host* names this machine only (127.0.0.0/8, ::1, localhost)."""
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def bind(host: str, port: int) -> socket.socket:
    """A socket listening on *host*:*port* (port 0: any free port)."""
    try:
        infos = socket.getaddrinfo(host.strip("[]"), port, type=socket.SOCK_STREAM)
    except socket.gaierror as exc:
        raise ServeError(f"cannot listen on {host}: {exc.strerror}") from None
    family, _, _, _, address = infos[0]
    sock = socket.socket(family, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            why = f"port {port} is in use on {host} (choose another with --port)"
            raise ServeError(why) from None
        raise ServeError(f"cannot listen on {host} port {port}: {exc.strerror}") from None
    sock.listen(128)  # connections wait from now on, before the server takes them
    return sock


def address(sock: socket.socket) -> str:
    """The URL a bound socket answers at."""
    host, port = sock.getsockname()[:2]
    if ":" in host:
        host = f"[{host}]"
    return f"http://{host}:{port}/"


def serve(engine: Engine, title: str, sock: socket.socket, aliases: Aliases | None = None) -> None:
    """Answer on *sock* until Ctrl-C (or SIGTERM), then return; players are matched under the
    names *aliases* give them."""
    host = sock.getsockname()[0]
    hosts = LOOPBACK_NAMES if is_loopback(host) else ["*"]
    app = make_app(engine, title, hosts, aliases)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", lifespan="on"))
    try:
        server.run(sockets=[sock])
    except KeyboardInterrupt:  # uvicorn stops cleanly, then raises Ctrl-C again for the caller
        pass
    finally:
        sock.close()
        engine.dispose()
