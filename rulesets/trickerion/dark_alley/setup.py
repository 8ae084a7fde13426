"""The Dark Alley's setup (PT p.9-10): the performance deck of six (2 Teatro Marginal, 2 Grande
Magoriano, 2 Panteão Magnus, top to bottom), the four shuffled special assignment decks, seven
rounds; the six-card starting hand and level-3 tricks come through hooks (see __init__)."""

from __future__ import annotations

from rulesets.core import Event, Rng, msg

from ..data import CARDS
from ..rules import log, who
from ..state import Alley, State
from .facts import ALLEY, LOCATIONS, SPECIALS


def prepare(state: State, prophecies: bool, rng: Rng, events: list[Event]) -> None:
    state.modules += ["dark_alley", *(["prophecies"] if prophecies else [])]
    state.rounds = ALLEY["rounds"]
    in_row = {c.id for c in state.row if c}
    pools: dict[str, list[str]] = {}
    for theater in dict.fromkeys(ALLEY["performance_deck"]):
        pools[theater] = [cid for cid, d in CARDS.items() if d.theater == theater and cid not in in_row]
        rng.shuffle(pools[theater])
    state.deck = [pools[theater].pop() for theater in ALLEY["performance_deck"]]
    decks = {}
    for loc in LOCATIONS:
        decks[loc] = [cid for cid, c in SPECIALS.items() if c.location == loc]
        rng.shuffle(decks[loc])
    state.alley = Alley(decks=decks)
    log(events, "da_setup", rounds=state.rounds)


def deal_special(state: State, s: int, location: str, events: list[Event]) -> str | None:
    """The top card of a special assignment deck into a player's hand (the quick game's "one special
    assignment card each"); the card is told to that player only. None if the deck is empty."""
    deck = state.alley.decks[location]
    if not deck:
        return None
    card = deck.pop(0)
    state.p[s].hand[card] = 1
    log(events, "da_dealt", player=who(s), loc=msg(f"trickerion.deck.{location}"))
    log(events, "da_kept", audience=[s], card=msg(f"trickerion.card.{card}"))
    return card

