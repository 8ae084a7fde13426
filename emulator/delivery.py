"""Webhook delivery: one dispatcher per emulator (one bot), as Telegram delivers.

Telegram opens up to `max_connections` (setWebhook, default 40) simultaneous connections to a
webhook, so one slow or failing update does not hold back every chat. The emulator does the
same, keeping each chat's updates in order: an update is sent only when no earlier update of
its chat is waiting or in flight (the bot may rely on a chat's order; nothing relies on the
order between chats).

An update leaves the queue only when the webhook answered 2xx. A non-2xx answer or a
connection error is recorded (getWebhookInfo.last_error_*) and the same update is retried
after a doubling backoff (per chat), so nothing is lost or reordered within its chat.
Changing or deleting the webhook ends the waits at once; with no webhook the queue stays for
getUpdates.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time

import httpx

from emulator.world import World

SECRET_HEADER = "X-Telegram-Bot-Api-Secret-Token"
log = logging.getLogger(__name__)


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


def chat_key(update: dict) -> object:
    """What orders an update: its chat (or its sender's private chat for inline queries)."""
    for kind, payload in update.items():
        if kind == "update_id" or not isinstance(payload, dict):
            continue
        chat = payload.get("chat") or (payload.get("message") or {}).get("chat")
        if isinstance(chat, dict) and "id" in chat:
            return chat["id"]
        sender = payload.get("from")
        if isinstance(sender, dict) and "id" in sender:
            return sender["id"]
    return ("update", update.get("update_id"))


async def _deliver(world: World, http: httpx.AsyncClient) -> None:
    in_flight: dict[object, asyncio.Task] = {}
    backoff: dict[object, float] = {}
    while True:
        for key, task in list(in_flight.items()):
            if task.done():
                del in_flight[key]
                task.result()  # a bug in a sender surfaces in deliver_forever's log
        url = world.webhook["url"]
        started = False
        if url:
            limit = max(1, int(world.webhook.get("max_connections") or 40))
            seen: set[object] = set(in_flight)
            for update in list(world.updates):
                if len(in_flight) >= limit:
                    break
                key = chat_key(update)
                if key in seen:
                    continue  # an earlier update of this chat goes first
                seen.add(key)
                in_flight[key] = asyncio.create_task(_send(world, http, update, key, backoff))
                started = True
        if started:
            continue
        world.delivery_wake.clear()
        waits = [asyncio.ensure_future(world.delivery_wake.wait()), *in_flight.values()]
        done, _ = await asyncio.wait(waits, return_when=asyncio.FIRST_COMPLETED)
        if waits[0] not in done:
            waits[0].cancel()


async def _send(world: World, http: httpx.AsyncClient, update: dict, key: object,
                backoff: dict[object, float]) -> None:
    """POST one update; on success it leaves the queue, on failure it waits out its backoff
    (its chat stays blocked meanwhile) and stays first in its chat's line."""
    config = world.config
    generation = world.webhook_generation
    headers = {"Content-Type": "application/json"}
    if world.webhook["secret_token"]:
        headers[SECRET_HEADER] = world.webhook["secret_token"]
    try:
        response = await http.post(world.webhook["url"], content=json.dumps(update, ensure_ascii=False).encode(),
                                   headers=headers, timeout=config.webhook_timeout)
        error = None if 200 <= response.status_code < 300 else \
            f"Wrong response from the webhook: {response.status_code} {response.reason_phrase}"
    except httpx.TimeoutException:
        error = "Read timeout expired"
    except httpx.HTTPError as exc:
        error = f"Connection failed: {exc.__class__.__name__}"
    try:
        if world.webhook_generation != generation:
            return  # the webhook changed meanwhile: the update stays for the new one
        if error is None:
            try:
                world.updates.remove(update)
            except ValueError:
                pass  # confirmed through getUpdates meanwhile
            world.webhook_deliveries += 1
            backoff.pop(key, None)
            return
        world.webhook_failures += 1
        world.webhook["last_error_date"] = int(time.time())
        world.webhook["last_error_message"] = error
        wait = backoff.get(key, config.webhook_retry_initial)
        backoff[key] = min(wait * 2, config.webhook_retry_max)
        await _sleep_unless_changed(world, generation, wait)
    finally:
        world.delivery_wake.set()  # the dispatcher looks again: this chat is free


async def _sleep_unless_changed(world: World, generation: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while world.webhook_generation == generation:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        await asyncio.sleep(min(left, 0.05))
