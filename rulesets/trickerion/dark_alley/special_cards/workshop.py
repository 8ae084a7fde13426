"""The ten Oficina special cards (A16-A25): effects after an Arquitetar and their follow-up decisions
(Freelancer lives with the placement, in __init__)."""

from __future__ import annotations

from rulesets.core import Event, Rng, msg

from ... import ledger
from ...data import BOARD, COMPONENTS, TRICKS
from ...rules import (
    MARKERS_PER_SYMBOL,
    SPECIALISTS,
    comp_name,
    effective,
    gain,
    kind,
    log,
    markers_in_theater,
    owned,
    placements,
    qty,
    remove_component,
    shards_gained,
    slot_msg,
    trick_name,
    who,
)
from ...state import Marker, State
from ...theater import _cards_for
from .common import _done, card_msg


def trick_tweaking(state, s, info, events):  # A16
    o = owned(state.p[s], info["trick"])
    if o.on + markers_in_theater(state, s, o.sym) < MARKERS_PER_SYMBOL:
        o.on += 1
        log(events, "da_marker", player=who(s), trick=trick_name(o.t), count=1)


def test_run(state, s, info, events):  # A17
    state.ctx = {"t": info["trick"]}
    state.step = "da_ensaio"


def ensaio_opcoes(state: State, s: int) -> list[str]:
    return ["en:1", "en:0"]


def ensaio(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "en:1":
        o = owned(state.p[s], state.ctx["t"])
        o.on -= 1
        y = TRICKS[o.t].yields
        gain(state.p[s], fame=y.fame, coins=y.coins, shards=y.shards)
        log(events, "da_test_run", player=who(s), trick=trick_name(o.t), fame=y.fame,
            coins=qty("coins", y.coins), shards=qty("shards", y.shards))
        shards_gained(state, s, y.shards, events)
    _done(state)


def replaceable_parts(state, s, info, events):  # A18
    state.ctx = {"t": info["trick"]}
    state.step = "da_pecas"


def pecas_opcoes(state: State, s: int) -> list[str]:
    p, tid = state.p[s], state.ctx["t"]
    return [f"rp:{o.t}" for o in p.tricks if o.t != tid and TRICKS[o.t].threshold <= TRICKS[tid].threshold
            and o.on + markers_in_theater(state, s, o.sym) < MARKERS_PER_SYMBOL] + ["rp:-"]


def pecas(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice != "rp:-":
        p = state.p[s]
        owned(p, state.ctx["t"]).on -= 1
        owned(p, choice[3:]).on += 1
        log(events, "da_parts", player=who(s), old=trick_name(state.ctx["t"]), new=trick_name(choice[3:]))
    _done(state)


def invention(state, s, info, events):  # A19
    fame = sum(k for c, k in TRICKS[info["trick"]].components.items() if COMPONENTS[c].tier != "basic")
    gain(state.p[s], fame=fame)
    log(events, "da_fame", player=who(s), fame=fame, card=card_msg("A19"))


def unstable_prototype(state, s, info, events):  # A21
    state.ctx = {"t": info["trick"], "n": 0}
    state.step = "da_prototipo"


def prototipo_opcoes(state: State, s: int) -> list[str]:
    p = state.p[s]
    if state.ctx["n"] >= 3:
        return ["up:-"]
    return [f"up:{c}" for c in TRICKS[state.ctx["t"]].components if p.comps.get(c)] + ["up:-"]


def prototipo(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    p, n = state.p[s], state.ctx["n"]
    if choice == "up:-":
        if n:
            o = owned(p, state.ctx["t"])
            if o.on + markers_in_theater(state, s, o.sym) < MARKERS_PER_SYMBOL:
                o.on += 1
            gain(p, fame=n, coins=n)
            log(events, "da_prototype", player=who(s), count=n, trick=trick_name(o.t))
        return _done(state)
    remove_component(p, choice[3:])
    state.ctx["n"] = n + 1
    log(events, "return_component", player=who(s), comp=comp_name(choice[3:]))


def enhance_trick(state, s, info, events):  # A22
    if state.p[s].shards:
        state.ctx = {"t": info["trick"]}
        state.step = "da_aprimorar"


def aprimorar_opcoes(state: State, s: int) -> list[str]:
    return ["eh:1", "eh:0"]


def aprimorar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "eh:1":
        state.p[s].shards -= 1
        state.alley.enhanced.append(f"{s}:{state.ctx['t']}")
        log(events, "da_enhanced", player=who(s), trick=trick_name(state.ctx["t"]))
    _done(state)


def on_stage(state, s, info, events):  # A23
    o = owned(state.p[s], info["trick"])
    if o.on and _free_cards(state, s, o.sym):
        state.ctx = {"t": o.t}
        state.step = "da_palco_c"


def _free_cards(state: State, s: int, sym: int) -> list[int]:
    return _cards_for(state, s, sym)


def palco_cartas_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"pl:{i}" for i in _free_cards(state, s, o.sym)] + ["pl:-"]


def palco_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "pl:-":
        return _done(state)
    state.ctx["card"] = int(choice[3:])
    state.step = "da_palco_e"


def palco_espacos_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"ps:{sl}:{d}" for sl, d in placements(state.row[state.ctx["card"]], s, o.sym)]


def palco_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """The marker goes straight onto the card: no link pays anything, not even a shard circle."""
    _, slot, d = choice.split(":")
    o = owned(state.p[s], state.ctx["t"])
    o.on -= 1
    state.row[state.ctx["card"]].m[slot] = Marker(seat=s, sym=o.sym, t=o.t, d=int(d))
    log(events, "da_on_stage", player=who(s), trick=trick_name(o.t), card=state.ctx["card"] + 1, slot=slot_msg(slot))
    _done(state)


def hidden_talent(state, s, info, events):  # A24
    p = state.p[s]
    if kind(state.cur.c) == "apprentice" and _specs_missing(p):
        state.ctx = {"app": state.cur.c}
        state.step = "da_talento"


def _specs_missing(p) -> list[str]:
    return [k for k in SPECIALISTS if k not in p.specs and k not in p.hires]


def talento_opcoes(state: State, s: int) -> list[str]:
    return [f"ht:{k}" for k in _specs_missing(state.p[s])] + ["ht:-"]


def talento(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice != "ht:-":
        state.alley.talent[str(s)] = f"{state.ctx['app']}:{choice[3:]}"
        log(events, "da_talent", player=who(s), char=msg(f"trickerion.char.{choice[3:]}"))
    _done(state)


def hidden_talent_swap(state: State, events: list[Event]) -> None:
    """At Retornar os Personagens: the apprentice leaves, the specialist joins and is paid at once
    (2 coins; each unpaid coin costs 2 Fame, as with wages)."""
    for seat, swap in sorted(state.alley.talent.items()):
        s = int(seat)
        p = state.p[s]
        app, spec = swap.split(":")
        if app in p.apps and spec not in p.specs:
            p.apps.remove(app)
            if p.app_ext == app:
                p.app_ext = None
            p.specs.append(spec)
            due = BOARD.characters["specialist"].wage
            paid = min(due, p.coins)
            p.coins -= paid
            lost = min(p.fame, 2 * (due - paid))
            p.fame -= lost
            ledger.unpaid(state, s, lost)
            log(events, "da_talent_joins", player=who(s), char=msg(f"trickerion.char.{spec}"), coins=paid, fame=lost)
    state.alley.talent = {}


def _short_one(p, tid: str) -> bool:
    return sum(1 for c, k in TRICKS[tid].components.items() if effective(p, c) < k) == 1
