"""The emulator's in-memory Telegram: users, chats, messages, files, updates and bookkeeping.

Everything here lives on the server's event loop and is touched only from it (the Bot API and
control API handlers and the webhook delivery task), so no locks are needed.
"""

from __future__ import annotations

import asyncio
import secrets
import time
from collections import Counter, deque
from dataclasses import dataclass, field
from typing import Any

from emulator.config import EmulatorConfig, Limit, Limits
from emulator.errors import ApiError, too_many_requests
from emulator.formatting import command_entities

# Update types a bot receives when it never chose (Bot API: all but these three).
DEFAULT_EXCLUDED_UPDATES = {"chat_member", "message_reaction", "message_reaction_count"}
FIRST_USER_ID = 1001
FIRST_GROUP_ID = -1001


@dataclass
class User:
    id: int
    first_name: str
    last_name: str | None = None
    username: str | None = None
    language_code: str | None = None
    started: bool = False  # has sent /start (or anything) to the bot in private
    blocked: bool = False  # has blocked the bot

    def to_api(self) -> dict:
        out: dict[str, Any] = {"id": self.id, "is_bot": False, "first_name": self.first_name}
        for key in ("last_name", "username", "language_code"):
            if getattr(self, key):
                out[key] = getattr(self, key)
        return out


@dataclass
class Message:
    message_id: int
    chat_id: int
    date: int
    from_bot: bool
    from_user_id: int | None
    text: str | None = None
    entities: list[dict] = field(default_factory=list)
    caption: str | None = None
    caption_entities: list[dict] = field(default_factory=list)
    photo_file_id: str | None = None
    document_file_id: str | None = None
    reply_markup: dict | None = None
    reply_to_message_id: int | None = None
    edit_date: int | None = None
    edit_count: int = 0
    deleted: bool = False


@dataclass
class Chat:
    id: int
    type: str  # "private" | "group"
    title: str | None = None
    member_ids: list[int] = field(default_factory=list)
    messages: dict[int, Message] = field(default_factory=dict)
    next_message_id: int = 1
    pinned: list[int] = field(default_factory=list)  # message ids, most recent last
    bot_can_pin: bool = True  # groups: the bot's right to pin messages (an admin may take it away)
    action: str | None = None
    action_until: float = 0.0


@dataclass
class StoredFile:
    file_id: str
    file_unique_id: str
    data: bytes
    mime_type: str
    width: int
    height: int
    file_name: str | None = None  # documents


@dataclass
class PendingCallback:
    id: str
    user_id: int
    created: float
    answered: asyncio.Future
    done: bool = False


@dataclass
class Fault:
    error_code: int | str
    count: int = 1
    method: str | None = None
    chat_id: int | None = None
    description: str | None = None
    retry_after: int | None = None
    delay: float = 10.0  # for timeouts: how long the answer is held back
    execute: bool = False  # for timeouts: whether the call still takes effect

    def matches(self, method: str, chat_id: int | None) -> bool:
        if self.method and self.method.lower() != method.lower():
            return False
        return self.chat_id is None or self.chat_id == chat_id

    def to_json(self) -> dict:
        return {k: v for k, v in self.__dict__.items() if v is not None}


class FloodControl:
    """Sliding-window counters per chat, per group and overall (see Limits)."""

    def __init__(self, limits: Limits):
        self.limits = limits
        self.windows: dict[tuple, deque[float]] = {}

    def _wait(self, key: tuple, limit: Limit | None, now: float) -> float:
        if limit is None:
            return 0.0
        window = self.windows.setdefault(key, deque())
        while window and window[0] <= now - limit.period:
            window.popleft()
        if len(window) < limit.count:
            return 0.0
        return window[0] + limit.period - now

    def check(self, chat_id: int, is_group: bool) -> None:
        """Raise 429 if one more counted call in this chat would exceed a limit; else count it."""
        now = time.monotonic()
        checks = [(("chat", chat_id), self.limits.per_chat), (("all",), self.limits.overall)]
        if is_group:
            checks.append((("group", chat_id), self.limits.per_group))
        wait = max(self._wait(key, limit, now) for key, limit in checks)
        if wait > 0:
            # Telegram's retry_after is whole seconds, at least 1.
            raise too_many_requests(max(1, int(wait + 0.999)))
        for key, limit in checks:
            if limit is not None:
                self.windows[key].append(now)


