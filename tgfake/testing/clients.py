"""The two clients: each is a thin driver over the one description (:class:`PersonMethods`, :class:`WorldMethods`,
:class:`ReadingMethods`), so a method added there is a method of both."""

from __future__ import annotations

import aiohttp

from tgfake.testing.business import BusinessMethods
from tgfake.testing.channels import ChannelMethods
from tgfake.testing.core import Core
from tgfake.testing.drivers import AsyncBase, AsyncDriver, SyncBase, SyncDriver
from tgfake.testing.exploring import ExploreMethods
from tgfake.testing.person import PersonMethods
from tgfake.testing.reading import ModelMethods, ReadingMethods
from tgfake.testing.values import DEFAULT_TIMEOUT
from tgfake.testing.world import WorldMethods


class ModelClient(SyncBase, ModelMethods):
    """The scripted model's sim routes (``--llm``), sync: ``tgfake.model.log()``."""

    def __init__(self, core: Core, driver: SyncDriver) -> None:
        self._core = core
        self._driver = driver


class AsyncModelClient(AsyncBase, ModelMethods):
    """The scripted model's sim routes (``--llm``), async: ``await atgfake.model.log()``."""

    def __init__(self, core: Core, driver: AsyncDriver) -> None:
        self._core = core
        self._driver = driver


class _Addresses:
    url: str

    @property
    def bot_api_url(self) -> str:
        """``base_url`` for python-telegram-bot (it appends the token and method)."""
        return f"{self.url}/bot"

    @property
    def openai_base_url(self) -> str:
        return f"{self.url}/v1"


class StandClient(
    SyncBase,
    _Addresses,
    PersonMethods,
    WorldMethods,
    ChannelMethods,
    ReadingMethods,
    BusinessMethods,
    ExploreMethods,
):
    """A test's handle on a stand, over HTTP: act as people, wait for the bot, read what it did.

    ``url`` is the stand's origin (``http://127.0.0.1:18790``). Replies are matched in order: each
    ``expect_reply`` consumes the bot's next message in the chat.
    """

    def __init__(self, url: str, *, timeout: float = DEFAULT_TIMEOUT) -> None:
        self.url = url.rstrip("/")
        self._core = Core(timeout, self.url)
        self._driver = SyncDriver(self.url)
        self.model = ModelClient(self._core, self._driver)

    def retarget(self, url: str) -> None:
        """Talk to another stand from now on (a test that switched to a stand of its own)."""
        self.url = url.rstrip("/")
        self._driver.base = self.url
        self._core.url = self.url
        self._core.forget()

    @property
    def last_chat(self) -> int | None:
        return self._core.last_chat

    @property
    def last_tap(self) -> tuple[int, str, int] | None:
        return self._core.last_tap


class AsyncStandClient(
    AsyncBase,
    _Addresses,
    PersonMethods,
    WorldMethods,
    ChannelMethods,
    ReadingMethods,
    BusinessMethods,
    ExploreMethods,
):
    """:class:`StandClient` for async tests; the same methods, awaited. Close it (or use ``async with``)."""

    def __init__(
        self, url: str, *, timeout: float = DEFAULT_TIMEOUT, session: aiohttp.ClientSession | None = None
    ) -> None:
        self.url = url.rstrip("/")
        self._core = Core(timeout, self.url)
        self._driver = AsyncDriver(self.url, session)
        self.model = AsyncModelClient(self._core, self._driver)

    async def __aenter__(self) -> AsyncStandClient:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.close()

    async def close(self) -> None:
        await self._driver.close()

    def share_reading(self, other: StandClient) -> None:
        """Read replies from where ``other`` (the sync client of the same test) has read them, and vice versa."""
        self._core.cursor = other._core.cursor

    @property
    def last_chat(self) -> int | None:
        return self._core.last_chat

    @property
    def last_tap(self) -> tuple[int, str, int] | None:
        return self._core.last_tap
