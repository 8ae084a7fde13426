"""The ASGI app: Bot API + control API + web chat, on one Starlette application."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable, Sequence

import httpx
from starlette.applications import Starlette
from starlette.routing import BaseRoute, Mount, Route
from starlette.staticfiles import StaticFiles

from emulator import control
from emulator.botapi import bot_endpoint
from emulator.config import EmulatorConfig
from emulator.delivery import deliver_forever
from emulator.world import World

Lifespan = Callable[[Starlette], contextlib.AbstractAsyncContextManager]


@contextlib.asynccontextmanager
async def emulator_running(app: Starlette) -> AsyncIterator[None]:
    """Start the emulator's background work (webhook delivery) on the serving loop.

    `create_app` installs this as the lifespan. An application that mounts the emulator's
    routes itself must enter it from its own lifespan: `async with emulator_running(app): ...`.
    """
    http = httpx.AsyncClient()
    app.state.http = http
    app.state.loop = asyncio.get_running_loop()
    task = asyncio.create_task(deliver_forever(app.state.world, http), name="emulator-webhook-delivery")
    try:
        yield
    finally:
        task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await task
        await http.aclose()


def routes() -> list[BaseRoute]:
    return [
        Route("/bot{token}/{method}", bot_endpoint, methods=["GET", "POST"]),
        *control.routes(),
        Mount("/_emulator/static", StaticFiles(directory=control.STATIC), name="emulator-static"),
    ]


def create_app(config: EmulatorConfig | None = None, *, extra_routes: Sequence[BaseRoute] = (),
               lifespan: Lifespan | None = None) -> Starlette:
    """The emulator as one ASGI app; `app.state.world` is its in-memory Telegram.

    `extra_routes` are served by the same app (matched before the emulator's own routes), and
    `lifespan`, if given, runs inside the emulator's: this is how `boardgamesbot local` puts
    its bot webhook next to the emulator on one port.
    """
    config = config or EmulatorConfig()

    @contextlib.asynccontextmanager
    async def both(app: Starlette) -> AsyncIterator[None]:
        async with emulator_running(app):
            if lifespan is None:
                yield
            else:
                async with lifespan(app):
                    yield

    app = Starlette(routes=[*extra_routes, *routes()], lifespan=both)
    app.state.world = World(config)
    app.state.config = config
    return app
