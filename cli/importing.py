"""`pdn import`: replay and store every game of archives (without the question commands'
pandas, so it starts in about half the time)."""

from __future__ import annotations

import typer
from sqlalchemy.exc import SQLAlchemyError

from pdn.cli.common import (
    BarProgress,
    CandidatesOpt,
    ClusterOpt,
    DbOpt,
    EncodingOpt,
    GameVariantOpt,
    MaxSizeOpt,
    Paths,
    Rules,
    RulesOpt,
    WorkersOpt,
    check_inputs,
    fail,
    pipeline_run,
    print_table,
    say,
)
from pdn.cli.connect import db_reason, open_db
from pdn.db.connection import DEFAULT_DB, masked, shown
from pdn.db.store import import_paths


def import_command(
    paths: Paths,
    db: DbOpt = DEFAULT_DB,
    variant: GameVariantOpt = None,
    rules: RulesOpt = Rules.COMMON,
    workers: WorkersOpt = 1,
    cluster: ClusterOpt = None,
    candidates: CandidatesOpt = False,
    max_game_size: MaxSizeOpt = None,
    encoding: EncodingOpt = None,
) -> None:
    """Replay and store every game (invalid ones too); a copy of a stored game is noted, not
    stored again; re-importing adds nothing; resumable. Into PostgreSQL, several workers
    (--workers, --cluster) write their games themselves."""
    check_inputs(paths)
    try:
        with pipeline_run("importing", paths, variant, workers, cluster) as run:
            engine = open_db(db, create=True)  # made once the options are found right
            phase = run.progress.phase if isinstance(run.progress, BarProgress) else None
            stats = import_paths(engine, run.files, variant, rules, run.runner, run.progress,
                                 candidates=candidates, on_problem=run.problem,
                                 finishing=phase)  # fmt: skip
    except (OSError, SQLAlchemyError) as exc:  # games written so far stay; a re-run finishes
        fail(f"{shown(db)}: import stopped: {db_reason(exc, db)}; run it again to finish it", 1)
    for warning in stats.warnings:
        say(warning, err=True)
    rows = [
        ("files imported", stats.files),
        ("files already imported", stats.skipped_files),
        ("games read", stats.games),
        ("games added", stats.added),
        ("copies of stored games (not stored again)", stats.copies),
        ("already imported (resumed)", stats.already),
        ("same moves as another game (each stored)", stats.same_moves),
        ("invalid (pdn validate lists where)", stats.invalid),
        ("syntax errors (pdn validate lists where)", stats.syntax_errors),
        ("warnings (pdn validate --warnings lists them)", stats.game_warnings),
    ]
    if candidates:
        rows.append(("fit other variants too", stats.also_fit))
    print_table(["import", "games"], rows, title=f"Imported into {masked(db)}")
    raise typer.Exit(1 if run.problems else 0)
