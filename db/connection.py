"""Opening a game database: an SQLite file (the default) or a PostgreSQL server by URL.

A database is made in one transaction (tables and the facts that mark it as this toolkit's), so a
run killed while making it leaves nothing half made. Commands that only read open it read-only,
so a database in a folder they may not write to can be queried. A PostgreSQL server gets a
connect timeout and a statement timeout, so a server that never answers stops a run with a
message instead of hanging it. Every message names the database with its password hidden.
"""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path
from typing import Any

from sqlalchemy import URL, Connection, Engine, create_engine, event, func, insert, inspect, select
from sqlalchemy.engine import make_url
from sqlalchemy.exc import (
    ArgumentError,
    DBAPIError,
    NoSuchModuleError,
    OperationalError,
    SQLAlchemyError,
)

from pdn.db.migration import can_migrate, migrate
from pdn.db.schema import APPLICATION, SCHEMA_VERSION, Base, Meta
from pdn.db.staging import move_staged
from pdn.db.tallies import sum_tallies

DEFAULT_DB = "draughts.db"
CONNECT_TIMEOUT = 10  # seconds to reach a PostgreSQL server and log in
STATEMENT_TIMEOUT = 600  # seconds one PostgreSQL statement may run
SQLITE_WAIT = 60  # seconds an SQLite writer waits while another writes
SQLITE_CACHE_KIB = 65536  # page cache of a writer: an import inserts all over the indexes
SQLITE_MMAP_BYTES = 1 << 30  # readers map the file: big questions read pages without a read() each
SUPPORTED = (
    "an SQLite file (games.db, sqlite:///games.db) or PostgreSQL (postgresql://USER@HOST/DB)"
)
REBUILD = "import the archives into a new database"
_CREATE_LOCK = 0x70646E  # PostgreSQL advisory lock held while a database is made ("pdn")


class DatabaseRefused(Exception):
    """A database this toolkit will not or cannot use: not a database, not its own, an
    unsupported kind, a newer or older schema (the user's to fix), or unavailable (below)."""


class DatabaseUnavailable(DatabaseRefused):
    """A database that cannot be used now: the server does not answer or refuses the
    connection, or the file is damaged."""


def database_url(db: str) -> URL:
    """The URL of a path or URL given by the user; refused when it is neither SQLite nor
    PostgreSQL (a bare ``postgresql://`` means the psycopg driver)."""
    if "://" not in db:
        return URL.create("sqlite", database=db)
    try:
        url = make_url(db)
    except (ArgumentError, ValueError):
        raise DatabaseRefused(f"{masked(db)}: not a database URL; use {SUPPORTED}") from None
    backend = url.get_backend_name()
    if backend == "sqlite" and (url.username or url.password or url.host or url.port):
        raise DatabaseRefused(f"{masked(db)}: not a database URL; use {SUPPORTED}")
    if backend not in ("sqlite", "postgresql"):
        raise DatabaseRefused(f"{masked(db)}: {backend} is not supported; use {SUPPORTED}")
    if backend == "postgresql" and "+" not in url.drivername:
        url = url.set(drivername="postgresql+psycopg")
    return url


def shown(db: str) -> str:
    """*db* as every message and page names it: a URL with its password as ``***`` (SQLAlchemy's
    ``render_as_string(hide_password=True)``), a path as given."""
    if "://" not in db:
        return db
    try:
        url = make_url(db)
    except (ArgumentError, ValueError):
        return _URL_PASSWORD.sub(r"\1***@", db)
    return db if url.password is None else url.render_as_string(hide_password=True)


_URL_PASSWORD = re.compile(r"(://[^:/@\s]*:)[^@\s]*@")


def masked(text: str, db: str | None = None) -> str:
    """*text* with the database *db* named as :func:`shown` names it, and the password of any
    URL in it (or of *db*, wherever it appears) replaced by ``***``."""
    hidden = text.replace(db, shown(db)) if db else text
    hidden = _URL_PASSWORD.sub(r"\1***@", hidden)
    if db and "://" in db:
        try:
            password = make_url(db).password
        except (ArgumentError, ValueError):
            password = None
        if password:
            hidden = hidden.replace(str(password), "***")
    return hidden


def connect(db: str, readonly: bool = False) -> Engine:
    """An engine on *db* (a path or URL) as this toolkit uses one, without checking what the
    database holds: timeouts, SQLite's transactions and pragmas, read-only if asked."""
    url = database_url(db)
    try:
        if url.get_backend_name() == "sqlite":
            return _sqlite(url, readonly)
        return _postgresql(url, readonly)
    except (NoSuchModuleError, ImportError) as exc:
        raise DatabaseRefused(f"{masked(db)}: its driver is not installed ({exc})") from None


