"""A worker that only uses the CPU nobody else wants: the AI's pool beside people's work.

Nice 10 was not enough (docs/ai.md, "Bots beside people"): on two cores the bots' search
doubled people's press→prompt p99 (47 → 95 ms). A niced process still runs out its slice when
a person's command wakes; Linux's SCHED_IDLE class is preempted at once by any ordinary task
that wakes, and gets a core only when no ordinary task wants it. Any user may move its own
process there (no privilege); its threads and forked children inherit the class.
"""

from __future__ import annotations

import os


def yield_cpu() -> bool:
    """Put the calling thread (and what it forks or starts from now on) in SCHED_IDLE. False
    where the platform has no such class, or a sandbox (a seccomp profile) refuses the call: the
    worker then runs at its ordinary priority rather than not at all."""
    idle = getattr(os, "SCHED_IDLE", None)
    if idle is None:
        return False
    try:
        os.sched_setscheduler(0, idle, os.sched_param(0))
    except OSError:
        return False
    return True
