"""Update delivery: getUpdates (long polling), webhooks with secret and retries, deep links, callbacks."""

from __future__ import annotations

import asyncio
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest
from telegram import Bot, InlineKeyboardButton, InlineKeyboardMarkup, Update
from telegram.error import BadRequest, Conflict

from emulator import errors as E
from tests.emulator.conftest import raw, run_bot


class Receiver:
    """A tiny webhook endpoint: records every delivery, fails the first `fail` ones with 500.
    `answer(update)` may return (seconds to wait, content type, body) for a 200 answer."""

    def __init__(self, fail: int = 0, answer=None):
        self.fail = fail
        self.received: list[tuple[dict, str | None, int]] = []
        self.lock = threading.Lock()
        receiver = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                with receiver.lock:
                    status = 500 if receiver.fail > 0 else 200
                    receiver.fail -= 1
                reply = answer(body) if answer is not None and status == 200 else None
                if reply is not None:
                    time.sleep(reply[0])
                with receiver.lock:
                    receiver.received.append((body, self.headers.get("X-Telegram-Bot-Api-Secret-Token"), status))
                self.send_response(status)
                if reply is not None and reply[2]:
                    self.send_header("Content-Type", reply[1])
                    self.send_header("Content-Length", str(len(reply[2])))
                    self.end_headers()
                    self.wfile.write(reply[2])
                else:
                    self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/telegram"
        threading.Thread(target=self.server.serve_forever, daemon=True).start()

    def delivered(self) -> list[dict]:
        with self.lock:
            return [body for body, _, status in self.received if status == 200]

    def wait_for(self, count: int, timeout: float = 5.0) -> list[dict]:
        deadline = time.monotonic() + timeout
        while len(self.delivered()) < count and time.monotonic() < deadline:
            time.sleep(0.02)
        return self.delivered()

    def close(self):
        self.server.shutdown()
        self.server.server_close()


def chat_of(update: dict) -> int:
    kind = "message" if "message" in update else "my_chat_member"
    return update[kind]["chat"]["id"]


def test_get_updates_offsets_and_shapes(emu, people):
    c = emu.control
    c.send(people["group"], people["ana"], "/novo spellbook")

    async def go(bot):
        updates = await bot.get_updates()
        ids = [u.update_id for u in updates]
        assert ids == sorted(ids) and len(set(ids)) == len(ids)
        again = await bot.get_updates()  # not confirmed yet: the same updates again
        assert [u.update_id for u in again] == ids
        rest = await bot.get_updates(offset=ids[-1])
        assert [u.update_id for u in rest] == ids[-1:]
        assert await bot.get_updates(offset=ids[-1] + 1, timeout=0) == ()
        return updates

    updates: tuple[Update, ...] = run_bot(emu, go)
    kinds = [("my_chat_member" if u.my_chat_member else "message") for u in updates]
    # The group was created with the bot in it, then Ana and Bia pressed Start, then the command.
    assert kinds == ["my_chat_member", "message", "message", "message"]
    command = updates[-1].message
    assert command.text == "/novo spellbook" and command.chat.id == people["group"]
    assert command.from_user.id == people["ana"] and command.from_user.language_code == "pt-br"
    assert [(e.type, e.offset, e.length) for e in command.entities] == [("bot_command", 0, 5)]


def test_long_polling_returns_when_an_update_arrives(emu, people):
    async def go(bot):
        await bot.get_updates(offset=-1)
        last = (await bot.get_updates())[-1].update_id
        threading.Timer(0.3, lambda: emu.control.send(people["ana"], people["ana"], "oi")).start()
        started = time.monotonic()
        got = await bot.get_updates(offset=last + 1, timeout=10)
        return time.monotonic() - started, got

    elapsed, got = run_bot(emu, go)
    assert 0.2 < elapsed < 3 and got[0].message.text == "oi"


def test_privacy_mode_in_groups(emu, people):
    c = emu.control
    said = httpx.post(f"{emu.base_url}/_emulator/messages",
                      json={"chat_id": people["group"], "user_id": people["ana"], "text": "bom dia"}).json()
    assert said["delivered"] is False  # not a command: the bot does not see it
    c.send(people["group"], people["ana"], f"/status@{emu.config.bot_username}")
    c.send(people["group"], people["ana"], "/status@OutroBot")
    c.send(people["ana"], people["ana"], "texto livre no privado")
    texts = [u.message.text for u in run_bot(emu, lambda bot: bot.get_updates()) if u.message]
    assert texts[-2:] == [f"/status@{emu.config.bot_username}", "texto livre no privado"]
    assert len(c.messages(people["group"])) == 3  # everyone still sees them in the chat
    assert c.send(people["group"], people["ana"], "/ajuda") == 4


