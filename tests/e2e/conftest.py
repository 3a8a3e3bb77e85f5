"""One local stand process for every e2e suite, as compose runs one stand for both example bots."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.e2e.compose_local import LocalStands


@pytest.fixture(scope="session")
def local_stands() -> Iterator[LocalStands]:
    stands = LocalStands()
    try:
        yield stands
    finally:
        stands.stop()
