"""tgfake: a fake Telegram Bot API (plus a scripted OpenAI-compatible model) for testing bots offline."""

from __future__ import annotations

from importlib.metadata import PackageNotFoundError, version

try:
    __version__ = version("tgfake")
except PackageNotFoundError:  # running from a source tree that was never installed
    __version__ = "dev"

__all__ = ["__version__"]