def test_allowed_updates_filter(emu, people):
    async def go(bot):
        await bot.get_updates(offset=-1, allowed_updates=["callback_query"])
        return await bot.get_updates()

    run_bot(emu, go)
    emu.control.send(people["ana"], people["ana"], "ignorado")
    assert list(run_bot(emu, lambda bot: bot.get_updates(allowed_updates=[]))) != []  # [] restores the default


def test_webhook_delivery_with_secret_retries_and_order(emu, people):
    receiver = Receiver(fail=3)
    try:
        async def go(bot):
            assert await bot.set_webhook(receiver.url, secret_token="s3cr3t_token-1") is True
            with pytest.raises(Conflict, match="can't use getUpdates method while webhook is active"):
                await bot.get_updates()

        run_bot(emu, go)
        for i in range(5):
            emu.control.send(people["ana"], people["ana"], f"msg {i}")
        delivered = receiver.wait_for(3 + 5)
        ids = [u["update_id"] for u in delivered]
        assert sorted(ids) == list(range(1, 9))  # nothing lost, nothing twice
        for chat in {chat_of(u) for u in delivered}:  # in order within each chat
            mine = [u["update_id"] for u in delivered if chat_of(u) == chat]
            assert mine == sorted(mine)
        assert [u["message"]["text"] for u in delivered if chat_of(u) == people["ana"]] == \
            ["/start"] + [f"msg {i}" for i in range(5)]
        assert {secret for _, secret, _ in receiver.received} == {"s3cr3t_token-1"}
        failed = [body["update_id"] for body, _, status in receiver.received if status == 500]
        assert len(failed) == 3
        for update_id in failed:  # each refused update was retried until it got through
            order = [body["update_id"] for body, _, _ in receiver.received]
            assert order.index(update_id) < len(order) - 1 - order[::-1].index(update_id)
        info = run_bot(emu, lambda bot: bot.get_webhook_info())
        assert info.url == receiver.url and info.pending_update_count == 0
        assert info.last_error_message == "Wrong response from the webhook: 500 Internal Server Error"
        assert emu.control.stats()["webhook_failures"] == 3
        status, body = raw(emu, "getUpdates")
        assert (status, body["description"]) == (409, E.WEBHOOK_CONFLICT)
    finally:
        receiver.close()


def test_a_slow_answer_holds_up_its_own_queue_only(emu, people):
    """Like Telegram's server: one user's presses (one chat's messages) in order, one at a time;
    other users' updates go out meanwhile over other connections."""
    ana, bia = people["ana"], people["bia"]
    receiver = Receiver(answer=lambda u: (0.8 if u.get("message", {}).get("text") == "devagar" else 0, "", b""))
    try:
        run_bot(emu, lambda bot: bot.set_webhook(receiver.url))
        receiver.wait_for(3)
        emu.control.send(ana, ana, "devagar")
        emu.control.send(ana, ana, "depois")
        time.sleep(0.1)
        emu.control.send(bia, bia, "rápido")
        texts = [u["message"]["text"] for u in receiver.wait_for(6)[3:]]
        assert texts == ["rápido", "devagar", "depois"]
    finally:
        receiver.close()


def test_a_method_in_the_webhooks_answer_is_run_and_counted_as_a_reply(emu, people):
    """Bot API, "Making requests when getting updates": the answer names a method; Telegram runs
    it (nobody sees the result). Counted under webhook_replies, not as a request; not metered
    for answerCallbackQuery, metered like any send for sendMessage."""
    ana, group = people["ana"], people["group"]
    markup = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
    msg = raw(emu, "sendMessage", chat_id=group, text="x", reply_markup=markup)[1]["result"]

    def answer(update):
        if "callback_query" in update:
            q = update["callback_query"]
            body = {"method": "answerCallbackQuery", "callback_query_id": q["id"], "text": "Feito!"}
            return 0, "application/json", json.dumps(body).encode()
        if update.get("message", {}).get("text") == "oi":
            form = f"method=sendMessage&chat_id={ana}&text=Ol%C3%A1"
            return 0, "application/x-www-form-urlencoded", form.encode()
        if update.get("message", {}).get("text") == "info":
            return 0, "application/json", json.dumps({"method": "getMe"}).encode()  # never run from a reply
        return 0, "application/json", b"{}"

    receiver = Receiver(answer=answer)
    try:
        run_bot(emu, lambda bot: bot.set_webhook(receiver.url))
        before = emu.control.stats()
        pressed = emu.control.press(group, msg["message_id"], ana, "a", wait=3)
        assert pressed["answered"] and pressed["text"] == "Feito!"
        emu.control.send(ana, ana, "oi")
        emu.control.send(ana, ana, "info")
        receiver.wait_for(6)
        deadline = time.monotonic() + 3
        while not [m for m in emu.control.messages(ana) if m["from_bot"]] and time.monotonic() < deadline:
            time.sleep(0.02)
        assert [m["text"] for m in emu.control.messages(ana) if m["from_bot"]] == ["Olá"]
        after = emu.control.stats()
        assert after["webhook_replies"] == {"answerCallbackQuery": 1, "sendMessage": 1}
        assert after["webhook_replies_by_chat"] == {str(ana): 1}
        assert after["total_calls"] == before["total_calls"]  # the bot made no request for them
        assert after["calls"].get("answerCallbackQuery", 0) == 0
    finally:
        receiver.close()


