"""Faults during a real game (distributed mode): the worker process killed with -9 at
random moments, and Telegram answering 429 with retry_after — in one game, to keep the
suite short. Afterwards: the game finished, every queued command was handled exactly once,
the 429s were waited out, nothing was sent twice, and the saved match replays."""

from __future__ import annotations

import random
import signal
import threading
import time

import pytest

from bench import driver
from boardgamesbot.commands.local import stop_processes
from rulesets.core import load_match, replay, state_hash
from tests.integration.stack import distributed, redis_url_or_skip
from tests.integration.test_e2e import FAST_RATES, _check_transcripts, _play
from workers.store import decode_doc

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(600)]


def _fast_limits():
    from emulator import Limits

    return Limits().updated({"per_chat": "20/1", "per_group": "60/60"})


def _exactly_once(stack) -> dict:
    def settled():
        c = stack.counters()
        done = c.get("commands") == c.get("queued", 0) + c.get("ticks", 0)
        return c if done and not stack.redis.scard(f"{stack.prefix}pending") else None

    return driver.wait_for(settled, 60, "every queued command handled exactly once")


def test_kill_9_and_429s_mid_game_lose_nothing_and_double_nothing(tmp_path):
    url = redis_url_or_skip()
    rng = random.Random(5)
    kills: list[float] = []
    injected: list[int] = []
    events = [(6, "429", {"count": 2, "retry_after": 2, "method": "editMessageText"}),
              (12, "kill", None),
              (20, "429", {"count": 1, "retry_after": 1, "chat_id": None}),
              (35, "kill", None),
              (50, "429", {"count": 2, "retry_after": 2, "method": "editMessageText"}),
              (65, "kill", None)]
    with distributed(url, tmp_path, rates=FAST_RATES, limits=_fast_limits()) as stack:

        def kill_soon():
            time.sleep(rng.uniform(0.0, 0.05))  # somewhere inside the next command's handling
            stop_processes([stack.procs[0]], sig=signal.SIGKILL)
            kills.append(time.monotonic())
            time.sleep(0.5)
            stack.restart_worker()

        def between(run):
            if events and run.presses >= events[0][0]:
                _, what, fault = events.pop(0)
                if what == "kill":
                    threading.Thread(target=kill_soon, daemon=True).start()
                else:
                    if "chat_id" in fault:
                        fault = {**fault, "chat_id": stack.group}
                    stack.control.fault(429, **fault)
                    injected.append(fault["count"])

        run = _play(stack, seed=21, timeout=400, press_wait=3.0, between=between)
        assert len(kills) == 3 and len(injected) == 3
        _check_transcripts(stack)
        counters = _exactly_once(stack)
        assert counters["commands"] >= run.presses
        # The 429s: each one answered once by the emulator, seen by the outbox, waited out.
        stats = stack.control.stats()
        assert int(stats["errors"].get("429", 0)) == sum(injected) == counters.get("api_429")
        # Nothing doubled: the group never shows the same bot message twice in a row.
        texts = [m.get("text") or m.get("caption") for m in stack.control.messages(stack.group)
                 if m["from_bot"] and not m["deleted"]]
        assert all(a != b for a, b in zip(texts, texts[1:], strict=False))
        # What was saved is a consistent game: its log replays to the same state.
        doc = decode_doc(stack.redis.hget(f"{stack.prefix}table:{run.table_id}", "doc"))
        match = load_match(doc["match"])
        assert state_hash(replay(match)) == state_hash(match)
        print(f"\nfault drill: {len(kills)} kills, {sum(injected)} 429s injected, {run.presses} presses, "
              f"{counters['commands']} commands handled once each")
