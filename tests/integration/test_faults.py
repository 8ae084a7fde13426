"""Faults during a real game: the worker killed with -9, and Telegram answering 429."""

from __future__ import annotations

import json
import random
import signal
import threading
import time

import pytest

from boardgamesbot.commands.local import stop_processes
from rulesets.core import load_match, replay, state_hash
from tests.integration import driver
from tests.integration.stack import distributed, redis_url_or_skip
from tests.integration.test_e2e import FAST_RATES, _check_transcripts, _play

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]


def _fast_limits():
    from emulator import Limits

    return Limits().updated({"per_chat": "20/1", "per_group": "60/60"})


def _exactly_once(stack) -> dict:
    def settled():
        c = stack.counters()
        done = c.get("commands") == c.get("queued", 0) + c.get("ticks", 0)
        return c if done and not stack.redis.scard(f"{stack.prefix}pending") else None

    return driver.wait_for(settled, 60, "every queued command handled exactly once")


def _replays(stack, table_id: str) -> None:
    doc = json.loads(stack.redis.hget(f"{stack.prefix}table:{table_id}", "doc"))
    match = load_match(doc["match"])
    assert state_hash(replay(match)) == state_hash(match)


def test_killing_the_worker_mid_game_loses_nothing(tmp_path):
    url = redis_url_or_skip()
    rng = random.Random(5)
    kills: list[int] = []
    with distributed(url, tmp_path, rates=FAST_RATES, limits=_fast_limits()) as stack:

        def kill_soon():
            time.sleep(rng.uniform(0.0, 0.05))  # somewhere inside the next command's handling
            stop_processes([stack.procs[0]], sig=signal.SIGKILL)
            kills.append(1)
            time.sleep(0.5)
            stack.restart_worker()

        thresholds = [8, 25, 45, 70]

        def between(run):
            if thresholds and run.presses >= thresholds[0]:
                thresholds.pop(0)
                threading.Thread(target=kill_soon, daemon=True).start()

        run = _play(stack, seed=21, timeout=400, press_wait=3.0, between=between)
        assert len(kills) == 4
        _check_transcripts(stack)
        counters = _exactly_once(stack)
        assert counters["commands"] >= run.presses
        _replays(stack, run.table_id)


def test_429s_are_waited_out_and_nothing_is_lost_or_sent_twice(tmp_path):
    url = redis_url_or_skip()
    with distributed(url, tmp_path, rates=FAST_RATES, limits=_fast_limits()) as stack:
        injected = []
        plan = [(5, {"count": 2, "retry_after": 2, "method": "editMessageText"}),
                (15, {"count": 1, "retry_after": 1, "chat_id": stack.group}),
                (30, {"count": 2, "retry_after": 2, "method": "editMessageText"})]

        def between(run):
            if plan and run.presses >= plan[0][0]:
                fault = plan.pop(0)[1]
                stack.control.fault(429, **fault)
                injected.append(fault["count"])

        run = _play(stack, seed=22, timeout=400, between=between)
        _check_transcripts(stack)
        _exactly_once(stack)
        stats = stack.control.stats()
        assert int(stats["errors"].get("429", 0)) == sum(injected)
        assert stack.counters().get("api_429") == sum(injected)
        # Nothing doubled: the group shows each one-off once, in order, and no slot twice.
        texts = [m.get("text") or m.get("caption") for m in stack.control.messages(stack.group)
                 if m["from_bot"] and not m["deleted"]]
        assert all(a != b for a, b in zip(texts, texts[1:], strict=False))
        _replays(stack, run.table_id)
