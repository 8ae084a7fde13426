"""Celery tasks. They carry only a route or a chat id — wake-up calls. The durable truth is
in Redis (inboxes, outbox queues, the reminder set), so a task that is lost, run twice or
run late changes nothing: the beat's `scan` re-wakes whatever is waiting and not being
worked on (e.g. after a worker was killed with -9)."""

from __future__ import annotations

import logging
import time

from workers import runtime
from workers.celery_app import app
from workers.logs import table_context

log = logging.getLogger("workers.tasks")


@app.task(name="workers.drain", ignore_result=True)
def drain(route: str) -> int:
    rt = runtime.get()
    rt.view_pump  # noqa: B018 (started with the process's first task: every worker process runs one)
    return rt.drainer.drain(route)


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
    woken = {"reminders": 0, "routes": 0, "chats": 0}
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
    return woken
