"""Issue 4's "Done when": three scripted users create, join and play a full Spellbook game
to its final scores by pressing buttons — through the emulator, the webhook, Celery and
Redis — in the distributed mode (real Redis, separate worker and beat processes) and on the
embedded default (`boardgamesbot local`)."""

from __future__ import annotations

import statistics
import time

import pytest

from bench import driver
from tests.integration.stack import distributed, embedded, redis_url_or_skip

pytestmark = [pytest.mark.slow, pytest.mark.timeout(600)]

# Limits high enough that a scripted player, who presses as soon as a prompt arrives, is not
# paced by Telegram's per-chat limit (people are slower than 1 press a second).
# Scripted players answer faster than people can: the webhook's admission bucket is widened too.
FAST_RATES = {"BGB_RATE_CHAT": "20/1:5", "BGB_RATE_GROUP": "60/60:10", "BGB_FLOOD_BURST": "1000",
              "BGB_FLOOD_RATE": "1000"}
FAST_LIMITS = {"per_chat": "20/1", "per_group": "60/60"}


def _play(stack, seed: int, **kw) -> driver.GameRun:
    table_id = driver.open_and_join(stack.control, stack.group, stack.users)
    run = driver.play(stack.control, stack.group, stack.users, table_id,
                      lambda: driver.group_shows_final_scores(stack.control, stack.group), seed=seed, **kw)
    assert run.finished, f"the game did not end: {run.presses} presses; last refusals {run.log[-5:]}"
    return run


def _check_transcripts(stack) -> None:
    control = stack.control
    group_texts = [m.get("text") or m.get("caption") or "" for m in control.messages(stack.group) if m["from_bot"]]
    marker = driver.final_scores_marker()
    assert sum(t.startswith(marker) for t in group_texts) == 1  # final scores, once
    for uid in stack.users:
        for m in control.messages(uid):
            if m["from_bot"] and m.get("reply_markup") and m.get("text"):
                assert m["text"] not in group_texts, "a private prompt reached the group"
    for m in control.messages(stack.group):
        for row in m.get("reply_markup") or []:
            for b in row:
                # group buttons are the lobby's and the status message's, never a seat's choice
                assert not (b.get("callback_data") or ":L").split(":")[-1].isdigit()


def _histogram(metrics_text: str) -> dict:
    """Mean, and the bucket bounds holding the median and the slowest, from /metrics."""
    buckets, total, count = [], 0.0, 0.0
    for line in metrics_text.splitlines():
        if line.startswith("bgb_press_to_prompt_seconds_bucket"):
            bound = line.split('le="')[1].split('"')[0]
            buckets.append((float(bound), float(line.rsplit(" ", 1)[1])))
        elif line.startswith("bgb_press_to_prompt_seconds_sum"):
            total = float(line.rsplit(" ", 1)[1])
        elif line.startswith("bgb_press_to_prompt_seconds_count"):
            count = float(line.rsplit(" ", 1)[1])
    if not count:
        return {}
    median = next(b for b, c in buckets if c >= count / 2)
    slowest = next(b for b, c in buckets if c >= count)
    return {"press_to_prompt_mean_ms": round(total / count * 1000), "median_at_most_ms": median * 1000,
            "slowest_at_most_ms": slowest * 1000}


def _report(name: str, stack, run: driver.GameRun, calls_before: int, seconds: float) -> dict:
    import httpx

    stats = stack.control.stats()
    calls = stats["total_calls"] - calls_before
    metrics_text = httpx.get(f"{stack.base_url}/metrics").text if stack.redis is None else ""
    counters = stack.counters() or {
        "moves_applied": int(float(next(line.split()[1] for line in metrics_text.splitlines()
                                        if line.startswith("bgb_moves_applied_total"))))}
    moves = counters.get("moves_applied") or run.presses - run.refused
    group_calls = stats["calls_by_chat"].get(str(stack.group), 0)
    figures = {"presses": run.presses, "moves": moves, "api_calls": calls, "calls_per_move": round(calls / moves, 2),
               "group_calls": group_calls, "by_method": stats["calls"], "errors": stats["errors"],
               "webhook_replies": stats["webhook_replies"], "seconds": round(seconds, 1)}
    lat = stack.latencies()
    if lat:
        figures["press_to_prompt_median_ms"] = round(statistics.median(lat) * 1000)
        figures["press_to_prompt_max_ms"] = round(max(lat) * 1000)
    else:
        figures.update(_histogram(metrics_text))
    print(f"\n{name}: {figures}")
    return figures


