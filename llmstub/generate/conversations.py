"""SQLite datasets of conversations for random mode, and the command that builds them.

A dataset answers a prompt it has seen with one of its recorded responses: the conversation before
the answer is tokenized (:mod:`.tokens`) and hashed, and looked up by that hash. Schema (version 1)::

    CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
        -- ('schema', '1'), ('tokenizer', 'tgfake-regex-v1')
    CREATE TABLE conversations (
        id INTEGER PRIMARY KEY,
        prompt_hash TEXT NOT NULL,          -- conversation_hash() of the messages before the answer
        prompt TEXT NOT NULL,               -- those messages as JSON, for people reading the file
        response TEXT NOT NULL,             -- the assistant's answer
        response_tokens INTEGER NOT NULL    -- count_tokens(response), > 0
    );

Build one from JSON with ``python -m llmstub.generate.dataset build conversations.json out.sqlite``
(:mod:`.dataset`, kept apart so ``python -m`` does not import it twice).
"""

from __future__ import annotations

import json
import random
import sqlite3
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from .text import take_tokens
from .tokens import TOKENIZER_NAME, count_tokens, hash_tokens, tokenize

SCHEMA_VERSION = "1"
EXAMPLE_SOURCE = Path(__file__).parent / "data" / "example-conversations.json"
"""The tiny example dataset's JSON source, shipped with the package."""

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE conversations (
    id INTEGER PRIMARY KEY,
    prompt_hash TEXT NOT NULL,
    prompt TEXT NOT NULL,
    response TEXT NOT NULL,
    response_tokens INTEGER NOT NULL CHECK (response_tokens > 0)
);
CREATE INDEX conversations_by_hash ON conversations (prompt_hash, response_tokens);
CREATE INDEX conversations_by_length ON conversations (response_tokens);
"""


class DatasetError(Exception):
    """The file is not a usable dataset, or a JSON source cannot be turned into one."""


def message_text(content: Any) -> str:
    """The text of a chat message's ``content``: a string, or the text parts of a part list joined."""
    if isinstance(content, str):
        return content
    if isinstance(content, Sequence):
        parts = [
            part["text"]
            for part in content
            if isinstance(part, Mapping) and part.get("type") == "text" and isinstance(part.get("text"), str)
        ]
        return " ".join(parts)
    return ""


def conversation_hash(messages: Sequence[Mapping[str, Any]]) -> str:
    """The lookup key of a conversation: its roles and content tokens, whitespace-insensitive.

    A legacy completion prompt is the conversation ``[{"role": "user", "content": prompt}]``.
    """
    tokens: list[str] = []
    for message in messages:
        tokens.append(f"<{message.get('role', '')}>")
        tokens.extend(tokenize(message_text(message.get("content"))))
    return hash_tokens(tokens)


def pad_tokens(tokens: list[str], rng: random.Random, target: int) -> list[str]:
    """``tokens`` extended with predefined text to exactly ``target`` tokens (unchanged if long enough)."""
    missing = target - len(tokens)
    if missing <= 0:
        return tokens
    padded = [*tokens[:-1], tokens[-1] + " "] if tokens else []
    return padded + take_tokens(rng, missing)


