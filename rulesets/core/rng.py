"""Seeded, replayable randomness.

A game's randomness is a pure function of (seed, counter): the n-th number drawn is
splitmix64(seed, n). The match stores only those two integers (a few bytes, unlike
Python's 2.5 KB Mersenne Twister state), and every number drawn during one action is
recorded in that action's log entry. Replaying a log feeds the recorded numbers back
(`forced`), so a replay never re-rolls: it reproduces the game even if the generator
were to change, and it fails loudly if the rules ask for a different range.
"""

from __future__ import annotations

from collections.abc import MutableSequence, Sequence
from typing import TypeVar

T = TypeVar("T")
_MASK = (1 << 64) - 1


class ReplayMismatch(Exception):
    """The rules asked for randomness the recorded log cannot supply."""


def _splitmix64(x: int) -> int:
    x = (x + 0x9E3779B97F4A7C15) & _MASK
    x = ((x ^ (x >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    x = ((x ^ (x >> 27)) * 0x94D049BB133111EB) & _MASK
    return x ^ (x >> 31)


class Rng:
    """The random source handed to `Game.setup` and `Game.apply`.

    `below(n)` is the only primitive; `shuffle` and `choice` are built on it, so every
    outcome is one recorded integer. Bias of `x % n` with 64-bit x is below n / 2**64.
    """

    def __init__(self, seed: int, counter: int = 0, forced: Sequence[int] | None = None) -> None:
        self.seed = seed & _MASK
        self.counter = counter
        self.drawn: list[int] = []
        self._forced = list(forced) if forced is not None else None

    def below(self, n: int) -> int:
        if n <= 0:
            raise ValueError("below() needs a positive bound")
        if self._forced is not None:
            if len(self.drawn) >= len(self._forced):
                raise ReplayMismatch("the log recorded fewer random outcomes than the rules now need")
            value = self._forced[len(self.drawn)]
            if not 0 <= value < n:
                raise ReplayMismatch(f"recorded outcome {value} is outside 0..{n - 1}")
        else:
            value = _splitmix64(self.seed ^ _splitmix64(self.counter)) % n
        self.counter += 1
        self.drawn.append(value)
        return value

    def choice(self, items: Sequence[T]) -> T:
        return items[self.below(len(items))]

    def shuffle(self, items: MutableSequence[T]) -> None:
        """Fisher–Yates, in place."""
        for i in range(len(items) - 1, 0, -1):
            j = self.below(i + 1)
            items[i], items[j] = items[j], items[i]

    def finish(self) -> list[int]:
        """The outcomes drawn; in a replay, also checks that all recorded ones were used."""
        if self._forced is not None and len(self.drawn) != len(self._forced):
            raise ReplayMismatch("the log recorded more random outcomes than the rules used")
        return self.drawn
