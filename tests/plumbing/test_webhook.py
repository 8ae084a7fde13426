"""The webhook: secret, dedupe, routing into inboxes, malformed input, answers to presses in
its replies — with the emulator as the Bot API (getMe at start-up)."""

from __future__ import annotations

import json
import threading

import pytest
from starlette.testclient import TestClient

from bot import create_app
from bot.app import split_by_port
from workers.protocol import Command, callback, join_payload

pytestmark = pytest.mark.redis

SECRET = "s3cret-token"
GROUP = -100777
ADMIN_PORT = 9080
ADMIN = f"http://testserver:{ADMIN_PORT}"


@pytest.fixture(scope="module")
def emulator():
    from emulator import EmulatorServer

    with EmulatorServer() as emu:
        yield emu


@pytest.fixture
def client(emulator, settings, store):
    from dataclasses import replace

    s = replace(settings, token=emulator.token, api_base_url=emulator.base_url, webhook_secret=SECRET,
                answer_wait_ms=300)
    woken: list[str] = []
    app = create_app(s, enqueue=woken.append)
    # as `serve` runs it: one server, the webhook on 8080 and the operators' routes on 9080
    with TestClient(split_by_port(app, ADMIN_PORT), base_url="http://testserver:8080") as c:
        c.woken = woken
        c.hook = app.state.webhook
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


def test_a_finished_games_buttons_are_queued_for_the_chat_they_sit_in(client, store):
    post(client, press(60, "~Pabc123", uid=5))  # the table's key may be long gone: the archive answers
    queued = inbox(store, "chat:5")
    assert [c.update_id for c in queued] == [60] and queued[0].callback_data == "~Pabc123"
    assert client.woken == ["chat:5"]


def counter(store, name: str) -> int:
    return int(store.r.hget(store.k.m_counters, name) or 0)


# Bodies that made the webhook answer 500 (with a traceback) or 400, which Telegram redelivers
# with every later update of every chat waiting behind it. With the right secret every body is
# answered 200; a bad one is counted by reason and dropped.
BAD_BODIES = [
    (b"not json", "not_json"), (b"[]", "not_json"), (b"\xff\xfe", "not_json"), (b"", "not_json"),
    (b"{}", "invalid"), (b'{"update_id": "1"}', "invalid"), (b'{"update_id": true}', "invalid"),
    (b'{"update_id": -5}', "invalid"),  # negative ids are the beat's ticks
    (json.dumps({"update_id": 1, "message": {"chat": 5}}), "invalid"),
    (json.dumps({"update_id": 1, "callback_query": {"id": 1}}), "invalid"),
    (b'{"update_id": 1, "x": ' + b"[" * 1000 + b"]" * 1000 + b"}", "too_deep"),  # RecursionError in PTB
    (json.dumps({"update_id": 2, "message": {"message_id": 1, "date": 0, "from": {"id": 5, "is_bot": False,
                 "first_name": "A"}, "text": "/jogos"}}), "invalid"),  # no chat
    (json.dumps({"update_id": 3, "message": {"message_id": 1, "date": 1e14, "chat": {"id": 5, "type": "private"},
                 "text": "/jogos"}}), "invalid"),  # OverflowError in PTB
    (json.dumps({"update_id": 4, "message": {"message_id": 1, "date": 10**14, "chat": {"id": 5, "type": "private"},
                 "text": "/jogos"}}), "invalid"),
    (json.dumps({"update_id": 5, "message": {"message_id": 1, "date": 0, "chat": {"id": 5, "type": "private"},
                 "from": user(), "text": 12}}), "invalid"),
    (json.dumps({"update_id": 6, "message": {"message_id": "a", "date": 0, "chat": {"id": 5, "type": "private"},
                 "from": user(), "text": "/jogos"}}), "invalid"),
    (b'{"update_id": 7, "message": {"message_id": 1, "date": 0, "chat": {"id": 5, "type": "private"}, '
     b'"from": {"id": 5, "is_bot": false, "first_name": "A"}, "text": "/jogos \\ud800"}}', "invalid"),
    (json.dumps({"update_id": 8, "message": {"message_id": 1, "date": 0, "chat": {"id": 10**30, "type": "private"},
                 "from": user(), "text": "/jogos"}}), "invalid"),
]


@pytest.mark.parametrize(("body", "reason"), BAD_BODIES)
def test_a_bad_update_gets_200_is_counted_by_reason_and_changes_nothing(client, store, body, reason):
    response = post(client, body)
    assert response.status_code == 200
    assert counter(store, f"bad_update:{reason}") == 1
    assert not store.r.keys(f"{store.s.prefix}*inbox*")


def answer_of(response) -> str | None:
    """The toast the webhook's reply answers a press with (None: no answerCallbackQuery in it)."""
    body = response.json()
    if body.get("method") != "answerCallbackQuery":
        return None
    return body.get("text", "")


