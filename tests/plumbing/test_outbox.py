"""The outbox: coalescing, edits in place, Telegram's errors, retry_after, shared limits."""

from __future__ import annotations

import time

import pytest

from tests.plumbing.conftest import FakeApi, fast_rates
from workers.config import Rate
from workers.outbox import Sender, plan_outbound
from workers.protocol import Button, Outbound
from workers.store import Plan
from workers.telegram_api import ApiResult

pytestmark = pytest.mark.redis

GROUP, USER = -1002, 42


def queue(store, *outs: Outbound, received_at: float | None = None) -> None:
    plan = Plan()
    for o in outs:
        plan_outbound(store, plan, o, received_at, time.time())
    assert store.commit(plan) == 1


def run(sender: Sender, chat: int, deadline: float = 10.0) -> None:
    """Send until the chat's queue is empty, sleeping out the waits like the tasks would."""
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        delay = sender.send_chat(chat)
        if delay is None:
            return
        time.sleep(delay)
    raise AssertionError("the outbox did not empty")


def status(text: str, **kw) -> Outbound:
    return Outbound(chat_id=GROUP, table_id="t1", slot="status", text=text, **kw)


def test_pending_updates_of_a_slot_coalesce_and_later_ones_edit(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    queue(store, *[status(f"v{i}") for i in range(5)])
    run(sender, GROUP)
    assert api.methods() == ["sendMessage"]
    assert api.calls[0][2]["text"] == "v4"
    queue(store, status("v5", buttons=[[Button(text="ok", callback_data="t1:5:x")]]))
    queue(store, status("v6"))
    run(sender, GROUP)
    assert api.methods() == ["sendMessage", "editMessageText"]
    assert api.calls[1][2]["message_id"] == 101 and api.calls[1][2]["text"] == "v6"
    assert api.calls[1][2]["reply_markup"] == {"inline_keyboard": []}
    assert store.r.llen(store.k.ob_q(GROUP)) == 0 and not store.r.zscore(store.k.ob_due, str(GROUP))


def test_one_offs_keep_their_order_around_slots(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    queue(store, Outbound(chat_id=GROUP, text="a"), status("s"), Outbound(chat_id=GROUP, text="b"))
    run(sender, GROUP)
    assert [c[2]["text"] for c in api.calls] == ["a", "s", "b"]


def test_not_modified_is_success_and_a_vanished_message_is_sent_anew(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    queue(store, status("same"))
    run(sender, GROUP)
    queue(store, status("same"))
    run(sender, GROUP)
    assert api.methods() == ["sendMessage", "editMessageText"]  # 400 not modified: done
    api.messages[GROUP].clear()  # someone deleted the status message
    queue(store, status("again"))
    run(sender, GROUP)
    assert api.methods()[-2:] == ["editMessageText", "sendMessage"]
    queue(store, status("after"))
    run(sender, GROUP)
    assert api.calls[-1][1] == "editMessageText" and api.calls[-1][2]["message_id"] == 102


def test_retry_after_is_waited_out_and_nothing_is_lost_or_doubled(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    api.faults["sendMessage"].append(ApiResult(ok=False, error_code=429, description="Too Many Requests: retry after 1",
                                               retry_after=1))
    api.faults["sendMessage"].append(ApiResult(ok=False, error_code=502, description="Bad Gateway"))
    queue(store, *[Outbound(chat_id=USER, text=f"m{i}") for i in range(3)])
    started = time.monotonic()
    delay = sender.send_chat(USER)
    assert delay is not None and delay >= 1.0
    assert store.r.zscore(store.k.ob_due, str(USER)) >= time.time() + 0.5
    run(sender, USER)
    assert time.monotonic() - started >= 1.0
    sent = [c[2]["text"] for c in api.calls if c[1] == "sendMessage"]
    assert sent == ["m0", "m0", "m0", "m1", "m2"]  # two refused attempts, then each once
    assert [m["text"] for m in api.messages[USER].values()] == ["m0", "m1", "m2"]
    assert store.r.hget(store.k.m_counters, "api_429") == "1"


def test_a_permanent_refusal_does_not_block_the_chat(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    api.faults["sendMessage"].append(ApiResult(ok=False, error_code=403, description="Forbidden: bot was blocked"))
    queue(store, Outbound(chat_id=USER, text="x"), Outbound(chat_id=USER, text="y"))
    run(sender, USER)
    assert [m["text"] for m in api.messages[USER].values()] == ["y"]


def test_photos_use_send_photo_then_edit_media_or_caption(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    png1, png2 = b"\x89PNG one", b"\x89PNG two"
    queue(store, status("pic", photo_png=png1))
    run(sender, GROUP)
    queue(store, status("pic 2", photo_png=png1))
    run(sender, GROUP)
    queue(store, status("pic 3", photo_png=png2))
    run(sender, GROUP)
    assert api.methods() == ["sendPhoto", "editMessageCaption", "editMessageMedia"]


def test_a_text_prompt_that_becomes_a_photo_costs_one_call_more_then_edits_in_place(store):
    """A private picture (a Trickerion placement prompt): Telegram cannot add a photo to a text
    message, so the slot's message is deleted and sent anew once; later steps edit the photo."""
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    prompt = dict(chat_id=USER, table_id="t1", slot="prompt.1")
    queue(store, Outbound(**prompt, text="choose a card"))
    run(sender, USER)
    queue(store, Outbound(**prompt, text="choose a slot", photo_png=b"\x89PNG card"))
    run(sender, USER)
    queue(store, Outbound(**prompt, text="link bonus?", photo_png=b"\x89PNG card, marker on it"))
    run(sender, USER)
    queue(store, Outbound(**prompt, text="done", photo_png=b"\x89PNG card, marker on it"))
    run(sender, USER)
    assert api.methods() == ["sendMessage", "deleteMessage", "sendPhoto", "editMessageMedia", "editMessageCaption"]
    assert len(api.messages[USER]) == 1


def test_delete_slot_removes_the_message(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    queue(store, Outbound(chat_id=USER, table_id="t1", slot="prompt", text="choose"))
    run(sender, USER)
    queue(store, Outbound(chat_id=USER, table_id="t1", slot="prompt", text="", delete_slot=True))
    run(sender, USER)
    assert api.methods() == ["sendMessage", "deleteMessage"] and not api.messages[USER]
    assert store.r.hget(store.k.ob_mid(USER), "t1|prompt") is None


def test_prompt_sends_record_press_to_prompt_latency(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    queue(store, Outbound(chat_id=USER, table_id="t1", slot="prompt.1", text="go"), received_at=time.time() - 0.2)
    run(sender, USER)
    samples = [float(x) for x in store.r.lrange(store.k.m_lat, 0, -1)]
    assert len(samples) == 1 and 0.2 <= samples[0] < 2


def test_the_shared_limits_are_never_exceeded(store):
    """Three senders share the buckets; the fake API answers 429 past Telegram-like sliding
    windows (scaled down in time: 4/s overall, 2 per 0.5 s per chat, 3 per 1.5 s per group)."""
    limits = {"all": (4, 1.0), "chat": (2, 0.5), "group": (3, 1.5)}
    api = FakeApi(limits)
    rates = (Rate(4, 1.0, 2), Rate(2, 0.5, 1), Rate(3, 1.5, 2))
    senders = [Sender(store, api, *rates) for _ in range(3)]
    chats = [GROUP, USER, USER + 1]
    for chat in chats:
        queue(store, *[Outbound(chat_id=chat, text=f"{chat}:{i}") for i in range(4)])
    import threading

    threads = [threading.Thread(target=run, args=(s, c, 20.0)) for s, c in zip(senders, chats, strict=True)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert api.violations == 0
    for chat in chats:
        assert [m["text"] for m in api.messages[chat].values()] == [f"{chat}:{i}" for i in range(4)]


def test_a_pinned_slot_is_pinned_once_silently_and_a_refusal_changes_nothing(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    queue(store, status("v1", pin=True))
    run(sender, GROUP)
    assert api.methods() == ["sendMessage", "pinChatMessage"]
    assert api.calls[1][2] == {"chat_id": GROUP, "message_id": 101, "disable_notification": True}
    queue(store, status("v2", pin=True))  # an edit of the pinned message: no second pin
    run(sender, GROUP)
    assert api.methods()[2:] == ["editMessageText"]
    # a group where the bot may not pin: Telegram refuses, the message is delivered all the same
    api.faults["pinChatMessage"].append(ApiResult(
        ok=False, error_code=400, description="Bad Request: not enough rights to manage pinned messages in the chat"))
    queue(store, Outbound(chat_id=GROUP, table_id="t1", slot="status.1", text="v3", pin=True),
          Outbound(chat_id=GROUP, text="after"))
    run(sender, GROUP)
    assert api.methods()[3:] == ["sendMessage", "pinChatMessage", "sendMessage"]
    assert store.r.hget(store.k.m_counters, "pins") == "1" and store.r.hget(store.k.m_counters, "pins_refused") == "1"


def test_a_document_is_sent_as_a_file_with_its_caption(store):
    class Files(FakeApi):
        def call(self, method, params, files=None):
            self.files = files
            return super().call(method, params, files)

    api = Files()
    sender = Sender(store, api, *fast_rates())
    queue(store, Outbound(chat_id=GROUP, text="📄 <b>log</b>", document=b'{"log": []}', document_name="game.json"))
    run(sender, GROUP)
    assert api.methods() == ["sendDocument"] and api.calls[0][2]["caption"] == "📄 <b>log</b>"
    assert api.files == {"document": ("game.json", b'{"log": []}', "application/json")}
