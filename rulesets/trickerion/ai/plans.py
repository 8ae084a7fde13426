"""Which character goes where: the AI's plan for the Fase de Atribuição.

A plan gives each character a card from the hand where that location serves the player now: the
Theater to perform (the magician) or to set up prepared markers, the Workshop to prepare a trick
whose components are met, the Market for the components a trick still lacks, the Centro da Cidade
to learn a trick, hire or take coins, the Beco Escuro for special cards. Judgement, not rules; the
numbers are rough and the search corrects them.

`needs` scores the locations once per decision; `sample_plan` turns them into a plan (with noise,
so the rollouts and the others' sampled assignments vary); `next_step` is the assignment prompt's
next move towards the plan the seat would make.
"""

from __future__ import annotations

from rulesets.core.rng import Rng

from ..dark_alley.facts import PERMANENT, SPECIALS
from ..data import COMPONENTS, TRICKS
from ..placement import card_location, hand_left
from ..rules import characters, effective, kind, markers_in_theater, meets, trick_capacity
from ..state import Player, State
from .worth import rounds_left, trick_worth, wages_due

AP = {"magician": 3, "specialist": 2, "apprentice": 1}


def missing(p: Player, tid: str) -> dict[str, int]:
    """Components a trick still lacks (units)."""
    return {c: k - effective(p, c) for c, k in TRICKS[tid].components.items() if effective(p, c) < k}


def missing_cost(p: Player, tid: str) -> int:
    """Coins the components a trick lacks cost at their printed prices."""
    return sum(COMPONENTS[c].cost * k for c, k in missing(p, tid).items())


def needs(st: State, s: int) -> dict[str, float]:
    """How much player s gains from sending a character to each location this round. A trick goes
    through the Market (its components), the Workshop (Arquitetar), the Theater backstage (Preparar)
    and the performance; a round can take one trick through all of them, characters placed in that
    order, so each stage also counts the tricks one stage behind."""
    p = st.p[s]
    left = rounds_left(st)
    on_cards = sum(markers_in_theater(st, s, o.sym) for o in p.tricks)
    prepared = [o for o in p.tricks if o.on]
    to_prepare = [o for o in p.tricks if o.on == 0 and meets(p, o.t)]
    to_buy = [o for o in p.tricks if not meets(p, o.t) and missing_cost(p, o.t) <= max(0, p.coins - 2)]
    best = max((trick_worth(o.t) * TRICKS[o.t].markers for o in p.tricks), default=0.0)
    market = 1.5 + 0.4 * best if to_buy else 0.2
    workshop = 1.5 + max((trick_worth(o.t) * TRICKS[o.t].markers for o in to_prepare), default=0.0)
    if not to_prepare:
        workshop = 0.5 * market if to_buy else 0.0
    setup = 1.5 + 0.6 * sum(trick_worth(o.t) * o.on for o in prepared) if prepared else 0.4 * workshop
    perform = 4.0 + 1.2 * sum(m.n * trick_worth(m.t) for c in st.row if c for m in c.m.values() if m.seat == s)
    if not on_cards:
        perform = 0.9 * setup
    room = len(p.tricks) < trick_capacity(p) and left >= 3
    downtown = 1.0 + (2.0 if room and p.coins >= 2 else 0.0) + (2.5 if p.coins < 5 else 0.5)
    return {
        "perform": perform, "theater": setup, "workshop": workshop, "market": market, "downtown": downtown,
        PERMANENT: 1.6 if st.alley is not None and any(st.alley.decks.values()) else 0.0,
    }


def card_value(st: State, s: int, char: str, card: str, need: dict[str, float]) -> float:
    loc = card_location(st, card)
    if loc == "theater":
        value = need["perform"] if char == "mag" else need["theater"]
    else:
        value = need.get(loc, 0.5)
    if card in SPECIALS:
        value += 0.6  # the card's bonus or +1 AP; it stays a card in hand (2 points) only if unused
    return value * (0.6 + 0.25 * AP[kind(char)])


def sample_plan(st: State, s: int, rng: Rng, noise: float = 1.0, keep: dict[str, str] | None = None) -> dict[str, str]:
    """A plan for player s, completing `keep` (the cards already given): the most useful (character,
    card) pairs first, each location worth less once a character goes there; a character stays idle
    when nothing pays its wage."""
    p = st.p[s]
    need = needs(st, s)
    plan: dict[str, str] = dict(keep or {})
    left = dict(p.hand)
    used: dict[str, int] = {}
    for card in plan.values():
        left[card] = left.get(card, 0) - 1
        used[card_location(st, card)] = used.get(card_location(st, card), 0) + 1
    team = characters(p)
    purse = p.coins - wages_due(p, list(plan))
    for _ in team:
        best, best_value = None, 0.4
        for char in team:
            if char in plan:
                continue
            unpaid = max(0, wages_due(p, [char]) - purse)  # each unpaid coin costs 2 Fame
            for card, n in left.items():
                if n <= 0:
                    continue
                loc = card_location(st, card)
                value = card_value(st, s, char, card, need) * (0.55 ** used.get(loc, 0)) - 2 * unpaid
                if noise:
                    value += noise * rng.random()
                if value > best_value:
                    best, best_value = (char, card), value
        if best is None:
            break
        char, card = best
        plan[char] = card
        purse -= wages_due(p, [char])
        left[card] -= 1
        loc = card_location(st, card)
        used[loc] = used.get(loc, 0) + 1
    return {c: plan[c] for c in team if c in plan}


def next_step(st: State, s: int, choices: list[str], rng: Rng, noise: float) -> str:
    """The assignment prompt's next move towards the seat's plan (drawn afresh: it is cheap): the card
    its plan gives the character asked about, or leaving it idle; "pronto" once the plan gives no
    character still without a card one."""
    p = st.p[s]
    plan = sample_plan(st, s, rng, noise, p.plan)
    open_ = [c for c in characters(p) if c not in p.plan and c not in p.rest]
    if p.pick is None or not any(c in plan for c in open_):
        return "pronto"
    target = plan.get(p.pick)
    want = f"l:{target}" if target and hand_left(p).get(target, 0) > 0 else f"o:{p.pick}"
    return want if want in choices else "pronto"
