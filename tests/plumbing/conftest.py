"""Fixtures: a real Redis (REDIS_URL, as in CI) with a key prefix of its own per test, the
store, and a fake Bot API that records calls and enforces Telegram-like limits."""

from __future__ import annotations

import os
import threading
import time
import uuid
from collections import defaultdict, deque

import pytest
import redis

from workers.config import Rate, Settings
from workers.store import Store
from workers.telegram_api import ApiResult

REDIS_URL = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0")


def redis_or_skip() -> redis.Redis:
    r = redis.Redis.from_url(REDIS_URL, decode_responses=True, socket_connect_timeout=1)
    try:
        r.ping()
    except redis.RedisError as exc:
        pytest.skip(f"no Redis server at REDIS_URL={REDIS_URL} ({exc}); these tests need one")
    return r


def wipe(r: redis.Redis, prefix: str) -> None:
    for key in r.scan_iter(match=f"{prefix}*", count=1000):
        r.delete(key)


@pytest.fixture
def prefix():
    return f"t{uuid.uuid4().hex[:10]}:"


@pytest.fixture
def settings(prefix) -> Settings:
    return Settings(redis_url=REDIS_URL, prefix=prefix, token="1:x", lease_ms=2000,
                    handler="tests.plumbing.fake_tables:handle")


@pytest.fixture
def store(settings):
    r = redis_or_skip()
    yield Store(r, settings)
    wipe(r, settings.prefix)
    r.close()


class FakeApi:
    """Records Bot API calls; sends get increasing message ids per chat; optional faults
    (method -> list of ApiResult to return first) and sliding-window limits that answer 429."""

    def __init__(self, limits: dict[str, tuple[int, float]] | None = None) -> None:
        self.calls: list[tuple[float, str, dict]] = []
        self.faults: dict[str, deque] = defaultdict(deque)
        self.messages: dict[int, dict[int, dict]] = defaultdict(dict)
        self.next_id: dict[int, int] = defaultdict(lambda: 100)
        self.limits = limits or {}
        self.windows: dict[tuple, deque] = defaultdict(deque)
        self.violations = 0
        self.lock = threading.Lock()

    def _limited(self, chat_id: int, now: float) -> float:
        checks = [("chat", chat_id), ("all",)] + ([("group", chat_id)] if chat_id < 0 else [])
        wait = 0.0
        for key in checks:
            if key[0] not in self.limits:
                continue
            count, period = self.limits[key[0]]
            w = self.windows[key]
            while w and w[0] <= now - period:
                w.popleft()
            if len(w) >= count:
                wait = max(wait, w[0] + period - now)
        if wait:
            return wait
        for key in checks:
            if key[0] in self.limits:
                self.windows[key].append(now)
        return 0.0

    def call(self, method: str, params: dict, files=None) -> ApiResult:
        with self.lock:
            now = time.monotonic()
            self.calls.append((now, method, dict(params)))
            if self.faults[method]:
                return self.faults[method].popleft()
            chat = int(params.get("chat_id", 0))
            if method not in ("answerCallbackQuery", "getChatMember") and self._limited(chat, now):
                self.violations += 1
                return ApiResult(ok=False, error_code=429, description="Too Many Requests: retry after 1",
                                 retry_after=1)
            if method in ("sendMessage", "sendPhoto"):
                self.next_id[chat] += 1
                mid = self.next_id[chat]
                self.messages[chat][mid] = {"text": params.get("text") or params.get("caption"), "edits": 0}
                return ApiResult(ok=True, result={"message_id": mid})
            if method.startswith("edit"):
                msg = self.messages[chat].get(int(params["message_id"]))
                if msg is None:
                    return ApiResult(ok=False, error_code=400, description="Bad Request: message to edit not found")
                new = params.get("text") or params.get("caption") or (params.get("media") or {}).get("caption")
                if new == msg["text"] and method != "editMessageMedia":
                    return ApiResult(ok=False, error_code=400, description="Bad Request: message is not modified")
                msg["text"], msg["edits"] = new, msg["edits"] + 1
                return ApiResult(ok=True, result=True)
            if method == "deleteMessage":
                if self.messages[chat].pop(int(params["message_id"]), None) is None:
                    return ApiResult(ok=False, error_code=400, description="Bad Request: message to delete not found")
                return ApiResult(ok=True, result=True)
            return ApiResult(ok=True, result=True)

    def methods(self) -> list[str]:
        return [m for _, m, _ in self.calls]


def fast_rates() -> tuple[Rate, Rate, Rate]:
    return Rate(30, 1.0, 5), Rate(50, 1.0, 5), Rate(50, 1.0, 5)
