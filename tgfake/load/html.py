"""The load report as one self-contained HTML page: the totals, and charts drawn here as inline SVG.

No script, no style sheet or font from elsewhere, no dependency: each chart is a handful of ``<polyline>`` s
written from the per-second rows, so the page opens offline and prints as it shows.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from tgfake.load.run import LoadReport

WIDTH, HEIGHT = 560, 200
LEFT, RIGHT, TOP, BOTTOM = 52, 12, 14, 26
STYLE = """
body { font: 14px/1.4 system-ui, sans-serif; margin: 24px; color: #1d2330; background: #fff; }
h1 { font-size: 20px; margin: 0 0 4px; } h2 { font-size: 15px; margin: 18px 0 6px; }
.muted { color: #667; } table { border-collapse: collapse; margin: 6px 0 12px; }
td, th { padding: 3px 10px; border-bottom: 1px solid #e3e6ee; text-align: left; } td.n { text-align: right; }
.charts { display: grid; grid-template-columns: repeat(auto-fill, minmax(560px, 1fr)); gap: 14px; }
figure { margin: 0; border: 1px solid #e3e6ee; border-radius: 6px; padding: 8px; }
figcaption { font-weight: 600; margin-bottom: 4px; } .key span { margin-right: 12px; }
svg text { font: 11px system-ui, sans-serif; fill: #556; }
"""


def _nice(top: float) -> float:
    """A round upper bound for an axis (1, 2 or 5 times a power of ten)."""
    if top <= 0:
        return 1.0
    power = 10.0 ** (len(str(int(top))) - 1) if top >= 1 else 1.0
    for step in (1, 2, 5, 10):
        if step * power >= top:
            return float(step * power)
    return top


def chart(title: str, unit: str, series: Sequence[tuple[str, str, Sequence[float]]]) -> str:
    """One line chart: each series a (name, colour, one value per second) polyline over a shared axis."""
    count = max((len(v) for _, _, v in series), default=0)
    top = _nice(max((max(v) for _, _, v in series if v), default=0.0))
    inner_w, inner_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    span = max(count - 1, 1)

    def x(i: int) -> float:
        return LEFT + inner_w * i / span

    def y(v: float) -> float:
        return TOP + inner_h * (1 - v / top)

    parts = [f'<svg viewBox="0 0 {WIDTH} {HEIGHT}" width="{WIDTH}" height="{HEIGHT}" role="img">']
    for k in range(5):
        value = top * k / 4
        yy = y(value)
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{yy:.1f}" y2="{yy:.1f}" stroke="#eceef4"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{yy + 4:.1f}" text-anchor="end">{value:g}</text>')
    for k in range(6):
        i = round(span * k / 5)
        parts.append(f'<text x="{x(i):.1f}" y="{HEIGHT - 8}" text-anchor="middle">{i}s</text>')
    for n, (name, colour, values) in enumerate(series):
        if not values:
            continue
        points = " ".join(f"{x(i):.1f},{y(v):.1f}" for i, v in enumerate(values))
        width = 1.6 + 2.2 * (len(series) - 1 - n) / max(len(series) - 1, 1)  # wider below: lines that meet both show
        parts.append(
            f'<polyline fill="none" stroke="{colour}" stroke-width="{width:.1f}" stroke-opacity="0.85" '
            f'stroke-linejoin="round" points="{points}"><title>{html.escape(name)}</title></polyline>'
        )
    parts.append(f'<text x="{LEFT}" y="{TOP - 3}">{html.escape(unit)}</text></svg>')
    key = "".join(
        f'<span><svg width="14" height="8"><rect width="14" height="8" fill="{c}"/></svg> {html.escape(n)}</span>'
        for n, c, _ in series
    )
    return f'<figure><figcaption>{html.escape(title)}</figcaption>{"".join(parts)}<div class="key">{key}</div></figure>'


def _column(rows: Sequence[Mapping[str, Any]], key: str) -> list[float]:
    return [float(r.get(key, 0) or 0) for r in rows]


def _table(rows: Sequence[tuple[str, Any]]) -> str:
    cells = "".join(f'<tr><th>{html.escape(str(a))}</th><td class="n">{html.escape(str(b))}</td></tr>' for a, b in rows)
    return f"<table>{cells}</table>"


def render(report: LoadReport) -> str:
    raw = report.raw
    t = report.totals
    rows = report.seconds
    lat = t.get("latency_ms", {})
    settings = raw.get("settings", {})
    charts = [
        chart(
            "Reply latency",
            "ms",
            [("p50", "#3b82f6", _column(rows, "p50")), ("p99", "#f59e0b", _column(rows, "p99")),
             ("max", "#ef4444", _column(rows, "max"))],
        ),
        chart(
            "Throughput",
            "updates/s",
            [("offered", "#94a3b8", _column(rows, "offered")), ("delivered", "#3b82f6", _column(rows, "delivered")),
             ("answered", "#10b981", _column(rows, "answered"))],
        ),
        chart(
            "Errors and 429s",
            "calls/s",
            [("refused", "#ef4444", _column(rows, "errors")), ("429", "#f59e0b", _column(rows, "too_many")),
             ("webhook failures", "#8b5cf6", _column(rows, "webhook_failures"))],
        ),
        chart("Backlog", "pending updates", [("pending", "#0ea5e9", _column(rows, "backlog"))]),
        chart(
            "The stand", "% of a core / MB",
            [("cpu %", "#64748b", _column(rows, "cpu")), ("rss MB", "#a855f7", _column(rows, "rss_mb"))],
        ),
    ]  # fmt: skip
    totals = [
        ("offered", t.get("offered")), ("delivered", t.get("delivered")), ("answered", t.get("answered")),
        ("unanswered", t.get("unanswered")), ("latency p50 ms", lat.get("p50")), ("latency p90 ms", lat.get("p90")),
        ("latency p99 ms", lat.get("p99")), ("latency max ms", lat.get("max")), ("calls", t.get("calls_total")),
        ("refused", t.get("errors")), ("429s", t.get("too_many")), ("backlog max", t.get("backlog", {}).get("max")),
        ("webhook failures", t.get("webhook", {}).get("failures")),
        ("webhook retries", t.get("webhook", {}).get("retries")),
        ("stand cpu mean %", t.get("stand", {}).get("cpu_mean")),
        ("stand rss max MB", t.get("stand", {}).get("rss_max_mb")),
    ]  # fmt: skip
    calls = list(t.get("calls", {}).items())
    refusals = list(t.get("refusals", {}).items())
    bot = raw.get("bot", {})
    subtitle = (
        f"{settings.get('people')} people, {settings.get('groups')} groups, {settings.get('rate')} acts/s for "
        f"{raw.get('elapsed')} s (stopped by {report.stopped}); flood limits {'on' if settings.get('flood') else 'off'}"
        f"; bot @{bot.get('username', '')} by {'webhook' if bot.get('webhook') else 'polling'}"
    )
    return (
        "<!doctype html><html lang=en><head><meta charset=utf-8><title>tgfake load report</title>"
        f"<style>{STYLE}</style></head><body><h1>tgfake load report</h1>"
        f'<div class="muted">{html.escape(subtitle)}</div>'
        f'<h2>Totals</h2>{_table(totals)}<div class="charts">{"".join(charts)}</div>'
        f"<h2>Calls by method</h2>{_table(calls) if calls else '<p class=muted>none</p>'}"
        f"<h2>Refusals</h2>{_table(refusals) if refusals else '<p class=muted>none</p>'}"
        "</body></html>\n"
    )


def write_html(report: LoadReport, path: Path) -> None:
    path.write_text(render(report), encoding="utf-8")
