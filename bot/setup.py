"""Telling Telegram about the bot: the webhook (with its secret) and the command lists
shown in the "/" menu, in pt-BR (also the default for other languages) and English."""

from __future__ import annotations

import locales
from workers.telegram_api import ApiResult, BotApi

COMMANDS = ("novojogo", "status", "ajuda", "regras", "carta", "historico", "jogos", "partidas", "ranking",
            "estatisticas", "exportar", "lembrar", "desfazer", "sair", "cancelar", "idioma")


def command_list(lang: str) -> list[dict[str, str]]:
    return [{"command": c, "description": locales.text(f"bot.cmd.{c}", lang)} for c in COMMANDS]


# The webhook holds a press's request until its verdict (at most BGB_ANSWER_WAIT_MS), so it asks
# Telegram for the most connections it delivers over (1-100, default 40): others' updates never
# wait for a free one.
MAX_CONNECTIONS = 100


def register(api: BotApi, webhook_url: str, secret: str) -> list[ApiResult]:
    """setWebhook + setMyCommands (default, pt, en). Returns each call's result."""
    results = [api.call("setWebhook", {"url": webhook_url, "secret_token": secret, "max_connections": MAX_CONNECTIONS,
                                       "allowed_updates": ["message", "callback_query"]})]
    results.append(api.call("setMyCommands", {"commands": command_list("pt_BR")}))
    results.append(api.call("setMyCommands", {"commands": command_list("pt_BR"), "language_code": "pt"}))
    results.append(api.call("setMyCommands", {"commands": command_list("en"), "language_code": "en"}))
    return results
