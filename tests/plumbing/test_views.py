"""The view lane (workers/views.py): views wait for room that prompts leave, coalesce while
they wait, a new turn message drops its player's unsent note, chats take turns, and a chat or
group held back by its own limit does not hold back the others."""

from __future__ import annotations

import threading
import time

import pytest

from tests.plumbing.conftest import FakeApi, fast_rates
from workers.config import Rate
from workers.outbox import Sender, plan_outbound
from workers.protocol import Outbound
from workers.store import Plan
from workers.views import ViewPump

pytestmark = pytest.mark.redis

GROUP, OTHER_GROUP, ANA = -2001, -2002, 51


def queue(store, *outs: Outbound) -> None:
    plan = Plan()
    for o in outs:
        plan_outbound(store, plan, o, time.time(), time.time())
    assert store.commit(plan) in (1, 2)


def status(text: str, chat: int = GROUP) -> Outbound:
    return Outbound(chat_id=chat, table_id="t1", slot="status", text=text, background=True, silent=True)


def pump_until_quiet(pump: ViewPump, deadline: float = 10.0) -> None:
    end = time.monotonic() + deadline
    while time.monotonic() < end:
        if not pump.r.zcard(pump.k.ob_bdue):
            return
        pause = pump.step()
        if pause:
            time.sleep(pause)
    raise AssertionError("the view lane did not empty")


def run_prompts(sender: Sender, chat: int) -> None:
    while (delay := sender.send_chat(chat)) is not None:
        time.sleep(delay)