def test_a_unicode_digit_in_a_button_is_answered_not_a_500(client, store):
    store.r.hset(store.k.table("abc"), mapping={"doc": "{}", "rev": 1, "ver": 3})
    toasts = []
    for i, data in enumerate(["abc:²:0.0", "abc:٣:0.0", "abc:1²:0", "abc:𝟙:0"]):
        response = post(client, press(90 + i, data))
        assert response.status_code == 200
        assert response.json()["callback_query_id"] == f"cq{90 + i}"
        toasts.append(answer_of(response))
    assert not inbox(store, "abc")
    assert toasts == ["Este botão não é reconhecido."] * 4
    assert post(client, message(95, "/jogos", private_chat())).status_code == 200  # the next one goes through
    assert [c.update_id for c in inbox(store, "chat:5")] == [95]


def test_a_body_over_the_limit_is_dropped_before_it_is_read_whole(client, store):
    from bot import intake

    big = b'{"update_id": 5, "x": "' + b"a" * (intake.MAX_BODY + 10) + b'"}'
    assert post(client, big).status_code == 200
    # without a Content-Length (chunked): counted while reading
    chunks = iter([big[i:i + 65536] for i in range(0, len(big), 65536)])
    headers = {"X-Telegram-Bot-Api-Secret-Token": SECRET}
    assert client.post("/webhook", content=chunks, headers=headers).status_code == 200
    assert counter(store, "bad_update:too_large") == 2


def test_the_body_reader_stops_at_the_limit():
    import asyncio

    from bot import intake

    read = []

    async def stream():
        for _ in range(100):
            read.append(1)
            yield b"x" * 1000

    async def go():
        with pytest.raises(intake.BadUpdate) as exc:
            await intake.read_body({}, stream(), limit=5000)
        return exc.value.reason

    assert asyncio.run(go()) == "too_large" and len(read) == 6
    assert asyncio.run(_read({"content-length": "999999"}, limit=5000)) == "too_large"
    assert asyncio.run(_read({"content-length": "²"}, limit=5000)) == "not_json"


async def _read(headers, limit):
    from bot import intake

    async def nothing():
        if False:
            yield b""
    try:
        await intake.read_body(headers, nothing(), limit=limit)
    except intake.BadUpdate as exc:
        return exc.reason
    return None


def test_the_depth_scan_ignores_brackets_in_strings():
    from bot import intake

    assert not intake.too_deep(json.dumps({"text": "[" * 500}).encode())
    assert not intake.too_deep(json.dumps({"text": '\\"' + "{" * 500}).encode())
    assert intake.too_deep(b"[" * 33 + b"]" * 33)
    assert not intake.too_deep(b"[" * 32 + b"]" * 32)


def test_a_flooding_user_is_dropped_and_told_once(client, store):
    from dataclasses import replace

    client.hook.s = replace(client.hook.s, flood_rate=0.01)  # the default burst; barely any refill meanwhile
    replies = []
    for i in range(30):  # far faster than a person: the bucket holds 10
        response = post(client, message(200 + i, "/jogos", private_chat(7), uid=7))
        assert response.status_code == 200
        replies.append(response.json())
    queued = inbox(store, "chat:7")
    assert len(queued) == 10
    assert counter(store, "bad_update:flood") == 20
    told = [r for r in replies if r]
    calma = "Calma! Muitos comandos seguidos — espere um pouco."
    assert told == [{"method": "sendMessage", "chat_id": 7, "text": calma}]
    # somebody else is not slowed down
    assert post(client, message(300, "/jogos", private_chat(8), uid=8)).status_code == 200
    assert [c.update_id for c in inbox(store, "chat:8")] == [300]
    # presses too: the toast, in English for an English user (once a minute: already told); the
    # other dropped presses are answered without a word, so their buttons stop spinning
    toasts = []
    for i in range(30):
        body = press(400 + i, "garbage", uid=9)
        body["callback_query"]["from"]["language_code"] = "en"
        toasts.append(answer_of(post(client, body)))
    assert toasts.count("Easy! Too many commands in a row — wait a moment.") == 1
    assert None not in toasts and len([t for t in toasts if t]) <= 12


class Worker:
    """A real Drainer (with the plumbing's fake table logic) that the webhook's enqueue runs in a
    thread, as a Celery worker would. `answered`: the presses it answered with a request."""

    def __init__(self, store) -> None:
        from tests.plumbing import fake_tables
        from workers.drain import Drainer

        self.answered: list[tuple[str, str]] = []
        self.drainer = Drainer(store, fake_tables.handle,
                               answer=lambda q, text, alert: self.answered.append((q, text)))
        self.threads: list[threading.Thread] = []

    def enqueue(self, route: str) -> None:
        t = threading.Thread(target=self.drainer.drain, args=(route,))
        self.threads.append(t)
        t.start()

    def join(self) -> None:
        for t in self.threads:
            t.join(5)