def _double_press(stack, table_id: str) -> None:
    """One person presses the same button twice at the same instant: one move is applied,
    the other press is told the option is gone."""
    import threading

    import locales

    undo = locales.text("tables.button.undo", "pt_BR")
    stale = locales.text("core.error.stale", "pt_BR")
    r, p = stack.redis, stack.prefix
    driver.wait_for(lambda: not r.zcard(f"{p}ob:due") and not r.scard(f"{p}pending"), 30, "a quiet moment")
    for uid in stack.users:
        prompt = driver.current_prompt(stack.control, uid, table_id)
        buttons = [b for row in (prompt or {}).get("reply_markup") or [] for b in row
                   if b.get("callback_data", "").startswith(f"{table_id}:") and b["text"] != undo]
        if not buttons:
            continue
        moves = stack.counters().get("moves_applied", 0)
        answers: list[dict] = []
        barrier = threading.Barrier(2)

        def press(data=buttons[0]["callback_data"], message_id=prompt["message_id"], user=uid, barrier=barrier,
                  answers=answers):
            barrier.wait()
            answers.append(stack.control.press(user, message_id, user, data))

        threads = [threading.Thread(target=press) for _ in range(2)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        texts = sorted("" if not driver.refused(a) else a["text"] for a in answers)
        if texts == [stale, stale]:
            continue  # not this user's turn: their prompt is an old one
        assert texts == ["", stale], answers
        driver.wait_for(lambda m=moves: stack.counters().get("moves_applied", 0) > m, 10, "the move")
        time.sleep(0.5)
        assert stack.counters().get("moves_applied", 0) == moves + 1
        return
    raise AssertionError("nobody had a current prompt")


@pytest.mark.redis
def test_full_game_distributed_with_telegram_limits(tmp_path):
    """The normal game: Telegram's default limits in the emulator, the bot's default rates."""
    url = redis_url_or_skip()
    with distributed(url, tmp_path) as stack:
        before = stack.control.stats()["total_calls"]
        started = time.monotonic()
        doubled = []

        def between(run):
            if not doubled and run.presses >= 10:
                _double_press(stack, run.table_id)
                doubled.append(True)

        run = _play(stack, seed=11, timeout=480, between=between)
        assert doubled
        _check_transcripts(stack)
        figures = _report("distributed, Telegram limits", stack, run, before, time.monotonic() - started)
        assert figures["errors"].get("429", 0) == 0, figures
        counters = driver.wait_for(lambda: (c := stack.counters()) and
                                   c.get("commands") == c.get("queued", 0) + c.get("ticks", 0) and c,
                                   30, "every queued command handled exactly once")
        assert counters["commands"] >= run.presses
        # Presses are answered in the webhook's replies, which the emulator runs and counts as
        # Telegram would (not as requests); only those the webhook stopped waiting for were
        # answered by the worker with a request.
        stats = stack.control.stats()
        in_replies = stats["webhook_replies"].get("answerCallbackQuery", 0)
        by_request = stats["calls"].get("answerCallbackQuery", 0)
        assert in_replies + by_request >= run.presses and in_replies > by_request, stats
        assert by_request == counters.get("answers_waited_out", 0), (stats, counters)
        import httpx

        scraped = httpx.get(stack.worker_metrics_url).text  # the worker's own /metrics
        assert f"bgb_moves_applied_total {float(counters['moves_applied'])}" in scraped
        assert "bgb_press_to_prompt_seconds_count" in scraped


def test_full_game_on_the_embedded_default(tmp_path):
    with embedded(tmp_path, rates=FAST_RATES, limits=FAST_LIMITS) as stack:
        before = stack.control.stats()["total_calls"]
        started = time.monotonic()
        run = _play(stack, seed=12, timeout=300)
        _check_transcripts(stack)
        figures = _report("embedded default", stack, run, before, time.monotonic() - started)
        assert figures["errors"].get("429", 0) == 0, figures
        _stale_and_forged_presses_change_nothing(stack, run.table_id)


def _stale_and_forged_presses_change_nothing(stack, table_id: str) -> None:
    """After the game: an old button, a forged one and garbage each get a short answer, and
    no chat receives anything."""
    import locales
    from workers.protocol import callback

    control = stack.control
    # The end of the game still sends after the final scores (the summary picture, the pinned
    # status's last edit): count the chats once the bot has gone quiet.
    _wait_until_chats_settle(control, [stack.group, *stack.users])
    group_messages = control.messages(stack.group)
    target = next(m for m in reversed(group_messages) if m["from_bot"])
    counts = {chat: len(control.messages(chat)) for chat in [stack.group, *stack.users]}
    sends_before = control.stats()["calls"]
    for data in (callback(table_id, 1, "Ls"), callback(table_id, 10**6, "0"), "nonsense", callback("zzz", 1, "x")):
        answer = control._call("POST", "callbacks", {"chat_id": stack.group, "message_id": target["message_id"],
                                                     "user_id": stack.users[1], "callback_data": data, "force": True})
        assert answer["answered"] and answer["text"], (data, answer)
    assert answer["text"] == locales.text("bot.callback.invalid", "pt_BR")
    time.sleep(1.0)
    assert {chat: len(control.messages(chat)) for chat in counts} == counts
    after = control.stats()["calls"]
    for method in ("sendMessage", "editMessageText", "editMessageMedia", "sendPhoto"):
        assert after.get(method, 0) == sends_before.get(method, 0), method


def _wait_until_chats_settle(control, chats: list[int], still: float = 2.0, timeout: float = 60) -> None:
    """Until no chat has received a message for `still` seconds."""
    def snapshot():
        return {chat: [(m["message_id"], m.get("edit_count", 0)) for m in control.messages(chat)] for chat in chats}

    last, since, deadline = snapshot(), time.monotonic(), time.monotonic() + timeout
    while time.monotonic() < deadline:
        time.sleep(0.25)
        now = snapshot()
        if now != last:
            last, since = now, time.monotonic()
        elif time.monotonic() - since >= still:
            return
    raise AssertionError("the chats kept changing for a minute after the game")
