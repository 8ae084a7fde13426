"""`boardgamesbot serve`: the webhook in production, with uvicorn.

Configured by the environment (README "Configuration"):
    TELEGRAM_BOT_TOKEN   the bot's token
    WEBHOOK_URL          the public HTTPS address Telegram posts to (its path is served)
    WEBHOOK_SECRET       the secret Telegram echoes in X-Telegram-Bot-Api-Secret-Token
    REDIS_URL            state and Celery broker (the workers use the same)
    BOT_API_BASE_URL     Telegram (default) or a local Bot API server / the emulator
At start it registers the webhook and the pt-BR/en command lists, then serves until stopped.
Workers and beat run separately: `celery -A workers worker` and `celery -A workers beat`.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import sys
from urllib.parse import urlparse

import uvicorn

NAME = "serve"
HELP = "Serve the Telegram webhook (production); workers run with `celery -A workers worker`."


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="0.0.0.0")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--no-register", action="store_true",
                        help="do not call setWebhook/setMyCommands (another instance does it)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bot import create_app
    from bot.setup import register as register_bot
    from workers.config import Settings
    from workers.logs import setup as setup_logs
    from workers.telegram_api import BotApi

    setup_logs()
    log = logging.getLogger("serve")
    settings = Settings.from_env()
    missing = [name for name, value in (("TELEGRAM_BOT_TOKEN", settings.token),
                                        ("WEBHOOK_SECRET", settings.webhook_secret)) if not value]
    if not args.no_register and not settings.webhook_url:
        missing.append("WEBHOOK_URL")
    if missing:
        print(f"missing configuration: {', '.join(missing)} (see README, Configuration)", file=sys.stderr)
        return 2
    if settings.webhook_url and not _explicit_path():
        settings = dataclasses.replace(settings, webhook_path=urlparse(settings.webhook_url).path or "/webhook")
    if not args.no_register:
        for res in register_bot(BotApi(settings.api_base_url, settings.token), settings.webhook_url,
                                settings.webhook_secret):
            if not res.ok:
                log.error("registration failed: %s %s", res.error_code, res.description)
                return 1
        log.info("webhook registered at %s", settings.webhook_url)
    # log_config=None: uvicorn's own lines go through the JSON logging set up above.
    uvicorn.run(create_app(settings), host=args.host, port=args.port, log_level="warning", access_log=False,
                proxy_headers=True, log_config=None)
    return 0


def _explicit_path() -> bool:
    import os

    return bool(os.environ.get("BGB_WEBHOOK_PATH"))
