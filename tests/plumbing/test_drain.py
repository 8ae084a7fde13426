"""The drain: order, exactly-once, fencing, reminders — against a real Redis."""

from __future__ import annotations

import json
import threading
import time

import pytest

from tests.plumbing import fake_tables
from workers.drain import Drainer
from workers.protocol import Command, callback
from workers.store import LeaseLost, Plan

pytestmark = pytest.mark.redis

GROUP = -1001


def cmd(update_id: int, route: str, **kw) -> Command:
    base = dict(update_id=update_id, kind="message", route=route, chat_id=GROUP, chat_type="group",
                user_id=7, user_name="Ana", received_at=time.time())
    base.update(kw)
    return Command(**base)


def push(store, c: Command) -> None:
    store.r.rpush(store.k.inbox(c.route), c.model_dump_json())
    store.r.sadd(store.k.pending, c.route)


def press(store, table_id: str, version: int, update_id: int, user_id: int = 7) -> Command:
    c = cmd(update_id, table_id, kind="callback", callback_data=callback(table_id, version, "inc"),
            callback_query_id=f"q{update_id}", user_id=user_id)
    push(store, c)
    return c


def table(store, table_id: str) -> dict:
    doc, _ = store.load_table(table_id)
    return doc


@pytest.fixture
def drainer(store):
    answers: list[tuple[str, str]] = []
    woken: list[int] = []
    d = Drainer(store, fake_tables.handle, wake_chats=lambda chats: woken.extend(chats),
                answer=lambda q, text, alert: answers.append((q, text)))
    d.answers, d.woken = answers, woken
    return d


def open_table(store, drainer) -> str:
    push(store, cmd(1, f"chat:{GROUP}", text="/novojogo spellbook"))
    drainer.drain(f"chat:{GROUP}")
    table_id = store.r.hget(store.k.active, str(GROUP))
    assert table_id
    return table_id


def test_commands_apply_in_order_and_index(store, drainer):
    table_id = open_table(store, drainer)
    assert store.r.smembers(store.k.utables(7)) == {table_id}
    for i in range(5):
        press(store, table_id, 1 + i, 10 + i)
    assert drainer.drain(table_id) == 5
    t = table(store, table_id)
    assert t["count"] == 5 and t["applied"] == [1, 10, 11, 12, 13, 14]
    assert store.r.hget(store.k.table(table_id), "ver") == "6"
    assert store.r.llen(store.k.inbox(table_id)) == 0
    assert not store.r.sismember(store.k.pending, table_id)
    assert [q for q, _ in drainer.answers] == [f"q{10 + i}" for i in range(5)]
    assert GROUP in drainer.woken and 7 in drainer.woken


def test_a_repeated_update_is_applied_once(store, drainer):
    table_id = open_table(store, drainer)
    c = press(store, table_id, 1, 20)
    push(store, c)  # the same update queued twice (e.g. redelivered past the webhook's check)
    drainer.drain(table_id)
    drainer.drain(table_id)  # Celery redelivers the task: nothing left to do
    t = table(store, table_id)
    assert t["count"] == 1 and t["applied"].count(20) == 1
    assert store.r.llen(store.k.inbox(table_id)) == 0


def test_two_simultaneous_presses_apply_at_most_once(store, drainer):
    table_id = open_table(store, drainer)
    press(store, table_id, 1, 30, user_id=7)
    press(store, table_id, 1, 31, user_id=8)  # both pressed the same version-1 button
    threads = [threading.Thread(target=drainer.drain, args=(table_id,)) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    t = table(store, table_id)
    assert t["count"] == 1 and t["applied"] == [1, 30]
    assert ("q31", "stale") in drainer.answers
    assert store.r.hget(store.k.m_counters, "rejected:stale") == "1"


def test_a_stale_lease_holder_cannot_overwrite(store, drainer):
    table_id = open_table(store, drainer)
    press(store, table_id, 1, 40)
    raw = store.r.lindex(store.k.inbox(table_id), 0)
    # Worker A took the lease, then stalled past its expiry; worker B took over and applied.
    token_a = store.acquire(store.k.lease(table_id))
    store.r.delete(store.k.lease(table_id))
    drainer.drain(table_id)
    assert table(store, table_id)["count"] == 1
    # A wakes up and tries to commit its own (now stale) result for the same command.
    before = store.r.hgetall(store.k.table(table_id))
    with pytest.raises(LeaseLost):
        drainer.process(table_id, token_a, raw)
    stale = Plan()
    stale.add("GLEASE", store.k.lease(table_id), token_a)
    stale.add("SAVE", store.k.table(table_id), json.dumps({"id": table_id, "count": 99}), 1)
    assert store.commit(stale) == 0
    assert store.r.hgetall(store.k.table(table_id)) == before
    # Even holding the lease, a commit built on an old revision is refused.
    token = store.acquire(store.k.lease(table_id))
    old_rev = Plan()
    old_rev.add("GLEASE", store.k.lease(table_id), token)
    old_rev.add("GREV", store.k.table(table_id), 1)
    old_rev.add("SAVE", store.k.table(table_id), "{}", 1)
    assert store.commit(old_rev) == -1
    assert store.r.hgetall(store.k.table(table_id)) == before


def test_a_worker_dying_mid_command_loses_nothing(store, drainer, monkeypatch):
    table_id = open_table(store, drainer)
    press(store, table_id, 1, 50)
    press(store, table_id, 2, 51)

    class Killed(BaseException):
        pass

    calls = {"n": 0}
    real = store.commit

    def dying_commit(plan):
        calls["n"] += 1
        if calls["n"] == 2:  # the second command dies right before its commit
            raise Killed()
        return real(plan)

    monkeypatch.setattr(store, "commit", dying_commit)
    with pytest.raises(Killed):
        drainer.drain(table_id)
    monkeypatch.setattr(store, "commit", real)
    assert table(store, table_id)["applied"] == [1, 50]
    assert store.r.llen(store.k.inbox(table_id)) == 1  # the unapplied command is still queued
    store.r.delete(store.k.lease(table_id))  # (a killed process's lease simply expires)
    drainer.drain(table_id)
    assert table(store, table_id)["applied"] == [1, 50, 51]


def test_a_failing_table_logic_skips_the_command_with_an_answer(store, drainer):
    table_id = open_table(store, drainer)
    push(store, cmd(60, table_id, text="/boom"))
    press(store, table_id, 1, 61)
    drainer.drain(table_id)
    assert table(store, table_id)["applied"] == [1, 61]
    assert store.r.hget(store.k.m_counters, "handler_errors") == "1"


def test_reminders_come_back_as_ticks(store, drainer):
    table_id = open_table(store, drainer)
    push(store, cmd(70, table_id, text="/lembrar 0.2"))
    push(store, cmd(71, table_id, text="/lembrar 0.3"))  # replaces the first (same key)
    drainer.drain(table_id)
    assert store.r.zcard(store.k.rem) == 1
    assert store.scan_reminders(time.time()) == []
    time.sleep(0.35)
    assert store.scan_reminders(time.time()) == [table_id]
    assert store.scan_reminders(time.time()) == []  # moved exactly once
    drainer.drain(table_id)
    t = table(store, table_id)
    assert t["ticks"] == ["r1"] and t["applied"][-1] < 0


def test_a_second_novojogo_in_the_same_chat_is_refused(store, drainer):
    open_table(store, drainer)
    push(store, cmd(80, f"chat:{GROUP}", text="/novojogo spellbook"))
    drainer.drain(f"chat:{GROUP}")
    assert store.r.hlen(store.k.active) == 1
    assert len(store.r.keys(store.k.table("*"))) == 1
