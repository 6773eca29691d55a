"""Engine analysis stored with the games (the ``analysis`` table), and the questions over it.

`pdn analyse --db` imports the files (a game already stored is not stored again), judges every
game (pdn.engine.analysis) and writes one row per move under the engine's name and version and
the limit searched to: a game judged again by the same engine and limit adds nothing, another
engine or limit keeps its rows beside the first. The criteria (``--blunders``, ``--mistakes``,
``--loss-min``) select as pdn.archive.judgement reads them from the comments of an analysed file,
over the rows of any engine and limit.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from concurrent.futures import ProcessPoolExecutor
from contextlib import nullcontext
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path
from typing import Any

import pandas as pd
from sqlalchemy import ColumnElement, Engine, and_, case, func, select
from sqlalchemy.dialects import postgresql, sqlite

from pdn.archive.criteria import Criteria, text_matches
from pdn.archive.identity import game_identity
from pdn.archive.judgement import MARKS, Mark, loss_shown
from pdn.archive.parallel import Runner, as_runner
from pdn.archive.pipeline import OnProblem, Options, Progress, find_files, replay_tasks
from pdn.archive.players import Aliases
from pdn.db.records import game_id
from pdn.db.schema import AnalysisRow, GameRow, SourceFile
from pdn.db.store import import_paths
from pdn.engine import Limit, open_engine
from pdn.engine.analysis import Analysed, GameAnalysis, analyse_game, analysis_tasks, eval_text
from pdn.game import Game
from pdn.read.reader import read_string
from pdn.replay import Replay, replay_game
from pdn.rules.draw import RULE_SETS
from pdn.rules.variants import get_variant


class AnalysisQuestionError(ValueError):
    """A question about the analysis that cannot be answered as put."""


def limit_text(limit: Limit) -> str:
    """The limit as stored: ``depth=6``, ``nodes=100000,time=0.5``."""
    parts = (("depth", limit.depth), ("nodes", limit.nodes), ("time", limit.time))
    return ",".join(f"{k}={v:g}" if isinstance(v, float) else f"{k}={v}" for k, v in parts
                    if v is not None)  # fmt: skip


def analysis_rows(gid: int, analysis: GameAnalysis) -> list[dict[str, Any]]:
    """The rows of one game's judgement."""
    limit = limit_text(analysis.limit)
    return [
        {"game_id": gid, "engine": analysis.engine, "limit": limit, "ply": p.ply,
         "side": p.mover.name.lower(), "move": p.move, "score": eval_text(p.score),
         "best_score": eval_text(p.best_score), "best_line": " ".join(p.best_line),
         "loss": loss_shown(p.loss), "mark": p.mark.name.lower() if p.mark else None}
        for p in analysis.plies
    ]  # fmt: skip


def write_analysis(db: Engine, gid: int, analysis: GameAnalysis) -> int:
    """The rows of one game's judgement written (those of its engine, limit and ply already
    there are left as they are); how many were added."""
    rows = analysis_rows(gid, analysis)
    if not rows:
        return 0
    dialect = postgresql if db.dialect.name == "postgresql" else sqlite
    # the rows added are counted as returned: a driver's rowcount of many rows may be -1
    statement = dialect.insert(AnalysisRow).on_conflict_do_nothing().returning(AnalysisRow.ply)
    with db.begin() as conn:
        return len(conn.execute(statement, rows).all())


def _judged(
    game: Game, replay: Replay | None, engine: str, limit: Limit
) -> tuple[int | None, Analysed]:
    """A game's id (as its import gives it, before the analysis writes into the game) and its
    judgement."""
    gid = game_id(game_identity(game, replay).record) if replay else None
    return gid, analyse_game(game, replay, engine, limit)


@dataclass(slots=True)
class Stored:
    """What storing an analysis did: games judged, of them with rows added, and rows added."""

    games: int = 0
    added_games: int = 0
    rows: int = 0
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        """As `pdn analyse --db` ends: ``1 game analysed, 1 stored (44 moves)``."""
        games = "game" if self.games == 1 else "games"
        moves = "move" if self.rows == 1 else "moves"
        return f"{self.games} {games} analysed, {self.added_games} stored ({self.rows} {moves})"


def store_analyses(
    db: Engine,
    paths: Iterable[str | Path],
    engine: str,
    limit: Limit,
    variant: str | None = None,
    rules: str = "seed",
    workers: int | Runner = 1,
    progress: Progress | None = None,
    on_problem: OnProblem | None = None,
    stored: Stored | None = None,
) -> Iterator[Analysed]:
    """Each game of the files imported into *db*, judged and its judgement stored, given back
    in file order as pdn.engine.analysis.analyse_paths gives it; *stored* counts what was
    written."""
    files = find_files(paths, on_problem)
    runner = as_runner(workers)
    import_paths(db, files, variant, rules, runner)
    options = Options(variant, rules)
    tasks = analysis_tasks(files, options, runner)
    work = partial(_judged, engine=engine, limit=limit)
    count = stored if stored is not None else Stored()
    for _, results in replay_tasks(tasks, work, options, runner, progress, on_problem):
        for gid, done in results:
            count.games += 1
            if gid is not None and done.analysis is not None:
                added = write_analysis(db, gid, done.analysis)
                count.rows += added
                count.added_games += added > 0
            yield done


