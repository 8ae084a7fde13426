"""Prometheus metrics kept in Redis, so every process (webhook, each worker, beat) adds to
the same numbers and any of them can serve /metrics with the whole system's view.

Counters are fields of one hash (HINCRBY), the press->prompt histogram is a hash of bucket
counts; a custom collector turns them into Prometheus families at scrape time.
"""

from __future__ import annotations

import bisect

import redis
from prometheus_client import CollectorRegistry, generate_latest
from prometheus_client.core import CounterMetricFamily, GaugeMetricFamily, HistogramMetricFamily

from workers.keys import Keys

LATENCY_BUCKETS = (0.025, 0.05, 0.1, 0.15, 0.25, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
LATENCY_SAMPLES = 10_000

# Counter names (fields of m:c) and their help text.
COUNTERS = {
    "commands": "Commands handled by the table logic",
    "moves_applied": "Moves applied to games",
    "api_calls": "Bot API requests made (the outbox, answers to presses, getChatMember)",
    "webhook_replies": "Methods the webhook put in its replies (answers to presses, the flood notice): no request",
    "answers_waited_out": "Presses the webhook stopped waiting for; the worker answered them with a request",
    "api_429": "Bot API answers 429 Too Many Requests",
    "api_errors": "Bot API calls that failed for another reason",
    "sent": "Outbox messages delivered (sends, edits, deletes)",
    "coalesced": "Slot updates replaced by a newer one before they were sent",
    "late_sends": "Sends that left 20 ms or more after their booked moment in the overall limit (the log moves them)",
    "sent_views": "Views delivered on the view lane (status, notes)",
    "superseded": "Views dropped unsent: the player's new turn message took over",
    "updates": "Webhook updates accepted",
    "queued": "Commands queued by the webhook",
    "ticks": "Reminder ticks queued by the beat",
    "updates_duplicate": "Webhook updates dropped as already seen",
    "handler_errors": "Commands whose table logic raised (answered with an error, skipped)",
    "bot_moves": "Moves the AI made at tables (bots, players who left)",
    "bot_commands": "Bot moves queued by the AI task on their table's route",
    "bot_think_ms": "Milliseconds the AI task spent deciding bots' moves",
}


def latency_bucket(seconds: float) -> str:
    i = bisect.bisect_left(LATENCY_BUCKETS, seconds)
    return repr(LATENCY_BUCKETS[i]) if i < len(LATENCY_BUCKETS) else "+Inf"


def observe_latency_ops(keys: Keys, seconds: float) -> list[tuple]:
    """Redis commands recording one press->prompt latency (for a pipeline)."""
    h = keys.m_hist("press_to_prompt")
    return [("HINCRBY", h, latency_bucket(seconds), 1), ("HINCRBYFLOAT", h, "sum", seconds),
            ("HINCRBY", h, "count", 1), ("LPUSH", keys.m_lat, round(seconds, 4)),
            ("LTRIM", keys.m_lat, 0, LATENCY_SAMPLES - 1)]


class RedisCollector:
    """Reads everything first, then yields: during a Redis outage the scrape still answers
    (200) with `bgb_redis_up 0` and none of the Redis-backed families. Not a 503 on purpose:
    Prometheus records a failed scrape as `up 0`, which would read "the bot is down" when
    only Redis is."""

    def __init__(self, r: redis.Redis, keys: Keys) -> None:
        self.r, self.k = r, keys

    def collect(self):
        try:
            families = list(self._families())
        except (redis.RedisError, OSError):
            families = []
        up = GaugeMetricFamily("bgb_redis_up", "1 when Redis answered this scrape, else 0")
        up.add_metric([], 1 if families else 0)
        yield up
        yield from families

    def _families(self):
        counters = self.r.hgetall(self.k.m_counters)
        for name, help_text in COUNTERS.items():
            fam = CounterMetricFamily(f"bgb_{name}", help_text)
            fam.add_metric([], float(counters.get(name, 0)))
            yield fam
        rejected = CounterMetricFamily("bgb_commands_rejected", "Commands refused, by reason", labels=["reason"])
        for name, value in counters.items():
            if name.startswith("rejected:"):
                rejected.add_metric([name.split(":", 1)[1]], float(value))
        yield rejected
        bad = CounterMetricFamily("bgb_bad_updates", "Updates dropped by the webhook, by reason (flood, "
                                  "too_large, too_deep, not_json, invalid)", labels=["reason"])
        for name, value in counters.items():
            if name.startswith("bad_update:"):
                bad.add_metric([name.split(":", 1)[1]], float(value))
        yield bad
        hist = self.r.hgetall(self.k.m_hist("press_to_prompt"))
        buckets, running = [], 0.0
        for bound in LATENCY_BUCKETS:
            running += float(hist.get(repr(bound), 0))
            buckets.append((repr(bound), running))
        buckets.append(("+Inf", running + float(hist.get("+Inf", 0))))
        h = HistogramMetricFamily("bgb_press_to_prompt_seconds",
                                  "Button press (webhook receipt) to the send of the next prompt")
        h.add_metric([], buckets, float(hist.get("sum", 0.0)))
        yield h
        g = GaugeMetricFamily("bgb_outbox_depth", "Messages waiting in the outbox, by lane", labels=["lane"])
        for lane, due, queue in (("prompt", self.k.ob_due, self.k.ob_q), ("view", self.k.ob_bdue, self.k.ob_bq)):
            depth = 0
            chats = self.r.zrange(due, 0, -1)
            if chats:
                pipe = self.r.pipeline(transaction=False)
                for chat in chats:
                    pipe.llen(queue(int(chat)))
                depth = sum(pipe.execute())
            g.add_metric([lane], depth)
        yield g
        live = GaugeMetricFamily("bgb_tables_live", "Tables open in a group (lobbies and games)")
        live.add_metric([], self.r.hlen(self.k.active))
        yield live
        bots = GaugeMetricFamily("bgb_bot_turns_pending", "Tables waiting on a bot's move (workers/ai.py)")
        bots.add_metric([], self.r.zcard(self.k.ai_due))
        yield bots


def render(r: redis.Redis, keys: Keys) -> bytes:
    registry = CollectorRegistry(auto_describe=False)
    registry.register(RedisCollector(r, keys))
    return generate_latest(registry)


def incr(r: redis.Redis, keys: Keys, name: str, amount: int = 1) -> None:
    r.hincrby(keys.m_counters, name, amount)
