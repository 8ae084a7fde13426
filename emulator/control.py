"""The control API under /_emulator/: the stable JSON contract for tests, scripts and the web chat."""

from __future__ import annotations

import asyncio
import re
import secrets
import time
from pathlib import Path
from urllib.parse import parse_qs, urlparse

from starlette.requests import Request
from starlette.responses import FileResponse, JSONResponse, Response
from starlette.routing import Route

import locales
from emulator.world import Chat, Fault, PendingCallback, World

STATIC = Path(__file__).parent / "static"
WEB_PREFIX = "emulator.web."


class ControlError(Exception):
    def __init__(self, status: int, error: str):
        super().__init__(error)
        self.status = status
        self.error = error


def _world(request: Request) -> World:
    return request.app.state.world


async def _body(request: Request) -> dict:
    try:
        data = await request.json()
    except ValueError as exc:
        raise ControlError(400, "the body must be a JSON object") from exc
    if not isinstance(data, dict):
        raise ControlError(400, "the body must be a JSON object")
    return data


def _int(data: dict, key: str) -> int:
    try:
        return int(data[key])
    except KeyError as exc:
        raise ControlError(400, f"{key} is required") from exc
    except (TypeError, ValueError) as exc:
        raise ControlError(400, f"{key} must be an integer") from exc


def _path_int(request: Request, name: str) -> int:
    try:
        return int(request.path_params[name])
    except ValueError as exc:
        raise ControlError(404, f"{name} must be an integer") from exc


def _user(world: World, user_id: int):
    user = world.users.get(user_id)
    if user is None:
        raise ControlError(404, f"no user {user_id}")
    return user


def _chat(world: World, chat_id: int) -> Chat:
    chat = world.chats.get(chat_id)
    if chat is None:
        raise ControlError(404, f"no chat {chat_id}")
    return chat


def handles_errors(fn):
    async def wrapper(request: Request) -> Response:
        try:
            return await fn(request)
        except ControlError as exc:
            return JSONResponse({"error": exc.error}, status_code=exc.status)
    wrapper.__name__ = fn.__name__
    return wrapper


# ---------------------------------------------------------------------- people and chats
@handles_errors
async def users(request: Request) -> Response:
    world = _world(request)
    if request.method == "GET":
        return JSONResponse({"users": [u.to_api() | {"started": u.started, "blocked": u.blocked}
                                       for u in world.users.values()]})
    data = await _body(request)
    first_name = str(data.get("first_name") or "").strip()
    if not first_name:
        raise ControlError(400, "first_name is required")
    user = world.add_user(first_name, data.get("username") or None, data.get("language_code") or None,
                          data.get("last_name") or None)
    return JSONResponse({"user_id": user.id})


@handles_errors
async def user_blocked(request: Request) -> Response:
    world = _world(request)
    user = _user(world, _path_int(request, "user_id"))
    data = await _body(request)
    user.blocked = bool(data.get("blocked", True))
    world.changed()
    return JSONResponse({"user_id": user.id, "blocked": user.blocked})


@handles_errors
async def groups(request: Request) -> Response:
    world = _world(request)
    data = await _body(request)
    title = str(data.get("title") or "").strip()
    if not title:
        raise ControlError(400, "title is required")
    members = [int(m) for m in data.get("member_ids") or []]
    for member in members:
        _user(world, member)
    chat = world.add_group(title, members)
    return JSONResponse({"chat_id": chat.id})


@handles_errors
async def group_members(request: Request) -> Response:
    world = _world(request)
    chat = _chat(world, _path_int(request, "chat_id"))
    if chat.type == "private":
        raise ControlError(400, "private chats have no members to add")
    user = _user(world, _int(await _body(request), "user_id"))
    if user.id not in chat.member_ids:
        chat.member_ids.append(user.id)
        world.changed()
    return JSONResponse({"chat_id": chat.id, "member_ids": chat.member_ids})


