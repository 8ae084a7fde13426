"""Pausing Python's cycle collector while a simulation runs.

A playout or a search allocates hundreds of thousands of short-lived objects (log lines, state
copies, choice lists) and creates no reference cycles, so reference counting frees them all; the
cycle collector, triggered by every 700 allocations, would only walk every live object again and
again (3-4 % of a random Trickerion game). It is switched off for the simulation and back on (if
it was on) when it ends, even by an exception; anything left for it is collected later as usual.
"""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def gc_paused() -> Iterator[None]:
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            gc.enable()
