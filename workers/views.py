"""The view lane: what may lag behind a move (Outbound.background — the group's status with its
picture, a finished turn's "done, waiting for X" note), sent by one pump for the whole system.

Why a lane of its own: a move costs one message the player waits for — the mover's prompt
edited in place, or the next player's new prompt — and those ride the prompt lane
(workers/outbox.py), sent by the worker that made the move as soon as it is saved. Everything
else a move changes is a view. Views send only while the bot's sending leaves room: the bucket
`rl:views` (BGB_RATE_VIEWS, 18/s by default, of Telegram's 30/s) is drawn on by every prompt-lane
send too, so when prompts take most of the 30/s views wait, and a prompt never queues behind a
status picture. While a view waits, its slot's newest content replaces the older one (a group's
status is edited once for several turns), and a player's new turn message takes the buttons off
their last turn's note if it is still waiting (they are stale: until the note goes out a press on
one is answered "Essa opção não vale mais"); a group's status goes before a player's note. Views
also spend *credit* that only prompts earn (the bucket `rl:vcredit`, BGB_VIEW_CREDIT: each prompt-
lane send adds a share of a view, and it refills slowly by itself), so views cost a fixed fraction
of the moves at any load instead of every spare moment of a quiet bot: calls per move are the bot's
throughput (issue 14).

One pump sends at a time (the lease `ob:vlease`); every worker process runs one in a thread, and
the others take over within the lease's time if its process dies. It serves the chats of
`ob:bdue` in the order they have waited (a chat goes to the back after each send), one view at a
time, with a token of every bucket (global, the chat, the group, views, credit): a chat or group
bucket that binds (or Telegram's retry_after) puts that chat back for that long; the global, views
or credit bucket makes the pump itself wait. A view's send holds its chat's send lease, like the prompt
lane's sender, so a chat never gets two messages at once.
"""

from __future__ import annotations

import logging
import threading
import time

import redis

from workers.outbox import SEND_LEASE_MS, Sender
from workers.store import Store

log = logging.getLogger("workers.views")

LEASE_MS = 5_000  # a dead pump's lane resumes this long after, in another process
IDLE = 0.1  # seconds between looks while no view is due
LONGEST_PAUSE = 0.25  # the pump never sleeps longer at once (it renews its lease in between)
CHAT_BUSY = 0.2  # the prompt lane is sending to that chat: try it again this much later
GROUPS_FIRST = 64  # the chats due now that are looked at for a group's status, oldest first
BROKEN = 30.0  # a view that failed with an error of ours: its chat waits this long, the others go on

# The chat was served: back of the line if it has more views waiting, else out of it.
REQUEUE_LUA = """
if redis.call('LLEN', KEYS[1]) == 0 then redis.call('ZREM', KEYS[2], ARGV[1]) return 0 end
redis.call('ZADD', KEYS[2], 'XX', ARGV[2], ARGV[1])
return 1
"""


class ViewPump:
    def __init__(self, store: Store, sender: Sender) -> None:
        self.store, self.sender = store, sender
        self.k, self.r = store.k, store.r
        self._requeue = self.r.register_script(REQUEUE_LUA)

    def run(self, stop: threading.Event) -> None:
        """Pump while this process holds the lease; wait for it otherwise. Until `stop`."""
        while not stop.is_set():
            try:
                token = self.store.acquire(self.k.ob_vlease, ms=LEASE_MS)
                if token is None:
                    stop.wait(1.0)
                    continue
                try:
                    while not stop.is_set() and self.store.renew(self.k.ob_vlease, token, LEASE_MS):
                        pause = self.step()
                        if pause:
                            stop.wait(pause)
                finally:
                    self.store.release(self.k.ob_vlease, token)
            except redis.RedisError:
                log.warning("the view pump lost Redis; trying again", exc_info=True)
                stop.wait(1.0)
            except Exception:  # a bug must not stop the lane for good: the view stays queued
                log.exception("the view pump failed; trying again")
                stop.wait(1.0)

    def step(self) -> float:
        """Send at most one view; returns how long to pause before the next step."""
        now = time.time()
        due = self.r.zrangebyscore(self.k.ob_bdue, "-inf", repr(now), start=0, num=GROUPS_FIRST)
        if not due:
            first = self.r.zrange(self.k.ob_bdue, 0, 0, withscores=True)
            return IDLE if not first else min(IDLE, max(0.0, first[0][1] - now))
        # a group's status before a player's note: the note's news was in the press's answer already
        # ("✔ Feito. Aguardando Bia."), and the player's next turn drops it; the table is what the group sees
        chat = next((int(c) for c in due if int(c) < 0), int(due[0]))
        queue = self.k.ob_bq(chat)
        marker = self.r.lindex(queue, 0)
        if marker is None:
            self._requeue(keys=[queue, self.k.ob_bdue], args=[str(chat), repr(now)])
            return 0.0
        lease_key = self.k.ob_lease(chat)
        lease = self.store.acquire(lease_key, ms=SEND_LEASE_MS)
        if lease is None:
            self.r.zadd(self.k.ob_bdue, {str(chat): now + CHAT_BUSY}, xx=True)
            return 0.0
        binding = {"which": ""}

        def take() -> float:
            wait, binding["which"] = self.sender.take(chat, view=True)
            return wait

        try:
            step = self.sender.send_item(chat, marker, take, view=True)
        except redis.RedisError:
            raise
        except Exception:  # one chat's broken view must not hold up every other chat's
            log.exception("a view for %s could not be sent; trying it again later", chat)
            self.r.zadd(self.k.ob_bdue, {str(chat): time.time() + BROKEN}, xx=True)
            return 0.0
        finally:
            self.store.release(lease_key, lease)
        if step.done:
            self._requeue(keys=[queue, self.k.ob_bdue], args=[str(chat), repr(time.time())])
            return 0.0
        if binding["which"] in ("global", "views", "credit"):
            return min(step.delay, LONGEST_PAUSE)  # no view may go now, whichever chat
        # this chat's or group's limit, or Telegram's retry_after for it: the others go on
        self.r.zadd(self.k.ob_bdue, {str(chat): time.time() + step.delay}, xx=True)
        return 0.0


def start(store: Store, sender: Sender) -> threading.Event:
    """The pump of this process, in a daemon thread; set the returned event to stop it."""
    stop = threading.Event()
    threading.Thread(target=ViewPump(store, sender).run, args=(stop,), name="view-pump", daemon=True).start()
    return stop
