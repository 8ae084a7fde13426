"""The embedded store of `boardgamesbot local`: a process of its own that speaks Redis (Lua included),
stops when asked, and never outlives the process that started it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import threading
import time

import redis

from boardgamesbot.embedded_store import EmbeddedRedis


def _gone(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return True
    # a zombie (exited, not yet reaped by its parent) counts as gone
    with open(f"/proc/{pid}/stat") as fh:
        return fh.read().split(")")[-1].split()[0] == "Z"


def test_serves_redis_and_lua_in_another_process_and_stops():
    store = EmbeddedRedis().start()
    try:
        assert store.proc.pid != os.getpid()
        r = redis.Redis.from_url(store.url, decode_responses=True)
        r.rpush("q", "a", "b")
        assert r.eval("return redis.call('LLEN', KEYS[1])", 1, "q") == 2
        r.close()
    finally:
        store.stop()
    assert store.proc.poll() is not None


def test_leaves_when_its_parent_is_killed():
    # A parent that starts a store, prints the store's pid, then waits to be killed with -9 (no cleanup).
    code = ("from boardgamesbot.embedded_store import EmbeddedRedis; import time; "
            "s = EmbeddedRedis().start(); print(s.proc.pid, flush=True); time.sleep(60)")
    parent = subprocess.Popen([sys.executable, "-c", code], stdout=subprocess.PIPE, text=True,
                              cwd=os.path.dirname(os.path.dirname(os.path.dirname(__file__))))
    try:
        store_pid = int(parent.stdout.readline())
        assert not _gone(store_pid)
        parent.send_signal(signal.SIGKILL)
        parent.wait(5)
        deadline = time.monotonic() + 10
        while not _gone(store_pid) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert _gone(store_pid), "the store outlived the process that started it"
    finally:
        if parent.poll() is None:
            parent.kill()


def test_a_listener_gets_what_another_connection_publishes_and_a_blocked_pop_wakes():
    """The store's connection threads sleep until their client sends or another connection queues
    a reply for it (embedded_store._Handler): a message published elsewhere and a push that ends
    another client's BLPOP must still reach them."""
    store = EmbeddedRedis().start()
    try:
        listener, talker, popper = (redis.Redis.from_url(store.url, decode_responses=True) for _ in range(3))
        sub = listener.pubsub()
        sub.subscribe("verdicts")
        assert sub.get_message(timeout=2)["type"] == "subscribe"
        for n in range(3):  # sooner than the thread's idle wait (1 s): the publish woke it
            assert talker.publish("verdicts", f"v{n}") == 1
            message = sub.get_message(timeout=0.6)
            assert message and message["data"] == f"v{n}"
        got = []
        waiter = threading.Thread(target=lambda: got.append(popper.blpop("inbox", timeout=5)))
        waiter.start()
        time.sleep(0.2)
        talker.rpush("inbox", "cmd")
        waiter.join(6)
        assert got == [("inbox", "cmd")]
        sub.close()
    finally:
        store.stop()