@handles_errors
async def bot_rights(request: Request) -> Response:
    """What the bot may do in a group: {"can_pin_messages": bool} (true for a new group)."""
    world = _world(request)
    chat = _chat(world, _path_int(request, "chat_id"))
    if chat.type == "private":
        raise ControlError(400, "rights are set in groups")
    data = await _body(request)
    chat.bot_can_pin = bool(data.get("can_pin_messages", chat.bot_can_pin))
    world.changed()
    return JSONResponse({"chat_id": chat.id, "can_pin_messages": chat.bot_can_pin})


def chat_summary(world: World, chat: Chat) -> dict:
    if chat.type == "private":
        user = world.users[chat.id]
        title = user.first_name
    else:
        title = chat.title
    typing = chat.action if chat.action and chat.action_until > time.monotonic() else None
    pinned = None
    if chat.pinned:
        msg = chat.messages[chat.pinned[-1]]
        pinned = {"message_id": msg.message_id, "text": msg.text if msg.text is not None else msg.caption}
    return {"chat_id": chat.id, "type": chat.type, "title": title, "member_ids": chat.member_ids,
            "action": typing, "pinned": pinned, "message_count": len(chat.messages)}


@handles_errors
async def chats(request: Request) -> Response:
    world = _world(request)
    user_id = request.query_params.get("user_id")
    selected = list(world.chats.values())
    if user_id:
        uid = int(user_id)
        selected = [c for c in selected if c.id == uid or uid in c.member_ids]
    selected.sort(key=lambda c: (c.type != "private", abs(c.id)))
    return JSONResponse({"chats": [chat_summary(world, c) for c in selected]})


# ---------------------------------------------------------------------- what users do
def _write(world: World, chat_id: int, user_id: int, text: str) -> int:
    user = _user(world, user_id)
    chat = _chat(world, chat_id)
    if chat.type == "private" and chat.id != user.id:
        raise ControlError(403, "a private chat with the bot belongs to one user (chat_id = user_id)")
    if chat.type != "private" and user.id not in chat.member_ids:
        raise ControlError(403, f"user {user.id} is not a member of chat {chat.id}")
    if not text.strip() or len(text) > 4096:
        raise ControlError(400, "text must have 1 to 4096 characters")
    return world.user_writes(chat, user, text).message_id


@handles_errors
async def messages(request: Request) -> Response:
    world = _world(request)
    data = await _body(request)
    message_id = _write(world, _int(data, "chat_id"), _int(data, "user_id"), str(data.get("text") or ""))
    # delivered: whether the bot gets an update for it (privacy mode hides group chatter).
    return JSONResponse({"message_id": message_id, "delivered": world.last_write_delivered})


def deep_link_payload(world: World, url: str) -> str | None:
    """The start payload of https://t.me/<this bot>?start=<payload>, else None."""
    parsed = urlparse(url)
    if parsed.scheme not in ("http", "https") or parsed.netloc.lower() not in ("t.me", "telegram.me"):
        return None
    if parsed.path.strip("/").lower() != world.config.bot_username.lower():
        return None
    values = parse_qs(parsed.query, keep_blank_values=True).get("start")
    return values[0] if values else ""


@handles_errors
async def deeplinks(request: Request) -> Response:
    """A user opens https://t.me/<bot>?start=<payload>: the client sends "/start <payload>"."""
    world = _world(request)
    data = await _body(request)
    user = _user(world, _int(data, "user_id"))
    if "url" in data:
        payload = deep_link_payload(world, str(data["url"]))
        if payload is None:
            raise ControlError(400, f"not a deep link to @{world.config.bot_username}: {data['url']}")
    else:
        payload = str(data.get("payload") or "")
    if payload and not re.fullmatch(r"[A-Za-z0-9_-]{1,64}", payload):
        raise ControlError(400, "a start payload has 1-64 characters A-Z, a-z, 0-9, _ and -")
    text = f"/start {payload}" if payload else "/start"
    message_id = _write(world, user.id, user.id, text)
    return JSONResponse({"chat_id": user.id, "message_id": message_id, "text": text})


