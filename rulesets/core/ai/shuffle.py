"""Fisher–Yates with the search's generator (`SearchRng.shuffle`), apart so that it runs compiled
(rulesets/compiled.py): a determinization shuffles every unseen card or Materia, every iteration."""

from __future__ import annotations

from collections.abc import Callable, MutableSequence
from typing import Any


def shuffle(items: MutableSequence[Any], random: Callable[[], float]) -> None:
    """Rng.shuffle's Fisher–Yates with `below(n)` as int(random() * n): the same draws as it takes."""
    for i in range(len(items) - 1, 0, -1):
        j = int(random() * (i + 1))
        items[i], items[j] = items[j], items[i]
