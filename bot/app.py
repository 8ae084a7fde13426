"""The webhook: an ASGI app (Starlette) around a python-telegram-bot `Application` built
without an updater (Telegram pushes to us; PTB gives us the typed Update and the Bot).

For every POST it: checks the secret token header in constant time (403 otherwise); reads
and validates the update defensively (`bot/intake.py`: a body it cannot read is answered 200,
counted as `bad_update:<reason>` and dropped, so nothing in an update can make it answer 5xx
and stall Telegram's redelivery queue); in one Lua call drops an update id it has seen (SET
NX EX), takes a token from the sender's admission bucket (a flood is dropped, its sender told
at most once a minute) and RPUSHes the command to its route's inbox — so a crash cannot mark
an update seen without queueing it; wakes a Celery drain for the route; answers 200. Only a
Redis outage answers 503 (Telegram redelivers later). Nothing about a game is decided or kept
here.

A pressed button is answered in the HTTP reply itself, as a method call Telegram runs (Bot
API, "Making requests when getting updates"): no request, no rate-limit token. Presses it can
judge without the table logic — garbage data, an unknown table, a version from the future, a
flood — it answers at once. Any other press it queues and then waits, at most
`BGB_ANSWER_WAIT_MS`, for the verdict the worker's commit publishes (workers/answers.py):
the reply carries the table logic's text ("Esse botão não é seu", or silence for a move). If
the verdict is late, the webhook answers 200 with no method and the worker answers with a
request after its commit. The flood notice for a typed command rides a reply too (sendMessage).

`/metrics` and `/healthz` are `admin_routes()`: `serve` puts them on the admin port only
(`split_by_port`), so the public port serves nothing but the webhook path.
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
from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, PlainTextResponse, Response
from starlette.routing import BaseRoute, Route
from telegram.ext import Application

import locales
from bot import intake
from workers import anatomy, answers, metrics
from workers.config import Settings
from workers.keys import Keys
from workers.logs import table_context
from workers.names import display_name
from workers.protocol import Command, parse_callback, parse_chat_callback, parse_join_payload

log = logging.getLogger("bot.webhook")

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
SEEN_TTL = 24 * 3600
TOLD_TTL = 60  # a flooding user is told to slow down at most once a minute
REDIS_TIMEOUT = 2.0  # /healthz and /metrics give up on Redis after this long

# Admission results of INTAKE_LUA.
SEEN, ACCEPTED, FLOOD, FLOOD_TELL = 0, 1, 2, 3

# Mark the update seen, charge its sender one token of their bucket (ARGV[4] = '1': updates
# that cost work — a queued command or an answer from the webhook), and queue its command; a
# seen update does nothing, a flood is marked seen and dropped. A queued press is marked as
# waited on by this webhook (KEYS[7] = "wait", workers/answers.py) when ARGV[8] is a TTL.
# One round trip per update.
# KEYS: upd, inbox, pending, counters, bucket, told, cbq. ARGV: seen ttl, payload, route,
# charge, burst, refill per ms, told ttl, cbq ttl ('' = none).
INTAKE_LUA = """
if not redis.call('SET', KEYS[1], '1', 'NX', 'EX', ARGV[1]) then return 0 end
if ARGV[4] == '1' then
  local t = redis.call('TIME')
  local now = tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
  local cap = tonumber(ARGV[5])
  local rate = tonumber(ARGV[6])
  local v = redis.call('HMGET', KEYS[5], 'tokens', 'ts')
  local have = tonumber(v[1]) or cap
  local ts = tonumber(v[2]) or now
  have = math.min(cap, have + math.max(0, now - ts) * rate)
  local flood = have < 1
  if not flood then have = have - 1 end
  redis.call('HSET', KEYS[5], 'tokens', tostring(have), 'ts', tostring(now))
  redis.call('PEXPIRE', KEYS[5], math.ceil(cap / rate) + 1000)
  if flood then
    redis.call('HINCRBY', KEYS[4], 'bad_update:flood', 1)
    if redis.call('SET', KEYS[6], '1', 'NX', 'EX', ARGV[7]) then return 3 end
    return 2
  end
end
if ARGV[2] ~= '' then
  redis.call('RPUSH', KEYS[2], ARGV[2])
  redis.call('SADD', KEYS[3], ARGV[3])
  redis.call('HINCRBY', KEYS[4], 'queued', 1)
  if ARGV[8] ~= '' then redis.call('SET', KEYS[7], 'wait', 'PX', ARGV[8]) end
