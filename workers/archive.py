"""Finished games in Redis: what the commit that ends a game writes. Keys and their lifetimes:
workers/keys.py, "Finished games"; the table logic reads them through its Directory
(`store.RedisDirectory`). workers/retention.py, the one place that decides what a closed table
leaves behind, calls `plan_finished` from the commit that ends the game.
"""

from __future__ import annotations

from workers.config import Settings
from workers.keys import Keys
from workers.protocol import Finished
from workers.store import Plan, encode_doc

DAY = 24 * 3600


def plan_finished(plan: Plan, keys: Keys, settings: Settings, finished: Finished) -> None:
    """The writes a finished game adds to the commit that ends it (guards included)."""
    keep = max(1, int(settings.archive_days * DAY))
    plan.call("SET", keys.archive(finished.table_id), encode_doc(finished.record), "EX", keep)
    owners = [f"u{u}" for u in sorted(set(finished.users))] + [f"g{finished.chat_id}"]
    for owner in owners:
        key = keys.finished(owner)
        plan.call("ZADD", key, repr(finished.ended_at), finished.table_id)
        plan.call("ZREMRANGEBYRANK", key, 0, -(settings.archive_list + 1))
        plan.call("ZREMRANGEBYSCORE", key, "-inf", repr(finished.ended_at - keep))
        plan.call("EXPIRE", key, keep)
    for r in finished.ratings:
        key = keys.rating(r.game, r.scope, r.entity)
        plan.add("GREV", key, r.rev)  # another game changed this rating meanwhile: handle again
        plan.call("HSET", key, "mu", repr(r.mu), "sigma", repr(r.sigma), "games", r.games, "wins", r.wins,
                  "name", r.name)
        plan.call("HINCRBY", key, "rev", 1)
        plan.call("ZADD", keys.ranking(r.game, r.scope), repr(r.ordinal), r.entity)
    for st in finished.stats:
        key = keys.stats(st.game, st.entity)
        for name, amount in sorted(st.add.items()):
            plan.call("HINCRBY", key, name, amount)
        for name, value in sorted(st.best.items()):
            plan.add("HMAX", key, name, value)
