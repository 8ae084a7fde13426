"""One emulator per test session (per xdist worker), reset before every test."""

from __future__ import annotations

import asyncio
import io

import httpx
import pytest
from PIL import Image
from telegram import Bot

from emulator import EmulatorConfig, EmulatorServer, Limits


@pytest.fixture(scope="session")
def server():
    # Flood control off by default so tests can send freely; the limits tests switch it on.
    config = EmulatorConfig(limits=Limits.off(), callback_wait=3.0, webhook_retry_initial=0.05,
                            webhook_retry_max=0.2, webhook_timeout=2.0)
    with EmulatorServer(config) as emu:
        yield emu


@pytest.fixture
def emu(server):
    server.control.reset()
    return server


def run_bot(emu, fn, **bot_kwargs):
    """Run `await fn(bot)` with python-telegram-bot's real Bot pointed at the emulator."""

    async def main():
        async with Bot(emu.token, base_url=emu.bot_api_url, **bot_kwargs) as bot:
            return await fn(bot)

    return asyncio.run(main())


def raw(emu, method: str, token: str | None = None, **params) -> tuple[int, dict]:
    """A Bot API call as a JSON body, to check Telegram's exact wording of errors."""
    response = httpx.post(f"{emu.bot_api_url}{token or emu.token}/{method}", json=params, timeout=10)
    return response.status_code, response.json()


def png(color: str = "red", size: tuple[int, int] = (40, 30)) -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", size, color).save(buffer, "PNG")
    return buffer.getvalue()


@pytest.fixture
def people(emu):
    """Ana and Bia (both have started the bot) in the group "Mesa"."""
    c = emu.control
    ana = c.create_user("Ana", "ana", "pt-br")
    bia = c.create_user("Bia", "bia")
    group = c.create_group("Mesa", [ana, bia])
    c.send(ana, ana, "/start")
    c.send(bia, bia, "/start")
    return {"ana": ana, "bia": bia, "group": group}
