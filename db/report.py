"""A self-contained HTML page about an archive: counts, draw rates, openings, a diagram."""

from __future__ import annotations

from html import escape

import pandas as pd
from sqlalchemy import Engine, func, select

from pdn.archive.openings import OpeningNames
from pdn.db.charts import Branch, Stack, openings_tree, stacked_bars, text_width, years_chart
from pdn.db.questions import draw_stats, opening_stats, result_stats
from pdn.db.schema import (
    PLAYED,
    GameRow,
    OpeningRow,
    SourceFile,
    opening_digest,
    opening_reaches,
)
from pdn.db.texts import unpack_moves
from pdn.read.movetext import make_move
from pdn.render.diagram import svg_diagram
from pdn.replay import candidates
from pdn.rules.draw import ending_text
from pdn.rules.fen import parse_fen
from pdn.rules.position import Position
from pdn.rules.variants import get_variant

OPENING_PLIES = 6
TREE_WIDTHS = (3, 2, 2)  # the openings tree: first moves, the replies to each, the moves after
TREE_VARIANTS = 4  # trees for the most played variants, those with TREE_MIN_GAMES games or more
TREE_MIN_GAMES = 20
MIN_YEAR_GAMES = 5  # a year's draw rate is drawn over this many games with a result or more

# The tables' columns in words (the columns of pdn.db.questions, as `pdn stats` prints them)
WORDS = {
    "variant": "Variant", "games": "Games", "white_wins": "White wins", "draws": "Draws",
    "black_wins": "Black wins", "no_result": "No result", "white_score": "White's score %",
    "draw_rate": "Draw rate %", "by_moves_rule": "Drawn by the moves rule",
    "by_endgame_rule": "Drawn by an endgame rule", "by_repetition": "Drawn by repetition",
    "by_agreement": "Drawn as recorded", "termination": "How the game ended",
    "opening": "Opening", "name": "Name", "year": "Year", "file": "File", "read as": "Read as",
}  # fmt: skip


