"""The report's charts as inline SVG and HTML, drawn from the tables of :mod:`pdn.db.questions`
(never counting anything themselves): a line over the years with bars beneath, bars stacked by
result, a tree of openings. Every label is measured for its room, wrapped or given the width it
needs, never cut."""

from __future__ import annotations

from dataclasses import dataclass, field
from html import escape

CHAR_WIDTH = 0.62  # the width of a character in ems, on the safe side for a sans-serif face
FONT = 11  # px, the charts' labels
RESULT_COLOURS = {"white_wins": "#e8dcc0", "draws": "#8fa8c0", "black_wins": "#3b3b3b",
                  "no_result": "#d0d0d0"}  # fmt: skip
INK = {"white_wins": "#1d1d1f", "draws": "#1d1d1f", "black_wins": "#ffffff", "no_result": "#1d1d1f"}


def text_width(text: str, size: float = FONT) -> float:
    """A generous estimate of the width of *text* in px at *size* px."""
    return len(text) * size * CHAR_WIDTH


def games_text(n: int) -> str:
    """``1 game``, ``12 games``."""
    return f"{n} game" if n == 1 else f"{n} games"


def _svg(width: float, height: float, title: str) -> str:
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" class="chart" width="{width:.0f}" '
        f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" role="img" '
        f'aria-label="{escape(title)}" font-family="sans-serif">'
    )


def _heading(title: str) -> str:
    return f'<text x="4" y="16" font-size="13" font-weight="bold">{escape(title)}</text>'


def _step(span: int, room: float) -> int:
    """A year step for the axis labels: 1, 2, 5, 10, 20, 50... so that labels do not touch."""
    for step in (1, 2, 5, 10, 20, 25, 50, 100, 200, 500):
        if span / step * text_width("0000 ") <= room:
            return step
    return 1000


def years_chart(
    years: list[int], rates: list[float], counted: list[int], games: dict[int, int], title: str
) -> str:
    """The draw rate of each year in *years* (those with enough games: *counted* with a result)
    as a line, and beneath it the games of every year in *games* as bars, on one axis of
    years."""
    width, left, right = 760, 48, 16
    line_top, line_height, gap, bar_height = 30, 180, 34, 70
    every = sorted(games)
    if not every:
        return ""
    first, last = every[0], every[-1]
    span = max(last - first, 1)
    room = width - left - right
    bar = max(room / (span + 1) * 0.8, 1.0)
    pad = bar / 2 + 3  # the first and last bars clear of the axis labels

    def x(year: float) -> float:
        return left + pad + (room - 2 * pad) * (year - first) / span

    bars_top = line_top + line_height + gap
    height = bars_top + bar_height + 34
    parts = [_svg(width, height, title), _heading(title)]
    for pct in (0, 25, 50, 75, 100):
        y = line_top + line_height * (1 - pct / 100)
        parts.append(
            f'<line x1="{left}" x2="{width - right}" y1="{y:.1f}" y2="{y:.1f}" stroke="#ddd"/>'
            f'<text x="{left - 4}" y="{y + 4:.1f}" font-size="{FONT}" text-anchor="end">'
            f"{pct}%</text>"
        )
    points = [(x(year), line_top + line_height * (1 - rate / 100))
              for year, rate in zip(years, rates, strict=True)]  # fmt: skip
    if points:
        path = " ".join(f"{px:.1f},{py:.1f}" for px, py in points)
        parts.append(f'<polyline class="line" points="{path}" fill="none" stroke="#2a6f97" '
                     'stroke-width="1.6"/>')  # fmt: skip
    for (px, py), year, rate, n in zip(points, years, rates, counted, strict=True):
        parts.append(
            f'<circle class="point" cx="{px:.1f}" cy="{py:.1f}" r="2.4" fill="#2a6f97">'
            f"<title>{year}: draw rate {rate:g}% of {n} games with a result</title></circle>"
        )
    top = max(games.values())
    parts.append(
        f'<text x="{left - 4}" y="{bars_top + 4}" font-size="{FONT}" text-anchor="end">{top}</text>'
        f'<text x="{left - 4}" y="{bars_top + bar_height}" font-size="{FONT}" '
        f'text-anchor="end">0</text>'
        f'<text x="{left}" y="{bars_top - 6}" font-size="{FONT}">games per year</text>'
    )
    for year in every:
        h = bar_height * games[year] / top
        parts.append(
            f'<rect class="bar" x="{x(year) - bar / 2:.1f}" y="{bars_top + bar_height - h:.1f}" '
            f'width="{bar:.1f}" height="{h:.1f}" fill="#9ab"><title>{year}: '
            f"{games_text(games[year])}</title></rect>"
        )
    step = _step(span, room)
    axis = bars_top + bar_height + 16
    for year in range(first + (-first) % step, last + 1, step):
        parts.append(f'<text x="{x(year):.1f}" y="{axis}" font-size="{FONT}" '
                     f'text-anchor="middle">{year}</text>')  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)


