"""The anatomy of a press, for the bench (`BGB_ANATOMY=1`; off in production): when each step
happened, in wall-clock seconds, so `bench/anatomy.py` can line the webhook's, the worker's and
the emulator's records up by callback query id.

    webhook (m:anat:hook)  recv: the request arrived; queued: the command is in its inbox (the
                           intake's Lua call returned); replied: the reply is ready; how: "verdict"
                           (answered in the reply) or "late" (the worker answers with a request)
    worker  (m:anat:work)  picked: the drainer read it from the inbox; loaded: the table is read;
                           handled: the table logic returned; committed: the commit returned;
                           sent: the prompts it made were handed to the senders (a sending
                           thread, workers/runtime.py), or None; r: the route
"""

from __future__ import annotations

import json

import redis

from workers.keys import Keys

KEEP = 50_000  # records kept per list (a bench window has a few thousand presses)


def record(r: redis.Redis, keys: Keys, where: str, data: dict) -> None:
    key = keys.m_anatomy(where)
    pipe = r.pipeline(transaction=False)
    pipe.lpush(key, json.dumps(data, separators=(",", ":")))
    pipe.ltrim(key, 0, KEEP - 1)
    pipe.execute()


async def record_async(r, keys: Keys, where: str, data: dict) -> None:
    key = keys.m_anatomy(where)
    async with r.pipeline(transaction=False) as pipe:
        pipe.lpush(key, json.dumps(data, separators=(",", ":")))
        pipe.ltrim(key, 0, KEEP - 1)
        await pipe.execute()


def read(r: redis.Redis, keys: Keys, where: str) -> list[dict]:
    return [json.loads(x) for x in r.lrange(keys.m_anatomy(where), 0, -1)]