@handles_errors
async def callbacks(request: Request) -> Response:
    """A user presses an inline button; waits for answerCallbackQuery (or gives up)."""
    world = _world(request)
    data = await _body(request)
    user = _user(world, _int(data, "user_id"))
    chat = _chat(world, _int(data, "chat_id"))
    msg = chat.messages.get(_int(data, "message_id"))
    if msg is None or msg.deleted:
        raise ControlError(404, "no such message")
    if chat.type != "private" and user.id not in chat.member_ids:
        raise ControlError(403, f"user {user.id} is not a member of chat {chat.id}")
    if chat.type == "private" and chat.id != user.id:
        raise ControlError(403, "only its user sees a private chat with the bot")
    callback_data = str(data.get("callback_data") or "")
    buttons = [b for row in (msg.reply_markup or {}).get("inline_keyboard", []) for b in row]
    if not data.get("force") and not any(b.get("callback_data") == callback_data for b in buttons):
        raise ControlError(409, "the message has no button with this callback_data (pass force: true to send anyway)")
    wait = float(data.get("wait", world.config.callback_wait))
    query_id = str(secrets.randbits(63))
    pending = PendingCallback(query_id, user.id, time.monotonic(), asyncio.get_running_loop().create_future())
    world.callbacks[query_id] = pending
    world.enqueue("callback_query", {
        "id": query_id, "from": user.to_api(), "message": world.message_api(msg),
        "chat_instance": str(abs(chat.id) * 7919 + 17), "data": callback_data,
    })
    try:
        answer = await asyncio.wait_for(asyncio.shield(pending.answered), wait)
    except TimeoutError:
        answer = {"answered": False, "text": None, "show_alert": False, "url": None}
    return JSONResponse({**answer, "callback_query_id": query_id})


# ---------------------------------------------------------------------- what tests read
def button_json(button: dict) -> dict:
    out = {"text": button.get("text")}
    for key in ("callback_data", "url"):
        if key in button:
            out[key] = button[key]
    return out


def message_json(world: World, chat: Chat, msg) -> dict:
    rows = (msg.reply_markup or {}).get("inline_keyboard")
    photo = world.files.get(msg.photo_file_id) if msg.photo_file_id else None
    document = world.files.get(msg.document_file_id) if msg.document_file_id else None
    return {
        "message_id": msg.message_id, "date": msg.date, "from_bot": msg.from_bot, "from_user_id": msg.from_user_id,
        "text": msg.text, "entities": msg.entities, "caption": msg.caption, "caption_entities": msg.caption_entities,
        "has_photo": photo is not None, "photo_url": f"/_emulator/files/{photo.file_id}" if photo else None,
        "document": {"file_name": document.file_name, "mime_type": document.mime_type, "size": len(document.data),
                     "url": f"/_emulator/files/{document.file_id}"} if document else None,
        "reply_markup": [[button_json(b) for b in row] for row in rows] if rows else None,
        "reply_to_message_id": msg.reply_to_message_id, "edit_count": msg.edit_count, "deleted": msg.deleted,
        "pinned": msg.message_id in chat.pinned,
    }


@handles_errors
async def chat_messages(request: Request) -> Response:
    world = _world(request)
    chat = _chat(world, _path_int(request, "chat_id"))
    return JSONResponse({"chat": chat_summary(world, chat),
                         "messages": [message_json(world, chat, m) for m in chat.messages.values()]})


async def stats(request: Request) -> Response:
    return JSONResponse(_world(request).stats())


@handles_errors
async def faults(request: Request) -> Response:
    world = _world(request)
    if request.method == "DELETE":
        world.faults.clear()
    elif request.method == "POST":
        data = await _body(request)
        code = data.get("error_code")
        if code != "timeout":
            try:
                code = int(code)
            except (TypeError, ValueError) as exc:
                raise ControlError(400, 'error_code must be an HTTP error code or "timeout"') from exc
        world.faults.append(Fault(
            error_code=code, count=int(data.get("count", 1)), method=data.get("method"),
            chat_id=int(data["chat_id"]) if data.get("chat_id") is not None else None,
            description=data.get("description"), retry_after=data.get("retry_after"),
            delay=float(data.get("delay", 10.0)), execute=bool(data.get("execute", False))))
    return JSONResponse({"faults": [f.to_json() for f in world.faults]})


