"""`boardgamesbot emulator`: a local Telegram (Bot API + control API + web chat) on one port.

    boardgamesbot emulator [--host 127.0.0.1] [--port 8081] [--token TOKEN] [--limits ...]

Point the bot at http://HOST:PORT/bot (python-telegram-bot's base_url) and open
http://HOST:PORT/ in a browser. See docs/emulator.md.
"""

from __future__ import annotations

import argparse

import uvicorn

from emulator import DEFAULT_TOKEN, EmulatorConfig, Limits, create_app

NAME = "emulator"
HELP = "Run a local Telegram Bot API emulator with a web chat (no Telegram account, no internet)."


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, default=8081)
    parser.add_argument("--token", default=DEFAULT_TOKEN, help=f"the only token accepted (default {DEFAULT_TOKEN})")
    parser.add_argument("--bot-username", default=None, help="the bot's @username (default BoardGamesLocalBot)")
    parser.add_argument("--per-chat", default=None, metavar="N/SECONDS", help="flood limit per chat (default 3/3)")
    parser.add_argument("--per-group", default=None, metavar="N/SECONDS", help="flood limit per group (default 20/60)")
    parser.add_argument("--overall", default=None, metavar="N/SECONDS", help="flood limit overall (default 30/1)")
    parser.add_argument("--no-limits", action="store_true", help="switch flood control off")
    parser.add_argument("--no-privacy", action="store_true", help="let the bot see every group message")
    parser.set_defaults(run=run)


def config_from(args: argparse.Namespace) -> EmulatorConfig:
    limits = Limits.off() if args.no_limits else Limits()
    changes = {k: v for k, v in (("per_chat", args.per_chat), ("per_group", args.per_group),
                                 ("overall", args.overall)) if v is not None}
    config = EmulatorConfig(token=args.token, limits=limits.updated(changes), privacy_mode=not args.no_privacy)
    if args.bot_username:
        config.bot_username = args.bot_username.lstrip("@")
    return config


def run(args: argparse.Namespace) -> int:
    config = config_from(args)
    base = f"http://{args.host}:{args.port}"
    print(f"Web chat:      {base}/")
    print(f"Bot API:       {base}/bot<token>/<method>   (python-telegram-bot base_url={base}/bot)")
    print(f"Token:         {config.token}   bot @{config.bot_username}")
    print(f"Control API:   {base}/_emulator/...   (docs/emulator.md)")
    uvicorn.run(create_app(config), host=args.host, port=args.port, log_level="warning", timeout_graceful_shutdown=2)
    return 0
