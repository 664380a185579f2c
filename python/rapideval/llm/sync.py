"""Sync calls of async code: the one policy of the package, for the judge runtime and the judged metrics."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Awaitable, Callable
from typing import Any, Protocol, TypeVar

T = TypeVar("T")


class _LoopConnections(Protocol):
    async def aclose_connections(self) -> None: ...


def run_sync(make: Callable[[], Awaitable[T]], *clients: _LoopConnections | None) -> T:
    """Run the coroutine ``make()`` to completion from sync code, then close the connections that the loop
    opened for each client (judge, embedder): with ``asyncio.run`` when no event loop runs in this thread,
    else on a private loop in a worker thread (Jupyter, an async app), this thread waiting for it."""

    async def main() -> T:
        try:
            return await make()
        finally:
            for client in {id(c): c for c in clients if c is not None}.values():
                await client.aclose_connections()

    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return asyncio.run(main())
    box: dict[str, Any] = {}

    def target() -> None:
        try:
            box["value"] = asyncio.run(main())
        except BaseException as e:  # re-raised in the caller's thread
            box["error"] = e

    worker = threading.Thread(target=target, name="rapideval-sync")
    worker.start()
    worker.join()
    if "error" in box:
        raise box["error"]
    value: T = box["value"]
    return value
