"""The two thin drivers (urllib and aiohttp) and the descriptor that makes one description serve both clients.

A client method is written once, as a function of the :class:`~tgfake.testing.core.Core` that returns an operation
(:data:`~tgfake.testing.core.Op`), and declared with :class:`op` in a class of methods. Read from a sync client it is
a plain method returning the operation's result; from an async client, the same method returning an awaitable of it.
The types follow (``ParamSpec``): ``StandClient.send(...)`` is ``Sent``, ``AsyncStandClient.send(...)``
``Awaitable[Sent]``, with the same parameters.
"""

from __future__ import annotations

import asyncio
import functools
import inspect
import json
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Awaitable, Callable
from typing import Any, Concatenate, Generic, ParamSpec, Self, TypeVar, overload

import aiohttp

from tgfake.testing.core import Core, Local, Op, Req, Resp

P = ParamSpec("P")
R = TypeVar("R")
T = TypeVar("T")


def _url(base: str, req: Req) -> str:
    url = base + req.path
    if req.query:
        url += "?" + urllib.parse.urlencode(req.query)
    return url


def _payload(req: Req) -> bytes | None:
    if req.raw_body is not None:
        return req.raw_body
    if req.body is not None:
        return json.dumps(req.body).encode()
    return None


class SyncDriver:
    """Runs operations with blocking urllib requests."""

    def __init__(self, base_url: str) -> None:
        self.base = base_url.rstrip("/")

    def run(self, op: Op[T]) -> T:
        try:
            step = next(op)
            while True:
                step = op.send(step.fn() if isinstance(step, Local) else self.fetch(step))
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    def fetch(self, req: Req) -> Resp:
        data = _payload(req)
        r = urllib.request.Request(_url(self.base, req), data=data, method=req.verb)
        if data is not None:
            r.add_header("Content-Type", "application/json")
        try:
            with urllib.request.urlopen(r, timeout=req.timeout) as f:
                return Resp(f.status, f.read().decode())
        except urllib.error.HTTPError as e:
            with e:
                return Resp(e.code, e.read().decode())


class AsyncDriver:
    """Runs operations with aiohttp (its own session unless one is given)."""

    def __init__(self, base_url: str, session: aiohttp.ClientSession | None) -> None:
        self.base = base_url.rstrip("/")
        self._session = session
        self._own = session is None

    async def session(self) -> aiohttp.ClientSession:
        if self._session is None:
            self._session = aiohttp.ClientSession()
        return self._session

    async def close(self) -> None:
        if self._own and self._session is not None:
            await self._session.close()
            self._session = None

    async def run(self, op: Op[T]) -> T:
        try:
            step = next(op)
            while True:
                if isinstance(step, Local):
                    got = await asyncio.to_thread(step.fn) if step.blocking else step.fn()
                    step = op.send(await got if inspect.isawaitable(got) else got)
                else:
                    step = op.send(await self.fetch(step))
        except StopIteration as stop:
            return stop.value  # type: ignore[no-any-return]

    async def fetch(self, req: Req) -> Resp:
        s = await self.session()
        data = _payload(req)
        headers = {"Content-Type": "application/json"} if data is not None else None
        async with s.request(
            req.verb,
            _url(self.base, req),
            data=data,
            headers=headers,
            timeout=aiohttp.ClientTimeout(total=req.timeout),
        ) as r:
            return Resp(r.status, await r.text())


class SyncBase:
    """What a sync client holds: the core (state) and a blocking driver."""

    _core: Core
    _driver: SyncDriver


class AsyncBase:
    """What an async client holds: the core (state) and an aiohttp driver."""

    _core: Core
    _driver: AsyncDriver


class op(Generic[P, R]):  # a decorator, like property
    """A client method written once: ``fn(core, ...)`` returns the operation; sync clients run it, async ones await it.

    Declared in a class of methods that both :class:`SyncBase` and :class:`AsyncBase` clients inherit.
    """

    def __init__(self, fn: Callable[Concatenate[Core, P], Op[R]]) -> None:
        self.fn = fn
        self.__doc__ = fn.__doc__
        self.__name__ = fn.__name__
        whole = inspect.signature(fn)
        self.__signature__ = whole.replace(parameters=list(whole.parameters.values())[1:])  # without the core

    @overload
    def __get__(self, obj: None, owner: type[Any]) -> Self: ...

    @overload
    def __get__(self, obj: SyncBase, owner: type[Any]) -> Callable[P, R]: ...

    @overload
    def __get__(self, obj: AsyncBase, owner: type[Any]) -> Callable[P, Awaitable[R]]: ...

    def __get__(self, obj: object, owner: type[Any]) -> Any:
        if obj is None:
            return self
        fn = self.fn
        if isinstance(obj, AsyncBase):
            core, adriver = obj._core, obj._driver

            async def awaited(*args: Any, **kwargs: Any) -> Any:
                return await adriver.run(fn(core, *args, **kwargs))

            return self._dressed(awaited)
        if isinstance(obj, SyncBase):
            core, driver = obj._core, obj._driver

            def run(*args: Any, **kwargs: Any) -> Any:
                return driver.run(fn(core, *args, **kwargs))

            return self._dressed(run)
        raise TypeError(f"{self.__name__} is a method of a stand client, not of {type(obj).__name__}")

    def _dressed(self, method: Callable[..., Any]) -> Callable[..., Any]:
        """The bound method with the description's name, docstring and signature (less the core), for help()."""
        functools.update_wrapper(method, self.fn)
        del method.__wrapped__  # type: ignore[attr-defined]
        method.__signature__ = self.__signature__  # type: ignore[attr-defined]
        return method