def test_views_wait_on_their_own_lane_and_only_the_newest_is_sent(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    queue(store, status("v1"), Outbound(chat_id=GROUP, text="a one-off"), status("v2"))
    assert store.r.llen(store.k.ob_q(GROUP)) == 1 and store.r.llen(store.k.ob_bq(GROUP)) == 1
    run_prompts(sender, GROUP)  # the prompt lane sends what it holds, never a view
    assert [p.get("text") for _, _, p in api.calls] == ["a one-off"]
    queue(store, status("v3"))
    pump_until_quiet(ViewPump(store, sender))
    assert [p.get("text") for _, _, p in api.calls] == ["a one-off", "v3"]
    assert store.r.hget(store.k.m_counters, "sent_views") == "1"
    assert not store.r.zscore(store.k.ob_bdue, str(GROUP))


def test_prompts_take_the_room_first_and_views_get_what_is_left(store):
    """The views' bucket is drawn on by every prompt-lane send: while prompts use up its rate,
    no view goes out; a moment later, with nothing else to send, they do."""
    api = FakeApi()
    views = Rate(2, 1.0, 1)  # ~1.9 views a second at most, counting prompts
    sender = Sender(store, api, *fast_rates(), views)
    queue(store, *[Outbound(chat_id=ANA + i, text=f"prompt {i}") for i in range(4)], status("s"))
    for i in range(4):
        run_prompts(sender, ANA + i)
    pump = ViewPump(store, sender)
    assert pump.step() > 0 and not any(m == "sendMessage" and p["chat_id"] == GROUP for _, m, p in api.calls)
    pump_until_quiet(pump)
    assert api.calls[-1][2]["text"] == "s" and api.calls[-1][0] - api.calls[3][0] >= 1.0


def test_a_new_turn_message_takes_the_buttons_off_the_players_unsent_note(store):
    """The note still waits when the player's next turn gets its own message: it goes out later all the
    same (the older message must not keep stale buttons for good), without its buttons."""
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    first = dict(chat_id=ANA, table_id="t1", slot="prompt.1")
    undo = [[{"text": "↩", "callback_data": "t1:7:U"}]]
    queue(store, Outbound(**first, text="your turn"))
    run_prompts(sender, ANA)
    queue(store, Outbound(**first, text="done, waiting for Bia", background=True, buttons=undo))
    queue(store, Outbound(chat_id=ANA, table_id="t1", slot="prompt.2", text="your turn again", supersedes="prompt.1"))
    run_prompts(sender, ANA)
    pump_until_quiet(ViewPump(store, sender))
    assert [(m, p.get("text")) for _, m, p in api.calls] == [
        ("sendMessage", "your turn"), ("sendMessage", "your turn again"), ("editMessageText", "done, waiting for Bia")]
    assert not api.calls[-1][2].get("reply_markup", {}).get("inline_keyboard")
    assert store.r.hget(store.k.m_counters, "superseded") == "1"
    # a note that went out before is left alone, and an update on the prompt lane is never touched
    queue(store, Outbound(chat_id=ANA, table_id="t1", slot="prompt.2", text="done", background=True))
    pump_until_quiet(ViewPump(store, sender))
    queue(store, Outbound(chat_id=ANA, table_id="t1", slot="prompt.3", text="again", supersedes="prompt.2"))
    run_prompts(sender, ANA)
    assert [p.get("text") for _, _, p in api.calls][-2:] == ["done", "again"]
    assert store.r.hget(store.k.m_counters, "superseded") == "1"


def test_an_update_back_on_the_prompt_lane_is_not_held_by_the_view_lane(store):
    """A note waits on the view lane; the player takes their move back, and the same message is a
    prompt again: it goes out at once, and the view lane then has nothing left to send."""
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    slot = dict(chat_id=ANA, table_id="t1", slot="prompt.1")
    queue(store, Outbound(**slot, text="your turn"))
    run_prompts(sender, ANA)
    queue(store, Outbound(**slot, text="done", background=True))
    queue(store, Outbound(**slot, text="your turn, again"))
    run_prompts(sender, ANA)
    pump_until_quiet(ViewPump(store, sender))
    assert [p.get("text") for _, _, p in api.calls] == ["your turn", "your turn, again"]


def test_chats_take_turns_and_a_group_at_its_limit_holds_back_only_itself(store):
    api = FakeApi()
    group_rate = Rate(1, 60.0, 1)  # one message a minute in a group
    sender = Sender(store, api, Rate(30, 1.0, 5), Rate(50, 1.0, 5), group_rate)
    queue(store, Outbound(chat_id=GROUP, text="the group's minute is used"))
    run_prompts(sender, GROUP)
    queue(store, status("held"), status("first", OTHER_GROUP),
          Outbound(chat_id=ANA, table_id="t1", slot="prompt.1", text="note", background=True))
    pump = ViewPump(store, sender)
    for _ in range(10):
        time.sleep(pump.step())
    texts = [p.get("text") for _, _, p in api.calls]
    assert texts == ["the group's minute is used", "first", "note"]
    assert store.r.zscore(store.k.ob_bdue, str(GROUP)) > time.time() + 30  # back when its minute is over


def test_one_pump_at_a_time(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    stops = [threading.Event(), threading.Event()]
    pumps = [threading.Thread(target=ViewPump(store, sender).run, args=(s,)) for s in stops]
    for t in pumps:
        t.start()
    try:
        queue(store, *[status(f"v{i}", -3000 - i) for i in range(20)])
        end = time.monotonic() + 10
        while store.r.zcard(store.k.ob_bdue) and time.monotonic() < end:
            time.sleep(0.05)
        assert len(api.calls) == 20 and len({p["chat_id"] for _, _, p in api.calls}) == 20
        holder = store.r.get(store.k.ob_vlease)
        assert holder is not None  # one of them holds the lane, the other waits for it
    finally:
        for s in stops:
            s.set()
        for t in pumps:
            t.join(5)


def test_a_views_picture_is_drawn_when_sent_only_and_never_when_unchanged(store):
    """The status's picture travels as what to draw it from (Outbound.picture): drawn once it is
    sent, not for a drawing the lane replaced before, not for a caption-only change."""
    api = FakeApi()
    drawn: list[str] = []

    def draw(spec: dict) -> bytes:
        drawn.append(spec["key"])
        return b"\x89PNG " + spec["key"].encode()

    sender = Sender(store, api, *fast_rates(), draw=draw)
    pump = ViewPump(store, sender)

    def pictured(text: str, key: str) -> Outbound:
        spec = {"game": "g", "view": {"you": None}, "names": [], "lang": "pt_BR", "key": key}
        return Outbound(chat_id=GROUP, table_id="t1", slot="status", text=text, picture=spec, background=True)

    queue(store, pictured("round 1", "aaaa"), pictured("round 2", "bbbb"))  # the first is replaced unsent
    pump_until_quiet(pump)
    queue(store, pictured("round 2, Ana's turn", "bbbb"))  # the same picture: a caption edit
    pump_until_quiet(pump)
    queue(store, pictured("round 3", "cccc"))
    pump_until_quiet(pump)
    assert api.methods() == ["sendPhoto", "editMessageCaption", "editMessageMedia"]
    assert drawn == ["bbbb", "cccc"]


def test_a_view_that_cannot_be_sent_holds_up_only_its_own_chat(store):
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())  # no way to draw pictures: the pictured view fails
    spec = {"game": "g", "view": {"you": None}, "names": [], "lang": "pt_BR", "key": "k1"}
    queue(store, Outbound(chat_id=GROUP, table_id="t1", slot="status", text="x", picture=spec, background=True),
          status("fine", OTHER_GROUP))
    pump = ViewPump(store, sender)
    for _ in range(4):
        time.sleep(pump.step())
    assert [p.get("text") for _, _, p in api.calls] == ["fine"]
    assert store.r.zscore(store.k.ob_bdue, str(GROUP)) > time.time() + 10 and store.r.llen(store.k.ob_bq(GROUP)) == 1


def test_views_send_only_the_share_prompts_earn_them(store):
    """The views' credit (BGB_VIEW_CREDIT): every prompt-lane send earns the views `per_send` of a
    token; a view takes a whole one. With no refill of its own and an empty bucket, ten prompts buy
    exactly one view, and the group's status waits for them, its newest content winning."""
    from workers.config import ViewCredit

    api = FakeApi()
    credit = ViewCredit(per_send=0.1, capacity=3, per_second=0.0)
    sender = Sender(store, api, *fast_rates(), view_credit=credit)
    store.r.hset(store.k.rl_vcredit, mapping={"tokens": "0", "ts": str(int(time.time() * 1000))})
    pump = ViewPump(store, sender)
    queue(store, status("s1"))
    assert pump.step() > 0 and not api.calls  # no credit: the status waits
    for i in range(9):
        queue(store, Outbound(chat_id=ANA + i, text=f"prompt {i}"))
        run_prompts(sender, ANA + i)
    queue(store, status("s2"))
    assert pump.step() > 0 and len(api.calls) == 9  # nine tenths of a view: still waiting
    queue(store, Outbound(chat_id=ANA + 9, text="prompt 9"))
    run_prompts(sender, ANA + 9)
    pump_until_quiet(pump)
    assert [p["text"] for _, _, p in api.calls][-1] == "s2" and len(api.calls) == 11
    # the credit never exceeds its capacity, however many prompts went out while no view waited
    for i in range(60):
        queue(store, Outbound(chat_id=ANA + i, text=f"more {i}"))
        run_prompts(sender, ANA + i)
    assert float(store.r.hget(store.k.rl_vcredit, "tokens")) <= 3.0


def test_the_views_credit_refills_on_its_own_so_a_quiet_bot_still_updates_its_groups(store):
    from workers.config import ViewCredit

    api = FakeApi()
    sender = Sender(store, api, *fast_rates(), view_credit=ViewCredit(per_send=0.1, capacity=1, per_second=5.0))
    store.r.hset(store.k.rl_vcredit, mapping={"tokens": "0", "ts": str(int(time.time() * 1000))})
    queue(store, status("alone"))
    started = time.monotonic()
    pump_until_quiet(ViewPump(store, sender))
    assert [p["text"] for _, _, p in api.calls] == ["alone"] and time.monotonic() - started >= 0.15


def test_view_credit_settings_parse():
    from workers.config import ViewCredit

    assert ViewCredit.parse("0.2:5:0.5") == ViewCredit(0.2, 5, 0.5)
    assert ViewCredit.parse("0.03") == ViewCredit(0.03, 2, 0.05)
    assert not ViewCredit.parse("off").on and ViewCredit().on


def test_a_groups_status_goes_before_a_players_note(store):
    """Views that wait for credit: the group's status first (the table the group sees), a player's note
    after it (its news was in the press's answer already)."""
    api = FakeApi()
    sender = Sender(store, api, *fast_rates())
    queue(store, Outbound(chat_id=ANA, table_id="t1", slot="prompt.1", text="✔ Feito.", background=True))
    time.sleep(0.01)
    queue(store, status("the table"))
    pump_until_quiet(ViewPump(store, sender))
    assert [p["chat_id"] for _, _, p in api.calls] == [GROUP, ANA]
