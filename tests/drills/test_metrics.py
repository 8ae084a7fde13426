"""The operators' view issue 5 asks for, as a scrape of /metrics shows it: moves applied, the
press->prompt latency histogram, commands rejected by reason, outbox depth by lane, 429s and the
tables live — each family present with the value the system recorded."""

from __future__ import annotations

import time

import pytest

from workers import metrics
from workers.outbox import plan_outbound
from workers.protocol import Outbound
from workers.store import Plan

pytestmark = pytest.mark.redis


def _value(body: str, name: str) -> float:
    line = next(x for x in body.splitlines() if x.startswith(name + " ") or x.startswith(name + "{"))
    return float(line.rsplit(" ", 1)[1])


def test_metrics_cover_what_operators_watch(store):
    r, k = store.r, store.k
    for name, amount in (("moves_applied", 7), ("rejected:stale", 3), ("rejected:forged", 2), ("api_429", 1)):
        r.hincrby(k.m_counters, name, amount)
    pipe = r.pipeline()
    for seconds in (0.03, 0.2, 0.7):
        for op in metrics.observe_latency_ops(k, seconds):
            pipe.execute_command(*op)
    pipe.execute()
    plan = Plan()
    for i in range(3):
        plan_outbound(store, plan, Outbound(chat_id=5, text=f"m{i}"), None, time.time())
    plan_outbound(store, plan, Outbound(chat_id=-100, table_id="aaaa", slot="status", text="s", background=True),
                  None, time.time())
    assert store.commit(plan) == 1
    r.hset(k.active, mapping={"-100": "aaaa", "-101": "bbbb"})

    body = metrics.render(r, k).decode()
    assert _value(body, "bgb_moves_applied_total") == 7
    assert 'bgb_commands_rejected_total{reason="stale"} 3.0' in body
    assert 'bgb_commands_rejected_total{reason="forged"} 2.0' in body
    assert _value(body, "bgb_api_429_total") == 1
    assert 'bgb_outbox_depth{lane="prompt"} 3.0' in body and 'bgb_outbox_depth{lane="view"} 1.0' in body
    assert _value(body, "bgb_tables_live") == 2
    assert 'bgb_press_to_prompt_seconds_bucket{le="0.05"} 1.0' in body
    assert 'bgb_press_to_prompt_seconds_bucket{le="0.25"} 2.0' in body
    assert 'bgb_press_to_prompt_seconds_bucket{le="+Inf"} 3.0' in body
    assert _value(body, "bgb_press_to_prompt_seconds_count") == 3
