"""Trickerion's Dark Alley (option `dark_alley`; `prophecies` adds the prophecies module on top).

Modules, one concept each: setup (the Dark Alley side, performance deck with the Panteão Magnus,
special decks, seven rounds), beco_escuro (the location and its actions), special_cards (the 40
special assignment cards), magicians (the Dark Alley magician abilities), level3 (level-3 tricks'
end-game bonuses). This file plugs them into the base game through hooks.Module, and scores the Dark
Alley's end game: 1 Fame per Shard and per 3 coins as in the base game, 2 per special assignment card
in hand, level-3 bonuses, nothing for apprentices and specialists; each line capped at 20.

For other modules (the quick game deals "one special assignment card each in reverse initiative
order"): `setup.deal_special(state, seat, location, events)` puts the top card of that location's
special deck ("downtown", "market", "workshop", "theater") into the seat's hand, told to that seat only.
"""

from __future__ import annotations

from typing import Any

from rulesets.core import Event, Rng, msg
from rulesets.core.contract import ScoreLine

from .. import hooks, market, theater, town_center, workshop
from .. import prophecies as prophecies  # importing it registers the prophecies module (option `prophecies`)
from ..state import State
from . import beco_escuro, level3, magicians, special_cards
from . import setup as setup  # game.py calls setup.prepare
from .facts import ALLEY, PERMANENT, SPECIALS

BASE_PLACES = {"downtown": town_center, "market": market, "workshop": workshop, "theater": theater}


STEPS = {**special_cards.STEPS, **magicians.STEPS}  # the module's own decisions (built once: asked every move)


