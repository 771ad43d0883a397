"""The report's two figures as inline SVG: density per block, and Finn's curve.

Inline SVG keeps the report one self-contained file that needs no script.
Long pages have tens of thousands of blocks and runs; drawn one by one
they give a file a browser chokes on, so both figures are downsampled to
at most :data:`MAX_POINTS` marks (a bucket's bar shows its densest block,
the monotone tag curve keeps evenly spaced vertices and its ends).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from html import escape

#: Most bars or curve vertices one figure draws.
MAX_POINTS = 1500

WIDTH, HEIGHT = 900, 240
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 14, 34


def _num(value: float) -> str:
    return f"{value:.1f}".rstrip("0").rstrip(".")


def bucket_bars(
    values: Sequence[float], kept: Sequence[bool], limit: int = MAX_POINTS
) -> list[tuple[int, int, float, bool]]:
    """``(first, last, height, kept)`` per bar: one block each, or buckets of
    neighbouring blocks (their highest value; kept when any block is)."""
    n = len(values)
    if n <= limit:
        return [(i, i, float(values[i]), bool(kept[i])) for i in range(n)]
    size = math.ceil(n / limit)
    bars = []
    for start in range(0, n, size):
        stop = min(start + size, n)
        bars.append((start, stop - 1, float(max(values[start:stop])), any(kept[start:stop])))
    return bars


def downsample_curve(points: Sequence[tuple[float, float]], limit: int = MAX_POINTS) -> list[tuple[float, float]]:
    """At most ``limit`` vertices of a polyline: evenly spaced ones plus both ends."""
    n = len(points)
    if n <= limit:
        return list(points)
    step = (n - 1) / (limit - 1)
    return [points[round(i * step)] for i in range(limit)]


def _frame(title: str, x_label: str, y_label: str, y_max: float, x_max: float, body: list[str]) -> str:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    axis = [
        f'<line class="axis" x1="{LEFT}" y1="{TOP + plot_h}" x2="{LEFT + plot_w}" y2="{TOP + plot_h}"/>',
        f'<line class="axis" x1="{LEFT}" y1="{TOP}" x2="{LEFT}" y2="{TOP + plot_h}"/>',
        f'<text class="tick" x="{LEFT - 4}" y="{TOP + 4}" text-anchor="end">{escape(_num(y_max))}</text>',
        f'<text class="tick" x="{LEFT - 4}" y="{TOP + plot_h}" text-anchor="end">0</text>',
        (
            f'<text class="tick" x="{LEFT + plot_w}" y="{TOP + plot_h + 14}" text-anchor="end">'
            f"{escape(_num(x_max))}</text>"
        ),
        (
            f'<text class="label" x="{LEFT + plot_w / 2:.0f}" y="{HEIGHT - 6}" text-anchor="middle">'
            f"{escape(x_label)}</text>"
        ),
        (
            f'<text class="label" x="12" y="{TOP + plot_h / 2:.0f}" text-anchor="middle" '
            f'transform="rotate(-90 12 {TOP + plot_h / 2:.0f})">{escape(y_label)}</text>'
        ),
    ]
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(title)}"><title>{escape(title)}</title>' + "".join(axis + body) + "</svg>"
    )


def bar_chart(
    values: Sequence[float],
    kept: Sequence[bool],
    threshold: float | None,
    *,
    title: str,
    y_label: str,
    threshold_label: str,
    y_max: float = 1.0,
    limit: int = MAX_POINTS,
) -> str:
    """Bars per block (kept and dropped coloured apart) and the threshold as a dashed line."""
    n = len(values)
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    top = max(y_max, max(values, default=0.0), threshold or 0.0) or 1.0
    bars = bucket_bars(values, kept, limit)
    width = plot_w / max(len(bars), 1)
    body = []
    for i, (first, last, value, keep) in enumerate(bars):
        h = plot_h * max(value, 0.0) / top
        where = f"block {first}" if first == last else f"blocks {first}-{last}"
        body.append(
            f'<rect class="{"kept" if keep else "dropped"}" x="{_num(LEFT + i * width)}" '
            f'y="{_num(TOP + plot_h - h)}" width="{_num(max(width - 0.5, 0.4))}" height="{_num(max(h, 0.5))}">'
            f"<title>{escape(where)}: {value:.3f}</title></rect>"
        )
    if threshold is not None:
        y = TOP + plot_h * (1 - threshold / top)
        body.append(f'<line class="threshold" x1="{LEFT}" y1="{_num(y)}" x2="{LEFT + plot_w}" y2="{_num(y)}"/>')
        body.append(
            f'<text class="threshold-label" x="{LEFT + plot_w - 4}" y="{_num(y - 4)}" text-anchor="end">'
            f"{escape(threshold_label)}</text>"
        )
    return _frame(title, f"block (0-{max(n - 1, 0)})", y_label, top, max(n - 1, 0), body)


def curve_chart(
    points: Sequence[tuple[float, float]], span: tuple[float, float] | None, *, title: str, limit: int = MAX_POINTS
) -> str:
    """Cumulative tags against token position, BTE's span shaded (Finn's figure 3)."""
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    pts = downsample_curve(points, limit)
    x_max = max((p[0] for p in pts), default=0.0) or 1.0
    y_max = max((p[1] for p in pts), default=0.0) or 1.0

    def x(v: float) -> float:
        return LEFT + plot_w * v / x_max

    def y(v: float) -> float:
        return TOP + plot_h * (1 - v / y_max)

    body = []
    if span is not None:
        a, b = x(span[0]), x(span[1])
        body.append(
            f'<rect class="span" x="{_num(a)}" y="{TOP}" width="{_num(max(b - a, 1.0))}" '
            f'height="{plot_h}"><title>BTE span: tokens {span[0]:.0f}-{span[1]:.0f}</title></rect>'
        )
        body.append(
            f'<text class="span-label" x="{_num((a + b) / 2)}" y="{TOP + 12}" text-anchor="middle">BTE span</text>'
        )
    if pts:
        coords = " ".join(f"{_num(x(px))},{_num(y(py))}" for px, py in pts)
        body.append(f'<polyline class="curve" points="{coords}"/>')
    return _frame(title, "position (tokens: words and tags)", "tags so far", y_max, x_max, body)