def _stored_judged(
    item: tuple[int, str, str, int, int, str, str], engine: str, limit: Limit
) -> tuple[int, Analysed]:
    """A stored game (id, text, file, line and index there, variant, rules) read, replayed and
    judged."""
    gid, text, path, line, index, variant, rules = item
    game = read_string(text, path, line, index - 1)[0]  # (games.file_index counts from 1)
    replay = None
    if game.syntax_error is None:
        replay = replay_game(game, get_variant(variant), rules if rules in RULE_SETS else "seed")
    return gid, analyse_game(game, replay, engine, limit)


def analyse_stored(
    db: Engine, engine: str, limit: Limit, workers: int = 1, stored: Stored | None = None
) -> Iterator[Analysed]:
    """The games stored in *db* that the engine *engine* names has not judged to *limit*,
    judged in import order (in *workers* processes) and their judgement stored. A valid game
    without a move has nothing to judge, and no row would say it was: it is left out (it was
    judged again on every run); an invalid one is judged to say where it stops."""
    count = stored if stored is not None else Stored()
    with db.connect() as conn:
        first = conn.execute(
            select(GameRow.variant).where(GameRow.variant.is_not(None)).limit(1)
        ).scalar()
    if first is None:
        return
    with open_engine(engine, first) as opened:
        label = f"{opened.name} {opened.version}".strip()
    judged = select(AnalysisRow.game_id).where(
        AnalysisRow.engine == label, AnalysisRow.limit == limit_text(limit)
    )
    query = (
        select(
            GameRow.id,
            GameRow.pdn,
            SourceFile.path,
            GameRow.line,
            GameRow.file_index,
            GameRow.variant,
            GameRow.rules,
        )
        .join(SourceFile, SourceFile.id == GameRow.file_id)
        .where(GameRow.variant.is_not(None), GameRow.id.not_in(judged))
        .where(~(GameRow.valid & (GameRow.plies == 0)))  # nothing to judge, nothing to tell
        .order_by(GameRow.place)
    )
    with db.connect() as conn:
        items = [tuple(r) for r in conn.execute(query).all()]
    work = partial(_stored_judged, engine=engine, limit=limit)
    with ProcessPoolExecutor(workers) if workers > 1 else nullcontext() as pool:
        results = pool.map(work, items) if pool else map(work, items)
        for gid, done in results:
            count.games += 1
            if done.analysis is not None:
                added = write_analysis(db, gid, done.analysis)
                count.rows += added
                count.added_games += added > 0
            yield done


# -- questions ---------------------------------------------------------------------------------


def _with_mark(mark: Mark, side: str) -> ColumnElement[bool]:
    rows = select(AnalysisRow.game_id).where(AnalysisRow.mark == mark.name.lower())
    if side != "any":
        rows = rows.where(AnalysisRow.side == side)
    return GameRow.id.in_(rows)


def judged_conditions(f: Criteria) -> list[ColumnElement[bool]]:
    """The conditions on games of the criteria ``blunders``, ``mistakes`` and ``loss_min``
    (the SQL twin of pdn.archive.judgement.meets)."""
    cond = []
    if f.blunders:
        cond.append(_with_mark(Mark.BLUNDER, f.blunders.strip().lower()))
    if f.mistakes:
        cond.append(_with_mark(Mark.MISTAKE, f.mistakes.strip().lower()))
    if f.loss_min is not None:
        lossy = select(AnalysisRow.game_id).where(AnalysisRow.loss >= loss_shown(f.loss_min))
        cond.append(GameRow.id.in_(lossy))
    return cond


def analyses(db: Engine) -> list[tuple[str, str]]:
    """The engines and limits the database holds analysis of."""
    query = select(AnalysisRow.engine, AnalysisRow.limit).distinct()
    with db.connect() as conn:
        return sorted((str(e), str(lim)) for e, lim in conn.execute(query).all())


def chosen_analysis(db: Engine, by: str | None = None) -> tuple[str, str] | None:
    """The engine and limit whose rows a question reads: the one held, or the one whose
    ``engine limit`` contains *by* (case aside); None when there is none."""
    held = analyses(db)
    if by:
        held = [a for a in held if text_matches(f"{a[0]} {a[1]}", by)]
    if len(held) > 1:
        named = "; ".join(f"{e} {lim}" for e, lim in held)
        raise AnalysisQuestionError(
            f"the database holds several analyses ({named}): choose one with --analysed-by"
        )
    return held[0] if held else None