class Improved:
    """A base location whose menu gains the choices of a ready special-card bonus or a magician's power."""

    def __init__(self, base) -> None:
        self.base = base
        self.STEPS = getattr(base, "STEPS", {})

    def menu(self, state: State, s: int) -> list[str]:
        return self.base.menu(state, s) + special_cards.extra_choices(state, s)

    def surely_busy(self, state: State, s: int) -> bool:
        return hasattr(self.base, "surely_busy") and self.base.surely_busy(state, s)

    def opened_by_returns(self, state: State, s: int) -> bool:
        """The base place's answer; a ready special card's bonus may need room too: then, perhaps."""
        return special_cards.ready(state) or self.base.opened_by_returns(state, s)

    def start(self, state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
        state.alley.electra = False  # a Supercarga left with "back" does not carry over to another set-up
        if choice[:3] in special_cards.EXTRA_HEADS:
            special_cards.extra_start(state, s, choice, events)
        else:
            self.base.start(state, s, choice, rng, events)


IMPROVED = {loc: Improved(place) for loc, place in BASE_PLACES.items()}  # they hold no state: built once
# The module's places while no character acts at a base location, and while one does (read only: a move asks
# for them several times)
ALONE = {PERMANENT: beco_escuro}
WITH = {loc: {PERMANENT: beco_escuro, loc: improved} for loc, improved in IMPROVED.items()}


class DarkAlley(hooks.Module):
    name = "dark_alley"

    def places(self, state: State) -> dict[str, Any]:
        cur = state.cur
        return WITH[cur.loc] if cur is not None and cur.loc in BASE_PLACES else ALONE

    def steps(self, state: State) -> dict[str, tuple]:
        return STEPS

    def max_trick_level(self, state: State, level: int) -> int:
        return max(level, ALLEY["max_trick_level"])

    def hand(self, state: State, s: int, hand: dict[str, int]) -> dict[str, int]:
        return dict(ALLEY["hand"])

    def card_location(self, state: State, card: str) -> str | None:
        if card == PERMANENT:
            return PERMANENT
        return SPECIALS[card].location if card in SPECIALS else None

    def more_locations(self, state: State, s: int, card: str) -> list[str]:
        return special_cards.more_locations(state, card) + magicians.mimic_freelancer(state, s, card)

    def offers_magician(self, state: State, magician: str) -> bool:
        return magicians.offers(state, magician)

    def placed(self, state: State, s: int, char: str, space: str, events: list[Event]) -> None:
        special_cards.placed(state, s, char, space, events)
        magicians.placed(state, s, char, space, events)

    def placement_step(self, state: State, s: int) -> None:
        """Decisions right after the space, in this order: Mimetismo, the special card's bonus or +1 AP,
        Aprimoramento Mecânico; then the base game's Reforçar or actions."""
        if state.cur is None:
            return
        a, queue = state.alley, []
        if a.mode == "mimic":
            a.mode = ""
            queue.append("da_mimetismo")
        if a.card and a.mode == "":
            queue.append("da_especial")
        if magicians.mechanizer(state, s):
            queue.append("da_mecanico")
        if queue:
            state.ctx = {"next": state.step, "queue": queue[1:]}
            state.step = queue[0]

    action_cost = staticmethod(special_cards.action_cost)  # (no call in between: every action's cost asks)

    def acted(self, state: State, s: int, action: str, info: dict[str, Any], events: list[Event]) -> None:
        special_cards.acted(state, s, action, info, events)

    def orders_arrive(self, state: State, events: list[Event]) -> None:
        special_cards.orders_arrive(state, events)

    def yield_modifiers(self, state: State, owner: int, performer: int, tid: str) -> list[int]:
        return special_cards.yield_modifiers(state, owner, performer, tid)

    def yields_of(self, state: State, index: int, slot: str, tid: str) -> tuple[str, int]:
        return magicians.yields_of(state, index, slot, tid)

    def performing(self, state: State, s: int, index: int, events: list[Event]) -> None:
        special_cards.performing(state, s, index, events)

    def performed(self, state: State, s: int, events: list[Event]) -> None:
        special_cards.performed(state, s, events)
        magicians.performed(state, s, events)

    def before_perform(self, state: State, s: int, events: list[Event]) -> None:
        magicians.before_perform(state, s, events)

    def before_performances(self, state: State, rng: Rng, events: list[Event]) -> None:
        magicians.before_performances(state, events)

    def buy_area(self, state: State, comps: list[str]) -> list[str]:
        return special_cards.buy_area(state, comps)

    def component_cost(self, state: State, comp: str, price: int) -> int:
        return special_cards.component_cost(state, comp, price)

    def end_round(self, state: State, rng: Rng, events: list[Event]) -> None:
        special_cards.end_round(state, events)

    def base_score_items(self, state: State, items: list[str]) -> list[str]:
        return [k for k in items if k not in ("apprentices", "specialists")]

    def score_lines(self, state: State, s: int) -> list[ScoreLine]:
        n = sum(1 for c in state.p[s].hand if c in SPECIALS)
        sc = ALLEY["scoring"]
        return [ScoreLine(label=msg("trickerion.score.specials", count=n),
                          points=min(sc["cap"], n * sc["per_special_card"])), *level3.score_lines(state, s)]

    def label(self, state: State, seat: int, choice: str) -> Any:
        from . import views

        return views.label(state, seat, choice)

    def info(self, state: State, seat: int) -> list[Any]:
        from . import views

        return views.info(state, seat)

    def secret_step(self, state: State, step: str) -> bool:
        return step == "da_manter"  # which of the two drawn cards to keep: they are the drawer's secret

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        a = state.alley
        return {"special_decks": {loc: len(d) for loc, d in a.decks.items()}}

    def table(self, state: State, seat: int | None) -> list[Any]:
        """The special decks' sizes and how many special cards each player holds (never which)."""
        from rulesets.core import seat as seat_ref

        a = state.alley
        return [msg("trickerion.da.table", decks=[
            msg("trickerion.da.count", what=msg(f"trickerion.loc.{loc}"), n=len(d)) for loc, d in a.decks.items()],
            hands=[msg("trickerion.da.count", what=msg("trickerion.seat", player=seat_ref(s)),
                       n=sum(1 for c in p.hand if c in SPECIALS)) for s, p in enumerate(state.p)])]


hooks.register(DarkAlley())
