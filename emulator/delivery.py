"""Webhook delivery, as Telegram's Bot API server does it.

Updates go out over up to `max_connections` requests at once (setWebhook, default 40), but
within one *queue* strictly one at a time and in order. The queues are Telegram's own
(tdlib/telegram-bot-api, WebhookActor and each update's queue id): the messages of one chat,
the callback queries of one user, the membership changes of one chat; anything else is a
queue of its own. So a webhook that takes a while to answer one user's press holds up that
user's next press, never everybody's updates.

An update leaves the pending list only when the webhook answered 2xx. A non-2xx answer or a
connection error is recorded (getWebhookInfo.last_error_*) and that update's queue waits a
doubling backoff before the same update is tried again, so nothing is lost or reordered
within a queue while the other queues go on. Changing or deleting the webhook starts over:
answers to requests sent to the old one are ignored and their updates sent again.

A 2xx answer may carry a method call (Bot API, "Making requests when getting updates": "If
you're using webhooks, you can perform a request to the Bot API while sending an answer to
the webhook ... Specify the method to be invoked in the method parameter of the request. It's
not possible to know that such a request was successful or get its result."). Its parameters
come as a JSON, form or multipart body, like a request's; it is run by the same code as a
request — the same checks, the same flood control for the methods that are metered — and
nobody sees its result. Like Telegram's server, it ignores `get*` methods, setWebhook,
deleteWebhook, close and logOut there. Stats count it under `webhook_replies`, not `calls`:
the bot made no request for it.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
from dataclasses import dataclass

import httpx

from emulator.errors import NOT_FOUND, ApiError
from emulator.params import parse_body
from emulator.world import World

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
# Methods Telegram's server does not run from a webhook's answer.
NOT_IN_REPLIES = {"setwebhook", "deletewebhook", "close", "logout"}
log = logging.getLogger(__name__)


def queue_of(update: dict) -> tuple:
    """The queue an update is delivered in (in order within it, in parallel across queues)."""
    query = update.get("callback_query")
    if query is not None:
        return ("user", query["from"]["id"])
    for kind in ("message", "edited_message", "channel_post", "edited_channel_post"):
        if kind in update:
            return ("chat", update[kind]["chat"]["id"])
    for kind in ("my_chat_member", "chat_member", "chat_join_request"):
        if kind in update:
            return (kind, update[kind]["chat"]["id"])
    return ("update", update["update_id"])


@dataclass
class Attempt:
    queue: tuple
    update: dict
    generation: int
    error: str | None


async def deliver_forever(world: World, http: httpx.AsyncClient) -> None:
    """Never returns; a bug in one round is logged and retried so delivery does not stop."""
    while True:
        try:
            await _deliver(world, http)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("webhook delivery failed unexpectedly; retrying")
            await asyncio.sleep(world.config.webhook_retry_max)


async def _deliver(world: World, http: httpx.AsyncClient) -> None:
    config = world.config
    inflight: dict[tuple, asyncio.Task] = {}
    backoff: dict[tuple, tuple[float, float]] = {}  # queue -> (not before, next delay)
    generation = world.webhook_generation
    try:
        while True:
            world.delivery_wake.clear()
            if world.webhook_generation != generation:  # a new webhook (or none): start over
                generation = world.webhook_generation
                backoff.clear()
            url = world.webhook["url"]
            now = time.monotonic()
            next_try: float | None = None
            if url:
                limit = max(1, int(world.webhook.get("max_connections") or 40))
                heads: set[tuple] = set()
                for update in list(world.updates):
                    if len(inflight) >= limit:
                        break
                    queue = queue_of(update)
                    if queue in heads:
                        continue
                    heads.add(queue)
                    if queue in inflight:
                        continue
                    not_before = backoff.get(queue, (0.0, 0.0))[0]
                    if not_before > now:
                        next_try = not_before if next_try is None else min(next_try, not_before)
                        continue
                    inflight[queue] = asyncio.create_task(_attempt(world, http, url, update, queue, generation))
            wake = asyncio.ensure_future(world.delivery_wake.wait())
            timeout = None if next_try is None else max(0.0, next_try - time.monotonic())
            done, _ = await asyncio.wait({*inflight.values(), wake}, timeout=timeout,
                                         return_when=asyncio.FIRST_COMPLETED)
            wake.cancel()
            for task in done:
                if task is wake:
                    continue
                attempt: Attempt = task.result()
                inflight.pop(attempt.queue, None)
                if attempt.generation != world.webhook_generation:
                    continue  # answered by a webhook that is no longer set: send it again
                if attempt.error is None:
                    _forget(world, attempt.update)
                    world.webhook_deliveries += 1
                    backoff.pop(attempt.queue, None)
                    continue
                world.webhook_failures += 1
                world.webhook["last_error_date"] = int(time.time())
                world.webhook["last_error_message"] = attempt.error
                delay = backoff.get(attempt.queue, (0.0, config.webhook_retry_initial))[1]
                backoff[attempt.queue] = (time.monotonic() + delay, min(delay * 2, config.webhook_retry_max))
    finally:
        for task in inflight.values():
            task.cancel()


def _forget(world: World, update: dict) -> None:
    for i, pending in enumerate(world.updates):
        if pending is update:
            del world.updates[i]
            return


async def _attempt(world: World, http: httpx.AsyncClient, url: str, update: dict, queue: tuple,
                   generation: int) -> Attempt:
    config = world.config
    headers = {"Content-Type": "application/json"}
    if world.webhook["secret_token"]:
        headers[SECRET_HEADER] = world.webhook["secret_token"]
    try:
        response = await http.post(url, content=json.dumps(update, ensure_ascii=False).encode(), headers=headers,
                                   timeout=config.webhook_timeout)
    except httpx.TimeoutException:
        return Attempt(queue, update, generation, "Read timeout expired")
    except httpx.HTTPError as exc:
        return Attempt(queue, update, generation, f"Connection failed: {exc.__class__.__name__}")
    if not 200 <= response.status_code < 300:
        return Attempt(queue, update, generation,
                       f"Wrong response from the webhook: {response.status_code} {response.reason_phrase}")
    if world.webhook_generation == generation:
        try:
            await run_reply(world, http, response.headers.get("content-type", ""), response.content)
        except Exception:  # an emulator bug must not stop delivery
            log.exception("running the webhook's reply failed")
    return Attempt(queue, update, generation, None)


async def run_reply(world: World, http: httpx.AsyncClient, content_type: str, body: bytes) -> None:
    """Run the method a webhook's 2xx answer names, if any (its result goes nowhere)."""
    from emulator.botapi import CANONICAL, execute

    if not body.strip():
        return
    try:
        params = parse_body(content_type or "application/json", body)
    except ApiError:
        return  # not parameters at all: an answer like any other
    name = params.str("method") or ""
    lowered = name.lower()
    if not lowered or lowered.startswith("get") or lowered in NOT_IN_REPLIES:
        return
    if lowered not in CANONICAL:
        world.record(name, None, ApiError(404, NOT_FOUND), reply=True)
        return
    params.values.pop("method", None)
    await execute(world, http, name, params, reply=True)
