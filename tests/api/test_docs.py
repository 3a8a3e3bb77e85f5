"""The docs stay true to the code: every modelled method has its section in docs/bot-api.md, and no other.

Refusal-only methods are described by family and listed in the generated coverage table (tests/api/test_schema.py).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

from tgfake.botapi import lookup, method_names

ROOT = Path(__file__).resolve().parents[2]


def test_every_method_is_documented() -> None:
    text = (ROOT / "docs" / "bot-api.md").read_text()
    documented = sorted(re.findall(r"^### (\w+)$", text, flags=re.MULTILINE))
    modelled = []
    for name in method_names():
        handler = lookup(name)
        assert handler is not None
        if not getattr(sys.modules[handler.__module__], "REFUSAL_ONLY", False):
            modelled.append(name)
    assert documented == modelled


def test_readme_opens_with_the_two_commands() -> None:
    text = (ROOT / "README.md").read_text()
    block = text.split("```sh\n", 1)[1].split("```", 1)[0].splitlines()
    assert block == ["pip install . && tgfake", "pip install -e '.[test]' && python -m pytest"]
