"""Package data is read when the stand starts: reinstalling the package under a running stand (its files removed
and written again) must not turn the chat page or the Bot API into a 500."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path

import pytest

import tgfake

SOURCE = Path(tgfake.__file__).resolve().parent
LLMSTUB = SOURCE.parent / "llmstub"


@pytest.fixture
def copied_stand(tmp_path: Path) -> Iterator[tuple[str, Path]]:
    """A stand run from a copy of the package; yields its origin and the copy's directory."""
    for package in (SOURCE, LLMSTUB):
        shutil.copytree(package, tmp_path / package.name, ignore=shutil.ignore_patterns("__pycache__"))
    proc = subprocess.Popen(
        [sys.executable, "-m", "tgfake", "--addr", "127.0.0.1:0", "--poll-max", "1s"],
        cwd=tmp_path,
        env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin", "PYTHONDONTWRITEBYTECODE": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    first = proc.stdout.readline()
    try:
        if " at http://127.0.0.1:" not in first:
            proc.kill()
            pytest.fail(f"the copied stand did not start: {first!r} {proc.communicate()[1]}")
        yield first.rstrip("\n").split(" at ", 1)[1], tmp_path / "tgfake"
    finally:
        proc.kill()
        proc.communicate()


def get(url: str) -> tuple[int, bytes]:
    try:
        with urllib.request.urlopen(url, timeout=10) as resp:
            return resp.status, resp.read()
    except urllib.error.HTTPError as refused:
        return refused.code, refused.read()


def test_the_page_and_the_bot_api_outlive_their_files(copied_stand: tuple[str, Path]) -> None:
    origin, package = copied_stand
    page = package / "page.html"
    expected = page.read_bytes()
    page.unlink()
    (package / "botapi" / "schema.json").unlink()
    assert not page.exists()
    assert get(origin + "/") == (200, expected)
    status, body = get(origin + "/bot1:x/sendMessage?chat_id=4242&text=still+here")
    assert status == 200
    assert json.loads(body)["result"]["text"] == "still here"
    status, body = get(origin + "/bot1:x/sendMessage?chat_id=4242")  # the parameter table still checks
    assert (status, json.loads(body)["description"]) == (400, "Bad Request: message text is empty")
