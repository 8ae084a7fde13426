"""The garbage collector in a long-running process: freeze what startup built.

Python's cycle collector walks every tracked object of the oldest generation on each full
pass. In a worker or a webhook most of those are the modules, classes, functions and game
data loaded at startup, which live as long as the process: in the whole-system bench a full
pass took 65–105 ms every 20–40 s in the worker and in the embedded process (~90 000 objects),
and every move in flight waited for it — a visible share of the press→prompt p99. Frozen
(`gc.freeze()`), they are never walked again; what is created afterwards is collected as
before. A process that forks (Celery's prefork pool) also keeps the frozen pages shared.
"""

from __future__ import annotations

import gc


def freeze_startup(*, games: bool = False) -> int:
    """Collect startup's garbage once, then freeze everything left. With `games`, import every
    game's rules first (a worker loads them on its first table anyway). Returns how many objects
    are now frozen."""
    if games:
        from rulesets.registry import available, get_game

        for name in available():
            get_game(name)
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()
