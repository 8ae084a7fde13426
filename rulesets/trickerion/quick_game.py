"""Partida rápida (the quick-game variant of the Dahlgaard's Academy appendix), option `quick_game`.

The game starts at round 2 and ends where it would have ended (after round 5; round 7 with the Dark
Alley). After the players' setup, the free initial Arquitetar and the initiative draw:

    * the performance deck's top card goes face up into the Theater, in the space right of the setup
      cards (the Theater then holds as many cards as there are players);
    * every player gains 3 Fame and 1 Shard, and 2 coins if their starting specialist is the Assistant;
    * with the Dark Alley, in reverse initiative order, every player takes the top card of a special
      assignment deck of their choice;
    * every player picks components worth 3 coins (one at a time: basic 1, advanced 2, superior 3) —
      after the free Arquitetar, so they do not prepare anything by themselves. Nobody's components
      change another's, so everyone picks at the same time, while the special cards are taken.

The first round played (round 2) skips Ajustar a Ordem de Iniciativa: the order and its starting coins
were just drawn. Rulings with their reasons: docs/rulings/trickerion.md, "Secret Workshop and quick game".

Choice ids: `qc:<component>` (a component), `qd:<location>` (the special deck to take from).
"""

from __future__ import annotations

import yaml

from rulesets.core import Event, Rng, msg
from rulesets.core.messages import Msg

from . import hooks
from .dark_alley.facts import LOCATIONS as SPECIAL_DECKS
from .dark_alley.setup import deal_special
from .data import CARDS, COMPONENT_KEYS, HERE
from .rules import add_components, comp_cost, comp_name, gain, log, room_for, set_step, step_of, who
from .state import Card, State

NAME = "quick_game"
with (HERE / "variants.yaml").open(encoding="utf-8") as _fh:
    DATA: dict[str, int] = yaml.safe_load(_fh)[NAME]
FIRST_ROUND = DATA["first_round"]
VALUE = "qv"    # Player.start key: value of quick-game components still to pick
SPECIAL = "qs"  # Player.start key: special assignment cards still to take (with the Dark Alley)


# ---------------------------------------------------------------------------------------------- setup


def reveal_extra_card(state: State, events: list[Event]) -> None:
    """The deck's top card goes right of the setup cards: as many cards as players, none to discard
    before the end of round 3 (as in a game that started at round 1)."""
    last = max(i for i, c in enumerate(state.row) if c is not None)
    if state.deck and last + 1 < len(state.row):
        state.row[last + 1] = Card(id=state.deck.pop(0))
        cid = state.row[last + 1].id
        log(events, "quick_card", card=msg(f"trickerion.theater.{CARDS[cid].theater}", id=cid), n=last + 2)


def bonuses(state: State, events: list[Event]) -> None:
    for s in state.order:
        p = state.p[s]
        coins = DATA["assistant_coins"] if "assistant" in p.specs else 0
        gain(p, fame=DATA["fame"], shards=DATA["shards"], coins=coins)
        p.start[VALUE] = DATA["component_value"]
        if "dark_alley" in state.modules:
            p.start[SPECIAL] = DATA["special_cards"]
        if coins:
            log(events, "quick_bonus_assistant", player=who(s), fame=DATA["fame"], shards=DATA["shards"], coins=coins)
        else:
            log(events, "quick_bonus", player=who(s), fame=DATA["fame"], shards=DATA["shards"])


def next_decision(state: State, events: list[Event]) -> None:
    """Point the decisions at the next quick-game setup decisions, or clear them when there is none: the
    special cards one at a time in reverse initiative order (each takes a deck's top card: the order
    matters), the components of every player at the same time (state.steps)."""
    for s in range(state.n):
        if state.p[s].start.get(VALUE):
            if comp_choices(state, s):
                set_step(state, s, "rapido_comps")
                continue
            left = state.p[s].start.pop(VALUE)  # nothing fits the Workshop any more: the rest is forfeited
            log(events, "quick_forfeit", player=who(s), value=left)
        set_step(state, s, "")
    state.turn, state.step = None, ""
    for s in reversed(state.order):
        if state.p[s].start.get(SPECIAL):
            if deck_choices(state, s):
                state.turn, state.step = s, "rapido_carta"
                return
            state.p[s].start.pop(SPECIAL)  # every special deck is empty (cannot happen with 4 players)
            log(events, "quick_no_deck", player=who(s))


# ---------------------------------------------------------------------------------------------- decisions


def comp_choices(state: State, s: int) -> list[str]:
    p = state.p[s]
    value = p.start.get(VALUE, 0)
    return [f"qc:{c}" for c in COMPONENT_KEYS if comp_cost(c) <= value and room_for(p, c) > 0]


def comp_apply(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    p = state.p[s]
    c = choice[3:]
    add_components(p, c, 1)
    p.start[VALUE] -= comp_cost(c)
    log(events, "start_component", player=who(s), comp=comp_name(c))
    if p.start[VALUE] and comp_choices(state, s):
        return False
    p.start.pop(VALUE)
    next_decision(state, events)
    return True  # this player's quick-game components are complete


def deck_choices(state: State, s: int) -> list[str]:
    return [f"qd:{loc}" for loc in SPECIAL_DECKS if state.alley.decks[loc]]


def deck_apply(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    """The top card of the chosen special deck into the player's hand (seen by that player only)."""
    p = state.p[s]
    deal_special(state, s, choice[3:], events)
    p.start[SPECIAL] -= 1
    if not p.start[SPECIAL]:
        p.start.pop(SPECIAL)
    next_decision(state, events)
    return True  # a hidden card was seen: no taking it back


STEPS: dict[str, tuple] = {"rapido_comps": (comp_choices, comp_apply), "rapido_carta": (deck_choices, deck_apply)}


class Module(hooks.Module):
    name = NAME

    def after_setup(self, state: State, rng: Rng, events: list[Event]) -> None:
        state.round = FIRST_ROUND
        log(events, "quick_start", round=FIRST_ROUND)
        reveal_extra_card(state, events)
        bonuses(state, events)
        next_decision(state, events)

    def adjust_initiative(self, state: State, adjust: bool) -> bool:
        return adjust and state.round != FIRST_ROUND

    def steps(self, state: State) -> dict[str, tuple]:
        return STEPS

    def label(self, state: State, seat: int, choice: str) -> Msg | None:
        if choice.startswith("qc:") and step_of(state, seat) == "rapido_comps":
            return msg("trickerion.choice.quick_comp", comp=comp_name(choice[3:]), coins=comp_cost(choice[3:]))
        if choice.startswith("qd:") and state.step == "rapido_carta":
            loc = choice[3:]
            n = len(state.alley.decks[loc])
            return msg("trickerion.choice.quick_deck", loc=msg(f"trickerion.loc.{loc}"), n=n, count=n)
        return None

    def info(self, state: State, seat: int) -> list[Msg]:
        if step_of(state, seat) == "rapido_comps":
            return [msg("trickerion.info.value", n=state.p[seat].start.get(VALUE, 0))]
        return []


hooks.register(Module())
