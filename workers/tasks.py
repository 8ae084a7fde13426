"""Celery tasks. They carry only a route, a chat id or a table id — wake-up calls. The durable
truth is in Redis (inboxes, outbox queues, the reminder set, the bots' pending turns), so a task
that is lost, run twice or run late changes nothing: the beat's `scan` re-wakes whatever is
waiting and not being worked on (e.g. after a worker was killed with -9).

`think` (a bot's move, workers/ai.py) runs on the AI's own queue (`Settings.ai_queue`), which a
worker pool of its own consumes: the search never delays a person's press."""

from __future__ import annotations

import logging
import time

from workers import runtime
from workers.ai import AI_WAKE_GRACE
from workers.celery_app import app
from workers.logs import table_context

log = logging.getLogger("workers.tasks")


@app.task(name="workers.drain", ignore_result=True)
def drain(route: str) -> int:
    rt = runtime.get()
    rt.view_pump  # noqa: B018 (started with the process's first task: every worker process runs one)
    return rt.drainer.drain(route)


@app.task(name="workers.think", ignore_result=True)
def think(table_id: str) -> str:
    return runtime.get().thinker.think(table_id)


def wake_ai(table_id: str, due: float) -> None:
    """Queue the AI's task for a table on the AI queue, to run at `due` (epoch seconds), and mark it
    queued so the beat does not queue another meanwhile."""
    rt = runtime.get()
    delay = max(0.0, due - time.time())
    rt.store.r.set(rt.store.k.ai_woke(table_id), "1", px=int((delay + AI_WAKE_GRACE) * 1000))
    think.apply_async((table_id,), countdown=delay or None, queue=rt.settings.ai_queue)


@app.task(name="workers.send_chat", ignore_result=True)
def send_chat(chat_id: int) -> None:
    send_chat_now(chat_id)


def send_chat_now(chat_id: int) -> None:
    """Send what the chat has waiting, in this process; a wait (limits) becomes a delayed task."""
    delay = runtime.get().sender.send_chat(int(chat_id))
    if delay is not None:
        schedule_send(chat_id, delay)


def schedule_send(chat_id: int, delay: float) -> None:
    """A short delayed retry for a chat held back by a rate limit or retry_after (seconds,
    not hours: reminders never use countdowns). At most one is pending per chat."""
    rt = runtime.get()
    delay = min(max(delay, 0.05), 60.0)
    if rt.store.r.set(rt.store.k.ob_sched(chat_id), "1", nx=True, px=int(delay * 1000)):
        send_chat.apply_async((chat_id,), countdown=delay)


def wake_chats(chats: set[int]) -> None:
    for chat in chats:
        send_chat.delay(chat)


@app.task(name="workers.scan", ignore_result=True)
def scan() -> dict:
    """Every few seconds (beat): due reminders into their inboxes; then the janitor's round."""
    rt = runtime.get()
    rt.view_pump  # noqa: B018 (a worker that only ever got scans still takes its turn at views)
    store, k, r = rt.store, rt.store.k, rt.store.r
    now = time.time()
    r.set(k.beat, repr(now))
    woken = {"reminders": 0, "routes": 0, "chats": 0, "bots": 0}
    for route in store.scan_reminders(now):
        with table_context(route):
            log.info("reminder due")
        drain.delay(route)
        woken["reminders"] += 1
    for route in r.srandmember(k.pending, 500) or []:
        if not r.exists(k.lease(route)):
            drain.delay(route)
            woken["routes"] += 1
    for chat in r.zrangebyscore(k.ob_due, "-inf", now, start=0, num=500):
        if not r.exists(k.ob_lease(int(chat))):
            send_chat.delay(int(chat))
            woken["chats"] += 1
    # bots' turns whose task was lost (a worker killed while it held the task or thought): nobody
    # thinks for the table, and no task was queued for it lately
    for table_id in r.zrangebyscore(k.ai_due, "-inf", now, start=0, num=500):
        if not r.exists(k.ai_lease(table_id)) and not r.exists(k.ai_woke(table_id)):
            wake_ai(table_id, now)
            woken["bots"] += 1
    return woken
