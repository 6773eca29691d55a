"""Bringing a database made by an older schema up to this one, in the transaction that opens
it for writing: each step adds what its version added or rewrites what it changed."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, bindparam, text, update

from pdn.db.schema import SCHEMA_VERSION, AnalysisRow, GameRow, Meta

PACKED_AT_ONCE = 2000  # games whose texts are read and packed at a time


def _add_analysis(conn: Connection) -> None:
    """Schema 4 to 5: the analysis table and its indexes."""
    AnalysisRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


_AS_BYTES = {  # PostgreSQL: each column of schema 5 as bytea
    "game_hash": "decode(game_hash, 'hex')",
    "moves_hash": "decode(moves_hash, 'hex')",
    "pdn": "convert_to(pdn, 'UTF8')",
}


def _compress_texts(conn: Connection) -> None:
    """Schema 5 to 6: each game's text packed and its two digests as bytes (pdn.db.texts), in
    place, a batch of games at a time in id order. PostgreSQL's columns become bytea first (the
    text as UTF-8, the digests decoded); SQLite's keep their declared types, which leave bytes as
    they are (a TEXT column converts only numbers). Values converted already are left alone."""
    if conn.dialect.name == "postgresql":
        kind = conn.execute(text(
            "SELECT data_type FROM information_schema.columns WHERE table_schema = "
            "current_schema() AND table_name = 'games' AND column_name = 'pdn'"
        )).scalar()  # fmt: skip
        if kind == "bytea":
            return
        for column, as_bytes in _AS_BYTES.items():
            conn.exec_driver_sql(
                f"ALTER TABLE games ALTER COLUMN {column} TYPE bytea USING {as_bytes}"
            )
        plain = "TRUE"
    else:
        plain = (
            "(typeof(pdn) = 'text' OR typeof(game_hash) = 'text' OR typeof(moves_hash) = 'text')"
        )
    batch = text(
        f"SELECT id, pdn, game_hash, moves_hash FROM games WHERE {plain} AND id > :after "
        "ORDER BY id LIMIT :n"
    )
    write = update(GameRow).where(GameRow.id == bindparam("gid"))
    write = write.values(pdn=bindparam("t"), game_hash=bindparam("g"), moves_hash=bindparam("m"))
    utf8 = conn.dialect.name == "postgresql"  # its texts are bytea by now, packed by none
    after = -(1 << 63)
    while rows := conn.execute(batch, {"after": after, "n": PACKED_AT_ONCE}).all():
        converted = [  # PackedText and HexDigest convert what schema 5 wrote, pass bytes on
            {"gid": gid, "t": bytes(t).decode("utf-8") if utf8 else t, "g": g, "m": m}
            for gid, t, g, m in rows
        ]
        conn.execute(write, converted)
        after = rows[-1][0]


STEPS: dict[int, Callable[[Connection], None]] = {  # from version N to N + 1
    4: _add_analysis,
    5: _compress_texts,
}


def can_migrate(version: int) -> bool:
    """Whether a database of schema *version* can be brought up to this one."""
    return version == SCHEMA_VERSION or (version in STEPS and can_migrate(version + 1))


def migrate(conn: Connection, facts: dict[str, str]) -> dict[str, str]:
    """The facts after bringing the database of *facts* up to this schema (nothing done when it
    is current, newer, or too old to migrate)."""
    written = facts.get("schema_version", "")
    if not written.isdecimal() or not can_migrate(int(written)):
        return facts
    version = int(written)
    while version < SCHEMA_VERSION:
        STEPS[version](conn)
        version += 1
    if str(version) != written:
        conn.execute(update(Meta).where(Meta.key == "schema_version").values(value=str(version)))
    return {**facts, "schema_version": str(version)}
