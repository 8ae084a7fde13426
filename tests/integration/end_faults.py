"""The table logic of the pipeline test of what finished games leave (test_records_pipeline.py): the real
`workers.tables.handle`, with faults at the very end of a game — when the worker computes the end of a
table the test named, it takes that table's next fault:

    die-before   the worker is killed (SIGKILL to its whole process group: the Celery master and its
                 children) once the end is computed, before its commit: nothing of it is written, and the
                 command waits in its inbox for a new worker
    die-after    killed right after the commit that wrote the end (the table, the record, the ratings),
                 before the press is answered and anything is sent
    twice        the end-of-game command is queued once more right after its commit, as a redelivery
                 that got past the webhook's dedupe would be

The plan is the JSON file BGB_TEST_END_FAULTS names: {table id: [fault, ...]}. A fault is written back
as taken before it acts (a restarted worker does not take it again) and counted in the Redis hash
`<prefix>test:faults` (the test's own prefix, removed with its other keys), so the test knows each one
happened. Loaded as BGB_HANDLER=tests.integration.end_faults:handle."""

from __future__ import annotations

import json
import os
import signal
from typing import Any

from workers.protocol import Command, Directory, Result
from workers.store import Plan, Store
from workers.tables import handle as real_handle
from workers.tables import set_bot_username  # noqa: F401 (the runtime gives the handler's module the bot's name)

_after: list[tuple[str, Command]] = []  # the fault to act on right after the next commit that succeeds


def _take(table_id: str) -> str | None:
    path = os.environ.get("BGB_TEST_END_FAULTS", "")
    try:
        with open(path) as fh:
            plan: dict[str, list[str]] = json.load(fh)
    except (OSError, ValueError):
        return None
    todo = plan.get(table_id) or []
    if not todo:
        return None
    plan[table_id] = todo[1:]
    with open(path + ".tmp", "w") as fh:
        json.dump(plan, fh)
        fh.flush()
        os.fsync(fh.fileno())
    os.replace(path + ".tmp", path)
    return todo[0]


def _count(store: Store, fault: str) -> None:
    store.r.hincrby(f"{store.k.p}test:faults", fault, 1)


def _die() -> None:
    os.killpg(os.getpgrp(), signal.SIGKILL)


def handle(table: dict[str, Any] | None, cmd: Command, directory: Directory, now: float) -> Result:
    result = real_handle(table, cmd, directory, now)
    if result.finished is not None:
        fault = _take(result.finished.table_id)
        store = getattr(directory, "store", None)
        if fault is not None and store is not None:
            _count(store, fault)
        if fault == "die-before":
            _die()
        if fault in ("die-after", "twice"):
            _after[:] = [(fault, cmd)]
    return result


_commit = Store.commit


def _commit_then_fault(self: Store, plan: Plan) -> int:
    rc = _commit(self, plan)
    if rc == 1 and _after:
        fault, cmd = _after.pop()
        if fault == "die-after":
            _die()
        self.r.rpush(self.k.inbox(cmd.route), cmd.model_dump_json())
        self.r.sadd(self.k.pending, cmd.route)
    return rc


Store.commit = _commit_then_fault  # type: ignore[method-assign]  (this module is loaded in test workers only)
