"""Preparação: the general setup, each player's magician and starting choices (or the beginner setup),
the free initial Arquitetar, and the random initiative with its starting coins."""

from __future__ import annotations

from functools import cache

from rulesets.core import Event, Rng, msg

from . import hooks
from .data import BOARD, CARDS, COMPONENT_KEYS, MAGICIANS, TRICKS
from .rules import (
    add_components,
    comp_cost,
    comp_name,
    free_symbol,
    log,
    meets,
    room_for,
    set_step,
    step_of,
    taken_tricks,
    trick_name,
    who,
)
from .state import Card, Owned, Player, State


def create(n: int, beginner: bool, rng: Rng, events: list[Event]) -> State:
    riverside = [c for c, d in CARDS.items() if d.theater == "riverside"]
    grand = [c for c, d in CARDS.items() if d.theater == "grand_magorian"]
    rng.shuffle(riverside)
    rng.shuffle(grand)
    by_theater = {"riverside": riverside, "grand_magorian": grand}
    deck = [by_theater[kind].pop() for kind in BOARD.performance_deck]
    row: list[Card | None] = [Card(id=riverside.pop()) for _ in range(n - 1)]
    row += [None] * (n + 1 - len(row))
    state = State(
        n=n, beginner=beginner, rounds=BOARD.rounds, p=[Player() for _ in range(n)],
        stock=list(BOARD.market["initial_stock"]), orders=[None] * BOARD.market["order_slots"],
        row=row, deck=deck, spaces=BOARD.initiative_spaces[n],
    )
    log(events, "setup", players=n, cards=[_card_name(c.id) for c in row if c])
    return state


def _card_name(cid: str):
    return msg(f"trickerion.theater.{CARDS[cid].theater}", id=cid)


def category(p: Player) -> str:
    return MAGICIANS[p.magician].category


# ---------------------------------------------------------------------------------------------- decisions
#
# PT p.9-10: in turn, each player chooses a magician (a favourite category nobody chose before) "e então
# recebe" their own starting trick, components and specialist. Only the magicians depend on each other,
# so they are chosen one at a time in seat order (ruling 9); each player's own choices start as soon as
# their magician is chosen, at the same time as the others' (state.steps). The Engineer's trick comes
# "após todos os Truques iniciais serem selecionados": once every player's own setup is done, the
# Engineers choose one at a time in seat order (they draw from the same tricks). Ruling 10.


def mag_choices(state: State, s: int) -> list[str]:
    taken = {MAGICIANS[p.magician].category for p in state.p if p.magician}
    return [f"m:{m.id}" for m in MAGICIANS.values() if m.category not in taken
            and all(h.offers_magician(state, m.id) for h in hooks.active(state))]


