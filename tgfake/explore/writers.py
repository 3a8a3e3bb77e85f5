"""What ``tgfake explore`` writes besides its summary: a pytest file (``--tests``) and one HTML page (``--html``)."""

from __future__ import annotations

import html
import json
import os
import pprint
import re
from pathlib import Path

from tgfake.explore.findings import KINDS, Finding, Report

TRANSCRIPT_LINE = re.compile(r"^\[(\d+)\] ([^:]+): (.*)$")


def _name(n: int, finding: Finding) -> str:
    words = re.sub(r"[^a-z0-9]+", "_", finding.title.lower()).strip("_")[:50].rstrip("_")
    return f"test_{n:02d}_{finding.kind}_{words}"


def pytest_source(report: Report, cwd: str | None = None) -> str:
    """A pytest module with one test per finding: each replays the finding's steps on a fresh session and fails
    while the bot still shows the bug (``tgfake.explore.replay``)."""
    head = f'''"""Tests written by `tgfake explore` (seed {report.seed}): one per finding.

Each starts the bot on a fresh session of a stand, replays the steps that showed the finding and asserts the bug is
gone: it fails while the bot has it and passes once it is fixed. BOT_CMD overrides the bot's command. A flood
finding's test starts its stand with Telegram's flood limits (on TGFAKE_URL, that stand's own setting counts).
"""

from __future__ import annotations

import os
import shlex

from tgfake.explore import replay
from tgfake.options import Options

BOT = shlex.split(os.environ["BOT_CMD"]) if os.environ.get("BOT_CMD") else {report.command!r}
CWD = {cwd or os.getcwd()!r}
REPLY_TIME = {report.reply_time!r}
SLOW_REPLY = {report.slow_reply!r}
FLOOD_LIMITS = Options(flood_control=True)
'''
    parts = [head]
    for n, finding in enumerate(report.findings, 1):
        steps = pprint.pformat([s.json() for s in finding.steps], width=110, sort_dicts=False)
        steps = "\n".join("    " + line if i else line for i, line in enumerate(steps.splitlines()))
        flood = ", options=FLOOD_LIMITS" if finding.kind == "flood" else ""
        parts.append(f'''

def {_name(n, finding)}() -> None:
    """{finding.kind}: {_doc(finding.title)}"""
    steps = {steps}
    still = replay(BOT, steps, {finding.kind!r}, reply_time=REPLY_TIME, slow_reply=SLOW_REPLY, cwd=CWD{flood})
    assert not still, still[0].title
''')
    return "".join(parts)


def _doc(text: str) -> str:
    return text.replace("\\", "\\\\").replace('"""', "'''")[:200]


def write_tests(report: Report, path: Path, cwd: str | None = None) -> None:
    path.write_text(pytest_source(report, cwd))


