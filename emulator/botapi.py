"""The Bot API methods: `/bot<token>/<method>`, with Telegram's result shapes and errors."""

from __future__ import annotations

import asyncio
import io
import logging
import re
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx
from PIL import Image, UnidentifiedImageError
from starlette.requests import Request
from starlette.responses import JSONResponse

from emulator import errors as E
from emulator.errors import ApiError
from emulator.formatting import parse_html, utf16_len
from emulator.params import Params, read_request
from emulator.world import Chat, Message, PendingCallback, StoredFile, World

MAX_TEXT = 4096
MAX_CAPTION = 1024
MAX_BUTTONS = 100
MAX_ROW = 8
CHAT_ACTIONS = {"typing", "upload_photo", "record_video", "upload_video", "record_voice", "upload_voice",
                "upload_document", "choose_sticker", "find_location", "record_video_note", "upload_video_note"}
# Calls that put or change a message in a chat are metered by flood control. Telegram meters
# edits like sends (bots editing a message in a loop get 429s too), and python-telegram-bot's
# own AIORateLimiter throttles every call that names a chat_id; chat actions, callback answers,
# deletions and reads are not metered here.
METERED = {"sendmessage", "sendphoto", "senddocument", "editmessagetext", "editmessagecaption", "editmessagemedia",
           "editmessagereplymarkup"}
_COMMAND = re.compile(r"^[a-z0-9_]{1,32}$")
_SECRET = re.compile(r"^[A-Za-z0-9_-]{1,256}$")

log = logging.getLogger(__name__)
Handler = Callable[["Api", Params], Awaitable[Any]]
METHODS: dict[str, Handler] = {}
CANONICAL: dict[str, str] = {}  # lower-case -> Telegram's spelling (method names are case-insensitive)


def method(name: str):
    def register(fn: Handler) -> Handler:
        METHODS[name.lower()] = fn
        CANONICAL[name.lower()] = name
        return fn
    return register


