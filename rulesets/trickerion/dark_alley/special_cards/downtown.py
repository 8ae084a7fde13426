"""The ten Centro da Cidade special cards (A26-A35): their effects after the framed action and their
follow-up decisions (Empower lives with the placement, in __init__)."""

from __future__ import annotations

from rulesets.core import Event, Rng, msg

from ... import hooks
from ...data import BOARD, CATEGORIES, DICE, TRICKS
from ...market import unit_price
from ...placement import card_msg as assignment_msg
from ...placement import cards_left, char_msg
from ...rules import (
    MARKERS_PER_SYMBOL,
    add_components,
    comp_name,
    gain,
    log,
    markers_in_theater,
    meets,
    owned,
    qty,
    return_trick,
    room_for,
    taken_tricks,
    trick_name,
    who,
)
from ...state import State
from ...town_center import X, _learnable, hire_ok
from .common import _done, card_msg


def fame_and_fortune(state, s, info, events):  # A33
    fame = max(0, info["coins"] - 1)
    gain(state.p[s], fame=fame)
    log(events, "da_fame", player=who(s), fame=fame, card=card_msg("A33"))


def interest(state, s, info, events):  # A34: the Bank die is rolled once more before it turns to X
    state.ctx = {"die": info["die"]}
    state.step = "da_juros"


def juros_opcoes(state: State, s: int) -> list[str]:
    return ["ju"]


def juros(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    face = DICE[state.ctx["die"]][rng.below(6)]
    coins = 0 if face == X else int(face)
    state.p[s].coins += coins
    log(events, "da_interest", player=who(s), face=msg("trickerion.face.X") if face == X else str(face),
        coins=qty("coins", coins))
    _done(state)


def mass_recruitment(state, s, info, events):  # A26
    p = state.p[s]
    if info["char"] == "apprentice" and p.coins >= 3 and hire_ok(p, "apprentice"):
        state.step = "da_recrutar"


def recrutar_opcoes(state: State, s: int) -> list[str]:
    return ["mr:1", "mr:0"]


def recrutar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "mr:1":
        p = state.p[s]
        p.coins -= 3
        p.hires.append("apprentice")
        log(events, "hire", player=who(s), char=msg("trickerion.char.apprentice"))
    _done(state)


def leaked_blueprints(state, s, info, events):  # A31
    o = owned(state.p[s], info["trick"])
    if TRICKS[o.t].threshold <= 16:
        o.on = max(o.on, 1)
        log(events, "da_marker", player=who(s), trick=trick_name(o.t), count=1)


def trick_overhaul(state, s, info, events):  # A29
    p = state.p[s]
    if meets(p, info["trick"]) and len(p.tricks) > 1:
        state.ctx = {"new": info["trick"]}
        state.step = "da_reformular"


def reformular_opcoes(state: State, s: int) -> list[str]:
    return [f"ro:{o.t}" for o in state.p[s].tricks if o.t != state.ctx["new"]] + ["ro:-"]


def reformular(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    old = choice[3:]
    if old != "-":
        p = state.p[s]
        o, new = owned(p, old), owned(p, state.ctx["new"])
        sym, on = o.sym, o.on
        return_trick(state, s, old)
        new.sym = sym
        new.on = min(on, MARKERS_PER_SYMBOL - markers_in_theater(state, s, sym))
        log(events, "da_overhaul", player=who(s), old=trick_name(old), new=trick_name(new.t), count=new.on)
    _done(state)


def investments(state, s, info, events):  # A32
    state.ctx = {"budget": info["coins"], "n": 0}
    state.step = "da_investir"


def investir_opcoes(state: State, s: int) -> list[str]:
    p, budget = state.p[s], state.ctx["budget"]
    if state.ctx["n"] >= 3:
        return ["iv:-"]
    stock = dict.fromkeys(c for c in state.stock if c)
    return [f"iv:{c}" for c in stock if unit_price(state, c) <= min(budget, p.coins) and room_for(p, c)] + ["iv:-"]


def investir(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    comp = choice[3:]
    if comp == "-":
        return _done(state)
    price = unit_price(state, comp)
    p = state.p[s]
    p.coins -= price
    add_components(p, comp, 1)
    state.ctx["budget"] -= price
    state.ctx["n"] += 1
    log(events, "buy", player=who(s), count=1, comp=comp_name(comp), coins=qty("coins", price), bargain=0)


def hypnotic(state, s, info, events):  # A27: the hired character joins now and may be placed this phase
    p, hired = state.p[s], info["char"]
    p.hires.remove(hired)
    if hired == "apprentice":
        new = next(f"a{i}" for i in range(1, BOARD.apprentice_discs + 1) if f"a{i}" not in p.apps)
        p.apps.append(new)
    else:
        new = hired
        p.specs.append(hired)
    log(events, "da_hypnotic", player=who(s))
    if any(cards_left(state, s, c) > 0 for c in p.hand):
        state.ctx = {"new": new}
        state.step = "da_hipnose"
    else:
        p.idle.append(new)


def hipnose_opcoes(state: State, s: int) -> list[str]:
    return [f"hy:{c}" for c in state.p[s].hand if cards_left(state, s, c) > 0] + ["hy:-"]


def hipnose(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    p, new = state.p[s], state.ctx["new"]
    if choice == "hy:-":
        p.idle.append(new)
    else:
        p.plan[new] = choice[3:]
        if any(m.plans_hidden(state) for m in hooks.active(state)):  # P20: face down like the others
            events.append(Event(text=msg("trickerion.prophecies.log.face_down", player=who(s), chars=[char_msg(new)])))
        else:
            log(events, "da_hypnotic_card", player=who(s), char=char_msg(new), loc=assignment_msg(state, choice[3:]))
    _done(state)


def categoria_opcoes(state: State, s: int) -> list[str]:
    taken = taken_tricks(state)
    return [f"ck:{c}" for c in CATEGORIES if _learnable(state, state.p[s], c, taken)] + ["voltar"]


def categoria(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return _done(state)
    state.ctx["cat"] = choice[3:]
    state.step = "aprender_t"  # the base game's trick choice; the die still turns to X