def test_a_send_in_a_webhooks_answer_takes_from_the_same_flood_limits(emu, people):
    ana = people["ana"]
    emu.control.limits(per_chat="1/60")
    raw(emu, "sendMessage", chat_id=ana, text="primeira")  # the chat's one message this minute

    def answer(update):
        body = {"method": "sendMessage", "chat_id": ana, "text": "segunda"}
        return 0, "application/json", json.dumps(body).encode()

    receiver = Receiver(answer=answer)
    try:
        run_bot(emu, lambda bot: bot.set_webhook(receiver.url, drop_pending_updates=True))
        emu.control.send(ana, ana, "oi")
        receiver.wait_for(1)
        deadline = time.monotonic() + 3
        while not emu.control.stats()["webhook_reply_errors"] and time.monotonic() < deadline:
            time.sleep(0.02)
        stats = emu.control.stats()
        assert stats["webhook_reply_errors"] == {"sendMessage:429": 1} and stats["errors"]["429"] == 1
        assert [m["text"] for m in emu.control.messages(ana) if m["from_bot"]] == ["primeira"]
    finally:
        receiver.close()


def test_webhook_unreachable_keeps_updates_then_delete_webhook_hands_them_to_get_updates(emu, people):
    receiver = Receiver()
    url = receiver.url
    receiver.close()  # nobody listens there any more
    run_bot(emu, lambda bot: bot.set_webhook(url))
    emu.control.send(people["ana"], people["ana"], "perdido?")
    deadline = time.monotonic() + 5
    while emu.control.stats()["webhook_failures"] < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    info = run_bot(emu, lambda bot: bot.get_webhook_info())
    assert info.pending_update_count >= 1 and info.last_error_message.startswith("Connection failed")

    async def go(bot):
        await bot.delete_webhook()
        return await bot.get_updates()

    assert run_bot(emu, go)[-1].message.text == "perdido?"


def test_switching_the_webhook_mid_retry_loses_nothing(emu, people):
    broken, working = Receiver(fail=10_000), Receiver()
    try:
        run_bot(emu, lambda bot: bot.set_webhook(broken.url))
        emu.control.send(people["ana"], people["ana"], "primeira")
        emu.control.send(people["ana"], people["ana"], "segunda")
        deadline = time.monotonic() + 5
        while len(broken.received) < 2 and time.monotonic() < deadline:
            time.sleep(0.02)
        run_bot(emu, lambda bot: bot.set_webhook(working.url))
        delivered = working.wait_for(5)  # my_chat_member, two /start, then the two messages
        assert sorted(u["update_id"] for u in delivered) == list(range(1, 6))
        assert [u["message"]["text"] for u in delivered if "message" in u and chat_of(u) == people["ana"]] == \
            ["/start", "primeira", "segunda"]
        assert broken.delivered() == []
    finally:
        broken.close()
        working.close()


def test_bad_secret_token_is_rejected(emu):
    assert raw(emu, "setWebhook", url="http://127.0.0.1:9/x", secret_token="has spaces")[1]["description"] == \
        E.SECRET_INVALID


def test_deep_link_becomes_start_with_payload(emu):
    c = emu.control
    dora = c.create_user("Dora", "dora")
    with pytest.raises(Exception, match="can't initiate"):
        run_bot(emu, lambda bot: bot.send_message(dora, "oi"))
    link = f"https://t.me/{emu.config.bot_username}?start=join_ab12"
    result = c.deep_link(dora, link)
    assert result == {"chat_id": dora, "message_id": 1, "text": "/start join_ab12"}
    update = run_bot(emu, lambda bot: bot.get_updates())[-1]
    assert update.message.text == "/start join_ab12" and update.message.chat.id == dora == update.message.chat.id
    assert update.message.chat.type == "private"
    assert update.message.entities[0].type == "bot_command" and update.message.entities[0].length == 6
    assert run_bot(emu, lambda bot: bot.send_message(dora, "Bem-vinda!")).text == "Bem-vinda!"
    bad = httpx.post(f"{emu.base_url}/_emulator/deeplinks", json={"user_id": dora, "url": "https://t.me/OutroBot?start=x"})
    assert bad.status_code == 400