end
redis.call('HINCRBY', KEYS[4], 'updates', 1)
return 1
"""


def _default_enqueue(route: str) -> None:
    from workers import app

    app.send_task("workers.drain", args=[route])


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
        self._claim = None
        self._ready_lock = asyncio.Lock()
        self._ready = False
        # presses queued by this process and waiting for their verdict: query id -> future
        self._waiting: dict[str, asyncio.Future] = {}
        self._listener: asyncio.Task | None = None

    # --------------------------------------------------------------- lifecycle
    @contextlib.asynccontextmanager
    async def lifespan(self, _app: Any = None) -> AsyncIterator[None]:
        if self.application is None:
            self.application = (Application.builder().token(self.s.token).base_url(f"{self.s.api_base_url}/bot")
                                .updater(None).build())
        self.r = aioredis.Redis.from_url(self.s.redis_url, decode_responses=True)
        self.sync_r = redis.Redis.from_url(self.s.redis_url, decode_responses=True)
        self._intake = self.r.register_script(INTAKE_LUA)
        self._claim = self.r.register_script(answers.CLAIM_LUA)
        self._listener = asyncio.create_task(self._listen(), name="webhook-verdicts")
        if self.eager:
            await self._ensure_ready()
        try:
            yield
        finally:
            self._listener.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._listener
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
        """The public routes: the webhook path only."""
        return [Route(self.s.webhook_path, self.webhook, methods=["POST"])]

    def admin_routes(self) -> list[BaseRoute]:
        """For operators, on a private address: Prometheus metrics and the health check."""
        return [Route("/metrics", self.metrics, methods=["GET"]),
                Route("/healthz", self.health, methods=["GET"])]

    # ---------------------------------------------------------------- requests
    async def _redis_up(self) -> bool:
        if self.r is None:
            return False
        try:
            return bool(await asyncio.wait_for(self.r.ping(), REDIS_TIMEOUT))
        except (redis.RedisError, OSError, TimeoutError):
            return False

    async def health(self, _request: Request) -> Response:
        """Up or down per dependency, and nothing else (no addresses, no error texts)."""
        up = await self._redis_up()
        return PlainTextResponse(f"redis: {'up' if up else 'down'}", status_code=200 if up else 503)

    async def metrics(self, _request: Request) -> Response:
        # metrics.render never raises on a Redis outage: it answers `bgb_redis_up 0` (200) so
        # the scrape itself stays up and an alert can tell "Redis down" from "bot down".
        body = await asyncio.to_thread(metrics.render, self.sync_r, self.k)
        return Response(body, media_type="text/plain; version=0.0.4")

    async def webhook(self, request: Request) -> Response:
        received_at = time.time()
        given = request.headers.get(SECRET_HEADER, "")
        if not self.s.webhook_secret or not hmac.compare_digest(given.encode(), self.s.webhook_secret.encode()):
            return PlainTextResponse("forbidden", status_code=403)
        try:
            await self._ensure_ready()
        except Exception:  # getMe failed (Bot API unreachable): nothing to do with the update
            log.exception("the Bot API is unavailable; Telegram will redeliver")
            return PlainTextResponse("unavailable", status_code=503)
        try:
            body = await intake.read_body(request.headers, request.stream())
            update = intake.parse_update(body)
        except intake.BadUpdate as bad:
            await self._count_bad(bad)
            return JSONResponse({})
        except ClientDisconnect:
            return PlainTextResponse("", status_code=400)  # nobody is left to read it
        try:
            reply = await self._take(update, received_at)
        except redis.RedisError:
            log.exception("redis unavailable; Telegram will redeliver")
            return PlainTextResponse("unavailable", status_code=503)
        if reply is not None:
            await self._count("webhook_replies")
        # A method in the reply (an answer to a press, the flood notice) is run by Telegram: no
        # request of ours, and nothing in the way of the next update.
        return JSONResponse(reply or {})

    async def _count_bad(self, bad: intake.BadUpdate) -> None:
        """Logged once, without its content (it may be large, hostile or private)."""
        log.info("dropped a bad update: %s", bad.reason, extra={"update_id": bad.update_id})
        try:
            await self.r.hincrby(self.k.m_counters, f"bad_update:{bad.reason}", 1)
        except redis.RedisError:
            pass  # still 200: the update is bad whether or not it is counted

    # ---------------------------------------------------------------- intake
    async def _mark(self, update_id: int, cmd: Command | None, charge: int | None = None,
                    wait_for: str | None = None) -> int:
        """Seen-check, admission (when `charge` is the sender's user id) and queueing in one
        step: SEEN, ACCEPTED, FLOOD or FLOOD_TELL (dropped; tell the sender to slow down).
        `wait_for`: a callback query id this request will wait on the verdict of."""
        payload = cmd.model_dump_json() if cmd else ""
        route = cmd.route if cmd else ""
        who = charge if charge is not None else 0
        keys = [self.k.upd(update_id), self.k.inbox(route or "-"), self.k.pending, self.k.m_counters,
                self.k.flood(who), self.k.flood_told(who), self.k.cbq(wait_for or "-")]
        rate_per_ms = self.s.flood_rate / 1000
        outcome = int(await self._intake(keys=keys, args=[SEEN_TTL, payload, route, "1" if charge is not None else "0",
                                                          self.s.flood_burst, repr(rate_per_ms), TOLD_TTL,
                                                          answers.TTL_MS if wait_for else ""]))
        if outcome == SEEN:
            await self.r.hincrby(self.k.m_counters, "updates_duplicate", 1)
        elif outcome in (FLOOD, FLOOD_TELL):
            log.info("dropped an update of a flooding user", extra={"update_id": update_id})
        return outcome

    async def _lang(self, user: intake.User) -> str:
        chosen = await self.r.hget(self.k.lang, str(user.id))
        return locales.normalize(chosen or user.language_code)

    async def _take(self, update: intake.Update, received_at: float) -> dict | None:
        """Queue what the update asks for; returns the reply's method call, if any."""
        if update.callback_query is not None:
            return await self._callback(update.update_id, update.callback_query, received_at)
        message = update.message
        if message is None or message.from_user is None or message.from_user.is_bot or not message.text:
            await self._mark(update.update_id, None)  # edits, joins, stickers, bots, channel posts...
            return None
        chat = message.chat
        text = message.text.strip()
        if chat.type in ("group", "supergroup"):
            own = self._own_command(text)
            if own is None:  # chatter, or a command for another bot
                await self._mark(update.update_id, None)
                return None
            text = own
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
            return None
        sender = message.from_user
        cmd = Command(update_id=update.update_id, kind="message", route=route, chat_id=chat.id,
                      chat_type=chat.type, user_id=sender.id, user_name=_name(sender),
                      username=sender.username, language_code=sender.language_code,
                      text=text, message_id=message.message_id, received_at=received_at)
        if await self._queue(update.update_id, cmd) == FLOOD_TELL:
            # at most once a minute per user: far inside Telegram's limits without the outbox
            return {"method": "sendMessage", "chat_id": chat.id,
                    "text": locales.text("bot.flood", await self._lang(sender))}
        return None

    def _own_command(self, text: str) -> str | None:
        if not text.startswith("/"):
            return None
        head, sep, rest = text.partition(" ")
        name, at, bot = head.partition("@")
        if at and bot.lower() != self.bot_username:
            return None
        return f"{name}{sep}{rest}"

    async def _queue(self, update_id: int, cmd: Command, wait_for: str | None = None) -> int:
        with table_context(cmd.route):
            outcome = await self._mark(update_id, cmd, charge=cmd.user_id, wait_for=wait_for)
            if outcome == ACCEPTED:
                await asyncio.to_thread(self._wake, cmd.route)
            return outcome

    def _wake(self, route: str) -> None:
        try:
            self.enqueue(route)
        except Exception:  # the command is safe in its inbox; the beat's janitor will wake it
            log.exception("could not enqueue the drain task")

    async def _callback(self, update_id: int, q: intake.CallbackQuery, received_at: float) -> dict | None:
        message = q.message
        parsed = parse_callback(q.data)
        forged = parsed is None or message is None
        route = parsed[0] if parsed else None
        if message is not None and parse_chat_callback(q.data) is not None:
            # a finished game's button or a /partidas page: the chat's own route judges it
            forged, route = False, f"chat:{message.chat.id}"
        elif not forged:
            table_id, version, _arg = parsed
            saved = await self.r.hget(self.k.table(table_id), "ver")
            # Older versions are judged by the table logic (a button stays valid until its own
            # message is redrawn); a table that does not exist or a version it never had is forged.
            forged = saved is None or version > int(saved)
        if forged:
            outcome = await self._mark(update_id, None, charge=q.from_user.id)
            if outcome == SEEN:
                return None
            if outcome == FLOOD:
                return answers.reply(q.id, "")  # dropped: the spinner stops, nothing is said
            key = "bot.callback.invalid" if outcome == ACCEPTED else "bot.flood"
            return answers.reply(q.id, locales.text(key, await self._lang(q.from_user)))
        chat = message.chat
        cmd = Command(update_id=update_id, kind="callback", route=route, chat_id=chat.id,
                      chat_type=chat.type, user_id=q.from_user.id, user_name=_name(q.from_user),
                      username=q.from_user.username, language_code=q.from_user.language_code,
                      callback_data=q.data, callback_query_id=q.id, message_id=message.message_id,
                      received_at=received_at)
        # waiting starts before the command is queued, so a fast worker's verdict is not missed
        waiting = self._wait_here(q.id)
        try:
            outcome = await self._queue(update_id, cmd, wait_for=q.id)
            if outcome == FLOOD:
                return answers.reply(q.id, "")
            if outcome == FLOOD_TELL:
                return answers.reply(q.id, locales.text("bot.flood", await self._lang(q.from_user)))
            if outcome == SEEN:  # Telegram sent it again: answer it if its verdict is known
                value = await self.r.get(self.k.cbq(q.id))
                if value != answers.WAIT:
                    found = answers.read_verdict(value)
                    return answers.reply(q.id, *found) if found else None
            queued = time.time()
            reply = await self._verdict(q.id, waiting)
            if self.s.anatomy:
                await anatomy.record_async(self.r, self.k, "hook", {
                    "q": q.id, "recv": received_at, "queued": queued, "replied": time.time(),
                    "how": "verdict" if reply else "late"})
            return reply
        finally:
            if self._waiting.get(q.id) is waiting:
                del self._waiting[q.id]

    # ------------------------------------------------------------- verdicts
    def _wait_here(self, query_id: str) -> asyncio.Future:
        future = asyncio.get_running_loop().create_future()
        self._waiting[query_id] = future
        return future

    async def _verdict(self, query_id: str, waiting: asyncio.Future) -> dict | None:
        """The reply answering a queued press: its verdict if the worker's commit publishes it
        within the wait, else None (the worker then answers it with a request)."""
        try:
            text, alert = await asyncio.wait_for(waiting, self.s.answer_wait_ms / 1000)
            return answers.reply(query_id, text, alert)
        except TimeoutError:
            pass
        try:
            before = await self._claim(keys=[self.k.cbq(query_id)], args=[answers.TTL_MS])
        except redis.RedisError:
            return None  # the press is queued all the same; only its toast is lost
        found = answers.read_verdict(before)
        if found is None:  # the worker will answer it
            await self._count("answers_waited_out")
            return None
        return answers.reply(query_id, *found)  # it came just as we stopped waiting

    async def _listen(self) -> None:
        """Hand every published verdict to the request waiting for it in this process (each
        webhook replica gets them all and picks its own)."""
        while True:
            pubsub = self.r.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.k.answers)
                while True:
                    message = await pubsub.get_message(ignore_subscribe_messages=True, timeout=1.0)
                    if message is not None:
                        self._hand_over(message.get("data"))
            except asyncio.CancelledError:
                raise
            except (redis.RedisError, OSError):
                # Redis is away: waiting requests time out and fall back to the key (CLAIM_LUA)
                await asyncio.sleep(0.5)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()

    def _hand_over(self, data: object) -> None:
        try:
            notice = json.loads(data) if isinstance(data, (str, bytes)) else None
            future = self._waiting.get(str(notice["q"])) if isinstance(notice, dict) else None
        except (ValueError, KeyError):
            return
        if future is not None and not future.done():
            future.set_result((str(notice.get("t") or ""), bool(notice.get("a"))))

    async def _count(self, name: str) -> None:
        with contextlib.suppress(redis.RedisError):
            await self.r.hincrby(self.k.m_counters, name, 1)


def _name(user: intake.User) -> str:
    return display_name(user.first_name, user.last_name, user.username, user.id)


def create_app(settings: Settings | None = None, *, with_admin: bool = False, **kwargs: Any) -> Starlette:
    """The webhook alone, as an ASGI app; `app.state.admin` is the operators' app (metrics,
    health) sharing its Redis clients, served only while this one's lifespan runs.
    `with_admin` also serves the admin routes on the same app (test rigs on 127.0.0.1)."""
    hook = Webhook(settings, **kwargs)
    app = Starlette(routes=hook.routes() + (hook.admin_routes() if with_admin else []), lifespan=hook.lifespan)
    app.state.webhook = hook
    app.state.admin = Starlette(routes=hook.admin_routes())
    return app


def split_by_port(public: Starlette, admin_port: int):
    """One ASGI app for a server listening on two sockets: requests that came in on
    `admin_port` go to the admin app, all others (and the lifespan) to the public one."""
    admin = public.state.admin

    async def app(scope, receive, send) -> None:
        server = scope.get("server") or (None, None)
        target = admin if scope["type"] != "lifespan" and server[1] == admin_port else public
        await target(scope, receive, send)

    return app
