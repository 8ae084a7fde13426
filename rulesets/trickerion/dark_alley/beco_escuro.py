"""Beco Escuro, the fifth location: four spaces like the Centro da Cidade's (+2, +1 from 3 players,
+1 from 4 players, +0; Reforçar allowed) and its actions:

    Comprar a Primeira Carta (1 AP, once per placement)  draw two cards from one special deck, keep
                                                         one, the other to the bottom of that deck
    Comprar Cartas Adicionais (2 AP, any number of times) the same
    Clarividência (1 AP, once per placement)             every pending prophecy moves one space
                                                         (prophecies.clairvoyance; only with prophecies,
                                                         when two or more are pending)
    Tecer o Destino (1 AP, Priestess of Mysticism)       prophecies.fate_weaving (see magicians.py); no
                                                         limit but AP (PT p.21 prints none)

The cards drawn and the card kept are told to the drawing player only; the others learn the deck."""

from __future__ import annotations

from functools import cache

from rulesets.core import Event, Rng, msg

from .. import hooks
from ..rules import log, who
from ..state import State
from .facts import ALLEY, LOCATIONS, PERMANENT

SPACES = ALLEY["spaces"]


def cost(state: State, action: str) -> int:
    """AP cost of a Beco Escuro action, after any module's change (a prophecy may lower one)."""
    value = ALLEY["actions"][action]
    for m in hooks.active(state):
        value = m.action_cost(state, action, value)
    return value


def prophecies_on(state: State) -> bool:
    return "prophecies" in state.modules


def spaces(state: State, s: int, char: str) -> tuple[str, ...]:
    return _spaces(state.n)


@cache  # the same all game (the placement prompt asks for them every move)
def _spaces(n: int) -> tuple[str, ...]:
    return tuple(f"{PERMANENT}.{i}" for i, sp in enumerate(SPACES) if sp["from_players"] <= n)


def space_ap(key: str) -> int:
    return SPACES[int(key.split(".")[1])]["ap"]


def opened_by_returns(state: State, s: int) -> bool:
    """The Beco Escuro's actions ask for nothing a player owns: giving things back opens none."""
    return False


def surely_busy(state: State, s: int) -> bool:
    """A card to draw while a deck has one and AP pay for it."""
    ap, alley = state.cur.ap, state.alley
    first = not alley.drew and ap >= cost(state, "comprar_primeira")
    return any(alley.decks.values()) and (first or ap >= cost(state, "comprar_adicionais"))


def menu(state: State, s: int) -> list[str]:
    ap, alley = state.cur.ap, state.alley
    out = []
    if any(alley.decks.values()):
        if not alley.drew and ap >= cost(state, "comprar_primeira"):
            out.append("bx:1")
        if ap >= cost(state, "comprar_adicionais"):
            out.append("bx:2")
    if prophecies_on(state):
        from .. import prophecies

        if not alley.clar and ap >= cost(state, "clarividencia") and prophecies.clairvoyance_ok(state):
            out.append("bx:cv")
        if (state.p[s].magician == "M03" and ap >= cost(state, "tecer_destino")
                and prophecies.fate_weaving_choices(state)):
            out.append("bx:td")
    return out


def start(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    what = choice[3:]
    if what in ("1", "2"):
        state.ctx = {"k": what}
        state.step = "da_baralho"
    elif what == "cv":
        from .. import prophecies

        state.alley.clar = True
        state.cur.ap -= cost(state, "clarividencia")
        log(events, "da_clairvoyance", player=who(s))
        prophecies.clairvoyance(state, s, events)
    else:
        state.step = "da_tecer"


def back(state: State) -> None:
    state.step, state.ctx = "acoes", {}


def baralho_opcoes(state: State, s: int) -> list[str]:
    return [f"dk:{loc}" for loc in LOCATIONS if state.alley.decks[loc]] + ["voltar"]


def escolher_baralho(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    loc = choice[3:]
    first = state.ctx["k"] == "1"
    state.cur.ap -= cost(state, "comprar_primeira" if first else "comprar_adicionais")
    state.alley.drew = state.alley.drew or first
    deck = state.alley.decks[loc]
    drawn, deck[:] = deck[:ALLEY["draw"]], deck[ALLEY["draw"]:]
    state.ctx = {"loc": loc, "drawn": drawn}
    log(events, "da_draw", player=who(s), loc=msg(f"trickerion.deck.{loc}"), count=len(drawn))
    log(events, "da_drawn", audience=[s], cards=[msg(f"trickerion.card.{c}") for c in drawn])
    state.step = "da_manter"


def manter_opcoes(state: State, s: int) -> list[str]:
    return [f"kp:{c}" for c in state.ctx["drawn"]]


def manter(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    card = choice[3:]
    state.p[s].hand[card] = 1
    rest = [c for c in state.ctx["drawn"] if c != card]
    state.alley.decks[state.ctx["loc"]] += rest
    log(events, "da_kept", audience=[s], card=msg(f"trickerion.card.{card}"))
    back(state)


STEPS = {
    "da_baralho": (baralho_opcoes, escolher_baralho),
    "da_manter": (manter_opcoes, manter),
}