def _sqlite(url: URL, readonly: bool) -> Engine:
    if readonly and url.database and url.database != ":memory:" and "uri" not in url.query:
        path = Path(url.database).absolute()
        query = {"uri": "true", "mode": "ro"}
        wal = path.with_name(path.name + "-wal")
        if not os.access(path.parent, os.W_OK) and not wal.exists():  # nobody can write it
            query["immutable"] = "1"
        url = URL.create("sqlite", database=path.as_uri(), query=query)
    engine = create_engine(url, connect_args={"timeout": SQLITE_WAIT})
    event.listen(engine, "connect", _sqlite_reader if readonly else _sqlite_writer)
    event.listen(engine, "begin", _sqlite_begin if readonly else _sqlite_begin_writing)
    return engine


def _sqlite_reader(dbapi_connection: Any, _record: Any) -> None:
    dbapi_connection.isolation_level = None  # transactions are begun by _sqlite_begin
    dbapi_connection.execute("PRAGMA query_only=ON")
    dbapi_connection.execute(f"PRAGMA mmap_size={SQLITE_MMAP_BYTES}")
    _unicode_lower(dbapi_connection)


def _unicode_lower(dbapi_connection: Any) -> None:
    """SQL's lower() as Python's str.lower, as pdn filter reads case: SQLite's folds ASCII
    alone, so a search for "Абациев" found none of its 56 games (PostgreSQL's folds by its
    ctype). No index is made on lower(), so none depends on which one ran. A scan of a
    million names takes a quarter more (0.40 s to 0.50 s)."""
    dbapi_connection.create_function("lower", 1, _lower, deterministic=True)


def _lower(value: Any) -> Any:
    return value.lower() if isinstance(value, str) else value


def _sqlite_writer(dbapi_connection: Any, _record: Any) -> None:
    """WAL, and foreign keys declared but not enforced (SQLite's default: an import writes each
    game with its rows in one transaction, and nothing deletes a game). A new database gives
    back the pages it frees when asked (pdn.db.staging.move_staged): set before WAL, which
    makes the file."""
    dbapi_connection.isolation_level = None
    dbapi_connection.execute("PRAGMA auto_vacuum=INCREMENTAL")
    dbapi_connection.execute("PRAGMA journal_mode=WAL")
    dbapi_connection.execute("PRAGMA synchronous=NORMAL")  # WAL: a commit is atomic either way
    dbapi_connection.execute(f"PRAGMA cache_size=-{SQLITE_CACHE_KIB}")
    _unicode_lower(dbapi_connection)


