"""The webhook: an ASGI app (Starlette) around a python-telegram-bot `Application` built
without an updater (Telegram pushes to us; PTB gives us the typed Update and the Bot).

For every POST it: checks the secret token header in constant time (403 otherwise); parses
the update (400 if it is not one); drops an update id it has seen (SET NX EX, in the same
Lua call that queues the command, so a crash cannot mark an update seen without queueing it);
turns the update into a `protocol.Command` with its route; RPUSHes it to the route's inbox;
wakes a Celery drain for the route; answers 200. Buttons it can judge without the table
logic — garbage data, an unknown table, a version from the future — it answers at once with
a short toast and queues nothing. Nothing about a game is decided or kept here.
"""

from __future__ import annotations

import asyncio
import contextlib
import hmac
import json
import logging
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import redis
import redis.asyncio as aioredis
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from telegram import Update
from telegram.ext import Application

import locales
from workers import metrics
from workers.config import Settings
from workers.keys import Keys
from workers.logs import table_context
from workers.protocol import Command, parse_callback, parse_join_payload

log = logging.getLogger("bot.webhook")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SEEN_TTL = 24 * 3600
MAX_BODY = 1 << 20

# Mark the update seen and queue its command, or do neither (it was seen before).
INTAKE_LUA = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
if ARGV[2] ~= '' then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  redis.call('SADD', KEYS[3], ARGV[3])
  redis.call('HINCRBY', KEYS[4], 'queued', 1)
