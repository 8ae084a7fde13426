"""A bot's turn through the plumbing, with the real table logic and Redis: the commit that leaves a table
waiting on a bot records the turn (paced after the status) and wakes the AI task; the AI task pushes
exactly one move per turn — also when it is delivered twice or runs twice at once — checked against the
table's version, and the drain applies it once; a move made stale by a press queued before it is refused
and recomputed; the beat re-wakes a turn whose task was lost."""

from __future__ import annotations

import threading
import time
from dataclasses import dataclass, replace

import pytest

from rulesets.core import load_match
from workers import runtime, tasks
from workers.ai import MEMORY_TTL, Thinker
from workers.drain import Drainer
from workers.protocol import Command, callback
from workers.store import Store
from workers.tables import bots, handle

pytestmark = pytest.mark.redis

GROUP = -1003
ANA = 21
PACE = 3.0


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
def rig(store, toy_registered, clock):
    """A drainer and a thinker on one Redis; what each wakes is recorded instead of sent to Celery."""
    store = Store(store.r, replace(store.s, bot_pace=PACE))
    woken: list[tuple[str, float]] = []
    drains: list[str] = []
    drainer = Drainer(store, handle, membership=lambda chat, user: "admin", clock=clock,
                      wake_ai=lambda table_id, due: woken.append((table_id, due)))
    thinker = Thinker(store, drain=drains.append, wake_ai=lambda table_id, due: woken.append((table_id, due)),
                      clock=clock)

    return Rig(store, drainer, thinker, woken, drains, clock)


@dataclass
class Rig:
    store: Store
    drainer: Drainer
    thinker: Thinker
    woken: list[tuple[str, float]]
    drains: list[str]
    clock: Clock
    update: int = 0


def send(rig, route: str, *, text: str | None = None, data: str | None = None, user: int = ANA,
         chat: int = GROUP, drain: bool = True) -> Command:
    rig.update += 1
    c = Command(update_id=rig.update, kind="callback" if data else "message", route=route, chat_id=chat,
                chat_type="private" if chat > 0 else "supergroup", user_id=user, user_name="Ana", text=text,
                callback_data=data, callback_query_id="q" if data else None, received_at=rig.clock.now)
    rig.store.r.rpush(rig.store.k.inbox(route), c.model_dump_json())
    rig.store.r.sadd(rig.store.k.pending, route)
    if drain:
        rig.drainer.drain(route)
    return c


def doc(rig, table_id: str) -> dict:
    return rig.store.load_table(table_id)[0]


def lobby_press(rig, table_id: str, arg: str) -> None:
    send(rig, table_id, data=callback(table_id, doc(rig, table_id)["lobby"]["version"], arg))


def start_with_a_bot(rig) -> str:
    """Ana opens a toy table, seats a médio bot and starts: both bid at once, so the bot is to act."""
    send(rig, f"chat:{GROUP}", text="/novojogo toy")
    table_id = rig.store.r.hget(rig.store.k.active, str(GROUP))
    send(rig, table_id, text=f"/start j{table_id}", chat=ANA)
    lobby_press(rig, table_id, "La")
    lobby_press(rig, table_id, "La1")
    lobby_press(rig, table_id, "Ls")
    assert doc(rig, table_id)["status"] == "playing"
    return table_id


def bot_moves(rig, table_id: str) -> list[dict]:
    return [e for e in doc(rig, table_id)["match"]["log"] if e["seat"] == 1]


def counter(rig, name: str) -> int:
    return int(rig.store.r.hget(rig.store.k.m_counters, name) or 0)


def test_the_turn_is_recorded_with_its_pace_and_one_move_is_pushed_and_applied(rig):
    table_id = start_with_a_bot(rig)
    k = rig.store.k
    due = rig.store.r.zscore(k.ai_due, table_id)
    assert due == rig.clock.now + PACE  # the status was drawn at the start: the bot waits the pace
    assert rig.woken[-1] == (table_id, due)
    assert rig.thinker.think(table_id) == "early"  # woken before its time: queued again for then
    rig.clock.now += PACE
    assert rig.thinker.think(table_id) == "pushed"
    assert rig.store.r.zscore(k.ai_due, table_id) is None and rig.drains == [table_id]
    inbox = rig.store.r.lrange(k.inbox(table_id), 0, -1)
    assert len(inbox) == 1
    pushed = Command.model_validate_json(inbox[0])
    assert pushed.user_id == bots.BOT_USER and pushed.update_id < 0 and pushed.text.startswith("/_bot 1 ")
    # the task delivered again finds nothing to do
    assert rig.thinker.think(table_id) == "idle"
    assert rig.store.r.llen(k.inbox(table_id)) == 1
    rig.drainer.drain(table_id)
    assert len(bot_moves(rig, table_id)) == 1
    assert counter(rig, "bot_moves") == 1 and counter(rig, "bot_commands") == 1
    # Ana's bid is the only one missing: no bot is to act, and no turn is left behind
    assert rig.store.r.zscore(k.ai_due, table_id) is None


