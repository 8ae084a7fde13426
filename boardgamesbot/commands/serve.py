"""`boardgamesbot serve`: the webhook in production, with uvicorn.

Configured by the environment (README "Configuration"):
    TELEGRAM_BOT_TOKEN   the bot's token
    WEBHOOK_URL          the public HTTPS address Telegram posts to (its path is served)
    WEBHOOK_SECRET       the secret Telegram echoes in X-Telegram-Bot-Api-Secret-Token
    REDIS_URL            state and Celery broker (the workers use the same)
    BOT_API_BASE_URL     Telegram (default) or a local Bot API server / the emulator
    BGB_HOST             the webhook's address (default 127.0.0.1: a reverse proxy on this
                         host forwards the webhook path; compose sets 0.0.0.0 in the container)
    BGB_ADMIN_HOST/PORT  /metrics and /healthz (default 127.0.0.1:9080), never on the public port
At start it registers the webhook and the pt-BR/en command lists, then serves until stopped.
Workers and beat run separately: `celery -A workers worker` and `celery -A workers beat`.
"""

from __future__ import annotations

import argparse
import dataclasses
import logging
import socket
import sys
from urllib.parse import urlparse

import uvicorn

NAME = "serve"
HELP = "Serve the Telegram webhook (production); workers run with `celery -A workers worker`."


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default=None, help="the webhook's address (default BGB_HOST or 127.0.0.1)")
    parser.add_argument("--port", type=int, default=8080)
    parser.add_argument("--admin-host", default=None,
                        help="/metrics and /healthz (default BGB_ADMIN_HOST or 127.0.0.1)")
    parser.add_argument("--admin-port", type=int, default=None, help="default BGB_ADMIN_PORT or 9080")
    parser.add_argument("--no-register", action="store_true",
                        help="do not call setWebhook/setMyCommands (another instance does it)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    from bot import create_app
    from bot.app import split_by_port
    from bot.setup import register as register_bot
    from workers.config import Settings
    from workers.heap import freeze_startup
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
    host = args.host or settings.host
    admin_host = args.admin_host or settings.admin_host
    admin_port = args.admin_port if args.admin_port is not None else settings.admin_port
    if admin_port == args.port:
        print("the admin port must differ from the webhook's", file=sys.stderr)
        return 2
    sockets = [_bind(host, args.port), _bind(admin_host, admin_port)]
    log.info("webhook on %s:%d%s, metrics and health on %s:%d", host, args.port, settings.webhook_path,
             admin_host, admin_port)
    # log_config=None: uvicorn's own lines go through the JSON logging set up above.
    config = uvicorn.Config(split_by_port(create_app(settings), admin_port), log_level="warning", access_log=False,
                            proxy_headers=True, log_config=None)
    freeze_startup()  # what startup built, out of the collector's full passes (workers/heap.py)
    uvicorn.Server(config).run(sockets=sockets)
    return 0


def _bind(host: str, port: int) -> socket.socket:
    sock = socket.socket(socket.AF_INET6 if ":" in host else socket.AF_INET, socket.SOCK_STREAM)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    sock.bind((host, port))
    return sock


def _explicit_path() -> bool:
    import os

    return bool(os.environ.get("BGB_WEBHOOK_PATH"))
