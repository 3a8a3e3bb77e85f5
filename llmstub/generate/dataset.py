"""The dataset builder command: ``python -m llmstub.generate.dataset build conversations.json out.sqlite``.

The dataset itself (schema, matching rules) lives in :mod:`.conversations`; this module is only the
command line, so that ``python -m`` runs it without the package having imported it first.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

from .conversations import EXAMPLE_SOURCE, Dataset, DatasetError, build

__all__ = ["EXAMPLE_SOURCE", "Dataset", "DatasetError", "build", "main"]


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m llmstub.generate.dataset build conversations.json out.sqlite``."""
    parser = argparse.ArgumentParser(
        prog="python -m llmstub.generate.dataset", description="Build tgfake datasets for random mode."
    )
    commands = parser.add_subparsers(dest="command", required=True)
    build_cmd = commands.add_parser("build", help="build a dataset from a JSON list of conversations")
    build_cmd.add_argument("source", type=Path, help="JSON file: a list of conversations")
    build_cmd.add_argument("out", type=Path, help="SQLite file to write (replaced if present)")
    args = parser.parse_args(argv)
    try:
        conversations = json.loads(args.source.read_text(encoding="utf-8"))
        count = build(conversations, args.out)
    except (OSError, json.JSONDecodeError, DatasetError) as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    print(f"wrote {count} conversations to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