def _sqlite_begin(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN")


def _sqlite_begin_writing(conn: Any) -> None:
    conn.exec_driver_sql("BEGIN IMMEDIATE")  # writers queue for the lock instead of failing


def _postgresql(url: URL, readonly: bool) -> Engine:
    args: dict[str, Any] = {}
    if "connect_timeout" not in url.query:
        args["connect_timeout"] = CONNECT_TIMEOUT
    if "options" not in url.query:
        args["options"] = f"-c statement_timeout={STATEMENT_TIMEOUT * 1000}"
    engine = create_engine(url, connect_args=args)
    if readonly:
        return engine.execution_options(postgresql_readonly=True)
    return engine


def open_database(
    db: str = DEFAULT_DB, create: bool = True, readonly: bool = False, existing: bool = False
) -> Engine:
    """An engine on *db* (a path or URL), with the schema checked, or made when the database is
    empty and *create* is true. *readonly*: for commands that only read (implies not create).
    *existing*: for commands that write to the games stored (the database is brought up to date
    as *create* does, but never made)."""
    create = create and not readonly
    url = database_url(db)
    path = url.database if url.get_backend_name() == "sqlite" and "uri" not in url.query else None
    file = Path(path) if path and path != ":memory:" else None  # an SQLite file
    if file is not None and file.is_dir():  # (SQLite says "disk I/O error")
        raise DatabaseRefused(f"{path}: a folder, not a database")
    if file is not None and (existing or not create) and not file.exists():
        raise DatabaseRefused(f"{path}: no such database (import some games first)")
    if file is not None and not readonly and file.exists():
        folder = file.absolute().parent  # where SQLite keeps its write-ahead log
        if not os.access(file, os.W_OK) or not os.access(folder, os.W_OK | os.X_OK):
            raise DatabaseRefused(f"{path}: cannot be written (read-only)")
    engine = connect(db, readonly)
    try:
        meta = _prepare(engine, db, create, existing)
    except DBAPIError as exc:
        engine.dispose()
        raise _refusal(db, exc, engine.dialect.name) from None
    except (DatabaseRefused, DatabaseUnavailable):
        engine.dispose()
        raise
    if meta.get("application") != APPLICATION:
        engine.dispose()
        raise DatabaseRefused(f"{masked(db)}: not a {APPLICATION} database")
    written = meta.get("schema_version", "0")
    if not written.isdecimal():
        engine.dispose()
        raise DatabaseRefused(
            f"{masked(db)}: its schema version ({written[:40]!r}) is not a number; {REBUILD}"
        )
    version = int(written)
    if version != SCHEMA_VERSION:
        engine.dispose()
        age = "a newer" if version > SCHEMA_VERSION else "an older"
        if version < SCHEMA_VERSION and can_migrate(version):
            raise DatabaseRefused(
                f"{masked(db)}: made by an older version of this toolkit (schema {version}); "
                "open it once for writing (pdn import, pdn analyse --db) to bring it up to date"
            )
        raise DatabaseRefused(
            f"{masked(db)}: made by {age} version of this toolkit (schema {version}, this "
            f"version reads {SCHEMA_VERSION}); {REBUILD}"
        )
    return engine


def _prepare(engine: Engine, db: str, create: bool, existing: bool) -> dict[str, str]:
    """The facts of the database; its tables and facts made first, in one transaction, when it
    has none and *create* is true, not *existing* (a run killed while making them leaves an
    empty database)."""
    if not create:
        with engine.connect() as conn:
            return _facts(conn, db, False, existing)
    with engine.begin() as conn:  # SQLite: BEGIN IMMEDIATE, so makers queue
        if conn.dialect.name == "postgresql":
            conn.execute(select(func.pg_advisory_xact_lock(_CREATE_LOCK)))
        return _facts(conn, db, True, existing)


def _facts(conn: Connection, db: str, create: bool, existing: bool) -> dict[str, str]:
    tables = set(inspect(conn).get_table_names())
    if not tables and create and not existing:
        Base.metadata.create_all(conn)
        conn.execute(
            insert(Meta),
            [
                {"key": "application", "value": APPLICATION},
                {"key": "schema_version", "value": str(SCHEMA_VERSION)},
            ],
        )
    elif not tables:
        raise DatabaseRefused(f"{masked(db)}: the database is empty (import some games first)")
    elif "pdn_meta" not in tables:
        raise DatabaseRefused(f"{masked(db)}: not a {APPLICATION} database (it has other tables)")
    facts = dict(conn.execute(select(Meta.key, Meta.value)).all())
    if create and facts.get("application") == APPLICATION:
        facts = migrate(conn, facts)
    if create and facts.get("schema_version") == str(SCHEMA_VERSION):
        move_staged(conn)  # left to make by an import that was killed
        sum_tallies(conn)
        for table in Base.metadata.sorted_tables:
            for index in table.indexes:
                index.create(conn, checkfirst=True)
    return facts


def _refusal(db: str, exc: DBAPIError, dialect: str) -> Exception:
    """What a database error met while opening *db* means for the user: a server that cannot
    be reached is unavailable, a file that is not a database refused."""
    lines = str(exc.orig).strip().splitlines()
    reason = masked(lines[0] if lines else type(exc.orig).__name__, db)
    if dialect != "sqlite" and isinstance(exc, OperationalError):
        return DatabaseUnavailable(f"{masked(db)}: cannot connect to the database ({reason})")
    if str(getattr(exc.orig, "sqlite_errorname", "")).startswith("SQLITE_CORRUPT"):
        return DatabaseUnavailable(f"{db}: the database file is damaged ({reason}); {REBUILD}")
    return DatabaseRefused(f"{masked(db)}: cannot be used as a database ({reason})")


def damage(engine: Engine) -> str | None:
    """The first problem SQLite's ``PRAGMA quick_check`` finds in the database file (None:
    none, or not an SQLite database)."""
    if engine.dialect.name != "sqlite":
        return None
    try:
        with engine.connect() as conn:
            found = [str(r[0]) for r in conn.exec_driver_sql("PRAGMA quick_check(1)")]
    except DBAPIError as exc:
        found = [str(exc.orig)]
    if found == ["ok"]:
        return None
    lines = " ".join(found).replace("*** in database main ***", "").split("\n")
    return next((line.strip() for line in lines if line.strip()), "not ok")


def database_error(exc: BaseException) -> BaseException | None:
    """The database's own error behind *exc* (pandas wraps it in one of its own), or None when
    *exc* is not a database error."""
    if isinstance(exc, SQLAlchemyError):
        return exc
    pandas = sys.modules.get("pandas")  # not loaded: not one of its errors
    if pandas is not None and isinstance(exc, pandas.errors.DatabaseError):
        cause: BaseException = exc.__cause__ or exc
        return cause
    return None


def trouble(exc: BaseException, engine: Engine) -> str:
    """What a database error met while asking means, in one line, for every command and page:
    the damage of a damaged file, else the first line of what the database said (never the
    statement or its values), any password hidden."""
    found = damage(engine)
    if found:
        return f"the database file is damaged ({found}); {REBUILD}"
    error = database_error(exc) or exc
    orig = error.orig if isinstance(error, DBAPIError) else error
    lines = str(orig).strip().splitlines()
    return masked(lines[0] if lines else type(orig).__name__, engine.url.render_as_string(False))
