"""Settings of the plumbing, read from the environment once per process.

Everything has a default that works on the embedded default (`boardgamesbot local`), so only
production sets them: see README "Configuration".
"""

from __future__ import annotations

import os
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Rate:
    """At most `limit` sends in any window of `window` seconds (Telegram states its limits
    this way). Enforced by a token bucket of `burst` tokens refilled at
    (limit - burst + 1) / window per second, times `margin` (<1 keeps clear of clock skew
    between us and Telegram): with that refill no half-open window of `window` seconds can
    hold more than `limit` sends: `limit` + 1 sends span at least `limit` refills, window / margin
    seconds — the slack a send delayed on its way may use up. The per-chat, per-group and views'
    limits work so, at 0.95.

    The overall limit (30 a second, at 0.97: 31 ms of slack, 97% of the ceiling) is instead a
    sliding window of booked moments (workers/outbox.py): at most `limit` sends in any
    window / margin seconds, and at most `burst` in any burst / limit of that. A token bucket of
    one token spaced every send 34 ms apart even at half the ceiling, so a move's two messages,
    or two moves of different tables in the same few ms, queued behind each other: that queue
    was most of the press→prompt p99 (issue 14). The window lets 20 go at once and still holds
    Telegram's 30 a second (python-telegram-bot's own limiter lets 30 go at once); burst 1 is
    the old strict spacing. Burst 10 (10 in any 0.34 s) still queued the 11th send of a chance
    bunch at 15 sends a second — the embedded Trickerion p99's outbox part, 115–186 ms; at 20
    it was 58 ms, and the embedded ceiling kept 98% with no 429."""

    limit: int
    window: float
    burst: int = 1
    margin: float = 0.95

    @property
    def capacity(self) -> int:
        return max(1, min(self.burst, self.limit))

    @property
    def refill_per_second(self) -> float:
        return (self.limit - self.capacity + 1) / self.window * self.margin

    @property
    def span_ms(self) -> float:
        """The window as kept, in ms (window / margin): the overall limit's sliding window."""
        return self.window * 1000 / self.margin

    @classmethod
    def parse(cls, spec: str) -> Rate:
        """"20/60" (20 per 60 s), "20/60:4" (with a burst of 4), "30/1:20@0.97" (and a margin)."""
        spec, _, margin = spec.partition("@")
        head, _, burst = spec.partition(":")
        limit, _, window = head.partition("/")
        return cls(int(limit), float(window or 1), int(burst or 1), float(margin or 0.95))


@dataclass(frozen=True)
class ViewCredit:
    """The views' share of the bot's sending, earned by prompts: every prompt-lane send puts
    `per_send` view tokens in a bucket of `capacity`, which also refills by `per_second` on its
    own (so a bot with little to send still updates its groups); a view takes one token.
    Calls per move (what a bot token's 30 a second buys) are then at most
    prompt sends × (1 + per_send) + per_second × seconds, whatever the load: at a few moves a
    second the group's status is edited every few turns rather than every turn (its newest
    content wins), and a finished turn's note goes out late, after every group's status.
    "off" (per_send < 0): views take only the room BGB_RATE_VIEWS leaves."""

    per_send: float = 0.05
    capacity: int = 2
    per_second: float = 0.05

    @property
    def on(self) -> bool:
        return self.per_send >= 0

    @property
    def spec(self) -> str:
        return f"{self.per_send!r}:{self.capacity}:{self.per_second!r}" if self.on else "off"

    @classmethod
    def parse(cls, spec: str) -> ViewCredit:
        """"0.05:2:0.05" (per prompt send : capacity : per second), or "off"."""
        if spec.strip().lower() == "off":
            return cls(-1.0, 1, 0.0)
        per_send, _, rest = spec.partition(":")
        capacity, _, per_second = rest.partition(":")
        d = cls()
        return cls(float(per_send), int(capacity or d.capacity), float(per_second or d.per_second))


def _env(name: str, default: str) -> str:
    value = os.environ.get(name)
    return default if value is None or value == "" else value