end
redis.call('HINCRBY', KEYS[4], 'updates', 1)
return 1
"""


def _default_enqueue(route: str) -> None:
    from workers import app

    app.send_task("workers.drain", args=[route])


class Rejected(Exception):
    """The update is not one we can read: 400."""


class Webhook:
    def __init__(self, settings: Settings | None = None, *, enqueue: Callable[[str], None] | None = None,
                 application: Application | None = None, eager: bool = True) -> None:
        """`eager=False` defers getMe to the first update: needed when the Bot API is served by
        the same server as this app (`boardgamesbot local`), which is not listening yet at
        start-up."""
        self.s = settings or Settings.from_env()
        self.k = Keys(self.s.prefix)
        self.enqueue = enqueue or _default_enqueue
        self.application = application
        self.eager = eager
        self.r: aioredis.Redis | None = None
        self.sync_r: redis.Redis | None = None
        self.bot_username = ""
        self._intake = None
        self._ready_lock = asyncio.Lock()
        self._ready = False

    # --------------------------------------------------------------- lifecycle
    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Any = None) -> AsyncIterator[None]:
        if self.application is None:
            self.application = (Application.builder().token(self.s.token).base_url(f"{self.s.api_base_url}/bot")
                                .updater(None).build())
        self.r = aioredis.Redis.from_url(self.s.redis_url, decode_responses=True)
        self.sync_r = redis.Redis.from_url(self.s.redis_url, decode_responses=True)
        self._intake = self.r.register_script(INTAKE_LUA)
        if self.eager:
            await self._ensure_ready()
        try:
            yield
        finally:
            if self._ready:
                await self.application.shutdown()
            await self.r.aclose()
            self.sync_r.close()

    async def _ensure_ready(self) -> None:
        if self._ready:
            return
        async with self._ready_lock:
            if not self._ready:
                await self.application.initialize()  # getMe: checks the token, learns our username
                self.bot_username = (self.application.bot.username or "").lower()
                self._ready = True

    def routes(self) -> list[BaseRoute]:
        return [Route(self.s.webhook_path, self.webhook, methods=["POST"]),
                Route("/metrics", self.metrics, methods=["GET"]),
                Route("/healthz", self.health, methods=["GET"])]

    # ---------------------------------------------------------------- requests
    async def health(self, _request: Request) -> Response:
        try:
            await self.r.ping()
        except redis.RedisError as exc:
            return PlainTextResponse(f"redis: {exc}", status_code=503)
        return PlainTextResponse("ok")

    async def metrics(self, _request: Request) -> Response:
        body = await asyncio.to_thread(metrics.render, self.sync_r, self.k)
        return Response(body, media_type="text/plain; version=0.0.4")

    async def webhook(self, request: Request) -> Response:
        received_at = time.time()
        given = request.headers.get(SECRET_HEADER, "")
        if not self.s.webhook_secret or not hmac.compare_digest(given.encode(), self.s.webhook_secret.encode()):
            return PlainTextResponse("forbidden", status_code=403)
        await self._ensure_ready()
        body = await request.body()
        if len(body) > MAX_BODY:
            return PlainTextResponse("too large", status_code=413)
        try:
            data = json.loads(body)
            if not isinstance(data, dict) or not isinstance(data.get("update_id"), int) \
                    or isinstance(data.get("update_id"), bool):
                raise Rejected("no update_id")
            update = Update.de_json(data, self.application.bot)
            if update is None:
                raise Rejected("empty")
        except (ValueError, TypeError, KeyError, AttributeError, Rejected) as exc:
            log.info("rejected a malformed update: %s", exc)
            return PlainTextResponse("bad update", status_code=400)
        try:
            await self._take(update, received_at)
        except redis.RedisError:
            log.exception("redis unavailable; Telegram will redeliver")
            return PlainTextResponse("unavailable", status_code=503)
        return JSONResponse({})

    # ---------------------------------------------------------------- intake
    async def _mark(self, update_id: int, cmd: Command | None) -> bool:
        """Seen-check and queue in one step; False if this update came before."""
        payload = cmd.model_dump_json() if cmd else ""
        route = cmd.route if cmd else ""
        keys = [self.k.upd(update_id), self.k.inbox(route or "-"), self.k.pending, self.k.m_counters]
        new = bool(await self._intake(keys=keys, args=[SEEN_TTL, payload, route]))
        if not new:
            await self.r.hincrby(self.k.m_counters, "updates_duplicate", 1)
        return new

    async def _take(self, update: Update, received_at: float) -> None:
        if update.callback_query is not None:
            await self._callback(update, received_at)
            return
        message = update.message
        if message is None or message.from_user is None or message.from_user.is_bot or not message.text:
            await self._mark(update.update_id, None)  # edits, joins, stickers, bots, channel posts...
            return
        chat = message.chat
        text = message.text.strip()
        if chat.type in ("group", "supergroup"):
            text = self._own_command(text)
            if text is None:  # chatter, or a command for another bot
                await self._mark(update.update_id, None)
                return
            route = await self.r.hget(self.k.active, str(chat.id)) or f"chat:{chat.id}"
        elif chat.type == "private":
            route = f"chat:{chat.id}"
            head, _, payload = text.partition(" ")
            if head.split("@")[0] == "/start":
                table_id = parse_join_payload(payload.strip())
                if table_id:
                    route = table_id
        else:
            await self._mark(update.update_id, None)
            return
        cmd = Command(update_id=update.update_id, kind="message", route=route, chat_id=chat.id,
                      chat_type=chat.type, user_id=message.from_user.id, user_name=_name(message.from_user),
                      username=message.from_user.username, language_code=message.from_user.language_code,
                      text=text, message_id=message.message_id, received_at=received_at)
        await self._queue(update.update_id, cmd)

    def _own_command(self, text: str) -> str | None:
        if not text.startswith("/"):
            return None
        head, sep, rest = text.partition(" ")
        name, at, bot = head.partition("@")
        if at and bot.lower() != self.bot_username:
            return None
        return f"{name}{sep}{rest}"

    async def _queue(self, update_id: int, cmd: Command) -> None:
        with table_context(cmd.route):
            if await self._mark(update_id, cmd):
                await asyncio.to_thread(self._wake, cmd.route)

    def _wake(self, route: str) -> None:
        try:
            self.enqueue(route)
        except Exception:  # the command is safe in its inbox; the beat's janitor will wake it
            log.exception("could not enqueue the drain task")

    async def _callback(self, update: Update, received_at: float) -> None:
        q = update.callback_query
        message = q.message
        parsed = parse_callback(q.data)
        lang = locales.normalize(q.from_user.language_code)
        reason = None
        if parsed is None or message is None or not hasattr(message, "chat"):
            reason = "bot.callback.invalid"
        else:
            table_id, version, _arg = parsed
            saved = await self.r.hget(self.k.table(table_id), "ver")
            # Older versions are judged by the table logic (a button stays valid until its own
            # message is redrawn); a table that does not exist or a version it never had is forged.
            if saved is None or version > int(saved):
                reason = "bot.callback.invalid"
        if reason is not None:
            if await self._mark(update.update_id, None):
                chosen = await self.r.hget(self.k.lang, str(q.from_user.id))
                await self._answer(q.id, locales.text(reason, locales.normalize(chosen) if chosen else lang))
            return
        chat = message.chat
        cmd = Command(update_id=update.update_id, kind="callback", route=table_id, chat_id=chat.id,
                      chat_type=chat.type, user_id=q.from_user.id, user_name=_name(q.from_user),
                      username=q.from_user.username, language_code=q.from_user.language_code,
                      callback_data=q.data, callback_query_id=q.id, message_id=message.message_id,
                      received_at=received_at)
        await self._queue(update.update_id, cmd)

    async def _answer(self, query_id: str, text: str) -> None:
        try:
            await self.application.bot.answer_callback_query(query_id, text=text)
            await self.r.hincrby(self.k.m_counters, "api_calls", 1)
        except Exception as exc:  # an expired query id, a network error: nothing to undo
            log.info("answerCallbackQuery failed: %s", exc)


def _name(user) -> str:
    return " ".join(p for p in (user.first_name, user.last_name) if p) or (user.username or str(user.id))


def create_app(settings: Settings | None = None, **kwargs: Any) -> Starlette:
    """The webhook alone, as an ASGI app (what `boardgamesbot serve` runs with uvicorn)."""
    hook = Webhook(settings, **kwargs)
    app = Starlette(routes=hook.routes(), lifespan=hook.lifespan)
    app.state.webhook = hook
    return app
