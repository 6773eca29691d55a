"""A self-contained HTML page about an archive: counts, draw rates, openings, a diagram."""

from __future__ import annotations

from html import escape

import pandas as pd
from sqlalchemy import Engine, func, select

from pdn.archive.openings import OpeningNames
from pdn.db.questions import draw_stats, opening_stats, result_stats
from pdn.db.schema import GameRow, PlyRow, SourceFile, at_ply
from pdn.read.movetext import make_move
from pdn.render.diagram import svg_diagram
from pdn.replay import candidates
from pdn.rules.draw import ending_text
from pdn.rules.fen import parse_fen
from pdn.rules.position import Position
from pdn.rules.variants import get_variant

OPENING_PLIES = 6


def _table(frame: pd.DataFrame, caption: str) -> str:
    head = "".join(f"<th>{escape(str(c))}</th>" for c in frame.columns)
    rows = "".join(
        "<tr>" + "".join(f"<td>{escape('' if pd.isna(v) else str(v))}</td>" for v in row) + "</tr>"
        for row in frame.itertuples(index=False)
    )
    return f"<table><caption>{escape(caption)}</caption><tr>{head}</tr>{rows}</table>"


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
    width, bar, left = 640, 18, 220
    top = max(values, default=0) or 1
    height = 30 + bar * len(labels)
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width}" '
        f'height="{height}" viewBox="0 0 {width} {height}" role="img" '
        f'aria-label="{escape(title)}">',
        f'<text x="4" y="16" font-size="13" font-weight="bold">{escape(title)}</text>',
    ]
    for i, (label, value) in enumerate(zip(labels, values, strict=True)):
        y = 24 + i * bar
        w = (width - left - 60) * value / top
        parts.append(
            f'<text x="{left - 6}" y="{y + 12}" font-size="11" text-anchor="end">'
            f"{escape(label[:34])}</text>"
            f'<rect class="bar" x="{left}" y="{y + 2}" width="{w:.1f}" height="{bar - 4}" '
            f'fill="#4a7fb5"/><text x="{left + w + 4:.1f}" y="{y + 12}" font-size="11">'
            f"{value:g}{unit}</text>"
        )
    parts.append("</svg>")
    return "".join(parts)


def _common_position(engine: Engine) -> tuple[Position, str, int] | None:
    """The position most often reached after the opening plies, with its moves and count."""
    with engine.connect() as conn:
        row = conn.execute(
            select(PlyRow.after, func.count().label("n"), func.min(PlyRow.game_id))
            .where(at_ply(OPENING_PLIES))
            .group_by(PlyRow.after)
            .order_by(func.count().desc(), PlyRow.after)
            .limit(1)
        ).first()
        if row is None:
            return None
        game = conn.execute(
            select(GameRow.variant, GameRow.start_fen, GameRow.moves).where(GameRow.id == row[2])
        ).first()
    if game is None or game.variant is None:
        return None
    variant = get_variant(game.variant)
    pos = parse_fen(game.start_fen, variant) if game.start_fen else Position.start(variant)
    moves = game.moves.split()[:OPENING_PLIES]
    for text in moves:
        found = candidates(pos, make_move(text).squares)
        if len(found) != 1:
            return None
        pos = pos.play(found[0])
    return pos, " ".join(moves), int(row[1])


def html_report(engine: Engine, title: str, names: OpeningNames | None = None) -> str:
    """The report page for the database of *engine*: every table made by the functions behind
    `pdn stats` (so its numbers are theirs), openings named by *names* (default: the shipped
    names)."""
    with engine.connect() as conn:
        total = int(conn.execute(select(func.count()).select_from(GameRow)).scalar() or 0)
    variants = result_stats(engine, "variant")
    terminations = result_stats(engine, "termination")
    years = draw_stats(engine, "year").dropna(subset=["year", "draw_rate"])
    years = years[years["games"] - years["no_result"] >= 5]
    openings = opening_stats(engine, None, OPENING_PLIES, 1, top=15, names=names)
    draw_openings = openings.dropna(subset=["draw_rate"]).head(10)
    common = _common_position(engine)
    sections = [
        f"<h1>{escape(title)}</h1><p>{total} games. Scores and draw rates are over the games "
        "with a known result; games without one are counted under no_result. White wins and "
        "Black wins are read for the side that moves first in each variant (in English "
        "draughts Black moves first and 1-0 is a Black win).</p>",
        _table(variants, "Games per variant, by result"),
        _table(terminations, "How games ended, and how the draws came about"),
        _endings(list(terminations["termination"].dropna())),
        _code_pages(engine),
        bar_chart(
            [str(y) for y in years["year"]],
            [float(r) for r in years["draw_rate"]],
            "Draw rate per year (years with 5 games or more with a result)",
        ),
        bar_chart(
            list(draw_openings["opening"].fillna("")),
            [float(r) for r in draw_openings["draw_rate"]],
            f"Draw rate of the most played openings ({OPENING_PLIES} plies)",
        ),
        _table(openings, f"Most played openings ({OPENING_PLIES} plies)"),
    ]
    if common is not None:
        pos, moves, n = common
        sections.append(
            f'<figure class="diagram">{svg_diagram(pos)}<figcaption>The most common position '
            f"after {OPENING_PLIES} plies ({n} games): {escape(moves)}</figcaption></figure>"
        )
    style = (
        "body{font-family:sans-serif;margin:2em;max-width:60em}table{border-collapse:collapse;"
        "margin:1em 0}td,th{border:1px solid #ccc;padding:2px 8px;text-align:right}"
        "caption{font-weight:bold;text-align:left}svg.chart{display:block;margin:1em 0}"
    )
    return (
        f'<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">'
        f"<title>{escape(title)}</title><style>{style}</style></head><body>"
        + "\n".join(sections)
        + "</body></html>\n"
    )
