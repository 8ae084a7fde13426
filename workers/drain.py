"""Applying commands: one writer per route, in arrival order, each command once.

`Drainer.drain(route)` takes the route's lease, and while it holds it, repeatedly: peeks the
oldest command of the inbox, asks the table logic what it means (`tables.handle`), and
commits everything that follows from it in one guarded Lua call (see store.py). A command
leaves the inbox in that same commit, together with its processed marker, so whatever
Celery redelivers and wherever a worker dies, each command is applied exactly once.
"""

from __future__ import annotations

import importlib
import logging
import re
import time
from collections.abc import Callable

from pydantic import ValidationError

import locales
from workers import anatomy, answers, outbox, retention
from workers.logs import table_context
from workers.protocol import TABLE_ID_CHARS, Command, Directory, Result, parse_join_payload
from workers.store import LeaseKeeper, LeaseLost, Plan, RedisDirectory, Store, encode_doc

log = logging.getLogger("workers.drain")

Handler = Callable[[dict | None, Command, Directory, float], Result]
Answer = Callable[[str, str, bool], None]  # callback_query_id, text ("" = silent), show_alert
# (chat_id, user_id) -> "admin", "member", "outsider", or None when Telegram did not answer
Membership = Callable[[int, int], str | None]
WakeAi = Callable[[str, float], None]  # table id, when its bot may move (epoch seconds)
DONE_TTL = 7 * 24 * 3600
OUTSIDER_CACHE = 60  # seconds: someone just added to the group can join a minute later
OPENED_WINDOW = 3600  # the per-group cap on new tables counts the last hour
REMINDER_KEY = re.compile(r"^[A-Za-z0-9_.:\-]{1,64}$")


def load_handler(spec: str) -> Handler:
    module, _, attr = spec.partition(":")
    return getattr(importlib.import_module(module), attr or "handle")


def is_chat_route(route: str) -> bool:
    return route.startswith("chat:")