class Api:
    """One Bot API call in flight: the world plus helpers shared by the methods."""

    def __init__(self, world: World, http: httpx.AsyncClient, method: str):
        self.world = world
        self.http = http
        self.method = method

    # -------------------------------------------------------------- chats and messages
    def chat(self, p: Params) -> Chat:
        raw = p.values.get("chat_id")
        if raw in (None, ""):
            raise E.missing("chat_id")
        try:
            chat_id = int(raw)
        except (TypeError, ValueError) as exc:
            raise ApiError(400, E.CHAT_NOT_FOUND) from exc
        chat = self.world.chats.get(chat_id)
        if chat is None:
            raise ApiError(400, E.CHAT_NOT_FOUND)
        return chat

    def writable_chat(self, p: Params) -> Chat:
        chat = self.chat(p)
        if chat.type == "private":
            user = self.world.users[chat.id]
            if user.blocked:
                raise ApiError(403, E.BOT_BLOCKED)
            if not user.started:
                raise ApiError(403, E.CANT_INITIATE)
        return chat

    def message(self, chat: Chat, p: Params, not_found: str) -> Message:
        message_id = p.int("message_id", required=False)
        if message_id is None:
            raise ApiError(400, "Bad Request: message identifier is not specified")
        msg = chat.messages.get(message_id)
        if msg is None or msg.deleted:
            raise ApiError(400, not_found)
        return msg

    def bot_message(self, p: Params) -> tuple[Chat, Message]:
        if p.has("inline_message_id") and not p.has("chat_id"):
            raise ApiError(400, "Bad Request: MESSAGE_ID_INVALID")
        chat = self.chat(p)
        msg = self.message(chat, p, E.EDIT_NOT_FOUND)
        if not msg.from_bot:
            raise ApiError(400, E.CANT_EDIT)
        return chat, msg

    def meter(self, chat: Chat) -> None:
        if self.method in METERED:
            self.world.flood.check(chat.id, chat.type != "private")

    # -------------------------------------------------------------- text, captions, markup
    def text(self, p: Params, name: str, entities_name: str, limit: int, too_long: str,
             required: bool) -> tuple[str | None, list[dict]]:
        raw = p.str(name)
        if raw is None or raw == "":
            if required:
                raise ApiError(400, E.TEXT_EMPTY)
            return None, []
        mode = (p.str("parse_mode") or "").lower()
        if mode == "html":
            text, entities = parse_html(raw)
        else:
            # MarkdownV2/Markdown are stored as sent (no entities): the bot speaks HTML.
            text, entities = raw, (p.json(entities_name, "Bad Request: can't parse entities JSON object") or [])
        if required and not text.strip():
            raise ApiError(400, E.TEXT_EMPTY)
        if utf16_len(text) > limit:
            raise ApiError(400, too_long)
        return text, entities

    def markup(self, p: Params) -> dict | None:
        markup = p.json("reply_markup")
        if markup is None:
            return None
        if not isinstance(markup, dict):
            raise ApiError(400, E.MARKUP_JSON)
        if "inline_keyboard" not in markup:
            return markup  # reply keyboards and force_reply: stored, not shown
        rows = markup["inline_keyboard"]
        if not isinstance(rows, list) or not all(isinstance(r, list) for r in rows):
            raise ApiError(400, 'Bad Request: field "inline_keyboard" of the InlineKeyboardMarkup '
                                'should be an Array of Arrays')
        if sum(len(r) for r in rows) > MAX_BUTTONS or any(len(r) > MAX_ROW for r in rows):
            raise ApiError(400, E.MARKUP_TOO_LONG)
        clean_rows = []
        for row in rows:
            clean = []
            for button in row:
                if not isinstance(button, dict) or not button.get("text"):
                    raise ApiError(400, "Bad Request: can't parse inline keyboard button: Text must be non-empty")
                if "callback_data" in button:
                    data = button["callback_data"]
                    if not isinstance(data, str) or not 1 <= len(data.encode()) <= 64:
                        raise ApiError(400, E.BUTTON_DATA_INVALID)
                elif "url" in button:
                    if not re.match(r"^(https?|tg)://\S+$", str(button["url"])):
                        raise ApiError(400, E.BUTTON_URL_INVALID)
                elif not any(k in button for k in ("web_app", "login_url", "switch_inline_query",
                                                    "switch_inline_query_current_chat", "callback_game",
                                                    "pay", "copy_text", "switch_inline_query_chosen_chat")):
                    raise ApiError(400, E.TEXT_BUTTONS)
                clean.append(button)
            if clean:
                clean_rows.append(clean)
        return {"inline_keyboard": clean_rows} if clean_rows else None

    # -------------------------------------------------------------- photos
    async def photo(self, p: Params, value: Any, upload_name: str | None) -> StoredFile:
        """A photo given as an upload, an `attach://name`, a known file_id or an HTTP URL."""
        if upload_name and upload_name in p.files:
            upload = p.files[upload_name]
            return self._store_image(upload.data, upload.content_type)
        if not isinstance(value, str) or not value:
            raise ApiError(400, E.PHOTO_EMPTY)
        if value.startswith("attach://"):
            name = value.removeprefix("attach://")
            if name not in p.files:
                raise ApiError(400, f"Bad Request: file of type photo not found for {value}")
            upload = p.files[name]
            return self._store_image(upload.data, upload.content_type)
        if value in self.world.files:
            return self.world.files[value]
        if value.startswith(("http://", "https://")):
            try:
                response = await self.http.get(value, timeout=10.0, follow_redirects=True)
                response.raise_for_status()
            except httpx.HTTPError as exc:
                raise ApiError(400, E.URL_CONTENT) from exc
            return self._store_image(response.content, response.headers.get("content-type", "image/jpeg"))
        raise ApiError(400, E.WRONG_FILE_ID)

    # -------------------------------------------------------------- documents
    def document(self, p: Params, value: Any) -> StoredFile:
        """A document given as an upload (multipart field "document", or `attach://name`) or a known
        file_id. (Telegram also fetches HTTP URLs; the bot never sends documents that way.)"""
        upload = p.files.get("document")
        if upload is None and isinstance(value, str) and value.startswith("attach://"):
            upload = p.files.get(value.removeprefix("attach://"))
        if upload is not None:
            if not upload.data:
                raise ApiError(400, E.FILE_EMPTY)
            return self.world.store_file(upload.data, upload.content_type or "application/octet-stream", 0, 0,
                                         upload.filename or "document")
        if isinstance(value, str) and value in self.world.files and self.world.files[value].file_name:
            return self.world.files[value]
        if not value:
            raise ApiError(400, E.DOCUMENT_EMPTY)
        raise ApiError(400, E.WRONG_FILE_ID)

    def _store_image(self, data: bytes, content_type: str) -> StoredFile:
        try:
            with Image.open(io.BytesIO(data)) as image:
                width, height = image.size
                mime = Image.MIME.get(image.format or "", content_type or "image/jpeg")
        except (UnidentifiedImageError, OSError) as exc:
            raise ApiError(400, E.IMAGE_INVALID) from exc
        return self.world.store_file(data, mime, width, height)


