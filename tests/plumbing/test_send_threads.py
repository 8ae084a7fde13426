"""A worker process's sending threads (workers/runtime.py `send_soon`): a command's prompts go out
on them while the process goes on to its next command, the mover's chat first, and what a thread
cannot send is left to a sender task."""

from __future__ import annotations

import threading

from workers import runtime, tasks
from workers.config import Settings
from workers.drain import Drainer
from workers.protocol import Command, Outbound, Result


def test_send_soon_returns_before_the_send_is_done(monkeypatch):
    gate, started, sent = threading.Event(), threading.Event(), []

    def slow_send(chat_id: int) -> None:  # a Bot API request held back by a limit
        started.set()
        gate.wait(5)
        sent.append(chat_id)

    monkeypatch.setattr(tasks, "send_chat_now", slow_send)
    rt = runtime.Runtime(Settings(send_threads=2))
    rt.send_soon(7)
    assert started.wait(5)
    assert sent == []  # the caller is free while the thread waits
    gate.set()
    rt.senders.shutdown(wait=True)
    assert sent == [7]


def test_without_threads_the_caller_sends(monkeypatch):
    sent = []
    monkeypatch.setattr(tasks, "send_chat_now", sent.append)
    rt = runtime.Runtime(Settings(send_threads=0))
    assert rt.senders is None
    rt.send_soon(9)
    assert sent == [9]


def test_a_failed_send_is_left_to_a_sender_task(monkeypatch):
    woken = []

    def broken(chat_id: int) -> None:
        raise ConnectionError("redis went away")

    monkeypatch.setattr(tasks, "send_chat_now", broken)
    monkeypatch.setattr(tasks, "wake_chats", woken.append)
    rt = runtime.Runtime(Settings(send_threads=1))
    rt.send_soon(11)
    rt.senders.shutdown(wait=True)
    assert woken == [{11}]


def test_the_movers_chat_is_sent_first(store):
    """A move that starts everyone's turn makes several prompts: the mover's goes out first."""
    mover = 500

    def handler(table, cmd, directory, now):
        prompts = [Outbound(chat_id=c, text=f"vez de {c}", slot="prompt:t1") for c in (100, 300, mover, 900)]
        return Result(table={"id": "t1", "version": 1}, outbound=prompts)

    order: list[int] = []
    drainer = Drainer(store, handler, send_now=order.append)
    cmd = Command(update_id=1, kind="message", route="t1", chat_id=mover, chat_type="private", user_id=mover,
                  user_name="Bia", text="/x", received_at=0.0)
    store.r.rpush(store.k.inbox("t1"), cmd.model_dump_json())
    store.r.sadd(store.k.pending, "t1")
    assert drainer.drain("t1") == 1
    assert order == [mover, 100, 300, 900]