class Drainer:
    def __init__(self, store: Store, handler: Handler, wake_chats: Callable[[set[int]], None] = lambda chats: None,
                 answer: Answer | None = None, membership: Membership | None = None,
                 clock: Callable[[], float] = time.time, send_now: Callable[[int], None] | None = None,
                 wake_ai: WakeAi = lambda table_id, due: None, send_all_now: bool = False) -> None:
        """`wake_chats` hands chats with new outbox items to the senders (Celery tasks);
        `send_now`, if given, sends a chat's items from this worker right away instead (the
        runtime's sending threads: workers/runtime.py, `send_soon`) — used
        for the chats that just got a new prompt, whose latency players feel, and with
        `send_all_now` for every chat (the AI's pool sends what its bots' moves show itself, so
        the tasks' queue carries no bot work); `wake_ai` queues the AI's task for a table whose
        bot is to move (workers/ai.py, on its own queue)."""
        self.store, self.handler, self.wake_chats, self.answer = store, handler, wake_chats, answer
        self.send_now, self.wake_ai, self.send_all_now = send_now, wake_ai, send_all_now
        self.membership, self.clock = membership, clock
        self.k = store.k
        self.r = store.r

    # ------------------------------------------------------------------- loop
    def drain(self, route: str, max_commands: int = 10_000) -> int:
        """Apply the route's waiting commands; returns how many were handled by this call."""
        handled = 0
        with table_context(route):
            while True:
                lease_key = self.k.lease(route)
                token = self.store.acquire(lease_key)
                if token is None:
                    return handled  # the holder drains (and re-checks after it lets go)
                try:
                    with LeaseKeeper(self.store, lease_key, token) as keeper:
                        handled += self._drain_locked(route, token, keeper, max_commands - handled)
                except LeaseLost:
                    log.warning("lease lost while draining; stopping without writing")
                    return handled
                finally:
                    self.store.release(lease_key, token)
                if handled >= max_commands or self.store.settle(route):
                    return handled
                # A command landed after our last look: go round again.

    def _drain_locked(self, route: str, token: str, keeper: LeaseKeeper, budget: int) -> int:
        inbox = self.k.inbox(route)
        n = 0
        while n < budget:
            raw = self.r.lindex(inbox, 0)
            if raw is None:
                break
            if keeper.lost.is_set():
                raise LeaseLost(route)
            self.process(route, token, raw)
            n += 1
        return n

    # ---------------------------------------------------------------- command
    def _skip(self, route: str, token: str, raw: str) -> None:
        plan = Plan()
        plan.add("GLEASE", self.k.lease(route), token)
        plan.add("POPEQ", self.k.inbox(route), raw)
        if self.store.commit(plan) == 0:
            raise LeaseLost(route)

    def process(self, route: str, token: str, raw: str) -> None:
        try:
            cmd = Command.model_validate_json(raw)
        except ValidationError:
            log.error("dropping an unreadable command: %.200s", raw)
            self._skip(route, token, raw)
            return
        if self.r.exists(self.k.done(cmd.idem_key)):
            log.info("command %s was already applied; skipping it", cmd.idem_key, extra={"update_id": cmd.update_id})
            self._skip(route, token, raw)
            return
        stamps: dict | None = None
        if self.store.s.anatomy and cmd.callback_query_id:
            stamps = {"q": cmd.callback_query_id, "r": route, "picked": time.time()}
        cmd = self._with_admin(cmd)
        for _attempt in range(5):
            rc, chats, result, bot_due = self._apply(route, token, raw, cmd, stamps)
            if rc >= 1:
                if bot_due is not None:
                    try:
                        self.wake_ai(route, bot_due)
                    except Exception:  # the turn is recorded (ai:due): the beat wakes it
                        log.warning("could not queue the AI's task", exc_info=True)
                # prompts go out from here at once; views wait for the view pump (workers/views.py)
                urgent = {o.chat_id for o in result.outbound
                          if (o.slot or "").startswith("prompt") and not o.background and o.chat_id in chats}
                if self.send_all_now:  # the AI pool sends its bots' prompt-lane messages itself
                    urgent = set(chats)
                if self.send_now is None:
                    urgent = set()
                if chats - urgent:
                    self.wake_chats(chats - urgent)
                for chat in sorted(urgent, key=lambda c: (c != cmd.user_id, c)):  # the mover's first
                    try:
                        self.send_now(chat)
                    except Exception:  # the items stay queued; a sender task takes them
                        log.warning("could not send to %s now", chat, exc_info=True)
                        self.wake_chats({chat})
                # A press the webhook queued is answered in the webhook's reply when it is still
                # waiting for this verdict (the commit handed it over: rc 1); otherwise (rc 2: it
                # gave up, or nobody waits) here, once, with a request.
                if rc == 2 and cmd.kind == "callback" and cmd.callback_query_id and self.answer is not None:
                    try:
                        self.answer(cmd.callback_query_id, result.callback_answer or "", bool(result.callback_alert))
                    except Exception:
                        log.warning("could not answer callback query %s", cmd.callback_query_id, exc_info=True)
                if stamps is not None:
                    stamps["sent"] = time.time() if urgent else None
                    anatomy.record(self.r, self.k, "work", stamps)
                return
            if rc == 0:
                raise LeaseLost(route)
            log.info("a table changed while handling %s; handling it again", cmd.idem_key)
        raise RuntimeError(f"could not commit {cmd.idem_key}: tables kept changing")

    def _member(self, chat_id: int, user_id: int) -> str | None:
        """The user's standing in a group, cached (getChatMember costs a Bot API call)."""
        if self.membership is None:
            return None
        key = self.k.member(chat_id, user_id)
        cached = self.r.get(key)
        if cached is not None:
            return cached
        status = self.membership(chat_id, user_id)
        if status is not None:
            ttl = OUTSIDER_CACHE if status == "outsider" else self.store.s.admin_cache_seconds
            self.r.set(key, status, ex=ttl)
        return status

    def _with_admin(self, cmd: Command) -> Command:
        needs = cmd.chat_type in ("group", "supergroup") and cmd.user_id > 0 and (
            cmd.kind == "callback" or (cmd.text or "").startswith("/"))
        if not needs or self.membership is None:
            return cmd
        return cmd.model_copy(update={"is_chat_admin": self._member(cmd.chat_id, cmd.user_id) == "admin"})

    def _with_membership(self, cmd: Command, route: str, table: dict | None) -> Command:
        """A join through the deep link ("/start j<table id>" in private) carries whether the
        sender is a member of the table's group, so only members take seats."""
        if table is None or cmd.kind != "message" or cmd.chat_type != "private" or cmd.user_id <= 0:
            return cmd
        head, _, payload = (cmd.text or "").partition(" ")
        if head != "/start" or parse_join_payload(payload.strip()) != route or self.membership is None:
            return cmd
        status = self._member(int(table["chat_id"]), cmd.user_id)
        return cmd.model_copy(update={"is_chat_member": None if status is None else status != "outsider"})

    def _lang(self, cmd: Command, directory: RedisDirectory) -> str:
        return locales.normalize(directory.chat_lang(cmd.chat_id) or cmd.language_code)

    def _apply(self, route: str, token: str, raw: str, cmd: Command,
               stamps: dict | None = None) -> tuple[int, set[int], Result, float | None]:
        now = self.clock()
        directory = RedisDirectory(self.store)
        table = None
        if not is_chat_route(route):
            table = directory.load_table(route)
            cmd = self._with_membership(cmd, route, table)
        if stamps is not None:
            stamps["loaded"] = time.time()
        started = time.perf_counter()
        try:
            result = self.handler(table, cmd, directory, now)
            if result.table is not None and is_chat_route(route) and not _valid_id(result.table.get("id")):
                raise ValueError("a new table must carry its id")
        except Exception:
            log.exception("the table logic failed on %s", cmd.idem_key, extra={"update_id": cmd.update_id})
            result = Result(callback_answer=locales.text("bot.error.internal", self._lang(cmd, directory)),
                            metrics={"handler_errors": 1, "rejected:error": 1})
        if stamps is not None:
            stamps["handled"] = time.time()

        k = self.k
        plan = Plan()
        plan.add("GLEASE", k.lease(route), token)
        table_id = route if not is_chat_route(route) else None
        if result.table is not None:
            table_id = table_id or str(result.table["id"])
            expected = directory.revs.get(table_id)
            if expected is None:  # a table the logic did not read through the directory
                expected = self.store.load_table(table_id)[1]
            plan.add("GREV", k.table(table_id), expected)
            version = int(result.table.get("version", expected + 1))
            plan.add("SAVE", k.table(table_id), encode_doc(result.table), version)
            retention.plan_saved(plan, k, self.store.s, table_id, result.table, result.finished)
        plan.call("SET", k.done(cmd.idem_key), "1", "EX", DONE_TTL)
        plan.add("POPEQ", k.inbox(route), raw)
        if cmd.kind == "callback" and cmd.callback_query_id:
            text, alert = result.callback_answer or "", bool(result.callback_alert)
            plan.add("ANSWER", k.cbq(cmd.callback_query_id), answers.verdict(text, alert), answers.TTL_MS,
                     k.answers, answers.notice(cmd.callback_query_id, text, alert))

        chats: set[int] = set()
        # press -> prompt latency is a person's: the beat's ticks and the bots' moves (user 0) are not timed
        received = cmd.received_at if cmd.user_id != 0 else None
        for o in result.outbound:
            chat = outbox.plan_outbound(self.store, plan, o, received, now)
            if chat is not None:
                chats.add(chat)
        bot_due = None
        if result.bot_turn is not None and result.bot_turn.table_id == table_id:
            # the table waits on a seat the AI plays: recorded here, in the command's own commit, so a
            # worker killed right after loses nothing (the beat re-wakes overdue turns: workers/tasks.py)
            bot_due = max(now, result.bot_turn.since + self.store.s.bot_pace)
            plan.call("ZADD", k.ai_due, repr(bot_due), table_id)
        elif result.table is not None and table_id:
            plan.call("ZREM", k.ai_due, table_id)
        for rem in result.reminders:
            if not REMINDER_KEY.match(rem.key) or not _valid_id(rem.table_id):
                log.error("ignoring a reminder with a bad key: %r", rem)
                continue
            plan.call("ZADD", k.rem, repr(rem.due), f"{rem.table_id}|{rem.key}")
        for key in result.cancel_reminders:
            if table_id:
                plan.call("ZREM", k.rem, f"{table_id}|{key}")
        for chat_id, active in result.set_active.items():
            if active:
                plan.call("HSET", k.active, str(chat_id), active)
            else:
                plan.call("HDEL", k.active, str(chat_id))
        for user_id, ids in result.user_tables_add.items():
            if ids:
                plan.call("SADD", k.utables(user_id), *ids)
        for user_id, ids in result.user_tables_remove.items():
            if ids:
                plan.call("SREM", k.utables(user_id), *ids)
        for user_id, ids in result.user_lobbies_add.items():
            if ids:
                plan.call("SADD", k.ulobbies(user_id), *ids)
        for user_id, ids in result.user_lobbies_remove.items():
            if ids:
                plan.call("SREM", k.ulobbies(user_id), *ids)
        for chat_id, opened in result.table_opened.items():
            plan.call("ZADD", k.opened(chat_id), repr(now), opened)
            plan.call("ZREMRANGEBYSCORE", k.opened(chat_id), "-inf", repr(now - OPENED_WINDOW))
            plan.call("EXPIRE", k.opened(chat_id), OPENED_WINDOW)
        for chat_id, lang in result.chat_lang.items():
            plan.call("HSET", k.lang, str(chat_id), lang)
        plan.call("HINCRBY", k.m_counters, "commands", 1)
        for name, amount in result.metrics.items():
            plan.call("HINCRBY", k.m_counters, name, int(amount))
        rc = self.store.commit(plan)
        if stamps is not None:
            stamps["committed"] = time.time()
        log.info("handled %s %s in %.1f ms, %.1f ms after the webhook received it (%d messages)", cmd.kind,
                 cmd.idem_key, (time.perf_counter() - started) * 1000, (now - cmd.received_at) * 1000,
                 len(result.outbound), extra={"update_id": cmd.update_id})
        return rc, chats, result, bot_due


def _valid_id(value: object) -> bool:
    return isinstance(value, str) and 1 <= len(value) <= 16 and all(c in TABLE_ID_CHARS for c in value)
