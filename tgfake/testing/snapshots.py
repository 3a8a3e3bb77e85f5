"""Transcript snapshots: a chat's transcript (and the bot's calls) kept in a file beside the test.

``tgfake.assert_snapshot()`` compares the normalised text with ``__tgfake_snapshots__/<test>.txt`` in the test
file's directory. The first run writes the file, and so does every run with ``--tgfake-snapshot-update``; a
mismatch fails with a unified diff. The pytest plugin says which test is running (:func:`begin`); a test's second
snapshot is ``<test>.2.txt`` (or the ``name`` it gives). A parametrized test's cases are files of their own
(``test_x[a].txt``), so xdist workers never write the same file.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tgfake.normalise import call_lines

__all__ = ["SNAPSHOT_DIR", "SnapshotError", "begin", "calls_of", "check", "normal_transcript", "snapshot_text"]

SNAPSHOT_DIR = "__tgfake_snapshots__"
_CALLS = "--- the bot's calls ---"
_NOISE = frozenset({"getUpdates", "getMe", "deleteWebhook", "getWebhookInfo", "sendChatAction", "sendMessageDraft"})
_MESSAGE_ID = re.compile(r"^\[(\d+)\]", re.MULTILINE)
_DATE = re.compile(r"\b\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2}(?:\.\d+)?)?(?:Z|[+-]\d{2}:?\d{2})?\b|\b1[6-9]\d{8}\b")
_UNSAFE = re.compile(r"[^\w.\-\[\],=+@]")  # what may not stay in a file name on every system


class SnapshotError(RuntimeError):
    """A snapshot asked for outside a pytest test (the plugin names the test)."""


@dataclass
class _Current:
    directory: Path | None = None
    test: str = ""
    update: bool = False
    taken: dict[str, int] = field(default_factory=dict)


_CURRENT = _Current()


def begin(test_file: Path, test_name: str, *, update: bool) -> None:
    """The pytest plugin's word that ``test_name`` of ``test_file`` runs now (``update``: rewrite snapshots)."""
    _CURRENT.directory = test_file.parent / SNAPSHOT_DIR
    _CURRENT.test = test_name
    _CURRENT.update = update
    _CURRENT.taken = {}


def normal_transcript(text: str) -> str:
    """A transcript with its message ids numbered from 1 in order of appearance and its dates as ``<date>``."""
    numbers: dict[str, int] = {}

    def renumber(found: re.Match[str]) -> str:
        return f"[{numbers.setdefault(found.group(1), len(numbers) + 1)}]"

    text = _MESSAGE_ID.sub(renumber, text)
    return _DATE.sub("<date>", text).rstrip("\n") + "\n"


def snapshot_text(transcript: str, calls: Iterable[Mapping[str, Any]] | None = None) -> str:
    """What a snapshot holds: the normalised transcript and, when given, the bot's calls one per line (the polling
    loop, typing and drafts left out: their number follows the pace)."""
    text = normal_transcript(transcript)
    if calls is not None:
        text += f"{_CALLS}\n" + "".join(f"{line}\n" for line in call_lines(calls, ignore_methods=_NOISE))
    return text


def _file_name(test: str, name: str | None) -> str:
    if name is not None:
        stem = f"{test}.{name}"
    else:
        count = _CURRENT.taken[test] = _CURRENT.taken.get(test, 0) + 1
        stem = test if count == 1 else f"{test}.{count}"
    return _UNSAFE.sub("_", stem)[:200] + ".txt"


def check(text: str, name: str | None = None) -> Path:
    """Compare ``text`` with the current test's snapshot (writing it the first time or when updating); raises
    ``AssertionError`` with a unified diff on a mismatch. Returns the snapshot's path."""
    if _CURRENT.directory is None:
        raise SnapshotError("assert_snapshot() runs inside a pytest test with the tgfake plugin (it names the file)")
    path = _CURRENT.directory / _file_name(_CURRENT.test, name)
    if _CURRENT.update or not path.exists():
        path.parent.mkdir(parents=True, exist_ok=True)
        temporary = path.with_name(f"{path.name}.{id(text)}.tmp")
        temporary.write_text(text, encoding="utf-8")
        temporary.replace(path)
        return path
    kept = path.read_text(encoding="utf-8")
    if kept != text:
        diff = difflib.unified_diff(kept.splitlines(), text.splitlines(), f"{path} (kept)", "this run", lineterm="")
        raise AssertionError(
            f"the chat differs from its snapshot {path.name} (run with --tgfake-snapshot-update to accept it):\n"
            + "\n".join(diff)
        )
    return path


def calls_of(outbox: Iterable[Any]) -> list[dict[str, Any]]:
    """Calls read by the client (:class:`~tgfake.testing.values.Call`) as the method and parameters compared."""
    return [{"method": call.method, "params": dict(call.params)} for call in outbox]
