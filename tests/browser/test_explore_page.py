"""The page ``tgfake explore --html`` writes, in Chromium: self-contained (it asks the network for nothing), the
findings listed, each opening to its steps, refused call and transcript drawn as chat bubbles; the coverage and the
map of states beside them. Its screenshot is docs/images/explore-report.png (rewritten with
``TGFAKE_SCREENSHOTS=update``)."""

from __future__ import annotations

import io
import os
import sys
import tempfile
from pathlib import Path
from typing import Any

from PIL import Image

from tgfake.explore import explore
from tgfake.explore.writers import write_html

BOT = str(Path(__file__).parents[1] / "explore" / "bots" / "plain_bot.py")
IMAGES = Path(__file__).parents[2] / "docs" / "images"


def test_the_report_page_shows_findings_transcripts_and_coverage(page: Any, tmp_path: Path) -> None:
    report = explore(
        [sys.executable, BOT],
        env={"PLANT": "markup_injection,dead_button"},
        reply_time=1.5,
        phases=("commands", "names", "buttons"),
        budget=40,
    )
    target = tmp_path / "report.html"
    write_html(report, target)
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url))
    page.goto(target.as_uri())
    assert asked == [target.as_uri()]  # nothing else: no script, style sheet or font from anywhere
    summaries = page.locator("details summary")
    assert sorted(summaries.all_inner_texts()) == sorted(f"{f.kind}{f.title}" for f in report.findings)
    injection = page.locator("details", has_text="markup_injection")
    injection.locator("summary").click()
    assert "Bad Request: can't parse entities" in injection.locator("table").inner_text()
    bubbles = injection.locator(".chat .msg")
    assert bubbles.count() >= 1
    assert "/start" in bubbles.first.inner_text()
    assert "distinct states" in page.locator("section", has_text="Coverage").inner_text()
    assert page.locator("section", has_text="Map of states").locator("li").count() == len(report.coverage.edges)
    folder = (
        IMAGES if os.environ.get("TGFAKE_SCREENSHOTS") == "update" else Path(tempfile.gettempdir()) / "tgfake-shots"
    )
    folder.mkdir(parents=True, exist_ok=True)
    image = Image.open(io.BytesIO(page.screenshot(animations="disabled"))).convert("RGB").quantize(colors=64)
    image.save(folder / "explore-report.png", optimize=True)  # a 64-colour palette keeps the repository small