def _reply_to(chat: Chat, p: Params) -> int | None:
    params = p.json("reply_parameters", "Bad Request: can't parse reply parameters JSON object")
    lenient = p.bool("allow_sending_without_reply")
    if isinstance(params, dict) and params.get("message_id"):
        message_id = int(params["message_id"])
        lenient = lenient or bool(params.get("allow_sending_without_reply"))
    else:
        message_id = p.int("reply_to_message_id", required=False)
    if message_id is None:
        return None
    replied = chat.messages.get(message_id)
    if replied is None or replied.deleted:
        if lenient:
            return None
        raise ApiError(400, E.REPLY_NOT_FOUND)
    return message_id


# ====================================================================== identity and updates
@method("getMe")
async def get_me(api: Api, p: Params):
    return {**api.world.bot_user, "can_join_groups": True,
            "can_read_all_group_messages": not api.world.config.privacy_mode,
            "supports_inline_queries": False, "can_connect_to_business": False, "has_main_web_app": False}


@method("setWebhook")
async def set_webhook(api: Api, p: Params):
    world = api.world
    url = p.str("url") or ""
    secret = p.str("secret_token")
    if secret is not None and secret != "" and not _SECRET.match(secret):
        raise ApiError(400, E.SECRET_INVALID)
    if url and not url.startswith(("http://", "https://")):
        raise ApiError(400, E.BAD_WEBHOOK_URL)
    allowed = p.json("allowed_updates", "Bad Request: can't parse allowed updates")
    if allowed is not None:
        world.allowed_updates = list(allowed)
    if p.bool("drop_pending_updates"):
        world.updates.clear()
    world.webhook.update(url=url, secret_token=secret or None,
                         max_connections=p.int("max_connections", required=False) or 40,
                         last_error_date=None, last_error_message=None)
    world.webhook_changed()
    world.wake_getupdates()  # a waiting getUpdates must now fail with 409
    return True


@method("deleteWebhook")
async def delete_webhook(api: Api, p: Params):
    if p.bool("drop_pending_updates"):
        api.world.updates.clear()
    api.world.webhook.update(url="", secret_token=None, last_error_date=None, last_error_message=None)
    api.world.webhook_changed()
    return True


@method("getWebhookInfo")
async def get_webhook_info(api: Api, p: Params):
    wh = api.world.webhook
    info: dict[str, Any] = {"url": wh["url"], "has_custom_certificate": False,
                            "pending_update_count": len(api.world.updates)}
    if wh["url"]:
        info["max_connections"] = wh["max_connections"]
        info["ip_address"] = "127.0.0.1"
        if api.world.allowed_updates:
            info["allowed_updates"] = api.world.allowed_updates
    if wh["last_error_date"]:
        info["last_error_date"] = wh["last_error_date"]
        info["last_error_message"] = wh["last_error_message"]
    return info