@handles_errors
async def limits(request: Request) -> Response:
    world = _world(request)
    if request.method == "POST":
        try:
            world.set_limits(world.flood.limits.updated(await _body(request)))
        except (KeyError, ValueError) as exc:
            raise ControlError(400, f"bad limits: {exc}") from exc
    return JSONResponse(world.flood.limits.to_json())


async def reset(request: Request) -> Response:
    world = _world(request)
    world.reset()
    return JSONResponse({"ok": True})


async def files(request: Request) -> Response:
    stored = _world(request).files.get(request.path_params["file_id"])
    if stored is None:
        return JSONResponse({"error": "no such file"}, status_code=404)
    headers = {"Cache-Control": "max-age=86400"}
    if stored.file_name:  # a document downloads under its own name
        headers["Content-Disposition"] = f'attachment; filename="{stored.file_name}"'
    return Response(stored.data, media_type=stored.mime_type, headers=headers)


# ---------------------------------------------------------------------- for the web chat
async def poll(request: Request) -> Response:
    """Long poll: returns as soon as anything changed after `since` (or after `timeout` s)."""
    world = _world(request)
    since = int(request.query_params.get("since", -1))
    timeout = min(float(request.query_params.get("timeout", 20)), 30.0)
    version = await world.wait_changed(since, timeout)
    return JSONResponse({"version": version})


async def info(request: Request) -> Response:
    world = _world(request)
    commands = world.commands.get("default|||", [])
    return JSONResponse({"bot": world.bot_user, "commands": commands, "webhook_url": world.webhook["url"],
                         "privacy_mode": world.config.privacy_mode, "limits": world.flood.limits.to_json()})


async def texts(request: Request) -> Response:
    lang = locales.normalize(request.query_params.get("lang"))
    catalog = locales.catalog(lang)
    web = {k.removeprefix(WEB_PREFIX): v for k, v in catalog.items() if k.startswith(WEB_PREFIX)}
    return JSONResponse({"lang": lang, "texts": web})


async def index(request: Request) -> Response:
    return FileResponse(STATIC / "index.html", headers={"Cache-Control": "no-cache"})


def routes() -> list[Route]:
    return [
        Route("/_emulator/users", users, methods=["GET", "POST"]),
        Route("/_emulator/users/{user_id}/blocked", user_blocked, methods=["POST"]),
        Route("/_emulator/groups", groups, methods=["POST"]),
        Route("/_emulator/groups/{chat_id}/members", group_members, methods=["POST"]),
        Route("/_emulator/groups/{chat_id}/bot_rights", bot_rights, methods=["POST"]),
        Route("/_emulator/chats", chats, methods=["GET"]),
        Route("/_emulator/chats/{chat_id}/messages", chat_messages, methods=["GET"]),
        Route("/_emulator/messages", messages, methods=["POST"]),
        Route("/_emulator/deeplinks", deeplinks, methods=["POST"]),
        Route("/_emulator/callbacks", callbacks, methods=["POST"]),
        Route("/_emulator/stats", stats, methods=["GET"]),
        Route("/_emulator/faults", faults, methods=["GET", "POST", "DELETE"]),
        Route("/_emulator/limits", limits, methods=["GET", "POST"]),
        Route("/_emulator/reset", reset, methods=["POST"]),
        Route("/_emulator/files/{file_id}", files, methods=["GET"]),
        Route("/_emulator/poll", poll, methods=["GET"]),
        Route("/_emulator/info", info, methods=["GET"]),
        Route("/_emulator/texts", texts, methods=["GET"]),
        Route("/", index, methods=["GET"]),
    ]