def mag_apply(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    state.p[s].magician = choice[2:]
    log(events, "magician", player=who(s), magician=_magician(choice[2:]))
    state.turn, state.step = None, ""
    if not state.beginner:
        set_step(state, s, "truque_inicial")
    return True


def _magician(mid: str):
    return msg(f"trickerion.magician.{mid}")


def trick_choices(state: State, s: int) -> list[str]:
    """Starting trick: level 1 of the favourite category; the Engineer's: level 1 of any category."""
    taken = taken_tricks(state)
    fav = category(state.p[s]) if step_of(state, s) == "truque_inicial" else None
    return [f"t:{t.id}" for t in TRICKS.values()
            if t.level == 1 and t.id not in taken and (fav is None or t.category == fav)]


def trick_apply(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    p = state.p[s]
    tid = choice[2:]
    on_engineer = step_of(state, s) == "truque_engenheiro"
    p.tricks.append(Owned(t=tid, sym=free_symbol(p), eng=on_engineer))
    log(events, "start_trick", player=who(s), trick=trick_name(tid))
    if on_engineer:
        state.turn, state.step = None, ""
        return True
    set_step(state, s, "comps_iniciais")
    p.start["value"] = BOARD.start["component_value"]
    return False


def comp_choices(state: State, s: int) -> list[str]:
    p = state.p[s]
    value = p.start["value"]
    manager = step_of(state, s) == "comps_gerente"
    out = []
    for c in COMPONENT_KEYS:
        if comp_cost(c) > value:
            continue
        if manager:
            if c in p.multi:
                ok = room_for(p, c) > 0
            else:
                ok = None in p.multi and p.comps.get(c, 0) + 2 <= 3
        else:
            ok = room_for(p, c) > 0
        if ok:
            out.append(f"c:{c}")
    return out


def comp_apply(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    p = state.p[s]
    c = choice[2:]
    step = step_of(state, s)
    if step == "comps_gerente" and c not in p.multi:
        p.multi[p.multi.index(None)] = c
    add_components(p, c, 1)
    p.start["value"] -= comp_cost(c)
    log(events, "start_component", player=who(s), comp=comp_name(c))
    if p.start["value"] == 0:
        step = "especialista" if step == "comps_iniciais" else ""
        set_step(state, s, step)
    return step == ""


def spec_choices(state: State, s: int) -> list[str]:
    return [f"e:{k}" for k in BOARD.specialists]


def spec_apply(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    p = state.p[s]
    spec = choice[2:]
    _join(p, spec)
    log(events, "start_specialist", player=who(s), spec=_spec(spec))
    if spec == "manager":
        set_step(state, s, "comps_gerente")
        p.start["value"] = BOARD.start["component_value"]
        return False
    set_step(state, s, "")
    return True


def _spec(kind: str):
    return msg(f"trickerion.char.{kind}")


def _join(p: Player, spec: str) -> None:
    p.specs.append(spec)
    p.start["spec"] = spec
    if spec == "assistant":  # an extra apprentice, on the Assistant's extension
        p.apps.append("a2")
        p.app_ext = "a2"


STEPS = {
    "magico": (mag_choices, mag_apply),
    "truque_inicial": (trick_choices, trick_apply),
    "comps_iniciais": (comp_choices, comp_apply),
    "especialista": (spec_choices, spec_apply),
    "comps_gerente": (comp_choices, comp_apply),
    "truque_engenheiro": (trick_choices, trick_apply),
}


def next_decision(state: State) -> bool:
    """Point state.turn/step at the next setup decision made one at a time (a magician; an Engineer's
    trick), beside the players' own choices in state.steps; False when the players' setup is complete."""
    for s, p in enumerate(state.p):
        if p.magician is None:
            state.turn, state.step = s, "magico"
            return True
    state.phase = "start"  # every magician chosen: "Preparação individual" goes on (PT p.9)
    if state.steps:
        return True
    if state.beginner:
        return False
    for s, p in enumerate(state.p):  # the Engineer's trick is chosen after all starting tricks
        if "engineer" in p.specs and len(p.tricks) < 2:
            state.turn, state.step = s, "truque_engenheiro"
            return True
    return False


def beginner_setup(state: State, events: list[Event]) -> None:
    for s, p in enumerate(state.p):
        b = BOARD.beginner[category(p)]
        p.tricks.append(Owned(t=b.trick, sym=0))
        for c, k in b.components.items():
            add_components(p, c, k)
        _join(p, b.specialist)
        for i, (c, k) in enumerate(b.manager_components.items()):
            add_components(p, c, k)
            p.multi[i] = c
        if b.engineer_trick:
            p.tricks.append(Owned(t=b.engineer_trick, sym=1, eng=True))
        log(events, "beginner", player=who(s), trick=trick_name(b.trick), spec=_spec(b.specialist))


def finish(state: State, rng: Rng, events: list[Event]) -> None:
    """The free initial Arquitetar (of the starting trick: not the Engineer's, PT p.10), the starting
    hand, then random initiative and starting coins."""
    for s, p in enumerate(state.p):
        p.apps = ["a1", *p.apps]
        p.hand = dict(BOARD.hand)
        for m in hooks.active(state):
            p.hand = m.hand(state, s, p.hand)
        p.start = {}
        for o in p.tricks:
            if not o.eng and meets(p, o.t):
                o.on = TRICKS[o.t].markers
                log(events, "free_prepare", player=who(s), trick=trick_name(o.t), count=o.on)
    order = list(range(state.n))
    rng.shuffle(order)
    state.order = order
    for i, s in enumerate(order):
        p = state.p[s]
        p.coins = BOARD.start["coins_by_initiative_space"][state.spaces[i]]
        p.fame = BOARD.start["fame"]
        p.shards = BOARD.start["shards"]
    log(events, "initiative", order=[_seat_msg(s) for s in order],
        coins=", ".join(str(state.p[s].coins) for s in order))
    state.turn, state.step = None, ""


@cache
def _seat_msg(s: int):
    return msg("trickerion.seat", player=who(s))