@method("getUpdates")
async def get_updates(api: Api, p: Params):
    world = api.world
    if world.webhook["url"]:
        raise ApiError(409, E.WEBHOOK_CONFLICT)
    offset = p.int("offset", required=False)
    limit = max(1, min(100, p.int("limit", required=False) or 100))
    timeout = max(0.0, p.float("timeout", 0.0))
    allowed = p.json("allowed_updates", "Bad Request: can't parse allowed updates")
    if allowed is not None:
        world.allowed_updates = list(allowed)
    if offset is not None and offset < 0:
        while len(world.updates) > -offset:
            world.updates.popleft()
    elif offset:
        world.confirm_updates(offset)
    world.getupdates_generation += 1
    generation = world.getupdates_generation
    world.wake_getupdates()  # an older long poll still waiting is ended with 409
    await asyncio.sleep(0)
    deadline = time.monotonic() + timeout
    while True:
        if world.getupdates_generation != generation:
            raise ApiError(409, E.GETUPDATES_CONFLICT)
        if world.webhook["url"]:
            raise ApiError(409, E.WEBHOOK_CONFLICT)
        remaining = deadline - time.monotonic()
        if world.updates or remaining <= 0 or world.closing:
            return list(world.updates)[:limit]
        await world.wait_updates(remaining)


# ====================================================================== sending
@method("sendMessage")
async def send_message(api: Api, p: Params):
    chat = api.writable_chat(p)
    text, entities = api.text(p, "text", "entities", MAX_TEXT, E.TEXT_TOO_LONG, required=True)
    markup = api.markup(p)
    reply_to = _reply_to(chat, p)
    api.meter(chat)
    msg = api.world.add_message(chat, from_bot=True, from_user_id=None, text=text, entities=entities,
                                reply_markup=markup, reply_to_message_id=reply_to)
    return api.world.message_api(msg)


@method("sendPhoto")
async def send_photo(api: Api, p: Params):
    chat = api.writable_chat(p)
    caption, entities = api.text(p, "caption", "caption_entities", MAX_CAPTION, E.CAPTION_TOO_LONG, required=False)
    markup = api.markup(p)
    reply_to = _reply_to(chat, p)
    stored = await api.photo(p, p.values.get("photo"), "photo")
    api.meter(chat)
    msg = api.world.add_message(chat, from_bot=True, from_user_id=None, caption=caption, caption_entities=entities,
                                photo_file_id=stored.file_id, reply_markup=markup, reply_to_message_id=reply_to)
    return api.world.message_api(msg)


@method("sendDocument")
async def send_document(api: Api, p: Params):
    chat = api.writable_chat(p)
    caption, entities = api.text(p, "caption", "caption_entities", MAX_CAPTION, E.CAPTION_TOO_LONG, required=False)
    markup = api.markup(p)
    reply_to = _reply_to(chat, p)
    stored = api.document(p, p.values.get("document"))
    api.meter(chat)
    msg = api.world.add_message(chat, from_bot=True, from_user_id=None, caption=caption, caption_entities=entities,
                                document_file_id=stored.file_id, reply_markup=markup, reply_to_message_id=reply_to)
    return api.world.message_api(msg)


@method("sendChatAction")
async def send_chat_action(api: Api, p: Params):
    chat = api.writable_chat(p)
    action = p.str("action")
    if action not in CHAT_ACTIONS:
        raise ApiError(400, E.WRONG_ACTION)
    chat.action = action
    chat.action_until = time.monotonic() + api.world.config.chat_action_seconds
    api.world.changed()
    return True


# ====================================================================== editing
def _edited(api: Api, msg: Message) -> dict:
    msg.edit_count += 1
    msg.edit_date = int(time.time())
    api.world.changed()
    return api.world.message_api(msg)