def open_counter_table(store, settings) -> str:
    """A table of tests/plumbing/fake_tables at version 1, opened through the drainer."""
    from tests.plumbing import fake_tables
    from workers.drain import Drainer

    opening = Command(update_id=1, kind="message", route=f"chat:{GROUP}", chat_id=GROUP, chat_type="group",
                      user_id=5, user_name="Ana", text="/novojogo", received_at=0)
    store.r.rpush(store.k.inbox(opening.route), opening.model_dump_json())
    Drainer(store, fake_tables.handle).drain(opening.route)
    return store.r.hget(store.k.active, str(GROUP))


def test_a_queued_press_is_answered_in_the_reply_with_the_table_logics_verdict(client, store, settings):
    table_id = open_counter_table(store, settings)
    worker = Worker(store)
    client.hook.enqueue = worker.enqueue
    moved = post(client, press(600, callback(table_id, 1, "inc")))
    assert moved.status_code == 200
    assert moved.json() == {"method": "answerCallbackQuery", "callback_query_id": "cq600"}  # a move: silence
    assert store.r.get(store.k.cbq("cq600")).startswith("v")
    stale = post(client, press(601, callback(table_id, 1, "inc")))  # the version just moved on
    assert answer_of(stale) == "stale"
    worker.join()
    assert worker.answered == []  # nothing was answered with a request
    assert counter(store, "webhook_replies") == 2 and counter(store, "answers_waited_out") == 0


def test_a_late_verdict_is_given_by_the_worker_with_a_request(client, store, settings):
    table_id = open_counter_table(store, settings)
    response = post(client, press(610, callback(table_id, 1, "inc")))  # nobody drains yet
    assert response.status_code == 200 and response.json() == {}
    assert store.r.get(store.k.cbq("cq610")) == "late"
    assert counter(store, "answers_waited_out") == 1
    worker = Worker(store)
    worker.enqueue(table_id)
    worker.join()
    assert worker.answered == [("cq610", "")]  # once, by the worker
    assert [c.update_id for c in inbox(store, table_id)] == []


def test_a_press_sent_again_gets_its_known_verdict_and_is_applied_once(client, store, settings):
    table_id = open_counter_table(store, settings)
    worker = Worker(store)
    client.hook.enqueue = worker.enqueue
    first = post(client, press(620, callback(table_id, 1, "inc")))
    again = post(client, press(620, callback(table_id, 1, "inc")))  # our 200 never reached Telegram
    assert answer_of(first) == answer_of(again) == ""
    worker.join()
    doc, _ = store.load_table(table_id)
    assert doc["applied"].count(620) == 1 and worker.answered == []


def test_names_are_cleaned_and_capped_in_commands(client, store):
    body = message(500, "/jogos", private_chat())
    body["message"]["from"]["first_name"] = "\u202eAna" + "x" * 5000
    body["message"]["from"]["last_name"] = None
    post(client, body)
    [c] = inbox(store, "chat:5")
    assert c.user_name.startswith("Ana") and len(c.user_name) == 32 and c.user_name.endswith("…")


def test_updates_we_do_not_handle_are_acknowledged(client, store):
    edited = {"update_id": 70, "edited_message": message(70, "x", private_chat())["message"]}
    assert post(client, edited).status_code == 200
    sticker = {"update_id": 71, "message": {"message_id": 1, "date": 0, "chat": private_chat(), "from": user()}}
    assert post(client, sticker).status_code == 200
    assert not store.r.keys(f"{store.s.prefix}*inbox*")


def test_metrics_and_health_are_on_the_admin_app_only(client, store):
    post(client, message(80, "/jogos", private_chat()))
    post(client, b"not json")
    assert client.get(f"{ADMIN}/healthz").text == "redis: up"
    body = client.get(f"{ADMIN}/metrics").text
    assert "bgb_updates_total 1.0" in body and "bgb_press_to_prompt_seconds_bucket" in body
    assert 'bgb_bad_updates_total{reason="not_json"} 1.0' in body and "bgb_redis_up 1.0" in body
    assert client.get("/healthz").status_code == 404 and client.get("/metrics").status_code == 404


def test_during_a_redis_outage_health_says_down_and_metrics_still_answer(client, store):
    import redis
    import redis.asyncio as aioredis

    from boardgamesbot.commands.local import free_port
    from bot.app import INTAKE_LUA

    hook = client.hook
    dead = f"redis://127.0.0.1:{free_port()}/0"  # nothing listens there
    hook.r = aioredis.Redis.from_url(dead, decode_responses=True, socket_connect_timeout=0.5)
    hook.sync_r = redis.Redis.from_url(dead, decode_responses=True, socket_connect_timeout=0.5)
    hook._intake = hook.r.register_script(INTAKE_LUA)
    health = client.get(f"{ADMIN}/healthz")
    assert (health.status_code, health.text) == (503, "redis: down")  # no address, no error text
    scraped = client.get(f"{ADMIN}/metrics")
    assert scraped.status_code == 200 and "bgb_redis_up 0.0" in scraped.text
    assert "bgb_updates_total" not in scraped.text and "127.0.0.1" not in scraped.text
    # the webhook itself: 503 (Telegram redelivers) — never because of the update
    assert post(client, message(81, "/jogos", private_chat())).status_code == 503
