"""The plumbing around lobbies and closed tables, with the real table logic and Redis: the
drainer asks Telegram whether a joining user is in the group (cached), the lobby caps read
indexes the commits keep, and a closed table's key expires (30 days finished, 1 day
cancelled) with its indexes cleaned in the same commit."""

from __future__ import annotations

import time
from dataclasses import replace

import pytest

from workers.drain import Drainer
from workers.protocol import Command, Result
from workers.runtime import member_standing
from workers.store import Store
from workers.tables import handle

pytestmark = pytest.mark.redis

GROUP = -1002
ANA, BIA, OUT = 11, 12, 13


def msg(update_id: int, route: str, text: str, user: int, chat: int) -> Command:
    return Command(update_id=update_id, kind="message", route=route, chat_id=chat,
                   chat_type="private" if chat > 0 else "supergroup", user_id=user, user_name=f"U{user}",
                   text=text, received_at=time.time())


def run(store, drainer, c: Command) -> None:
    store.r.rpush(store.k.inbox(c.route), c.model_dump_json())
    store.r.sadd(store.k.pending, c.route)
    drainer.drain(c.route)


@pytest.fixture
def asked():
    return []


@pytest.fixture
def drainer(store, asked, toy_registered):
    members = {(GROUP, ANA): "admin", (GROUP, BIA): "member"}

    def membership(chat_id: int, user_id: int) -> str | None:
        asked.append((chat_id, user_id))
        return members.get((chat_id, user_id), "outsider")

    return Drainer(store, handle, membership=membership)


def open_lobby(store, drainer, chat: int = GROUP, update_id: int = 1, user: int = ANA) -> str | None:
    run(store, drainer, msg(update_id, f"chat:{chat}", "/novojogo toy", user, chat))
    return store.r.hget(store.k.active, str(chat))


def seats(store, table_id: str) -> list[int]:
    doc, _ = store.load_table(table_id)
    return [s["user_id"] for s in doc["seats"]]


def test_only_members_join_and_the_answer_is_cached(store, drainer, asked):
    table_id = open_lobby(store, drainer)
    run(store, drainer, msg(2, table_id, f"/start j{table_id}", OUT, OUT))
    run(store, drainer, msg(3, table_id, f"/start j{table_id}", BIA, BIA))
    run(store, drainer, msg(4, table_id, f"/start j{table_id}", OUT, OUT))
    assert seats(store, table_id) == [BIA]
    assert asked.count((GROUP, OUT)) == 1  # the second try came from the cache
    assert store.r.get(store.k.member(GROUP, OUT)) == "outsider" and store.r.ttl(store.k.member(GROUP, OUT)) <= 60
    assert int(store.r.hget(store.k.m_counters, "rejected:not_member")) == 2


def test_getchatmember_answers_map_to_standing():
    assert member_standing({"status": "creator"}) == "admin"
    assert member_standing({"status": "administrator"}) == "admin"
    assert member_standing({"status": "member"}) == "member"
    assert member_standing({"status": "restricted", "is_member": True}) == "member"
    assert member_standing({"status": "restricted", "is_member": False}) == "outsider"
    assert member_standing({"status": "left"}) == member_standing({"status": "kicked"}) == "outsider"


def test_lobby_caps_are_kept_in_redis(store, drainer):
    opened = [open_lobby(store, drainer, GROUP - i, 10 + i) for i in range(4)]
    assert all(opened[:3]) and opened[3] is None
    assert store.r.smembers(store.k.ulobbies(ANA)) == set(opened[:3])
    assert store.r.zcard(store.k.opened(GROUP)) == 1 and 0 < store.r.ttl(store.k.opened(GROUP)) <= 3600
    assert int(store.r.hget(store.k.m_counters, "rejected:too_many_lobbies")) == 1


def test_a_cancelled_table_expires_in_a_day_and_leaves_its_indexes(store, drainer):
    table_id = open_lobby(store, drainer)
    run(store, drainer, msg(2, table_id, f"/start j{table_id}", BIA, BIA))
    assert store.r.ttl(store.k.table(table_id)) == -1  # open: no TTL
    run(store, drainer, msg(3, table_id, "/cancelar", ANA, GROUP))
    doc, _ = store.load_table(table_id)
    data = f"{table_id}:{doc['version']}:Cy"
    c = Command(update_id=4, kind="callback", route=table_id, chat_id=GROUP, chat_type="supergroup", user_id=ANA,
                user_name="Ana", callback_data=data, callback_query_id="q4", received_at=time.time())
    run(store, drainer, c)
    assert store.load_table(table_id)[0]["status"] == "cancelled"
    assert 23 * 3600 < store.r.ttl(store.k.table(table_id)) <= 24 * 3600
    assert store.r.hget(store.k.active, str(GROUP)) is None
    assert not store.r.smembers(store.k.utables(BIA)) and not store.r.smembers(store.k.ulobbies(ANA))


def test_a_finished_table_lives_the_configured_days(store):
    settings = replace(store.s, finished_ttl_days=2.5)
    store = Store(store.r, settings)

    def finish(table, command, directory, now) -> Result:
        return Result(table={"id": "fin1", "version": 9, "status": "over", "chat_id": GROUP})

    store.r.hset(store.k.table("fin1"), mapping={"doc": "{}", "rev": 0, "ver": 8})
    run(store, Drainer(store, finish), msg(1, "fin1", "/status", ANA, GROUP))
    assert 2.5 * 86400 - 60 < store.r.ttl(store.k.table("fin1")) <= 2.5 * 86400
