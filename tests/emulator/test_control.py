"""The control API contract, the CLI command and embedding the app."""

from __future__ import annotations

import asyncio
import contextlib
import threading

import httpx
import pytest
import uvicorn
from starlette.responses import PlainTextResponse
from starlette.routing import Route

import locales
from boardgamesbot.cli import build_parser
from boardgamesbot.commands.emulator import config_from
from emulator import DEFAULT_TOKEN, ControlAPIError, EmulatorConfig, Limit, create_app
from tests.emulator.conftest import raw


def test_users_groups_and_messages(emu):
    c = emu.control
    ana, bia, caio = c.create_user("Ana", "ana", "pt-br"), c.create_user("Bia"), c.create_user("Caio")
    assert (ana, bia) == (1001, 1002)
    group = c.create_group("Mesa", [ana, bia])
    other = c.create_group("Outra", [caio])
    assert group < 0 and other < 0 and group != other
    assert c.send(group, bia, "/jogar") == 1
    assert c.send(group, ana, "/status") == 2
    with pytest.raises(ControlAPIError) as not_member:
        c.send(group, caio, "oi")
    assert not_member.value.status == 403
    with pytest.raises(ControlAPIError):
        c.send(ana, bia, "someone else's private chat")
    with pytest.raises(ControlAPIError) as unknown:
        c.send(-424242, ana, "x")
    assert unknown.value.status == 404
    messages = c.messages(group)
    assert [(m["message_id"], m["from_user_id"], m["from_bot"], m["text"]) for m in messages] == [
        (1, bia, False, "/jogar"), (2, ana, False, "/status")]
    assert set(messages[0]) >= {"message_id", "from_bot", "from_user_id", "text", "caption", "has_photo",
                                "reply_markup", "edit_count", "deleted"}
    chats = httpx.get(f"{emu.base_url}/_emulator/chats", params={"user_id": ana}).json()["chats"]
    assert [ch["chat_id"] for ch in chats] == [ana, group]
    users = httpx.get(f"{emu.base_url}/_emulator/users").json()["users"]
    assert [u["first_name"] for u in users] == ["Ana", "Bia", "Caio"] and users[0]["language_code"] == "pt-br"
    bad = httpx.post(f"{emu.base_url}/_emulator/users", json={"username": "nameless"})
    assert bad.status_code == 400 and "first_name" in bad.json()["error"]
    added = httpx.post(f"{emu.base_url}/_emulator/groups/{group}/members", json={"user_id": caio}).json()
    assert added["member_ids"] == [ana, bia, caio] and c.send(group, caio, "cheguei") == 3


def test_stats_count_calls_per_method_and_chat(emu, people):
    raw(emu, "sendMessage", chat_id=people["ana"], text="a")
    raw(emu, "sendMessage", chat_id=people["ana"], text="")
    raw(emu, "getMe")
    stats = emu.control.stats()
    assert stats["calls"] == {"sendMessage": 2, "getMe": 1}
    assert stats["calls_by_chat"] == {str(people["ana"]): 2}
    assert stats["errors"] == {"400": 1} and stats["total_calls"] == 3


def test_reset_forgets_everything(emu, people):
    raw(emu, "setWebhook", url="http://127.0.0.1:9/hook")
    emu.control.fault(500)
    emu.control.reset()
    assert httpx.get(f"{emu.base_url}/_emulator/users").json() == {"users": []}
    assert emu.control.stats()["total_calls"] == 0 and emu.control.stats()["faults"] == []
    assert raw(emu, "getWebhookInfo")[1]["result"]["url"] == ""
    assert emu.control.create_user("Zé") == 1001


def test_poll_returns_on_change(emu):
    version = httpx.get(f"{emu.base_url}/_emulator/poll", params={"since": -1}).json()["version"]
    timer = threading.Timer(0.2, lambda: emu.control.create_user("Ana"))
    timer.start()
    changed = httpx.get(f"{emu.base_url}/_emulator/poll", params={"since": version, "timeout": 5}, timeout=10)
    assert changed.json()["version"] > version


def test_web_chat_texts_come_from_the_catalogue(emu):
    pt = httpx.get(f"{emu.base_url}/_emulator/texts", params={"lang": "pt-BR"}).json()
    en = httpx.get(f"{emu.base_url}/_emulator/texts", params={"lang": "en-US"}).json()
    assert pt["lang"] == "pt_BR" and en["lang"] == "en"
    assert pt["texts"]["send"] == locales.text("emulator.web.send", "pt_BR") == "Enviar"
    assert set(pt["texts"]) == set(en["texts"]) and len(pt["texts"]) > 20
    page = httpx.get(emu.base_url + "/").text
    assert "/_emulator/static/app.js" in page and "Enviar" not in page  # the page holds no sentence itself


def test_cli_command_builds_its_config():
    args = build_parser().parse_args(["emulator", "--port", "9999", "--per-chat", "1/1", "--no-privacy"])
    config = config_from(args)
    assert (args.port, config.token, config.privacy_mode) == (9999, DEFAULT_TOKEN, False)
    assert config.limits.per_chat == Limit(1, 1.0) and config.limits.per_group == Limit(20, 60.0)
    off = config_from(build_parser().parse_args(["emulator", "--no-limits", "--token", "1:x"]))
    assert off.limits.overall is None and off.token == "1:x" and off.bot_id == 1


def test_create_app_serves_extra_routes_and_runs_the_extra_lifespan():
    events = []

    @contextlib.asynccontextmanager
    async def bot_lifespan(app):
        events.append("bot up")
        yield
        events.append("bot down")

    async def hook(request):
        return PlainTextResponse("bot webhook")

    app = create_app(EmulatorConfig(token="42:abc"), extra_routes=[Route("/telegram", hook, methods=["POST"])],
                     lifespan=bot_lifespan)

    async def main():
        server = uvicorn.Server(uvicorn.Config(app, port=0, log_level="warning"))
        task = asyncio.create_task(server.serve())
        while not server.started:
            await asyncio.sleep(0.01)
        port = server.servers[0].sockets[0].getsockname()[1]
        async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{port}") as client:
            hooked = (await client.post("/telegram")).text
            me = (await client.get("/bot42:abc/getMe")).json()["result"]["id"]
            wrong = (await client.get(f"/bot{DEFAULT_TOKEN}/getMe")).status_code
        server.should_exit = True
        await task
        return hooked, me, wrong

    assert asyncio.run(main()) == ("bot webhook", 42, 401)
    assert events == ["bot up", "bot down"]