@dataclass(frozen=True, slots=True)
class Stack:
    """One stacked bar: its label and the games of each result (keys of RESULT_COLOURS)."""

    label: str
    counts: dict[str, int]


def stacked_bars(stacks: list[Stack], words: dict[str, str], title: str) -> str:
    """One bar per stack, split by result in proportion to its games (written after it); a
    legend in *words*; each segment's count written in it where it fits (always in its
    tooltip)."""
    if not stacks:
        return ""
    bar, gap = 20, 8
    left = max(text_width(s.label) for s in stacks) + 12
    width = max(760.0, left + 360)
    room = width - left - 90
    legend_y = 34
    height = legend_y + 14 + len(stacks) * (bar + gap)
    parts = [_svg(width, height, title), _heading(title)]
    lx = 4.0
    for key, colour in RESULT_COLOURS.items():
        parts.append(
            f'<rect x="{lx:.1f}" y="{legend_y - 10}" width="12" height="12" fill="{colour}" '
            f'stroke="#888" stroke-width="0.5"/><text x="{lx + 16:.1f}" y="{legend_y}" '
            f'font-size="{FONT}">{escape(words[key])}</text>'
        )
        lx += 16 + text_width(words[key]) + 14
    for i, s in enumerate(stacks):
        y = legend_y + 12 + i * (bar + gap)
        parts.append(f'<text x="{left - 6:.1f}" y="{y + 14}" font-size="{FONT}" '
                     f'text-anchor="end">{escape(s.label)}</text>')  # fmt: skip
        x, total = left, sum(s.counts.values()) or 1
        for key in RESULT_COLOURS:
            n = s.counts.get(key, 0)
            w = room * n / total
            if n:
                parts.append(
                    f'<rect class="segment" x="{x:.1f}" y="{y}" width="{w:.1f}" height="{bar}" '
                    f'fill="{RESULT_COLOURS[key]}"><title>{escape(s.label)}: {n} '
                    f"{escape(words[key].lower())}</title></rect>"
                )
                if text_width(str(n)) + 6 <= w:
                    parts.append(
                        f'<text x="{x + w / 2:.1f}" y="{y + 14}" font-size="{FONT}" '
                        f'text-anchor="middle" fill="{INK[key]}">{n}</text>'
                    )
            x += w
        parts.append(f'<text x="{x + 6:.1f}" y="{y + 14}" font-size="{FONT}">'
                     f"{games_text(sum(s.counts.values()))}</text>")  # fmt: skip
    parts.append("</svg>")
    return "".join(parts)


@dataclass(slots=True)
class Branch:
    """A node of the openings tree: the move that leads to it, the whole line, its games, its
    draw rate (None without games with a result), its name, and the lines that follow."""

    move: str
    line: str
    games: int
    draw_rate: float | None
    name: str | None
    children: list[Branch] = field(default_factory=list)


def openings_tree(roots: list[Branch], title: str) -> str:
    """The tree as nested lists: each branch its move, games, draw rate and name."""

    def item(b: Branch) -> str:
        rate = "" if b.draw_rate is None else f", {b.draw_rate:g}% drawn"
        name = f' <span class="name">{escape(b.name)}</span>' if b.name else ""
        inner = "".join(item(c) for c in b.children)
        below = f"<ul>{inner}</ul>" if inner else ""
        said = f'<span class="games">{games_text(b.games)}{rate}</span>'
        return f'<li><b title="{escape(b.line)}">{escape(b.move)}</b> {said}{name}{below}</li>'

    if not roots:
        return ""
    return f'<div class="tree"><h3>{escape(title)}</h3><ul>{"".join(map(item, roots))}</ul></div>'
