"""The per-process objects a worker needs (Redis client, Bot API client, drainer, sender, thinker),
built on first use after any fork, from the environment (workers/config.py)."""

from __future__ import annotations

import logging
import os
import sys
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property

from workers.ai import Thinker
from workers.config import Settings
from workers.drain import Drainer, load_handler
from workers.outbox import Sender
from workers.store import Store, connect
from workers.telegram_api import BotApi

log = logging.getLogger("workers.runtime")


@dataclass
class Runtime:
    settings: Settings

    @cached_property
    def store(self) -> Store:
        return Store(connect(self.settings.redis_url), self.settings)

    @cached_property
    def api(self) -> BotApi:
        return BotApi(self.settings.api_base_url, self.settings.token, self.settings.http_timeout)

    @cached_property
    def sender(self) -> Sender:
        s = self.settings
        from workers.tables import picture  # the table logic draws its pictures; the outbox only sends them

        return Sender(self.store, self.api, s.rate_global, s.rate_chat, s.rate_group, s.rate_views, draw=picture.draw,
                      view_credit=s.view_credit)

    @cached_property
    def view_pump(self) -> threading.Event:
        """This process's view pump (workers/views.py), started on first use; set to stop it."""
        from workers import views

        return views.start(self.store, self.sender)

    @cached_property
    def drainer(self) -> Drainer:
        from workers import tasks

        handler = load_handler(self.settings.handler)
        self._tell_username(handler)
        return Drainer(self.store, handler, wake_chats=tasks.wake_chats,
                       answer=self.answer_callback, membership=self.membership, send_now=self.send_soon,
                       wake_ai=tasks.wake_ai)

    @cached_property
    def thinker(self) -> Thinker:
        from workers import tasks

        # the AI's pool applies its bots' moves with a drainer of its own that also sends what they show
        drainer = Drainer(self.store, self.drainer.handler, wake_chats=tasks.wake_chats, answer=self.answer_callback,
                          membership=self.membership, send_now=self.send_soon, wake_ai=tasks.wake_ai,
                          send_all_now=True)
        return Thinker(self.store, drain=drainer.drain, wake_ai=tasks.wake_ai)

    @cached_property
    def senders(self) -> ThreadPoolExecutor | None:
        """This process's sending threads (BGB_SEND_THREADS; None: 0, send in the caller's thread).
        A command's prompts go out from here while the process takes its next command: a Bot API
        request takes tens of milliseconds (more to Telegram than to the emulator) and the limits
        may hold a send back a while (workers/outbox.py), and a prefork worker that waited for its
        sends before its next task kept every press queued behind them (the hand-off to a worker,
        docs/performance.md). A chat's own lease keeps its messages in order whichever thread
        sends them; what a thread has not sent when the process dies stays in the outbox, due, for
        the beat's scan."""
        n = self.settings.send_threads
        return ThreadPoolExecutor(max_workers=n, thread_name_prefix="send") if n > 0 else None

    def send_soon(self, chat_id: int) -> None:
        """Send what `chat_id` has waiting on its prompt lane, on a sending thread."""
        from workers import tasks

        if self.senders is None:
            tasks.send_chat_now(chat_id)
            return
        self.senders.submit(_send_or_wake, chat_id)

    def _tell_username(self, handler) -> None:
        """The table logic writes deep links to the bot (t.me/<username>?start=...): it learns
        the username here, from getMe, when its module offers `set_bot_username`."""
        module = sys.modules.get(getattr(handler, "__module__", ""))
        setter = getattr(module, "set_bot_username", None)
        if setter is None or not self.settings.token:
            return
        res = self.api.call("getMe", {})
        if res.ok and (res.result or {}).get("username"):
            setter(res.result["username"])
        else:
            log.warning("getMe failed (%s); deep links use the configured username", res.description)

    def answer_callback(self, query_id: str, text: str, alert: bool) -> None:
        params = {"callback_query_id": query_id}
        if text:
            params["text"] = text[:200]
            params["show_alert"] = alert
        res = self.api.call("answerCallbackQuery", params)
        self.store.r.hincrby(self.store.k.m_counters, "api_calls", 1)
        if not res.ok:
            log.info("answerCallbackQuery failed: %s %s", res.error_code, res.description)

    def membership(self, chat_id: int, user_id: int) -> str | None:
        """"admin", "member" or "outsider" in a group (getChatMember); None if Telegram did
        not answer. A restricted user is a member only while `is_member` says so."""
        res = self.api.call("getChatMember", {"chat_id": chat_id, "user_id": user_id})
        self.store.r.hincrby(self.store.k.m_counters, "api_calls", 1)
        if not res.ok:
            # 400 "user not found" / "participant not found": not in the group; other errors: unknown
            return "outsider" if res.error_code == 400 else None
        return member_standing(res.result or {})


def _send_or_wake(chat_id: int) -> None:
    """A sending thread's job: send now, or leave it to a sender task (the items stay queued)."""
    from workers import tasks

    try:
        tasks.send_chat_now(chat_id)
    except Exception:
        log.warning("could not send to %s now", chat_id, exc_info=True)
        try:
            tasks.wake_chats({chat_id})
        except Exception:  # still due in the outbox: the beat's scan wakes it
            log.warning("could not queue a sender for %s", chat_id, exc_info=True)


def member_standing(member: dict) -> str:
    status = member.get("status")
    if status in ("creator", "administrator"):
        return "admin"
    if status == "member" or (status == "restricted" and member.get("is_member")):
        return "member"
    return "outsider"


_runtime: tuple[int, Runtime] | None = None


def get() -> Runtime:
    global _runtime
    if _runtime is None or _runtime[0] != os.getpid():
        _runtime = (os.getpid(), Runtime(Settings.from_env()))
    return _runtime[1]


def reset() -> None:
    """Forget the process's runtime (tests that change the environment)."""
    global _runtime
    _runtime = None
