"""How long a table stays in Redis, and the one place where the end of a table is committed.

A lobby or a game in progress has no TTL. When a table closes its key gets one, set in the
same commit that saves it as closed: a finished game stays BGB_FINISHED_TTL_DAYS (default 30;
`/historico` and the final scores can still be read, and a late press is answered "não vale
mais"), a cancelled table one day. The indexes that point to a closed table (active, utables,
ulobbies) are cleaned by the table logic's Result in that same commit.

A finished game also leaves its record behind — archived for BGB_ARCHIVE_DAYS (default 365) for
/partidas, the replay and /exportar, in the players' and the group's lists — and its ratings and
statistics (workers/archive.py), all written in that same commit from `Result.finished`, which the
table logic fills only when a game reaches its end (never for a cancelled one).
"""

from __future__ import annotations

from workers import archive
from workers.config import Settings
from workers.keys import Keys
from workers.protocol import Finished
from workers.store import Plan

CANCELLED_TTL = 24 * 3600


def closed(table: dict) -> bool:
    return table.get("status") in ("over", "cancelled")


def ttl_seconds(table: dict, settings: Settings) -> int | None:
    """The lifetime of a saved table from now: None while it is open."""
    if table.get("status") == "over":
        return max(1, int(settings.finished_ttl_days * 24 * 3600))
    if table.get("status") == "cancelled":
        return CANCELLED_TTL
    return None


def plan_saved(plan: Plan, keys: Keys, settings: Settings, table_id: str, table: dict,
               finished: Finished | None = None) -> None:
    """Writes that go with saving `table` (added to the same guarded commit)."""
    ttl = ttl_seconds(table, settings)
    if ttl is not None:
        plan.call("EXPIRE", keys.table(table_id), ttl)
    if finished is not None and table.get("status") == "over":
        archive.plan_finished(plan, keys, settings, finished)