def test_callback_query_answered(emu, people):
    c = emu.control
    chat = people["group"]
    markup = InlineKeyboardMarkup([[InlineKeyboardButton("Comprar", callback_data="buy:3")]])
    msg = run_bot(emu, lambda bot: bot.send_message(chat, "Sua vez", reply_markup=markup))
    pressed: dict = {}
    presser = threading.Thread(target=lambda: pressed.update(c.press(chat, msg.message_id, people["bia"], "buy:3")))
    presser.start()

    async def answer(bot):
        offset = None
        for _ in range(50):
            for update in await bot.get_updates(offset=offset, timeout=1):
                offset = update.update_id + 1
                if update.callback_query:
                    query = update.callback_query
                    assert query.data == "buy:3" and query.from_user.id == people["bia"]
                    assert query.message.message_id == msg.message_id and query.message.chat.id == chat
                    await query.answer("Você não tem ouro", show_alert=True)
                    with pytest.raises(BadRequest, match="Query is too old"):
                        await query.answer("de novo")
                    return
        raise AssertionError("no callback query arrived")

    run_bot(emu, answer)
    presser.join(5)
    assert pressed["answered"] is True and pressed["text"] == "Você não tem ouro" and pressed["show_alert"] is True


def test_callback_query_unanswered_and_unknown_button(emu, people):
    c = emu.control
    markup = {"inline_keyboard": [[{"text": "A", "callback_data": "a"}]]}
    msg = raw(emu, "sendMessage", chat_id=people["ana"], text="x", reply_markup=markup)[1]["result"]
    started = time.monotonic()
    result = c.press(people["ana"], msg["message_id"], people["ana"], "a", wait=0.3)
    assert result["answered"] is False and time.monotonic() - started < 4
    stale = httpx.post(f"{emu.base_url}/_emulator/callbacks", json={
        "chat_id": people["ana"], "message_id": msg["message_id"], "user_id": people["ana"], "callback_data": "b"})
    assert stale.status_code == 409
    assert raw(emu, "answerCallbackQuery", callback_query_id="12345")[1]["description"] == E.QUERY_TOO_OLD
    intruder = httpx.post(f"{emu.base_url}/_emulator/callbacks", json={
        "chat_id": people["ana"], "message_id": msg["message_id"], "user_id": people["bia"], "callback_data": "a"})
    assert intruder.status_code == 403


def test_concurrent_get_updates_conflict(emu):
    """Two bot instances polling at once: the older long poll is ended with 409, like Telegram."""

    async def go(bot):
        async with Bot(emu.token, base_url=emu.bot_api_url) as other:
            before = emu.world.getupdates_generation
            first = asyncio.create_task(bot.get_updates(timeout=5))
            for _ in range(200):  # until the first long poll is waiting on the server
                if emu.world.getupdates_generation != before:
                    break
                await asyncio.sleep(0.02)
            second = asyncio.create_task(other.get_updates(timeout=0))
            with pytest.raises(Conflict, match="terminated by other getUpdates request"):
                await first
            return await second

    assert run_bot(emu, go) == ()


def test_python_telegram_bot_application_polls_unmodified(emu):
    """A whole PTB Application (Updater long polling, handlers) against the emulator."""
    from telegram.ext import Application, CallbackQueryHandler, CommandHandler

    c = emu.control
    eva = c.create_user("Eva", "eva")

    async def start(update, context):
        await update.message.reply_text(f"Olá! args={context.args}", reply_markup=InlineKeyboardMarkup(
            [[InlineKeyboardButton("Pronto", callback_data="ready")]]))

    async def ready(update, context):
        await update.callback_query.answer("Tudo certo")
        await update.callback_query.edit_message_text("Pronta!")

    async def main():
        app = Application.builder().token(emu.token).base_url(emu.bot_api_url).build()
        app.add_handler(CommandHandler("start", start))
        app.add_handler(CallbackQueryHandler(ready))
        loop = asyncio.get_running_loop()
        async with app:
            await app.start()
            await app.updater.start_polling(poll_interval=0, timeout=1)
            await loop.run_in_executor(None, c.deep_link, eva, f"https://t.me/{emu.config.bot_username}?start=mesa_9")
            for _ in range(100):
                replies = [m for m in await loop.run_in_executor(None, c.messages, eva) if m["from_bot"]]
                if replies:
                    break
                await asyncio.sleep(0.05)
            answer = await loop.run_in_executor(None, c.press, eva, replies[0]["message_id"], eva, "ready")
            await asyncio.sleep(0.3)
            await app.updater.stop()
            await app.stop()
        return replies[0], answer

    reply, answer = asyncio.run(main())
    assert reply["text"] == "Olá! args=['mesa_9']"
    assert answer["answered"] and answer["text"] == "Tudo certo"
    assert c.messages(eva)[-1]["text"] == "Pronta!" and c.messages(eva)[-1]["edit_count"] == 1