def game_judgement(db: Engine, gid: int) -> dict[str, Any] | None:
    """One game's judgement for the page: the engine, the limit and a row per ply (the first
    engine and limit held for it); None when it has none."""
    query = select(AnalysisRow.__table__).where(AnalysisRow.game_id == gid)
    with db.connect() as conn:
        order = (AnalysisRow.engine, AnalysisRow.limit, AnalysisRow.ply)
        rows = conn.execute(query.order_by(*order)).all()
    if not rows:
        return None
    engine, limit = rows[0].engine, rows[0].limit
    plies = [
        {"ply": r.ply, "side": r.side, "move": r.move, "eval": r.score, "best_eval": r.best_score,
         "best_line": r.best_line.split(), "loss": r.loss, "mark": r.mark}
        for r in rows if (r.engine, r.limit) == (engine, limit)
    ]  # fmt: skip
    return {"engine": engine, "limit": limit, "plies": plies}


def biggest_losses(db: Engine, ids: list[int]) -> dict[int, float]:
    """The biggest loss of a move in each of the games *ids* that has analysis."""
    query = select(AnalysisRow.game_id, func.max(AnalysisRow.loss)).where(
        AnalysisRow.game_id.in_(ids)
    )
    with db.connect() as conn:
        return {
            int(g): float(m) for g, m in conn.execute(query.group_by(AnalysisRow.game_id)).all()
        }


ACCURACY_COLUMNS = [
    "player",
    "games",
    "moves",
    "average_loss",
    *(m.plural for m in reversed(MARKS)),
]
SIDE_COLUMNS = ["moves", "average_loss", *(m.plural for m in reversed(MARKS))]


def player_accuracy(
    db: Engine,
    aliases: Aliases | None = None,
    player: str | None = None,
    analysed_by: str | None = None,
    min_games: int = 1,
    top: int | None = None,
) -> pd.DataFrame:
    """One row per player with analysed moves: games, moves, average loss in men and marks
    (inaccuracies, mistakes, blunders), overall and with White and with Black (columns
    ending ``_white`` and ``_black``), over one engine and limit (see :func:`chosen_analysis`);
    *player* matches names as `pdn query --player` does."""
    columns = ACCURACY_COLUMNS + [f"{c}_{s}" for s in ("white", "black") for c in SIDE_COLUMNS]
    which = chosen_analysis(db, analysed_by)
    if which is None:
        return pd.DataFrame(columns=columns)
    a = AnalysisRow
    name = case((a.side == "white", GameRow.white), else_=GameRow.black).label("player")
    marks = [func.count(case((a.mark == m.name.lower(), 1))).label(m.plural) for m in MARKS]
    query = (
        select(name, a.side, a.game_id, func.count().label("moves"),
               func.sum(a.loss).label("loss"), *marks)
        .join(GameRow, GameRow.id == a.game_id)
        .where(and_(a.engine == which[0], a.limit == which[1]))
        .group_by(name, a.side, a.game_id)
    )  # fmt: skip
    with db.connect() as conn:
        rows = pd.read_sql(query, conn)
    rows = rows[rows["player"].notna()].copy()
    rows["player"] = rows["player"].map((aliases or Aliases()).name)
    if player:
        rows = rows[[text_matches(p, player) for p in rows["player"]]]
    if rows.empty:
        return pd.DataFrame(columns=columns)
    sums = ["moves", "loss", *(m.plural for m in MARKS)]
    frame = rows.groupby("player").agg(
        games=("game_id", "nunique"), **{c: (c, "sum") for c in sums}
    )
    for side in ("white", "black"):
        part = rows[rows["side"] == side].groupby("player")[sums].sum()
        part["average_loss"] = part["loss"] / part["moves"]
        part = part.drop(columns="loss").add_suffix(f"_{side}")
        frame = frame.join(part)
    frame["average_loss"] = frame["loss"] / frame["moves"]
    frame = frame.reset_index()
    if min_games < 1:
        raise AnalysisQuestionError(f"--min-games must be 1 or more, not {min_games}")
    frame = frame[frame["games"] >= min_games].sort_values(
        ["games", "player"], ascending=[False, True]
    )
    if top:
        frame = frame.head(top)
    frame = frame.reindex(columns=columns)
    counts = [c for c in columns if not c.startswith(("player", "average_loss"))]
    frame[counts] = frame[counts].fillna(0).astype(int)
    averages = [c for c in columns if c.startswith("average_loss")]
    frame[averages] = frame[averages].astype(float).round(3)
    return frame.reset_index(drop=True)