@method("editMessageText")
async def edit_message_text(api: Api, p: Params):
    chat, msg = api.bot_message(p)
    if msg.text is None:
        raise ApiError(400, E.NO_TEXT_TO_EDIT)
    text, entities = api.text(p, "text", "entities", MAX_TEXT, E.TEXT_TOO_LONG, required=True)
    # As in Telegram, an edit without reply_markup removes the inline keyboard.
    markup = api.markup(p)
    if (text, entities, markup) == (msg.text, msg.entities, msg.reply_markup):
        raise ApiError(400, E.NOT_MODIFIED)
    api.meter(chat)
    msg.text, msg.entities, msg.reply_markup = text, entities, markup
    return _edited(api, msg)


@method("editMessageCaption")
async def edit_message_caption(api: Api, p: Params):
    chat, msg = api.bot_message(p)
    if msg.photo_file_id is None:
        raise ApiError(400, E.NO_CAPTION_TO_EDIT)
    caption, entities = api.text(p, "caption", "caption_entities", MAX_CAPTION, E.CAPTION_TOO_LONG, required=False)
    markup = api.markup(p)
    if (caption, entities, markup) == (msg.caption, msg.caption_entities, msg.reply_markup):
        raise ApiError(400, E.NOT_MODIFIED)
    api.meter(chat)
    msg.caption, msg.caption_entities, msg.reply_markup = caption, entities, markup
    return _edited(api, msg)


@method("editMessageReplyMarkup")
async def edit_message_reply_markup(api: Api, p: Params):
    chat, msg = api.bot_message(p)
    markup = api.markup(p)
    if markup == msg.reply_markup:
        raise ApiError(400, E.NOT_MODIFIED)
    api.meter(chat)
    msg.reply_markup = markup
    return _edited(api, msg)


@method("editMessageMedia")
async def edit_message_media(api: Api, p: Params):
    chat, msg = api.bot_message(p)
    media = p.json("media", "Bad Request: can't parse InputMedia JSON object")
    if not isinstance(media, dict) or not media.get("media"):
        raise ApiError(400, "Bad Request: media is empty")
    if media.get("type") != "photo":
        raise ApiError(400, f"Bad Request: the emulator only supports photo media, not {media.get('type')!r}")
    if msg.photo_file_id is None:
        raise ApiError(400, E.NO_MEDIA_TO_EDIT)
    inner = Params({"caption": media.get("caption"), "parse_mode": media.get("parse_mode"),
                    "caption_entities": media.get("caption_entities")})
    caption, entities = api.text(inner, "caption", "caption_entities", MAX_CAPTION, E.CAPTION_TOO_LONG, required=False)
    markup = api.markup(p)
    stored = await api.photo(p, media["media"], None)
    if (stored.file_id, caption, entities, markup) == (msg.photo_file_id, msg.caption, msg.caption_entities,
                                                       msg.reply_markup):
        raise ApiError(400, E.NOT_MODIFIED)
    api.meter(chat)
    msg.photo_file_id, msg.caption, msg.caption_entities, msg.reply_markup = stored.file_id, caption, entities, markup
    return _edited(api, msg)


@method("deleteMessage")
async def delete_message(api: Api, p: Params):
    chat = api.chat(p)
    msg = api.message(chat, p, E.DELETE_NOT_FOUND)
    msg.deleted = True
    if msg.message_id in chat.pinned:
        chat.pinned.remove(msg.message_id)
    api.world.changed()
    return True


@method("pinChatMessage")
async def pin_chat_message(api: Api, p: Params):
    chat = api.writable_chat(p)
    if chat.type != "private" and not chat.bot_can_pin:
        raise ApiError(400, E.PIN_RIGHTS)
    msg = api.message(chat, p, E.PIN_NOT_FOUND)
    if msg.message_id in chat.pinned:
        chat.pinned.remove(msg.message_id)
    chat.pinned.append(msg.message_id)
    api.world.changed()
    return True