class Dataset:
    """A read-only dataset file; queries are indexed and cheap enough to run on the event loop."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        if not self.path.is_file():
            raise DatasetError(f"dataset {str(self.path)!r} does not exist")
        uri = self.path.resolve().as_uri() + "?mode=ro"
        try:
            self._db = sqlite3.connect(uri, uri=True, check_same_thread=False)
            meta = dict(self._db.execute("SELECT key, value FROM meta").fetchall())
            (rows,) = self._db.execute("SELECT COUNT(*) FROM conversations").fetchone()
        except sqlite3.DatabaseError as exc:
            raise DatasetError(f"{str(self.path)!r} is not a tgfake dataset: {exc}") from exc
        if meta.get("tokenizer") != TOKENIZER_NAME or meta.get("schema") != SCHEMA_VERSION:
            self._db.close()
            raise DatasetError(
                f"{str(self.path)!r} was built for tokenizer {meta.get('tokenizer')!r} schema "
                f"{meta.get('schema')!r}; rebuild it with `python -m llmstub.generate.dataset build`"
            )
        if rows == 0:
            self._db.close()
            raise DatasetError(f"dataset {str(self.path)!r} has no conversations")
        self.size: int = rows

    def close(self) -> None:
        self._db.close()

    def _pick(self, rng: random.Random, where: str, args: tuple[object, ...]) -> str | None:
        (count,) = self._db.execute(f"SELECT COUNT(*) FROM conversations WHERE {where}", args).fetchone()
        if count == 0:
            return None
        row = self._db.execute(
            f"SELECT response FROM conversations WHERE {where} ORDER BY id LIMIT 1 OFFSET ?",
            (*args, rng.randrange(count)),
        ).fetchone()
        return str(row[0])

    def choose(
        self, rng: random.Random, prompt_hash: str, *, target: int, cap: int, ignore_eos: bool
    ) -> list[str]:
        """The answer tokens for a prompt (seed 000's dataset rules).

        ``target`` is the sampled length (``cap`` with ignore_eos), ``cap`` the most the window allows.
        Hit: a random match at least ``target`` long, trimmed to it; else a random (shorter) match,
        padded to ``target`` with predefined text only when ``ignore_eos``. Miss: a random response of
        at most ``cap`` tokens (padded to ``target`` with ignore_eos); if none is that short, a random
        one trimmed to ``target``.
        """
        chosen = self._pick(rng, "prompt_hash = ? AND response_tokens >= ?", (prompt_hash, target))
        if chosen is not None:
            return tokenize(chosen)[:target]
        chosen = self._pick(rng, "prompt_hash = ?", (prompt_hash,))
        if chosen is None:
            chosen = self._pick(rng, "response_tokens <= ?", (cap,))
        if chosen is None:
            chosen = self._pick(rng, "1 = 1", ())
            assert chosen is not None  # a dataset is never empty (checked at open)
            return tokenize(chosen)[:target]
        tokens = tokenize(chosen)
        return pad_tokens(tokens, rng, target) if ignore_eos else tokens


def _rows(conversations: Any) -> list[tuple[str, str, str, int]]:
    if not isinstance(conversations, list):
        raise DatasetError("the JSON source must be a list of conversations")
    rows: list[tuple[str, str, str, int]] = []
    for number, item in enumerate(conversations):
        where = f"conversation {number}"
        if isinstance(item, Mapping) and isinstance(item.get("prompt"), str):
            response = item.get("response")
            if not isinstance(response, str):
                raise DatasetError(f"{where}: 'prompt' needs a string 'response'")
            turns: list[tuple[list[Mapping[str, Any]], str]] = [
                ([{"role": "user", "content": item["prompt"]}], response)
            ]
        elif isinstance(item, Mapping) and isinstance(item.get("messages"), list):
            messages = item["messages"]
            if not all(isinstance(m, Mapping) and isinstance(m.get("role"), str) for m in messages):
                raise DatasetError(f"{where}: every message needs a string 'role'")
            turns = [
                (messages[:i], message_text(m.get("content")))
                for i, m in enumerate(messages)
                if m["role"] == "assistant" and i > 0
            ]
        else:
            raise DatasetError(
                f"{where}: expected {{'messages': [...]}} or {{'prompt': ..., 'response': ...}}"
            )
        for prompt, response in turns:
            tokens = count_tokens(response)
            if tokens == 0:
                continue
            rows.append((conversation_hash(prompt), json.dumps(prompt, ensure_ascii=False), response, tokens))
    if not rows:
        raise DatasetError("the JSON source holds no assistant answer with text")
    return rows


def build(conversations: Any, out: str | Path) -> int:
    """Write a dataset from decoded JSON conversations to ``out`` (replaced); returns its row count.

    Each ``{"messages": [...]}`` yields one row per non-empty assistant message, keyed by the messages
    before it; each ``{"prompt": ..., "response": ...}`` yields one row keyed as a single user message.
    """
    rows = _rows(conversations)
    out = Path(out)
    tmp = out.with_name(out.name + ".tmp")
    tmp.unlink(missing_ok=True)
    db = sqlite3.connect(tmp)
    try:
        db.executescript(_SCHEMA)
        db.executemany(
            "INSERT INTO meta VALUES (?, ?)", [("schema", SCHEMA_VERSION), ("tokenizer", TOKENIZER_NAME)]
        )
        db.executemany(
            "INSERT INTO conversations (prompt_hash, prompt, response, response_tokens) VALUES (?, ?, ?, ?)",
            rows,
        )
        db.commit()
    finally:
        db.close()
    tmp.replace(out)
    return len(rows)