class World:
    def __init__(self, config: EmulatorConfig):
        self.config = config
        self.closing = False
        self.reset()

    def close(self) -> None:
        """The server is stopping: end every long poll now instead of letting it be cancelled."""
        self.closing = True
        self._changed.set()
        self._updates_ready.set()

    # ------------------------------------------------------------------ lifecycle
    def reset(self) -> None:
        self.users: dict[int, User] = {}
        self.chats: dict[int, Chat] = {}
        self.files: dict[str, StoredFile] = {}
        self.updates: deque[dict] = deque()
        self.next_update_id = 1
        self.next_user_id = FIRST_USER_ID
        self.next_group_id = FIRST_GROUP_ID
        self.webhook: dict[str, Any] = {"url": "", "secret_token": None, "allowed_updates": None,
                                        "max_connections": 40, "last_error_date": None,
                                        "last_error_message": None}
        self.allowed_updates: list[str] | None = None
        self.commands: dict[str, list[dict]] = {}
        self.callbacks: dict[str, PendingCallback] = {}
        self.faults: list[Fault] = []
        self.flood = FloodControl(self.config.limits)
        self.calls: Counter[str] = Counter()
        self.calls_by_chat: Counter[str] = Counter()
        self.errors: Counter[str] = Counter()
        self.errors_by_method: Counter[str] = Counter()
        # Methods the bot's webhook put in its answers to updates (Telegram runs them; no request)
        self.replies: Counter[str] = Counter()
        self.replies_by_chat: Counter[str] = Counter()
        self.reply_errors: Counter[str] = Counter()
        self.webhook_deliveries = 0
        self.last_write_delivered = False
        self.webhook_failures = 0
        self.version = 0
        self.getupdates_generation = 0
        if hasattr(self, "_changed"):
            self.changed()
        else:
            self._changed = asyncio.Event()
            self._updates_ready = asyncio.Event()
            self.delivery_wake = asyncio.Event()
        # Bumped (never reset) whenever the webhook changes, so the delivery loop notices.
        self.webhook_generation = getattr(self, "webhook_generation", 0) + 1
        self.delivery_wake.set()

    # ------------------------------------------------------------------ change notification
    def changed(self) -> None:
        """Something visible changed: wake the web chat's long polls."""
        self.version += 1
        self._changed.set()
        self._changed = asyncio.Event()

    async def wait_changed(self, since: int, timeout: float) -> int:
        if self.version == since and not self.closing:
            event = self._changed
            try:
                await asyncio.wait_for(event.wait(), timeout)
            except TimeoutError:
                pass
        return self.version

    # ------------------------------------------------------------------ identities
    @property
    def bot_user(self) -> dict:
        return {"id": self.config.bot_id, "is_bot": True, "first_name": self.config.bot_name,
                "username": self.config.bot_username}

    def add_user(self, first_name: str, username: str | None = None, language_code: str | None = None,
                 last_name: str | None = None) -> User:
        user = User(self.next_user_id, first_name, last_name, username, language_code)
        self.next_user_id += 1
        self.users[user.id] = user
        # The private chat with the bot exists from the start; its id is the user's id.
        self.chats[user.id] = Chat(user.id, "private")
        self.changed()
        return user

    def add_group(self, title: str, member_ids: list[int]) -> Chat:
        chat = Chat(self.next_group_id, "group", title=title, member_ids=list(member_ids))
        self.next_group_id -= 1
        self.chats[chat.id] = chat
        if member_ids:
            # Telegram tells the bot it was added (my_chat_member), by the group's creator.
            self.enqueue("my_chat_member", {
                "chat": self.chat_api(chat), "from": self.users[member_ids[0]].to_api(), "date": int(time.time()),
                "old_chat_member": {"user": self.bot_user, "status": "left"},
                "new_chat_member": {"user": self.bot_user, "status": "member"},
            })
        self.changed()
        return chat

    # ------------------------------------------------------------------ API shapes
    def chat_api(self, chat: Chat) -> dict:
        if chat.type == "private":
            user = self.users[chat.id]
            out = {"id": chat.id, "type": "private", "first_name": user.first_name}
            if user.last_name:
                out["last_name"] = user.last_name
            if user.username:
                out["username"] = user.username
            return out
        return {"id": chat.id, "type": chat.type, "title": chat.title}

    def message_api(self, msg: Message, with_reply: bool = True) -> dict:
        chat = self.chats[msg.chat_id]
        out: dict[str, Any] = {"message_id": msg.message_id,
                               "from": self.bot_user if msg.from_bot else self.users[msg.from_user_id].to_api(),
                               "chat": self.chat_api(chat), "date": msg.date}
        if msg.edit_date:
            out["edit_date"] = msg.edit_date
        if msg.text is not None:
            out["text"] = msg.text
            if msg.entities:
                out["entities"] = msg.entities
        if msg.photo_file_id:
            f = self.files[msg.photo_file_id]
            out["photo"] = [{"file_id": f.file_id, "file_unique_id": f.file_unique_id, "width": f.width,
                             "height": f.height, "file_size": len(f.data)}]
        if msg.document_file_id:
            f = self.files[msg.document_file_id]
            out["document"] = {"file_id": f.file_id, "file_unique_id": f.file_unique_id, "mime_type": f.mime_type,
                               "file_size": len(f.data), **({"file_name": f.file_name} if f.file_name else {})}
        if msg.caption is not None:
            out["caption"] = msg.caption
            if msg.caption_entities:
                out["caption_entities"] = msg.caption_entities
        if msg.reply_markup and "inline_keyboard" in msg.reply_markup:
            out["reply_markup"] = msg.reply_markup
        if with_reply and msg.reply_to_message_id:
            replied = chat.messages.get(msg.reply_to_message_id)
            if replied and not replied.deleted:
                out["reply_to_message"] = self.message_api(replied, with_reply=False)
        return out

    # ------------------------------------------------------------------ messages
    def add_message(self, chat: Chat, **fields) -> Message:
        msg = Message(message_id=chat.next_message_id, chat_id=chat.id, date=int(time.time()), **fields)
        chat.next_message_id += 1
        chat.messages[msg.message_id] = msg
        if msg.from_bot:
            chat.action = None  # a message ends "typing…", as in Telegram clients
        self.changed()
        return msg

    def user_writes(self, chat: Chat, user: User, text: str) -> Message:
        msg = self.add_message(chat, from_bot=False, from_user_id=user.id, text=text,
                               entities=command_entities(text))
        if chat.type == "private":
            user.started = True
            user.blocked = False
        msg_update = self.enqueue("message", self.message_api(msg)) if self._bot_sees(chat, text) else None
        self.last_write_delivered = msg_update is not None
        return msg

    def _bot_sees(self, chat: Chat, text: str) -> bool:
        """Privacy mode: in groups the bot only gets commands meant for it."""
        if chat.type == "private" or not self.config.privacy_mode:
            return True
        if not text.startswith("/"):
            return False
        command = text.split()[0]
        _, at, target = command.partition("@")
        return not at or target.lower() == self.config.bot_username.lower()

    # ------------------------------------------------------------------ updates
    def enqueue(self, kind: str, payload: dict) -> dict | None:
        allowed = self.allowed_updates
        if allowed is not None and len(allowed) > 0:
            if kind not in allowed:
                return None
        elif kind in DEFAULT_EXCLUDED_UPDATES:
            return None
        update = {"update_id": self.next_update_id, kind: payload}
        self.next_update_id += 1
        self.updates.append(update)
        self._updates_ready.set()
        self.delivery_wake.set()
        return update

    def confirm_updates(self, offset: int) -> None:
        """getUpdates(offset): every update with a smaller id is confirmed and forgotten."""
        while self.updates and self.updates[0]["update_id"] < offset:
            self.updates.popleft()

    async def wait_updates(self, timeout: float) -> None:
        if self.updates or timeout <= 0 or self.closing:
            return
        self._updates_ready.clear()
        try:
            await asyncio.wait_for(self._updates_ready.wait(), timeout)
        except TimeoutError:
            pass

    def wake_getupdates(self) -> None:
        self._updates_ready.set()

    def webhook_changed(self) -> None:
        self.webhook_generation += 1
        self.delivery_wake.set()

    # ------------------------------------------------------------------ files
    def store_file(self, data: bytes, mime_type: str, width: int, height: int,
                   file_name: str | None = None) -> StoredFile:
        unique = secrets.token_urlsafe(9)
        prefix = "AgAC" if file_name is None else "BQAC"  # Telegram's photo / document file ids start so
        stored = StoredFile(f"{prefix}{secrets.token_urlsafe(24)}", unique, data, mime_type, width, height, file_name)
        self.files[stored.file_id] = stored
        return stored

    # ------------------------------------------------------------------ faults, flood, stats
    def take_fault(self, method: str, chat_id: int | None) -> Fault | None:
        for fault in self.faults:
            if fault.count > 0 and fault.matches(method, chat_id):
                fault.count -= 1
                if fault.count == 0:
                    self.faults.remove(fault)
                return fault
        return None

    def set_limits(self, limits: Limits) -> None:
        self.flood = FloodControl(limits)

    def record(self, method: str, chat_id: int | None, error: ApiError | None, reply: bool = False) -> None:
        """One method run: a request the bot made, or (`reply`) a method in a webhook's answer."""
        calls, by_chat, errors = ((self.replies, self.replies_by_chat, self.reply_errors) if reply
                                  else (self.calls, self.calls_by_chat, self.errors_by_method))
        calls[method] += 1
        if chat_id is not None:
            by_chat[str(chat_id)] += 1
        if error is not None:
            self.errors[str(error.code)] += 1
            errors[f"{method}:{error.code}"] += 1

    def stats(self) -> dict:
        return {
            "calls": dict(self.calls), "calls_by_chat": dict(self.calls_by_chat),
            "total_calls": sum(self.calls.values()),
            "errors": dict(self.errors), "errors_by_method": dict(self.errors_by_method),
            "webhook_replies": dict(self.replies), "webhook_replies_by_chat": dict(self.replies_by_chat),
            "webhook_reply_errors": dict(self.reply_errors),
            "pending_updates": len(self.updates), "next_update_id": self.next_update_id,
            "webhook_deliveries": self.webhook_deliveries, "webhook_failures": self.webhook_failures,
            "limits": self.flood.limits.to_json(), "faults": [f.to_json() for f in self.faults],
        }
