"""Bots through the whole pipeline — emulator, webhook, the Celery worker, the AI's own worker pool,
the beat and Redis (distributed mode, as compose.yaml runs it):

- issue 16's "a whole 4-bot Trickerion game plays through the Telegram pipeline": Ana opens a table,
  seats four fácil bots and starts it without sitting herself (ruling in docs/telegram.md: the group
  watches a table of bots), and the game plays to its final scores;
- a bot's turn is computed on the AI's queue only (it waits while no worker consumes that queue), every
  move is committed once although its task is delivered many times over, and killing the AI worker
  with -9 mid-game loses nothing (the beat wakes the pending turn again)."""

from __future__ import annotations

import signal
import threading
import time

import pytest

from bench import driver
from bench.bots import open_bot_table
from boardgamesbot.commands.local import stop_processes
from rulesets.core import load_match, replay, state_hash
from tests.integration.stack import distributed, redis_url_or_skip
from tests.integration.test_e2e import FAST_LIMITS, FAST_RATES
from workers.store import decode_doc

pytestmark = [pytest.mark.redis, pytest.mark.slow, pytest.mark.timeout(1200)]

BOT_RATES = {**FAST_RATES, "BGB_BOT_PACE": "0"}  # bots move at once: the test measures the plumbing


def fast_limits():
    from emulator import Limits

    return Limits().updated(FAST_LIMITS)


def table_doc(stack, table_id: str) -> dict:
    return decode_doc(stack.redis.hget(f"{stack.prefix}table:{table_id}", "doc"))


def settled(stack, timeout: float = 120) -> dict:
    """Every command — the webhook's, the beat's ticks, the AI's moves — handled exactly once, nothing
    waiting, no bot turn pending."""
    r, p = stack.redis, stack.prefix

    def done():
        c = stack.counters()
        handled = c.get("commands", 0) == c.get("queued", 0) + c.get("ticks", 0) + c.get("bot_commands", 0)
        quiet = not r.scard(f"{p}pending") and not r.zcard(f"{p}ob:due") and not r.zcard(f"{p}ai:due")
        return c if handled and quiet else None

    return driver.wait_for(done, timeout, "every command handled exactly once", interval=0.2)


def check_the_finished_game(stack, table_id: str) -> dict:
    counters = settled(stack)
    doc = table_doc(stack, table_id)
    assert doc["status"] == "over"
    match = load_match(doc["match"])
    moves = sum(1 for entry in match.log if entry.seat is not None)
    # every move a bot's, each pushed once and applied once
    assert counters["bot_moves"] == counters["bot_commands"] == moves, counters
    assert counters.get("rejected:bot_stale", 0) == 0 and counters.get("bot_fallback", 0) == 0
    assert state_hash(replay(match)) == state_hash(match)  # the log replays: the AI is never run again
    return counters


def test_four_bots_play_a_whole_trickerion_game_through_the_pipeline(tmp_path):
    url = redis_url_or_skip()
    with distributed(url, tmp_path, rates=BOT_RATES, limits=fast_limits(), ai_pool=True) as stack:
        control, group, ana = stack.control, stack.group, stack.users[0]
        before = {uid: len(control.messages(uid)) for uid in stack.users}
        started = time.monotonic()
        table_id = open_bot_table(control, group, ana, "trickerion", ["Fácil"] * 4)
        marker = driver.final_scores_marker()
        def final_scores():
            return next((m["text"] for m in control.messages(group)
                         if m["from_bot"] and (m.get("text") or "").startswith(marker)), None)

        final = driver.wait_for(final_scores, 900, "the final scores", interval=1.0)
        seconds = time.monotonic() - started
        assert "Trickerion" in final and all(f"Bot Fácil {n}" in final for n in range(1, 5))
        counters = check_the_finished_game(stack, table_id)
        # nobody sits at the table: no private chat got anything from it
        assert {uid: len(control.messages(uid)) for uid in stack.users} == before
        texts = [m.get("text") or m.get("caption") or "" for m in control.messages(group) if m["from_bot"]]
        assert sum(t.startswith(marker) for t in texts) == 1
        assert control.stats()["errors"].get("429", 0) == 0
        print(f"\n4 fácil bots, Trickerion: {counters['bot_moves']} moves in {seconds:.0f} s, "
              f"{counters.get('bot_think_ms', 0)} ms thinking, {control.stats()['calls_by_chat'].get(str(group))} "
              f"Bot API calls to the group")


def test_bot_turns_run_on_the_ai_queue_once_each_and_survive_a_killed_ai_worker(tmp_path):
    from celery import Celery

    url = redis_url_or_skip()
    with distributed(url, tmp_path, rates=BOT_RATES, limits=fast_limits(), ai_pool=True, start_ai=False) as stack:
        r, p = stack.redis, stack.prefix
        table_id = open_bot_table(stack.control, stack.group, stack.users[0], "spellbook", ["Fácil", "Médio"])
        driver.wait_for(lambda: r.zscore(f"{p}ai:due", table_id) is not None, 30, "the first bot's turn")
        # no worker consumes the AI's queue yet: the turn waits there, however long
        time.sleep(3)
        assert stack.counters().get("bot_moves", 0) == 0
        assert r.llen(f"{p}celery:{p}ai") >= 1 and r.zscore(f"{p}ai:due", table_id) is not None
        stack.start_ai_worker()
        # the task delivered many times over while the game goes on
        client = Celery("bots-test")
        client.conf.update(broker_url=url, broker_transport_options={"global_keyprefix": f"{p}celery:"},
                           task_serializer="json", accept_content=["json"])
        stop = threading.Event()

        def duplicates():
            while not stop.is_set():
                client.send_task("workers.think", args=[table_id], queue=f"{p}ai")
                time.sleep(0.05)

        sender = threading.Thread(target=duplicates, daemon=True)
        sender.start()
        driver.wait_for(lambda: stack.counters().get("bot_moves", 0) >= 30, 300, "30 bot moves", interval=0.2)
        stop.set()
        sender.join(timeout=10)
        # kill -9 the AI's worker while it works, then start another: the beat wakes the pending turn
        moves = stack.counters().get("bot_moves", 0)
        stop_processes([stack.procs[stack.ai_index]], sig=signal.SIGKILL)
        time.sleep(1.0)
        stack.start_ai_worker()
        driver.wait_for(lambda: stack.counters().get("bot_moves", 0) > moves + 5, 120, "moves after the kill")
        driver.wait_for(lambda: table_doc(stack, table_id)["status"] == "over", 600, "the end of the game",
                        interval=0.5)
        counters = check_the_finished_game(stack, table_id)
        print(f"\nSpellbook, fácil and médio bots: {counters['bot_moves']} moves, each pushed once "
              f"({counters['bot_commands']}) with the AI's task delivered many times over and its worker killed once")