@method("unpinChatMessage")
async def unpin_chat_message(api: Api, p: Params):
    chat = api.chat(p)
    if chat.type != "private" and not chat.bot_can_pin:
        raise ApiError(400, E.PIN_RIGHTS)
    message_id = p.int("message_id", required=False)
    if message_id is None:
        if chat.pinned:
            chat.pinned.pop()
    elif message_id in chat.pinned:
        chat.pinned.remove(message_id)
    else:
        raise ApiError(400, "Bad Request: message to unpin not found")
    api.world.changed()
    return True


# ====================================================================== callbacks
@method("answerCallbackQuery")
async def answer_callback_query(api: Api, p: Params):
    query_id = p.str("callback_query_id")
    pending: PendingCallback | None = api.world.callbacks.get(query_id or "")
    too_old = pending is None or pending.done or time.monotonic() - pending.created > api.world.config.callback_ttl
    if too_old:
        raise ApiError(400, E.QUERY_TOO_OLD)
    text = p.str("text")
    if text is not None and len(text) > 200:
        raise ApiError(400, "Bad Request: MESSAGE_TOO_LONG")
    pending.done = True
    if not pending.answered.done():
        pending.answered.set_result({"answered": True, "text": text, "show_alert": p.bool("show_alert"),
                                     "url": p.str("url")})
    return True


# ====================================================================== commands and chats
def _commands_key(p: Params) -> str:
    scope = p.json("scope", "Bad Request: can't parse BotCommandScope JSON object") or {"type": "default"}
    return f"{scope.get('type', 'default')}|{scope.get('chat_id', '')}|{scope.get('user_id', '')}|" \
           f"{p.str('language_code') or ''}"


@method("setMyCommands")
async def set_my_commands(api: Api, p: Params):
    commands = p.json("commands", "Bad Request: can't parse commands JSON object")
    if not isinstance(commands, list) or len(commands) > 100:
        raise ApiError(400, "Bad Request: commands must be an array of at most 100 BotCommand")
    for command in commands:
        if not isinstance(command, dict) or not _COMMAND.match(str(command.get("command", ""))):
            raise ApiError(400, E.COMMAND_INVALID)
        if not 1 <= len(str(command.get("description") or "")) <= 256:
            raise ApiError(400, E.COMMAND_DESCRIPTION_INVALID)
    api.world.commands[_commands_key(p)] = [{"command": c["command"], "description": c["description"]}
                                           for c in commands]
    api.world.changed()
    return True


@method("getMyCommands")
async def get_my_commands(api: Api, p: Params):
    return api.world.commands.get(_commands_key(p), [])


@method("deleteMyCommands")
async def delete_my_commands(api: Api, p: Params):
    api.world.commands.pop(_commands_key(p), None)
    return True


@method("getChat")
async def get_chat(api: Api, p: Params):
    chat = api.chat(p)
    if chat.type == "private" and not api.world.users[chat.id].started:
        raise ApiError(400, E.CHAT_NOT_FOUND)  # the bot cannot see a user who never wrote to it
    info = {**api.world.chat_api(chat), "accent_color_id": 0, "max_reaction_count": 11,
            "accepted_gift_types": {"unlimited_gifts": False, "limited_gifts": False, "unique_gifts": False,
                                    "premium_subscription": False, "gifts_from_channels": False}}
    if chat.pinned:
        info["pinned_message"] = api.world.message_api(chat.messages[chat.pinned[-1]])
    return info


_ADMIN_RIGHTS = dict.fromkeys(
    ("can_manage_chat", "can_delete_messages", "can_manage_video_chats", "can_restrict_members", "can_change_info",
     "can_invite_users", "can_pin_messages", "can_post_stories", "can_edit_stories", "can_delete_stories"), True)


