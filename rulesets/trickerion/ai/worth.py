"""What things are worth to the AI, in end-game points: tricks, markers, characters, and the estimate
of each player's final score that the search uses where it cuts a rollout. Judgement, not rules:
rough numbers that tournaments check (docs/ai.md)."""

from __future__ import annotations

from ..dark_alley import level3
from ..dark_alley.facts import ALLEY, SPECIALS
from ..data import BOARD, TRICKS
from ..game import rounds
from ..rules import kind
from ..state import Player, State

COIN = 1 / 3  # a coin scores a third of a point at the end, and buys about that much before it


def rounds_left(st: State) -> int:
    """Rounds still to be played, this one included while its performances are ahead."""
    return max(0, rounds(st) - st.round + (1 if st.phase in ("advertise", "assign", "place", "perform") else 0))


def trick_worth(tid: str) -> float:
    """One performed marker of the trick, in points."""
    y = TRICKS[tid].yields
    return y.fame + COIN * y.coins + y.shards


def wages_due(p: Player, chars: list[str]) -> int:
    return sum(BOARD.characters[kind(c)].wage for c in chars if c != p.app_ext)


def estimate(st: State, s: int) -> float:
    """Player s's final score as it stands, plus what the table promises: markers in the Theater
    (most will be performed), markers prepared on trick cards, tricks still to be used in the rounds
    left, and the characters' action points in those rounds."""
    p = st.p[s]
    left = rounds_left(st)
    dark = st.alley is not None
    points = p.fame + min(20, p.shards) + min(20, p.coins * COIN)
    if dark:
        specials = sum(1 for c in p.hand if c in SPECIALS)
        points += min(ALLEY["scoring"]["cap"], specials * ALLEY["scoring"]["per_special_card"])
        points += sum(level3.bonus(st, s, o.t) for o in p.tricks if TRICKS[o.t].level == 3)
    else:
        points += min(20, 2 * len(p.apps)) + min(20, 3 * len(p.specs))
    for card in st.row:
        if card:
            for m in card.m.values():
                if m.seat == s:
                    points += 0.7 * m.n * trick_worth(m.t)
    future = min(left, 3)
    for o in p.tricks:
        points += 0.45 * o.on * trick_worth(o.t) if left else 0.0
        points += 0.25 * future * TRICKS[o.t].markers * trick_worth(o.t) * (0.5 if o.on else 1.0)
    points += future * (1.1 * len(p.specs) + 0.55 * len(p.apps) - 0.45 * len(p.specs) - 0.3 * len(p.apps))
    return points
