"""Determinization: a copy of the state in which everything one seat may not see is sampled again.

What a seat does not see in Trickerion (docs/rulings/trickerion.md, ruling AI1):
- during the Fase de Atribuição, the other players' cards under characters (and the one being chosen):
  each other player gets a plan drawn by the rollout policy (plans.sample_plan) and is done;
- with Intenções Ocultas (P20) in force after the assignment, the cards under the other players'
  characters not yet placed (which characters have one is public): drawn again from their cards;
- the other players' special assignment cards in hand (only their number is public) and the order of
  the four special decks (only their sizes): the unseen cards of each location, shuffled in canonical
  order, fill that deck, the rest are dealt to the other players' hands;
- the face-down performance deck: its theaters are known from the setup's order, its cards are drawn
  from those of each theater not on the table;
- the face-down prophecy pile: its tokens are known (all but the pending, active and discarded), not
  their order.
Every draw comes from the search's rng over lists sorted by id, so the result depends only on what
the seat may see and the rng.
"""

from __future__ import annotations

from rulesets.core.rng import Rng

from ..dark_alley.facts import ALLEY, LOCATIONS, SPECIALS
from ..data import BOARD, CARDS
from ..placement import shown_plan
from ..rules import characters
from ..state import State
from .copying import copy_state
from .plans import sample_plan


def determinize(state: State, seat: int, rng: Rng) -> State:
    st = copy_state(state)
    seen = {o: _seen_plan(state, o, seat) for o in range(st.n)}
    if st.alley is not None:
        _special_cards(st, seat, seen, rng)
    _performance_deck(st, rng)
    if st.proph is not None:
        st.proph.pile = sorted(st.proph.pile)
        rng.shuffle(st.proph.pile)
    _plans(st, seat, seen, rng)
    return st


def _seen_plan(state: State, o: int, seat: int) -> dict[str, str]:
    """The cards under o's characters that `seat` has seen: none of the others' before the reveal."""
    if o != seat and state.phase == "assign":
        return {}
    return shown_plan(state, o, seat)


def _special_cards(st: State, seat: int, seen: dict[int, dict[str, str]], rng: Rng) -> None:
    """Re-deal the special cards the seat has not seen between the decks and the others' hands."""
    a = st.alley
    known: dict[int, list[str]] = {}
    missing: dict[int, int] = {}
    for o, p in enumerate(st.p):
        if o == seat:
            continue
        held = [c for c in p.hand if c in SPECIALS]
        known[o] = sorted({c for c in seen[o].values() if c in SPECIALS} & set(held))
        missing[o] = len(held) - len(known[o])
    visible = {c for c in st.p[seat].hand if c in SPECIALS}
    visible |= {c for cards in known.values() for c in cards}
    if st.step == "da_manter" and st.turn == seat:
        visible |= set(st.ctx["drawn"])
    to_hands: list[str] = []
    for loc in LOCATIONS:
        unseen = sorted(c for c, card in SPECIALS.items() if card.location == loc and c not in visible)
        rng.shuffle(unseen)
        size = len(a.decks[loc])
        a.decks[loc] = unseen[:size]
        to_hands += unseen[size:]
    to_hands.sort()
    rng.shuffle(to_hands)
    for o in sorted(missing):
        p = st.p[o]
        dealt, to_hands = to_hands[:missing[o]], to_hands[missing[o]:]
        p.hand = {**{c: n for c, n in p.hand.items() if c not in SPECIALS}, **{c: 1 for c in known[o] + dealt}}


def _performance_deck(st: State, rng: Rng) -> None:
    """The deck's theaters follow the setup's order (its last cards are the ones left); each card is one
    of that theater's not on the table."""
    if not st.deck:
        return
    order = ALLEY["performance_deck"] if st.alley is not None else BOARD.performance_deck
    theaters = list(order)[-len(st.deck):]
    on_table = {c.id for c in st.row if c}
    pools: dict[str, list[str]] = {}
    for theater in dict.fromkeys(theaters):
        pools[theater] = sorted(cid for cid, d in CARDS.items() if d.theater == theater and cid not in on_table)
        rng.shuffle(pools[theater])
    st.deck = [pools[theater].pop() for theater in theaters]


def _plans(st: State, seat: int, seen: dict[int, dict[str, str]], rng: Rng) -> None:
    for o, p in enumerate(st.p):
        if o == seat:
            continue
        if st.phase == "assign":  # secret and simultaneous: the others' assignments are the policy's
            p.pick, p.rest = None, []
            p.plan = sample_plan(st, o, rng)
            p.ready = True
        elif len(seen[o]) < len(p.plan):  # Intenções Ocultas: the cards of characters not yet placed
            shown = seen[o]
            cards = [c for c, n in p.hand.items() for _ in range(n)]
            for card in shown.values():
                if card in cards:
                    cards.remove(card)
            cards.sort()
            rng.shuffle(cards)
            hidden = [c for c in characters(p) if c in p.plan and c not in shown]
            drawn = dict(zip(hidden, cards, strict=False))
            p.plan = {c: shown.get(c) or drawn[c] for c in characters(p) if c in p.plan}