@dataclass(frozen=True)
class Settings:
    redis_url: str = "redis://127.0.0.1:6379/0"
    prefix: str = "bgb:"
    token: str = ""
    api_base_url: str = "https://api.telegram.org"
    webhook_url: str = ""
    webhook_secret: str = ""
    webhook_path: str = "/webhook"
    handler: str = "workers.tables:handle"
    lease_ms: int = 10_000
    scan_interval: float = 2.0
    rate_global: Rate = field(default_factory=lambda: Rate(30, 1.0, 20, 0.97))
    rate_chat: Rate = field(default_factory=lambda: Rate(1, 1.0, 1))
    rate_group: Rate = field(default_factory=lambda: Rate(20, 60.0, 4))
    # What views (status, notes) may use of the bot's sending: they send only while all sends
    # together stay under it, so prompts keep the rest of Telegram's 30/s (workers/views.py).
    rate_views: Rate = field(default_factory=lambda: Rate(18, 1.0, 1))
    # ...and what prompts earn them: calls per move stay near one at any load (issue 14).
    view_credit: ViewCredit = field(default_factory=ViewCredit)
    # Threads per worker process that send the prompts its commands made (workers/runtime.py), so
    # the process goes on to its next command meanwhile; 0 = the command's own thread sends them.
    send_threads: int = 4
    metrics_port: int = 0  # worker's /metrics port; 0 = not served
    metrics_host: str = "127.0.0.1"  # the worker's /metrics address (compose: 0.0.0.0, not published)
    host: str = "127.0.0.1"  # `serve`: the webhook's address (behind a reverse proxy on this host)
    admin_host: str = "127.0.0.1"  # `serve`: /metrics and /healthz, never on the public port
    admin_port: int = 9080
    # Admission control per user in the webhook: a token bucket of `flood_burst` updates
    # refilled at `flood_rate` a second (a fast player presses about one a second: the
    # prompt they answer is redrawn at most once a second per chat).
    flood_burst: int = 10
    flood_rate: float = 3.0
    # How long the webhook waits for a queued press's verdict to answer it in its reply
    # (workers/answers.py); past it, the worker answers with a request.
    answer_wait_ms: int = 800
    finished_ttl_days: float = 30.0  # a finished table's key lives this long after its end
    archive_days: float = 365.0  # a finished game's record (/partidas, replay, export) lives this long
    archive_list: int = 100  # finished games kept in each person's and group's list
    admin_cache_seconds: int = 600
    http_timeout: float = 15.0
    # Bots (workers/ai.py): a bot moves no sooner than this many seconds after the group's status message
    # last changed, so a table of bots edits it at most every `bot_pace` seconds (3 s: Telegram's 20 a
    # minute in a group) and people can follow; 0 = at once (tests, benchmarks).
    bot_pace: float = 3.0

    @property
    def ai_queue(self) -> str:
        """The Celery queue of the AI's tasks (search), consumed by a worker pool of its own
        (`celery -A workers worker -Q bgb:ai`), so a person's press never waits behind a bot's thinking."""
        return f"{self.prefix}ai"

    @property
    def tasks_queue(self) -> str:
        """The queue of every other task (drains, sends, the beat's scan)."""
        return f"{self.prefix}tasks"
    anatomy: bool = False  # record when each step of a press happened (workers/anatomy.py; the bench)
    # This worker takes only the CPU nobody else wants (SCHED_IDLE, workers/priority.py): the AI's
    # pool, so a bot's search never delays a person's press on shared cores (compose sets it there).
    cpu_idle: bool = False

    @classmethod
    def from_env(cls) -> Settings:
        d = cls()
        return cls(
            redis_url=_env("REDIS_URL", d.redis_url),
            prefix=_env("BGB_PREFIX", d.prefix),
            token=_env("TELEGRAM_BOT_TOKEN", d.token),
            api_base_url=_env("BOT_API_BASE_URL", d.api_base_url).rstrip("/"),
            webhook_url=_env("WEBHOOK_URL", d.webhook_url),
            webhook_secret=_env("WEBHOOK_SECRET", d.webhook_secret),
            webhook_path=_env("BGB_WEBHOOK_PATH", d.webhook_path),
            handler=_env("BGB_HANDLER", d.handler),
            lease_ms=int(_env("BGB_LEASE_MS", str(d.lease_ms))),
            scan_interval=float(_env("BGB_SCAN_INTERVAL", str(d.scan_interval))),
            rate_global=Rate.parse(_env("BGB_RATE_GLOBAL", "30/1:20@0.97")),
            rate_chat=Rate.parse(_env("BGB_RATE_CHAT", "1/1:1")),
            rate_group=Rate.parse(_env("BGB_RATE_GROUP", "20/60:4")),
            rate_views=Rate.parse(_env("BGB_RATE_VIEWS", "18/1:1")),
            view_credit=ViewCredit.parse(_env("BGB_VIEW_CREDIT", ViewCredit().spec)),
            send_threads=int(_env("BGB_SEND_THREADS", str(d.send_threads))),
            metrics_port=int(_env("BGB_METRICS_PORT", "0")),
            metrics_host=_env("BGB_METRICS_HOST", d.metrics_host),
            host=_env("BGB_HOST", d.host),
            admin_host=_env("BGB_ADMIN_HOST", d.admin_host),
            admin_port=int(_env("BGB_ADMIN_PORT", str(d.admin_port))),
            flood_burst=int(_env("BGB_FLOOD_BURST", str(d.flood_burst))),
            flood_rate=float(_env("BGB_FLOOD_RATE", str(d.flood_rate))),
            answer_wait_ms=int(_env("BGB_ANSWER_WAIT_MS", str(d.answer_wait_ms))),
            finished_ttl_days=float(_env("BGB_FINISHED_TTL_DAYS", str(d.finished_ttl_days))),
            archive_days=float(_env("BGB_ARCHIVE_DAYS", str(d.archive_days))),
            archive_list=int(_env("BGB_ARCHIVE_LIST", str(d.archive_list))),
            admin_cache_seconds=int(_env("BGB_ADMIN_CACHE", str(d.admin_cache_seconds))),
            http_timeout=float(_env("BGB_HTTP_TIMEOUT", str(d.http_timeout))),
            bot_pace=float(_env("BGB_BOT_PACE", str(d.bot_pace))),
            anatomy=_env("BGB_ANATOMY", "0") == "1",
            cpu_idle=_env("BGB_CPU_IDLE", "0") == "1",
        )