def test_two_tasks_at_once_push_one_move(rig):
    table_id = start_with_a_bot(rig)
    rig.clock.now += PACE
    slow = Thinker(rig.store, drain=rig.drains.append, wake_ai=lambda t, d: None, clock=rig.clock,
                   decide=lambda d, m: (time.sleep(0.3), bots.next_move(d, memory=m))[1])
    outcomes: list[str] = []
    threads = [threading.Thread(target=lambda: outcomes.append(slow.think(table_id))) for _ in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sorted(outcomes) == ["busy", "pushed"]
    assert rig.store.r.llen(rig.store.k.inbox(table_id)) == 1


def test_a_move_made_stale_by_an_earlier_press_is_refused_and_recomputed(rig):
    table_id = start_with_a_bot(rig)
    rig.clock.now += PACE
    # Ana's bid is queued (not yet drained) when the AI reads the table and pushes its move behind it
    table = doc(rig, table_id)
    prompt = table["seats"][0]["shown"]
    send(rig, table_id, data=callback(table_id, prompt["version"], "0.0"), chat=ANA, drain=False)
    assert rig.thinker.think(table_id) == "pushed"
    rig.drainer.drain(table_id)  # Ana's bid changes the table: the bot's move is stale
    assert counter(rig, "rejected:bot_stale") == 1 and bot_moves(rig, table_id) == []
    assert rig.store.r.zscore(rig.store.k.ai_due, table_id) is not None  # the turn is pending again
    rig.clock.now += PACE
    assert rig.thinker.think(table_id) == "pushed"
    rig.drainer.drain(table_id)
    assert len(bot_moves(rig, table_id)) == 1 and counter(rig, "bot_moves") == 1


def test_a_table_that_moved_on_while_the_ai_thought_is_read_again(rig):
    table_id = start_with_a_bot(rig)
    rig.clock.now += PACE
    version = doc(rig, table_id)["version"]

    def decide_then_change(d: dict, memory: bytes | None):
        move = bots.next_move(d, memory=memory)
        if d["version"] == version:  # meanwhile, a command changes the table (Ana's bid)
            prompt = d["seats"][0]["shown"]
            send(rig, table_id, data=callback(table_id, prompt["version"], "0.0"), chat=ANA)
        return move

    thinker = Thinker(rig.store, drain=rig.drains.append, wake_ai=lambda t, d: None, clock=rig.clock,
                      decide=decide_then_change)
    # the push finds another version, so the same task reads the table again and decides from it
    assert thinker.think(table_id) == "pushed"
    assert thinker.think(table_id) == "idle"
    assert rig.store.r.llen(rig.store.k.inbox(table_id)) == 1
    rig.drainer.drain(table_id)
    assert counter(rig, "rejected:bot_stale") == 0 and len(bot_moves(rig, table_id)) == 1


def test_a_lost_task_is_woken_again_by_the_beat(rig, monkeypatch):
    table_id = start_with_a_bot(rig)
    k = rig.store.k
    # the worker that held the AI task died: nothing holds the turn, no task is queued for it
    rig.store.r.zadd(k.ai_due, {table_id: time.time() - 1})
    queued: list[tuple] = []

    class Runtime:
        store, settings = rig.store, rig.store.s
        view_pump = None  # the real one starts this process's view lane (workers/views.py)

    monkeypatch.setattr(runtime, "get", lambda: Runtime)
    monkeypatch.setattr(tasks.think, "apply_async", lambda args, countdown=None, queue=None: queued.append(
        (args, queue)))
    assert tasks.scan()["bots"] == 1
    assert queued == [((table_id,), rig.store.s.ai_queue)]
    assert tasks.scan()["bots"] == 0  # queued lately: not again (until AI_WAKE_GRACE has passed)
    rig.store.r.delete(k.ai_woke(table_id))
    rig.store.r.set(k.ai_lease(table_id), "someone")
    assert tasks.scan()["bots"] == 0  # a task is thinking for it


def test_the_turn_is_forgotten_when_the_table_closes(rig):
    table_id = start_with_a_bot(rig)
    assert rig.store.r.zscore(rig.store.k.ai_due, table_id) is not None
    send(rig, table_id, text="/sair")  # the last person leaves: the table closes
    assert doc(rig, table_id)["status"] == "cancelled"
    assert rig.store.r.zscore(rig.store.k.ai_due, table_id) is None
    rig.clock.now += PACE
    assert rig.thinker.think(table_id) == "idle"


def test_the_ais_command_is_the_inbox_json_of_a_command():
    from workers.ai import command_template

    move = bots.BotMove("abc", 1, 7, "bid:100%", "medio")
    raw = command_template(move, 5.0) % 42
    cmd = Command.model_validate_json(raw)
    assert cmd.update_id == 42 and cmd.text == "/_bot 1 7 bid:100%" and cmd.user_id == 0


def test_the_ais_drainer_sends_what_its_bots_moves_show_itself(rig, clock):
    """The AI's pool applies its bots' moves with `send_all_now`: every chat whose prompt lane they change
    is sent from that process, none is handed to the tasks' queue (workers/runtime.py); the group's status
    is a view, and waits on the view lane for the view pump (workers/views.py)."""
    table_id = start_with_a_bot(rig)
    sent: list[int] = []
    handed: list[int] = []
    ai_drainer = Drainer(rig.store, handle, clock=clock, wake_chats=lambda chats: handed.extend(chats),
                         send_now=sent.append, send_all_now=True)
    # Ana bids 3 first (she wins ties), so the bot's bid reveals both and makes her the roller: her new
    # prompt is on her prompt lane, the group's status on its view lane
    table = doc(rig, table_id)
    send(rig, table_id, data=callback(table_id, table["seats"][0]["shown"]["version"], "0.2"), chat=ANA)
    rig.clock.now += PACE
    thinker = Thinker(rig.store, drain=ai_drainer.drain, wake_ai=lambda t, d: None, clock=clock)
    assert thinker.think(table_id) == "pushed"
    assert len(bot_moves(rig, table_id)) == 1
    assert sent == [ANA] and handed == []
    assert rig.store.r.zscore(rig.store.k.ob_bdue, str(GROUP)) is not None  # the view pump's turn


def test_metrics_show_the_bots_moves_and_pending_turns(rig):
    from workers import metrics

    table_id = start_with_a_bot(rig)
    text = metrics.render(rig.store.r, rig.store.k).decode()
    assert "bgb_bot_turns_pending 1.0" in text
    rig.clock.now += PACE
    rig.thinker.think(table_id)
    rig.drainer.drain(table_id)
    text = metrics.render(rig.store.r, rig.store.k).decode()
    assert "bgb_bot_moves_total 1.0" in text and "bgb_bot_commands_total 1.0" in text
    assert "bgb_bot_turns_pending 0.0" in text


def test_a_solo_bots_memory_is_kept_with_its_move_and_handed_back_at_the_next_one(rig):
    """Spellbook solo reuses a search's tree in the next (rulesets/core/ai/memory.py): the push stores it in
    `ai:mem` atomically with the move, stamped with the match version once the move is played; the next
    think reads it back; a game that keeps none (the toy) leaves no key."""
    send(rig, f"chat:{GROUP}", text="/novojogo spellbook")
    table_id = rig.store.r.hget(rig.store.k.active, str(GROUP))
    lobby_press(rig, table_id, "La")
    lobby_press(rig, table_id, "La0")  # a fácil bot alone: a solo game for the group to watch
    lobby_press(rig, table_id, "Ls")
    assert doc(rig, table_id)["status"] == "playing"
    key = rig.store.k.ai_memory(table_id)
    thinker = rig.thinker  # the AI task as deployed: its own `decide` (bots.next_move), called as it calls it
    recalled = 0
    for _ in range(8):
        rig.clock.now += PACE
        before, memory = doc(rig, table_id), thinker.memory(table_id)
        match = load_match(before["match"])
        recalled += bots.recall(memory, match, 0) is not None
        expected = bots.next_move(before, memory=memory)  # the search, from the memory the task reads
        assert thinker.think(table_id) == "pushed"
        rig.drainer.drain(table_id)
        after = load_match(doc(rig, table_id)["match"])
        assert after.log[-1].choice == expected.choice and expected.level == "facil"  # no stand-in stood in
        kept = thinker.memory(table_id)
        assert kept == (expected.memory or None)  # stored with the move (or deleted: none left)
        assert kept is None or bots.recall(kept, after, 0) is not None  # stamped for the version now
    assert thinker.memory(table_id) is not None and 0 < rig.store.r.ttl(key) <= MEMORY_TTL
    assert recalled >= 3


def test_a_game_that_keeps_no_memory_leaves_no_key(rig):
    table_id = start_with_a_bot(rig)
    rig.clock.now += PACE
    assert rig.thinker.think(table_id) == "pushed"
    assert rig.store.r.exists(rig.store.k.ai_memory(table_id)) == 0
