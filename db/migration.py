"""Bringing a database made by an older schema up to this one, in the transaction that opens
it for writing: each step adds what its version added, so no game is read or rewritten."""

from __future__ import annotations

from collections.abc import Callable

from sqlalchemy import Connection, update

from pdn.db.schema import SCHEMA_VERSION, AnalysisRow, Meta


def _add_analysis(conn: Connection) -> None:
    """Schema 4 to 5: the analysis table and its indexes."""
    AnalysisRow.__table__.create(conn, checkfirst=True)  # type: ignore[attr-defined]


STEPS: dict[int, Callable[[Connection], None]] = {4: _add_analysis}  # from version N to N + 1


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