def _table(frame: pd.DataFrame, caption: str) -> str:
    head = "".join(f"<th>{escape(WORDS.get(str(c), str(c)))}</th>" for c in frame.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape('' if pd.isna(v) else str(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return (f'<div class="wide"><table><caption>{escape(caption)}</caption><tr>{head}</tr>{rows}'
            "</table></div>")  # fmt: skip


def _endings(labels: list[str]) -> str:
    """What each ending of the table above means (the words of the CLI and the page)."""
    items = "".join(f"<li><b>{escape(t)}</b>: {escape(ending_text(t))}</li>" for t in labels)
    return f"<ul class='endings'>{items}</ul>" if items else ""


def _code_pages(engine: Engine) -> str:
    """The files whose text is not UTF-8, and the code page each was read in."""
    with engine.connect() as conn:
        rows = conn.execute(
            select(SourceFile.path, SourceFile.encoding)
            .where(SourceFile.encoding.not_in(["utf-8", "utf-8-sig"]))
            .order_by(SourceFile.path)
        ).all()
    if not rows:
        return "<p>Every file was read as UTF-8.</p>"
    frame = pd.DataFrame(rows, columns=["file", "read as"])
    return _table(frame, "Files not in UTF-8, and the code page each was read in")


def bar_chart(labels: list[str], values: list[float], title: str, unit: str = "%") -> str:
    """A horizontal bar chart as inline SVG (one bar per label)."""
    bar = 18
    left = max((text_width(label) for label in labels), default=0) + 12
    width = max(640.0, left + 420)
    top = max(values, default=0) or 1
    height = 30 + bar * len(labels)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width:.0f}" '
        f'height="{height}" viewBox="0 0 {width:.0f} {height}" role="img" '
        f'aria-label="{escape(title)}">',
        f'<text x="4" y="16" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = 24 + i * bar
        w = (width - left - 60) * value / top
        parts.append(
            f'<text x="{left - 6:.1f}" y="{y + 12}" font-size="11" text-anchor="end">'
            f"{escape(label)}</text>"
            f'<rect class="bar" x="{left:.1f}" y="{y + 2}" width="{w:.1f}" height="{bar - 4}" '
            f'fill="#4a7fb5"/><text x="{left + w + 4:.1f}" y="{y + 12}" font-size="11">'
            f"{value:g}{unit}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _common_position(engine: Engine) -> tuple[Position, str, int] | None:
    """The position most often reached after the opening plies, with its moves and count."""
    with engine.connect() as conn:
        key = opening_digest(OPENING_PLIES)
        row = conn.execute(
            select(key, func.count().label("n"), func.min(GameRow.id))
            .join_from(GameRow, OpeningRow, PLAYED)
            .where(opening_reaches(OPENING_PLIES))
            .group_by(key)
            .order_by(func.count().desc(), key)
            .limit(1)
        ).first()
        if row is None:
            return None
        game = conn.execute(
            select(GameRow.variant, GameRow.start_fen, GameRow.moves, GameRow.pdn).where(
                GameRow.id == row[2]
            )
        ).first()
    if game is None or game.variant is None:
        return None
    variant = get_variant(game.variant)
    pos = parse_fen(game.start_fen, variant) if game.start_fen else Position.start(variant)
    moves = unpack_moves(game.moves, game.pdn).split()[:OPENING_PLIES]
    for text in moves:
        found = candidates(pos, make_move(text).squares)
        if len(found) != 1:
            return None
        pos = pos.play(found[0])
    return pos, " ".join(moves), int(row[1])


def _tree(engine: Engine, variant: str, names: OpeningNames | None) -> list[Branch]:
    """The most played first moves of *variant*, the most played replies to each and the
    moves after those, each counted by :func:`opening_stats` at its ply (the games of that many
    plies or more from the start; a position reached by two orders counted once, under the
    line of the first game that reached it)."""
    levels = [opening_stats(engine, variant, k, 1, names=names) for k in (1, 2, 3)]

    def branches(frame: pd.DataFrame, parent: str, width: int) -> list[Branch]:
        found = frame[frame["opening"].str.startswith(parent)] if parent else frame
        return [
            Branch(line.split()[-1], line, int(n), None if pd.isna(rate) else float(rate),
                   None if pd.isna(name) else str(name))
            for line, n, rate, name in found[["opening", "games", "draw_rate", "name"]]
            .head(width).itertuples(index=False)
        ]  # fmt: skip

    roots = branches(levels[0], "", TREE_WIDTHS[0])
    for root in roots:
        root.children = branches(levels[1], root.line + " ", TREE_WIDTHS[1])
        for child in root.children:
            child.children = branches(levels[2], child.line + " ", TREE_WIDTHS[2])
    return roots


def _trees(engine: Engine, variants: pd.DataFrame, names: OpeningNames | None) -> str:
    played = variants.dropna(subset=["variant"])
    played = played[played["games"] >= TREE_MIN_GAMES].head(TREE_VARIANTS)
    trees = [openings_tree(_tree(engine, str(v), names), f"{v}: the first three plies")
             for v in played["variant"]]  # fmt: skip
    if not trees:
        return ""
    widths = "-".join(map(str, TREE_WIDTHS))
    return (
        "<h2>Openings as a tree</h2><p>The most played first moves of each variant, the most "
        f"played replies to each and the moves after those ({widths}); games counted from the "
        "start position, a position reached by two move orders once.</p>"
        f'<div class="trees">{"".join(trees)}</div>'
    )


def _results_by_variant(variants: pd.DataFrame) -> str:
    stacks = [
        Stack("variant unknown" if pd.isna(v) else str(v),
              {k: int(row[k]) for k in ("white_wins", "draws", "black_wins", "no_result")})
        for v, (_, row) in zip(variants["variant"], variants.iterrows(), strict=True)
    ]  # fmt: skip
    return stacked_bars(stacks, WORDS, "Results by variant, in proportion to its games")


def _years(engine: Engine) -> str:
    every = draw_stats(engine, "year").dropna(subset=["year"])
    games = {int(y): int(n) for y, n in zip(every["year"], every["games"], strict=True)}
    rated = every.dropna(subset=["draw_rate"])
    counted = rated["games"] - rated["no_result"]
    rated, counted = rated[counted >= MIN_YEAR_GAMES], counted[counted >= MIN_YEAR_GAMES]
    return years_chart(
        [int(y) for y in rated["year"]], [float(r) for r in rated["draw_rate"]],
        [int(n) for n in counted], games,
        f"Draw rate by year (years with {MIN_YEAR_GAMES} games or more with a result), "
        "games per year beneath",
    )  # fmt: skip


def html_report(engine: Engine, title: str, names: OpeningNames | None = None) -> str:
    """The report page for the database of *engine*: every table made by the functions behind
    `pdn stats` (so its numbers are theirs), openings named by *names* (default: the shipped
    names)."""
    with engine.connect() as conn:
        total = int(conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0)
    variants = result_stats(engine, "variant")
    terminations = result_stats(engine, "termination")
    openings = opening_stats(engine, None, OPENING_PLIES, 1, top=15, names=names)
    draw_openings = openings.dropna(subset=["draw_rate"]).head(10)
    common = _common_position(engine)
    sections = [
        f"<h1>{escape(title)}</h1><p>{total} games. Scores and draw rates are over the games "
        "with a known result; games without one are counted under No result. White wins and "
        "Black wins are read for the side that moves first in each variant (in English "
        "draughts Black moves first and 1-0 is a Black win).</p>",
        _results_by_variant(variants),
        _table(variants, "Games per variant, by result"),
        _table(terminations, "How games ended, and how the draws came about"),
        _endings(list(terminations["termination"].dropna())),
        _code_pages(engine),
        _years(engine),
        bar_chart(
            list(draw_openings["opening"].fillna("")),
            [float(r) for r in draw_openings["draw_rate"]],
            f"Draw rate of the most played openings ({OPENING_PLIES} plies)",
        ),
        _table(openings, f"Most played openings ({OPENING_PLIES} plies)"),
        _trees(engine, variants, names),
    ]
    if common is not None:
        pos, moves, n = common
        sections.append(
            f'<figure class="diagram">{svg_diagram(pos)}<figcaption>The most common position '
            f"after {OPENING_PLIES} plies ({n} games): {escape(moves)}</figcaption></figure>"
        )
    style = (
        "body{font-family:sans-serif;margin:2em;max-width:72em}table{border-collapse:collapse;"
        "margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
        "th{vertical-align:bottom}caption{font-weight:bold;text-align:left}"
        "div.wide{overflow-x:auto}svg.chart{display:block;margin:1em 0;max-width:none}"
        ".trees{display:flex;flex-wrap:wrap;gap:1em 3em}.tree ul{list-style:none;margin:0;"
        "padding-left:1.2em;border-left:1px solid #ccc}.tree>ul{border:0;padding:0}"
        ".tree li{margin:.2em 0}.tree .games{color:#555;font-size:.9em}"
        ".tree .name{font-style:italic}"
    )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{style}</style></head><body>"
        + "\n".join(sections)
        + "</body></html>\n"
    )
