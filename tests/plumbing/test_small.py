"""Small pieces: rate specs, JSON log lines, the bot's command lists."""

from __future__ import annotations

import io
import json
import logging

from bot.setup import COMMANDS, command_list
from workers import logs
from workers.config import Rate, Settings


def test_rate_specs_and_their_refill_never_exceed_the_window():
    r = Rate.parse("20/60:4")
    assert (r.limit, r.window, r.capacity) == (20, 60.0, 4)
    # a full bucket plus what refills within one window stays within the limit
    assert r.capacity + r.refill_per_second * r.window - 1 <= r.limit
    assert Rate.parse("1/1").refill_per_second < 1
    assert Rate.parse("30/1:1").refill_per_second >= 28  # 95% of Telegram's overall ceiling
    overall = Rate.parse("30/1:20@0.97")  # the default: 97% of it, 31 ms of slack, 20 at once
    # a sliding window (workers/outbox.py): 30 in any 1.031 s, 29.1 a second kept up
    assert overall == Settings().rate_global and 29 < overall.limit * 1000 / overall.span_ms < 29.2
    assert overall.span_ms / 1000 - overall.window >= 0.03


def test_settings_come_from_the_environment(monkeypatch):
    monkeypatch.setenv("REDIS_URL", "redis://example:6379/3")
    monkeypatch.setenv("BGB_RATE_CHAT", "3/3:2")
    monkeypatch.setenv("BOT_API_BASE_URL", "http://127.0.0.1:8081/")
    s = Settings.from_env()
    assert s.redis_url == "redis://example:6379/3" and s.rate_chat == Rate(3, 3.0, 2)
    assert s.api_base_url == "http://127.0.0.1:8081"


def test_log_lines_are_json_with_the_table():
    out = io.StringIO()
    handler = logging.StreamHandler(out)
    handler.setFormatter(logs.JsonFormatter())
    logger = logging.getLogger("test.json")
    logger.addHandler(handler)
    logger.setLevel(logging.INFO)
    logger.propagate = False
    with logs.table_context("abc123"):
        logger.info("moved %s", "x", extra={"chat": 5})
    logger.info("outside")
    first, second = (json.loads(line) for line in out.getvalue().splitlines())
    assert first["table"] == "abc123" and first["msg"] == "moved x" and first["chat"] == 5
    assert second["table"] is None and second["level"] == "info"


def test_command_lists_in_both_languages():
    pt, en = command_list("pt_BR"), command_list("en")
    assert [c["command"] for c in pt] == [c["command"] for c in en] == list(COMMANDS)
    assert all(1 <= len(c["description"]) <= 256 for c in pt + en)
    assert pt[0]["description"] != en[0]["description"]


def test_the_webhook_asks_for_all_the_connections_telegram_gives():
    """A press's request is held until its verdict, so Telegram may deliver over 100 at once."""
    from bot.setup import register
    from workers.telegram_api import ApiResult

    class Recorder:
        def __init__(self):
            self.calls = []

        def call(self, method, params, files=None):
            self.calls.append((method, params))
            return ApiResult(ok=True, result=True)

    api = Recorder()
    register(api, "https://bot.example.org/telegram", "s3cret")
    method, params = api.calls[0]
    assert method == "setWebhook" and params["max_connections"] == 100 and params["secret_token"] == "s3cret"
    assert params["allowed_updates"] == ["message", "callback_query"]
