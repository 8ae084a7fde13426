"""The webhook: secret, dedupe, routing into inboxes, malformed input — with the emulator
as the Bot API (getMe at start-up, answerCallbackQuery for presses it judges itself)."""

from __future__ import annotations

import json

import pytest
from starlette.testclient import TestClient

from bot import create_app
from workers.protocol import Command, callback, join_payload

pytestmark = pytest.mark.redis

SECRET = "s3cret-token"
GROUP = -100777


@pytest.fixture(scope="module")
def emulator():
    from emulator import EmulatorServer

    with EmulatorServer() as emu:
        yield emu


@pytest.fixture
def client(emulator, settings, store):
    from dataclasses import replace

    s = replace(settings, token=emulator.token, api_base_url=emulator.base_url, webhook_secret=SECRET)
    woken: list[str] = []
    app = create_app(s, enqueue=woken.append)
    with TestClient(app) as c:
        c.woken = woken
        yield c


def post(client, update: dict | str | bytes, secret: str | None = SECRET):
    headers = {"X-Telegram-Bot-Api-Secret-Token": secret} if secret is not None else {}
    body = update if isinstance(update, (str, bytes)) else json.dumps(update)
    return client.post("/webhook", content=body, headers=headers)


def user(uid: int = 5, **kw) -> dict:
    return {"id": uid, "is_bot": False, "first_name": "Ana", "last_name": "Lima", "language_code": "pt-br", **kw}


def message(update_id: int, text: str, chat: dict, uid: int = 5) -> dict:
    return {"update_id": update_id, "message": {"message_id": update_id, "date": 0, "chat": chat,
                                                "from": user(uid), "text": text}}


def group_chat() -> dict:
    return {"id": GROUP, "type": "supergroup", "title": "Mesa"}


def private_chat(uid: int = 5) -> dict:
    return {"id": uid, "type": "private", "first_name": "Ana"}


def press(update_id: int, data: str, uid: int = 5) -> dict:
    return {"update_id": update_id, "callback_query": {
        "id": f"cq{update_id}", "from": user(uid), "chat_instance": "x", "data": data,
        "message": {"message_id": 9, "date": 0, "chat": private_chat(uid), "from": user(999, is_bot=True),
                    "text": "prompt"}}}


def inbox(store, route: str) -> list[Command]:
    return [Command.model_validate_json(x) for x in store.r.lrange(store.k.inbox(route), 0, -1)]


def test_a_wrong_or_missing_secret_gets_403_and_queues_nothing(client, store):
    assert post(client, message(1, "/novojogo", group_chat()), secret="nope").status_code == 403
    assert post(client, message(1, "/novojogo", group_chat()), secret=None).status_code == 403
    assert post(client, message(1, "/novojogo", group_chat()), secret=SECRET[:-1]).status_code == 403
    assert not store.r.keys(f"{store.s.prefix}*inbox*")


def test_a_group_command_routes_to_the_chat_then_to_its_active_table(client, store):
    assert post(client, message(10, "/novojogo@BoardGamesLocalBot spellbook", group_chat())).status_code == 200
    [c] = inbox(store, f"chat:{GROUP}")
    assert c.text == "/novojogo spellbook" and c.user_name == "Ana Lima" and c.chat_type == "supergroup"
    assert client.woken == [f"chat:{GROUP}"]
    store.r.hset(store.k.active, str(GROUP), "abc123")
    post(client, message(11, "/status", group_chat()))
    assert [c.text for c in inbox(store, "abc123")] == ["/status"]


def test_chatter_and_other_bots_commands_are_ignored(client, store):
    post(client, message(20, "bom dia", group_chat()))
    post(client, message(21, "/status@OtherBot", group_chat()))
    assert not inbox(store, f"chat:{GROUP}") and client.woken == []


def test_a_repeated_update_is_queued_once(client, store):
    for _ in range(3):
        assert post(client, message(30, "/jogos", private_chat())).status_code == 200
    assert [c.update_id for c in inbox(store, "chat:5")] == [30]
    assert store.r.hget(store.k.m_counters, "updates_duplicate") == "2"


def test_start_with_a_join_payload_routes_to_the_table(client, store):
    post(client, message(40, f"/start {join_payload('tbl1')}", private_chat()))
    post(client, message(41, "/start jNOT-VALID!", private_chat()))
    assert [c.text for c in inbox(store, "tbl1")] == ["/start jtbl1"]
    assert [c.text for c in inbox(store, "chat:5")] == ["/start jNOT-VALID!"]


def test_presses_on_known_tables_are_queued_and_forged_ones_are_not(client, store):
    store.r.hset(store.k.table("tbl2"), mapping={"doc": "{}", "rev": 3, "ver": 7})
    post(client, press(50, callback("tbl2", 7, "1")))
    post(client, press(51, callback("tbl2", 5, "1")))  # older: the table logic judges it
    post(client, press(52, callback("tbl2", 8, "1")))  # a version the table never had
    post(client, press(53, callback("nosuch", 1, "1")))  # no such table
    post(client, press(54, "garbage"))
    post(client, press(55, "x" * 65))
    queued = inbox(store, "tbl2")
    assert [c.update_id for c in queued] == [50, 51]
    assert queued[0].kind == "callback" and queued[0].callback_query_id == "cq50" and queued[0].message_id == 9
    assert client.woken == ["tbl2", "tbl2"]


@pytest.mark.parametrize("body", [
    b"not json", b"[]", b"{}", b'{"update_id": "1"}', b'{"update_id": true}', b"\xff\xfe",
    json.dumps({"update_id": 1, "message": {"chat": 5}}),
    json.dumps({"update_id": 1, "callback_query": {"id": 1}}),
])
def test_malformed_updates_get_4xx_and_change_nothing(client, store, body):
    response = post(client, body)
    assert 400 <= response.status_code < 500
    assert not store.r.keys(f"{store.s.prefix}*inbox*")


def test_updates_we_do_not_handle_are_acknowledged(client, store):
    edited = {"update_id": 70, "edited_message": message(70, "x", private_chat())["message"]}
    assert post(client, edited).status_code == 200
    sticker = {"update_id": 71, "message": {"message_id": 1, "date": 0, "chat": private_chat(), "from": user()}}
    assert post(client, sticker).status_code == 200
    assert not store.r.keys(f"{store.s.prefix}*inbox*")


def test_metrics_and_health(client, store):
    post(client, message(80, "/jogos", private_chat()))
    assert client.get("/healthz").text == "ok"
    body = client.get("/metrics").text
    assert "bgb_updates_total 1.0" in body and "bgb_press_to_prompt_seconds_bucket" in body
