"""Webhook delivery: one background task per emulator (one bot), updates strictly in order.

An update leaves the queue only when the webhook answered 2xx. A non-2xx answer or a
connection error is recorded (getWebhookInfo.last_error_*) and the same update is retried
after a doubling backoff, so nothing is lost or reordered. Changing or deleting the webhook
ends the wait at once; with no webhook the queue stays for getUpdates.
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


async def _deliver(world: World, http: httpx.AsyncClient) -> None:
    config = world.config
    backoff = config.webhook_retry_initial
    while True:
        url = world.webhook["url"]
        if not url or not world.updates:
            world.delivery_wake.clear()
            if not (world.webhook["url"] and world.updates):
                await world.delivery_wake.wait()
            backoff = config.webhook_retry_initial
            continue
        update = world.updates[0]
        generation = world.webhook_generation
        headers = {"Content-Type": "application/json"}
        if world.webhook["secret_token"]:
            headers[SECRET_HEADER] = world.webhook["secret_token"]
        try:
            response = await http.post(url, content=json.dumps(update, ensure_ascii=False).encode(), headers=headers,
                                       timeout=config.webhook_timeout)
            error = None if 200 <= response.status_code < 300 else \
                f"Wrong response from the webhook: {response.status_code} {response.reason_phrase}"
        except httpx.TimeoutException:
            error = "Read timeout expired"
        except httpx.HTTPError as exc:
            error = f"Connection failed: {exc.__class__.__name__}"
        if world.webhook_generation != generation:
            continue  # the webhook changed meanwhile: start over with the new one
        if error is None:
            if world.updates and world.updates[0] is update:
                world.updates.popleft()
            world.webhook_deliveries += 1
            backoff = config.webhook_retry_initial
            continue
        world.webhook_failures += 1
        world.webhook["last_error_date"] = int(time.time())
        world.webhook["last_error_message"] = error
        await _sleep_unless_changed(world, generation, backoff)
        backoff = min(backoff * 2, config.webhook_retry_max)


async def _sleep_unless_changed(world: World, generation: int, seconds: float) -> None:
    deadline = time.monotonic() + seconds
    while world.webhook_generation == generation:
        left = deadline - time.monotonic()
        if left <= 0:
            return
        await asyncio.sleep(min(left, 0.05))
