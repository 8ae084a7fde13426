"""The Redis transport Celery uses, with one guard: a worker survives its broker restarting.

What failed (kombu 5.7.0, celery 5.7.0, the newest of both): when the broker connection drops,
the worker's consumer calls `Connection.collect()` — which closes nothing of the redis
transport's channels when Redis is already gone but sets `transport.client = None` — and then
`Connection.close()`. That closes the default channel once more; the channel still holds
prefetched, unacknowledged task messages, so it restores them (`QoS.restore_unacked`), which
needs a fresh connection pool, whose parameters are read from `transport.client.hostname`:
`AttributeError: 'NoneType' object has no attribute 'hostname'`. kombu's close path ignores
connection errors only, so the AttributeError reached the worker as "Unrecoverable error"
and the process exited, leaving every inbox waiting for a person to restart it. It only
happens with messages prefetched at the instant Redis goes away (a busy worker), which is
why an idle worker survived.

The guard: a channel whose transport was collected raises the redis ConnectionError that
kombu expects from a broken broker instead, so the close is skipped like any other
connection error and Celery reconnects. Nothing is lost by not restoring those messages
here: kombu keeps them in its unacked hash in Redis and redelivers them after the
visibility timeout, and they are only wake-up calls — the commands are in the inboxes and
the beat's janitor re-wakes every route with waiting commands within BGB_SCAN_INTERVAL.
Settings cannot avoid it (prefetch 1 still holds one message) and no release fixes it yet;
drop this module when kombu checks for a collected transport itself.
"""

from __future__ import annotations

import redis
from kombu.transport import redis as kombu_redis


class Channel(kombu_redis.Channel):
    def _connparams(self, asynchronous: bool = False) -> dict:
        if self.connection is None or self.connection.client is None:
            raise redis.ConnectionError("the broker connection was already collected")
        return super()._connparams(asynchronous=asynchronous)


class Transport(kombu_redis.Transport):
    Channel = Channel


TRANSPORT = f"{__name__}:Transport"