@method("getChatMember")
async def get_chat_member(api: Api, p: Params):
    chat = api.chat(p)
    user_id = p.int("user_id")
    world = api.world
    if user_id == world.config.bot_id:
        if chat.type == "private":
            return {"user": world.bot_user, "status": "member"}
        return {"user": world.bot_user, "status": "administrator", "can_be_edited": False, "is_anonymous": False,
                "can_promote_members": False, **_ADMIN_RIGHTS, "can_pin_messages": chat.bot_can_pin}
    user = world.users.get(user_id)
    if user is None:
        raise ApiError(400, E.USER_NOT_FOUND)
    if chat.type == "private":
        status = "member" if user_id == chat.id else "left"
    elif user_id not in chat.member_ids:
        status = "left"
    elif user_id == chat.member_ids[0]:
        return {"user": user.to_api(), "status": "creator", "is_anonymous": False}
    else:
        status = "member"
    return {"user": user.to_api(), "status": status}


@method("getChatMemberCount")
async def get_chat_member_count(api: Api, p: Params):
    chat = api.chat(p)
    return 2 if chat.type == "private" else len(chat.member_ids) + 1


# ====================================================================== the endpoint
async def _apply_fault(api: Api, p: Params, fault, handler: Handler):
    code = fault.error_code
    if code == "timeout":
        await asyncio.sleep(fault.delay)
        if fault.execute:
            return await handler(api, p)
        raise ApiError(502, "Bad Gateway")
    code = int(code)
    if code == 429:
        retry = int(fault.retry_after or 5)
        raise ApiError(429, fault.description or f"Too Many Requests: retry after {retry}", {"retry_after": retry})
    defaults = {400: "Bad Request", 401: E.UNAUTHORIZED, 403: E.BOT_BLOCKED, 404: E.NOT_FOUND,
                409: "Conflict", 500: E.INTERNAL, 502: "Bad Gateway"}
    raise ApiError(code, fault.description or defaults.get(code, "Error"))


def _chat_id_of(p: Params) -> int | None:
    try:
        return int(p.values.get("chat_id"))
    except (TypeError, ValueError):
        return None


async def bot_endpoint(request: Request) -> JSONResponse:
    world: World = request.app.state.world
    name = request.path_params["method"]
    if request.path_params["token"] != world.config.token:
        return JSONResponse(ApiError(401, E.UNAUTHORIZED).to_json(), status_code=401)
    if name.lower() not in METHODS:
        return JSONResponse(ApiError(404, E.NOT_FOUND).to_json(), status_code=404)
    try:
        p = await read_request(request)
    except ApiError as exc:
        world.record(CANONICAL[name.lower()], None, exc)
        return JSONResponse(exc.to_json(), status_code=exc.code)
    result, error = await execute(world, request.app.state.http, name, p)
    if error is not None:
        return JSONResponse(error.to_json(), status_code=error.code)
    return JSONResponse({"ok": True, "result": result})


async def execute(world: World, http: httpx.AsyncClient, name: str, p: Params, *,
                  reply: bool = False) -> tuple[Any, ApiError | None]:
    """Run one known method: a request to /bot<token>/<method>, or (`reply`) a method a webhook
    put in its answer to an update, which Telegram runs the same way — same checks, same flood
    control — except that nobody ever sees its result (delivery.py)."""
    api = Api(world, http, name.lower())
    handler = METHODS[name.lower()]
    chat_id = _chat_id_of(p)
    result: Any = None
    error: ApiError | None = None
    try:
        fault = world.take_fault(name, chat_id)
        if fault is not None:
            result = await _apply_fault(api, p, fault, handler)
        else:
            result = await handler(api, p)
    except ApiError as exc:
        error = exc
    except Exception:
        # An emulator bug must still look like a Bot API answer to the client.
        log.exception("Bot API method %s failed", name)
        error = ApiError(500, E.INTERNAL)
    world.record(CANONICAL[name.lower()], chat_id, error, reply=reply)
    return result, error