# --- the page -----------------------------------------------------------------------------------------------------
STYLE = """
body{font:14px/1.45 system-ui,sans-serif;margin:0;background:#eef1f5;color:#1c2430}
header{background:#2b5278;color:#fff;padding:14px 24px}header h1{margin:0;font-size:20px}
header p{margin:4px 0 0;opacity:.85}
main{display:grid;grid-template-columns:minmax(0,2fr) minmax(260px,1fr);gap:20px;padding:20px 24px}
section{background:#fff;border-radius:10px;padding:14px 18px;box-shadow:0 1px 3px #0002}
h2{font-size:16px;margin:0 0 10px}
details{border-top:1px solid #e3e7ee;padding:8px 0}details:first-of-type{border-top:0}
summary{cursor:pointer;font-weight:600}
.kind{display:inline-block;font:12px monospace;background:#fde2e1;color:#9b1c1c;border-radius:4px;padding:1px 6px;
margin-right:6px}
.chat{background:#dfe9f3;border-radius:8px;padding:10px;margin:8px 0;display:flex;flex-direction:column;gap:6px}
.msg{max-width:80%;padding:6px 10px;border-radius:10px;white-space:pre-wrap;word-break:break-word;background:#fff}
.msg.me{align-self:flex-end;background:#e1ffc7}.msg .who{font-size:11px;color:#5b6b7c;display:block}
.kb{font-size:12px;color:#2b5278}
pre{background:#f6f8fa;border-radius:6px;padding:8px;overflow:auto;font-size:12px;max-height:320px}
table{border-collapse:collapse;width:100%}td,th{text-align:left;padding:3px 6px;border-bottom:1px solid #eee}
.ok{color:#1d7a38;font-weight:600}ol.steps{padding-left:20px;margin:4px 0}ol.steps code{font-size:12px}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _chat(transcript: str) -> str:
    """The transcript drawn as chat bubbles: the bot's messages left, the people's right, keyboards under them."""
    out: list[str] = []
    for line in transcript.splitlines():
        match = TRANSCRIPT_LINE.match(line)
        if match:
            who = match.group(2)
            mine = "me" if who not in ("bot",) and not who.endswith("bot") else ""
            out.append(
                f'<div class="msg {mine}"><span class="who">{_e(who)} · {match.group(1)}</span>'
                f"{_e(match.group(3)[:600])}"
            )
            out.append("</div>")
        elif line.startswith("    ") and out:
            out.insert(len(out) - 1, f'<div class="kb">{_e(line.strip()[:300])}</div>')
        elif line.strip():
            out.append(f'<div class="kb">{_e(line.strip())}</div>')
    return f'<div class="chat">{"".join(out)}</div>'


def _finding(n: int, f: Finding) -> str:
    steps = "".join(f"<li><code>POST {_e(s.json()['path'])} {_e(_body(s.body))}</code></li>" for s in f.steps)
    calls = "".join(
        f"<tr><td>{_e(c.method)}</td><td>{c.status}</td><td>{_e(c.description)}</td>"
        f"<td><code>{_e(_body(c.params))}</code></td></tr>"
        for c in f.calls
    )
    parts = [
        f'<details id="f{n}"><summary><span class="kind">{_e(f.kind)}</span>{_e(f.title)}</summary>',
        f'<p>{_e(KINDS[f.kind])}.</p><h3>Steps from a fresh session</h3><ol class="steps">{steps}</ol>',
    ]
    if calls:
        parts.append(
            "<h3>Refused calls</h3><table><tr><th>method</th><th>status</th><th>description</th>"
            f"<th>parameters</th></tr>{calls}</table>"
        )
    if f.output:
        parts.append(f"<h3>The bot's output</h3><pre>{_e(f.output)}</pre>")
    if f.transcript:
        parts.append(f"<h3>Transcript (chat {f.chat_id})</h3>{_chat(f.transcript)}")
    parts.append("</details>")
    return "".join(parts)


def _body(body: dict[str, object]) -> str:
    shown = {k: (v if len(str(v)) <= 60 else f"{str(v)[:57]}…") for k, v in body.items()}
    return json.dumps(shown, ensure_ascii=False)


def page(report: Report) -> str:
    """One self-contained page (no script, no network): findings, each with its transcript and refused calls, the
    map of states and the coverage."""
    cov = report.coverage
    findings = "".join(_finding(n, f) for n, f in enumerate(report.findings, 1))
    if not findings:
        findings = '<p class="ok">No findings.</p>'
    states = {s["index"]: s for s in cov.states}
    edges = "".join(
        f"<li>{_e(e['via'])} → <b>{_e(_clip(states.get(e['to'], {}).get('text', '')))}</b> "
        f"{_e(' '.join('[' + b + ']' for b in states.get(e['to'], {}).get('buttons', [])))}</li>"
        for e in cov.edges
    )
    figures = [
        ("actions", cov.actions),
        ("commands tried", len(cov.commands)),
        ("buttons tapped", len(cov.buttons)),
        ("reply buttons pressed", len(cov.reply_buttons)),
        ("distinct states", len(cov.states)),
        ("seconds", f"{cov.seconds:.1f}"),
        ("mode", report.mode),
        ("seed", report.seed),
    ]
    rows = "".join(f"<tr><th>{_e(k)}</th><td>{_e(v)}</td></tr>" for k, v in figures)
    title = f"tgfake explore: {len(report.findings)} findings"
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{_e(title)}</title>
<meta name="viewport" content="width=device-width, initial-scale=1"><style>{STYLE}</style></head>
<body><header><h1>{_e(title)}</h1><p>{_e(" ".join(report.command))}</p></header>
<main><section><h2>Findings</h2>{findings}</section>
<div><section><h2>Coverage</h2><table>{rows}</table>
<p>Commands: {_e(", ".join(cov.commands))}</p></section>
<section style="margin-top:20px"><h2>Map of states</h2><ul>{edges}</ul></section></div></main></body></html>
"""


def _clip(text: str, n: int = 50) -> str:
    one = " ".join(str(text).split())
    return one if len(one) <= n else one[: n - 1] + "…"


def write_html(report: Report, path: Path) -> None:
    path.write_text(page(report))
