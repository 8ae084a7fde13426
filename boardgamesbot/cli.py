"""`boardgamesbot <command>`: each module in `boardgamesbot/commands/` adds one command.

A command module defines `NAME`, `HELP` and `register(parser)`; `register` sets
`parser.set_defaults(run=function)` where `function(args) -> int` is the exit code.
"""

from __future__ import annotations

import argparse
import importlib
import pkgutil

from boardgamesbot import commands


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="boardgamesbot", description="BoardGamesBot: board games in Telegram groups.")
    sub = parser.add_subparsers(dest="command", required=True)
    for info in sorted(pkgutil.iter_modules(commands.__path__), key=lambda m: m.name):
        module = importlib.import_module(f"boardgamesbot.commands.{info.name}")
        module.register(sub.add_parser(module.NAME, help=module.HELP, description=module.HELP))
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    return int(args.run(args) or 0)
