"""A local Telegram: the Bot API (as python-telegram-bot calls it), a control API and a web chat.

    from emulator import EmulatorServer
    with EmulatorServer() as emu:                     # a free port, the default token
        bot = telegram.Bot(emu.token, base_url=emu.bot_api_url)
        user = emu.control.create_user("Ana")

`create_app(config)` gives the same thing as an ASGI app to serve or extend (docs/emulator.md).
"""

from emulator.app import create_app, emulator_running
from emulator.config import DEFAULT_BOT_USERNAME, DEFAULT_TOKEN, EmulatorConfig, Limit, Limits
from emulator.server import ControlAPIError, ControlClient, EmulatorServer

__all__ = [
    "DEFAULT_BOT_USERNAME", "DEFAULT_TOKEN", "ControlAPIError", "ControlClient", "EmulatorConfig", "EmulatorServer",
    "Limit", "Limits", "create_app", "emulator_running",
]
