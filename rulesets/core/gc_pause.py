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
            _promote_young()
            gc.enable()


def _promote_young() -> None:
    """Move every object the simulation left alive to the oldest generation, without walking them: the
    first allocation after `gc.enable()` would otherwise walk them all in a young collection (what the
    simulation allocated is all young: a game's match and log, 3 % of a random Trickerion game). Freezing
    and unfreezing does it (and resets the young count); anything they hold is collected in the oldest
    generation's next collection, as every long-lived object is."""
    gc.freeze()
    gc.unfreeze()
