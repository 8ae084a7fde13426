"""Telegram's ceiling: the outbox holds more than Telegram allows a bot to send, and the
emulator enforces Telegram's limits (30 messages a second overall, 1 a second per chat in
practice). We queue `messages` one-off messages spread over `chats` private chats in one
go (each chat's share stays within its own limit, so only the overall limit binds), wake
the senders, and count what the emulator accepted per second and the 429s it answered.

Aim (issue 14): at least 95% of the 30/s ceiling and zero 429s. The bot's overall limit runs at
97% of 30/s (workers/config.py: a send every 34.4 ms, 31 ms of slack for the network), and each
send books its moment ahead (workers/outbox.py), so the senders lose none of it waking up late.
"""

from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass

from bench.live import Live
from bench.stack import Stack

CEILING = 30.0


@dataclass
class CeilingFigure:
    mode: str
    messages: int
    chats: int
    delivered: int
    seconds: float
    errors_429: int
    best_second: int  # most deliveries in any 1-second window
    stall: float = 0.0  # the emulator's event loop's longest stall during the run (s)

    @property
    def per_second(self) -> float:
        return (self.delivered - 1) / self.seconds if self.seconds else 0.0


def run(stack: Stack, messages: int = 300, chats: int = 100, live: Live | None = None,
        timeout: float = 120) -> CeilingFigure:
    from celery import Celery

    from workers import outbox
    from workers.protocol import Outbound
    from workers.store import Plan, Store

    live = live or Live(stack.world)
    users = [stack.control.create_user(f"C{i}") for i in range(chats)]

    def started():
        for uid in users:
            stack.world.users[uid].started = True  # as if each had pressed Start
    stack.call_in_loop(started)
    store = Store(stack.redis, stack.settings)
    now = time.time()
    for i in range(messages):
        plan = Plan()
        outbox.plan_outbound(store, plan, Outbound(chat_id=users[i % chats], text=f"aviso {i + 1}"), None, now)
        store.commit(plan)
    before = stack.control.stats()
    live.deliveries.clear()
    live.record_all = True
    client = Celery("bench-ceiling")
    client.conf.update(broker_url=stack.settings.redis_url,
                       broker_transport_options={"global_keyprefix": f"{stack.prefix}celery:"},
                       task_default_queue=f"{stack.prefix}tasks", task_serializer="json")
    stalls = _StallProbe()
    probe = asyncio.run_coroutine_threadsafe(stalls.run(), stack.loop)
    for uid in users:
        client.send_task("workers.send_chat", args=[uid])
    wanted = set(users)
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        done = [t for t, m, c in list(live.deliveries) if c in wanted]
        if len(done) >= messages:
            break
        time.sleep(0.2)
    live.record_all = False
    stalls.stop = True
    probe.result(5)
    times = sorted(t for t, _, c in live.deliveries if c in wanted)
    after = stack.control.stats()
    best = 0
    j = 0
    for i, t in enumerate(times):
        while times[j] <= t - 1.0:
            j += 1
        best = max(best, i - j + 1)
    e429 = int(after["errors"].get("429", 0)) - int(before["errors"].get("429", 0))
    return CeilingFigure(stack.mode, messages, chats, len(times), (times[-1] - times[0]) if times else 0.0, e429,
                         best, stalls.longest)


class _StallProbe:
    """The emulator's event loop's longest stall: a request is timed (and counted against the 30 a
    second) when the loop gets to it, so a stall — the process's garbage collector, say — can bunch
    requests that left the bot 34 ms apart, and the emulator then answers 429 where Telegram, in
    another process, would not. Shown beside the ceiling so a 429 can be told from a real excess."""

    TICK = 0.005

    def __init__(self) -> None:
        self.stop = False
        self.longest = 0.0

    async def run(self) -> None:
        while not self.stop:
            t = time.monotonic()
            await asyncio.sleep(self.TICK)
            self.longest = max(self.longest, time.monotonic() - t - self.TICK)


def table(figures: list[CeilingFigure]) -> list[str]:
    lines = ["| mode | queued | chats | delivered | seconds | delivered/s | of the 30/s ceiling | best 1-s window "
             "| 429s | the emulator loop's longest stall (ms) |", "|---|---|---|---|---|---|---|---|---|---|"]
    for f in figures:
        lines.append(f"| {f.mode} | {f.messages} | {f.chats} | {f.delivered} | {f.seconds:.1f} | "
                     f"{f.per_second:.1f} | {f.per_second / CEILING:.0%} | {f.best_second} | {f.errors_429} | "
                     f"{f.stall * 1000:.0f} |")
    return lines
