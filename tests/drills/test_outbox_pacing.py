"""The outbox keeps to the global limit without leaving it unused: a short wait for the
shared bucket is slept by the sender, not bounced through a delayed task (which wakes late
and left the ceiling ~24% unused in `boardgamesbot bench`)."""

from __future__ import annotations

import time

import pytest

from tests.plumbing.conftest import FakeApi
from workers.config import Rate
from workers.outbox import Sender, plan_outbound
from workers.protocol import Outbound
from workers.store import Plan

pytestmark = pytest.mark.redis


def test_short_global_waits_are_slept_through_within_the_limit(store, drill_report):
    api = FakeApi(limits={"all": (20, 1.0)})
    sender = Sender(store, api, Rate(20, 1.0, 1), Rate(50, 1.0, 50), Rate(50, 1.0, 50))
    plan = Plan()
    for i in range(12):
        plan_outbound(store, plan, Outbound(chat_id=7, text=f"m{i}"), None, time.time())
    assert store.commit(plan) == 1
    started = time.monotonic()
    assert sender.send_chat(7) is None  # all sent in one call: no delayed task needed
    elapsed = time.monotonic() - started
    assert [p["text"] for _, m, p in api.calls] == [f"m{i}" for i in range(12)]
    assert api.violations == 0
    # 11 waits of one refill each (20/s less the margin): paced, never faster than the limit
    assert elapsed >= 11 / Rate(20, 1.0, 1).refill_per_second * 0.95
    drill_report(f"pacing: 12 messages through a 20/s bucket in {elapsed:.2f} s: 0 over the limit, 0 lost, 0 doubled")
