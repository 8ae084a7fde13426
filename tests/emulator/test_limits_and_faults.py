"""Flood control (with small limits so the tests are fast) and injected faults."""

from __future__ import annotations

import time

import httpx
import pytest
from telegram.error import BadRequest, Forbidden, NetworkError, RetryAfter, TimedOut

from emulator import Limit, Limits
from tests.emulator.conftest import raw, run_bot


def test_per_chat_limit_gives_429_with_retry_after(emu, people):
    emu.control.limits(per_chat="2/60")

    async def go(bot):
        await bot.send_message(people["ana"], "1")
        await bot.send_message(people["ana"], "2")
        # retry_after is whole seconds until the window frees a slot, like Telegram's
        with pytest.raises(RetryAfter, match="Retry in (59|60) seconds"):
            await bot.send_message(people["ana"], "3")
        await bot.send_message(people["bia"], "other chats are not affected")

    run_bot(emu, go)
    status, body = raw(emu, "sendMessage", chat_id=people["ana"], text="x")
    retry = body["parameters"]["retry_after"]
    assert (status, body) == (429, {"ok": False, "error_code": 429, "parameters": {"retry_after": retry},
                                    "description": f"Too Many Requests: retry after {retry}"})
    stats = emu.control.stats()
    assert stats["errors"]["429"] == 2 and stats["errors_by_method"]["sendMessage:429"] == 2
    assert len(emu.control.messages(people["ana"])) == 1 + 2  # /start and the two that got through


def test_the_window_frees_after_its_period(emu, people):
    emu.control.limits(per_chat="1/0.8")
    assert raw(emu, "sendMessage", chat_id=people["ana"], text="a")[1]["ok"]
    status, body = raw(emu, "sendMessage", chat_id=people["ana"], text="too soon")
    # a wait under a second is reported as 1: Telegram's retry_after is whole seconds, at least 1
    assert (status, body["parameters"]["retry_after"]) == (429, 1)
    time.sleep(0.85)
    assert raw(emu, "sendMessage", chat_id=people["ana"], text="b")[1]["ok"]


def test_per_group_limit(emu, people):
    emu.control.limits(per_group="3/60")
    for i in range(3):
        assert raw(emu, "sendMessage", chat_id=people["group"], text=str(i))[1]["ok"]
    status, body = raw(emu, "sendMessage", chat_id=people["group"], text="4")
    assert status == 429 and 59 <= body["parameters"]["retry_after"] <= 60
    assert raw(emu, "sendMessage", chat_id=people["ana"], text="private chats have no group limit")[1]["ok"]


def test_overall_limit(emu, people):
    emu.control.limits(overall="3/60")
    for chat in (people["ana"], people["bia"], people["group"]):
        assert raw(emu, "sendMessage", chat_id=chat, text="x")[1]["ok"]
    assert raw(emu, "sendMessage", chat_id=people["ana"], text="x")[0] == 429


def test_edits_count_like_messages_and_other_calls_do_not(emu, people):
    emu.control.limits(per_chat="2/60")
    chat = people["ana"]
    mid = raw(emu, "sendMessage", chat_id=chat, text="v1")[1]["result"]["message_id"]
    assert raw(emu, "editMessageText", chat_id=chat, message_id=mid, text="v2")[1]["ok"]
    assert raw(emu, "editMessageText", chat_id=chat, message_id=mid, text="v3")[0] == 429
    # Not metered: chat actions, pins, reads; and a rejected call does not use up the budget.
    for _ in range(3):
        assert raw(emu, "sendChatAction", chat_id=chat, action="typing")[1]["ok"]
        assert raw(emu, "getChat", chat_id=chat)[1]["ok"]
    assert raw(emu, "deleteMessage", chat_id=chat, message_id=mid)[1]["ok"]


def test_limits_api_and_config(emu):
    assert httpx.get(f"{emu.base_url}/_emulator/limits").json() == {"per_chat": None, "per_group": None,
                                                                     "overall": None}
    assert emu.control.limits(per_chat="1/1", overall=None) == {"per_chat": "1/1", "per_group": None, "overall": None}
    assert httpx.post(f"{emu.base_url}/_emulator/limits", json={"sideways": "1/1"}).status_code == 400
    assert Limits().per_group == Limit(20, 60.0) and Limits().overall == Limit(30, 1.0)
    emu.control.reset()  # back to the configured limits
    assert httpx.get(f"{emu.base_url}/_emulator/limits").json()["per_chat"] is None


def test_fault_429_then_recovers(emu, people):
    emu.control.fault(429, count=2, method="sendMessage", retry_after=7)

    async def go(bot):
        for _ in range(2):
            with pytest.raises(RetryAfter, match="Retry in 7 seconds"):
                await bot.send_message(people["ana"], "x")
        return await bot.send_message(people["ana"], "ok")

    assert run_bot(emu, go).text == "ok"
    assert emu.control.stats()["faults"] == []


def test_faults_match_method_and_chat(emu, people):
    c = emu.control
    c.fault(403, chat_id=people["bia"])
    c.fault(500, method="editMessageText")
    c.fault(400, method="sendPhoto", description="Bad Request: custom")

    async def go(bot):
        await bot.send_message(people["ana"], "ana is fine")
        with pytest.raises(Forbidden, match="bot was blocked by the user"):
            await bot.send_message(people["bia"], "x")
        msg = await bot.send_message(people["bia"], "now it works")
        with pytest.raises(NetworkError, match="Internal Server Error"):
            await bot.edit_message_text("y", chat_id=people["bia"], message_id=msg.message_id)
        with pytest.raises(BadRequest, match="Custom"):
            await bot.send_photo(people["bia"], "whatever")

    run_bot(emu, go)
    assert emu.control.stats()["errors"] == {"403": 1, "500": 1, "400": 1}
    assert httpx.delete(f"{emu.base_url}/_emulator/faults").json() == {"faults": []}


def test_fault_timeout(emu, people):
    c = emu.control
    c.fault("timeout", method="sendMessage", delay=1.0)
    c.fault("timeout", method="sendMessage", delay=1.0, execute=True)

    async def go(bot):
        with pytest.raises(TimedOut):
            await bot.send_message(people["ana"], "lost", read_timeout=0.3)
        with pytest.raises(TimedOut):
            await bot.send_message(people["ana"], "sent anyway", read_timeout=0.3)

    run_bot(emu, go)
    deadline = time.monotonic() + 5
    while len(c.messages(people["ana"])) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    time.sleep(0.3)  # the first (not executed) has answered by now too
    texts = [m["text"] for m in c.messages(people["ana"])]
    assert texts == ["/start", "sent anyway"]  # the first never happened, the second did behind the timeout
