"""The ten Teatro special cards (A06-A15): set-up, reschedule and performance effects."""

from __future__ import annotations

from rulesets.core import Event, Rng, msg

from ... import ledger
from ...data import CARDS, TRICKS
from ...performance import marker_yield
from ...rules import (
    MARKERS_PER_SYMBOL,
    OFF_SLOT,
    cost,
    gain,
    links_of,
    log,
    markers_in_theater,
    owned,
    placements,
    qty,
    shards_gained,
    slot_msg,
    trick_name,
    who,
)
from ...state import Marker, State
from ...theater import _cards_for, preparar_truque, spots
from .common import _done


def headliner(state, s, info, events):  # A08: every link of this set-up pays twice (its shard too)
    if info["links"]:
        gain(state.p[s], fame=info["fame"], coins=info["coins"])
        ledger.linked(state, s, info["fame"])
        log(events, "link_bonus", player=who(s), fame=info["fame"], coins=info["coins"])
        card = state.row[info["card"]]
        for li in links_of(card, info["slot"]):
            if CARDS[card.id].links[li].shard:
                gain(state.p[s], shards=1)
                log(events, "link_shard", player=who(s))
                shards_gained(state, s, 1, events)


def buying_time(state, s, info, events):  # A10
    state.step = "da_trocar"


def trocar_opcoes(state: State, s: int) -> list[str]:
    idx = [i for i, c in enumerate(state.row) if c is not None]
    return [f"bt:{i}:{j}" for k, i in enumerate(idx) for j in idx[k + 1:]] + ["bt:-"]


def trocar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice != "bt:-":
        i, j = (int(x) for x in choice[3:].split(":"))
        state.row[i], state.row[j] = state.row[j], state.row[i]
        gain(state.p[s], coins=3)
        log(events, "da_swap", player=who(s), a=i + 1, b=j + 1)
    _done(state)


def orchestral(state, s, info, events):  # A07: one link payment per neighbouring marker, symbols or not
    card, slot = state.row[info["card"]], info["slot"]
    near = sum(1 for _d, other, _li in CARDS[card.id].neighbours.get(slot, []) if other in card.m)
    extra = near - info["links"]
    if extra > 0:  # the base game's Fame/coin choice, for the payments its links did not make
        state.ctx = {"t": info["trick"], "links": extra, "card": info["card"], "slot": slot}
        state.step = "conexao"


def _full_cards(state: State, s: int, sym: int) -> list[int]:
    return [i for i, c in enumerate(state.row) if c is not None and OFF_SLOT not in c.m
            and all(sl in c.m for sl in CARDS[c.id].slots)
            and not any(m.seat == s and m.sym == sym for m in c.m.values())]


def convidado_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"gc:{i}" for i in _full_cards(state, s, o.sym)]


def convidado(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """Guest Performer: the marker sits beside the slots; it forms no links and is performed with the card."""
    i = int(choice[3:])
    o = owned(state.p[s], state.ctx["t"])
    o.on -= 1
    state.row[i].m[OFF_SLOT] = Marker(seat=s, sym=o.sym, t=o.t, d=0)
    state.cur.ap -= cost(state, "preparar")
    log(events, "set_up", player=who(s), trick=trick_name(o.t), card=i + 1, slot=slot_msg(OFF_SLOT),
        links=qty("links", 0))
    _done(state)


def _twist_spots(state: State, s: int, sym: int, i: int) -> list[tuple[str, int]]:
    card = state.row[i]
    same = [sl for sl, m in card.m.items() if m.seat == s and m.sym == sym]
    if len(same) != 1:
        return []
    return [(sl, d) for sl, d in placements(card, s, sym, same[0]) if sl != same[0]]


def _twist_cards(state: State, s: int, sym: int) -> list[int]:
    return [i for i, c in enumerate(state.row) if c is not None and _twist_spots(state, s, sym, i)]


def twist_cartas_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"tw:{i}" for i in _twist_cards(state, s, o.sym)]


def twist_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    state.ctx["card"] = int(choice[3:])
    state.step = "da_twist_e"


def twist_espacos_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"te:{sl}:{d}" for sl, d in _twist_spots(state, s, o.sym, state.ctx["card"])]


def twist_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """New Twist: a second marker of the trick on the card, then the usual link bonus."""
    _, slot, d = choice.split(":")
    tid, index = state.ctx["t"], state.ctx["card"]
    links = preparar_truque(state, s, tid, index, slot, int(d), events)
    state.cur.ap -= cost(state, "preparar")
    if links:
        state.ctx = {"t": tid, "links": len(links), "card": index, "slot": slot}
        state.step = "conexao"
    else:
        _done(state)


def _opponent_markers(state: State, s: int) -> list[str]:
    return [f"dm:{i}:{sl}" for i, c in enumerate(state.row) if c for sl, m in c.m.items()
            if m.seat != s and _cards_for(state, m.seat, m.sym, (i, sl))]


def diretor_marcador_opcoes(state: State, s: int) -> list[str]:
    return _opponent_markers(state, s)


def diretor_marcador(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    i, sl = choice[3:].split(":", 1)
    state.ctx = {"from": int(i), "slot": sl}
    state.step = "da_diretor_c"


def diretor_cartas_opcoes(state: State, s: int) -> list[str]:
    i, sl = state.ctx["from"], state.ctx["slot"]
    m = state.row[i].m[sl]
    return [f"dd:{k}" for k in _cards_for(state, m.seat, m.sym, (i, sl))]


def diretor_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    state.ctx["to"] = int(choice[3:])
    state.step = "da_diretor_e"


def diretor_espacos_opcoes(state: State, s: int) -> list[str]:
    i, sl, to = state.ctx["from"], state.ctx["slot"], state.ctx["to"]
    m = state.row[i].m[sl]
    return [f"de:{x}:{d}" for x, d in spots(state, m.seat, m.sym, to, (i, sl))]


def diretor_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """Director's Favor: an opponent's marker is rescheduled (still theirs; no link bonuses)."""
    _, slot, d = choice.split(":")
    i, old, to = state.ctx["from"], state.ctx["slot"], state.ctx["to"]
    m = state.row[i].m.pop(old)
    state.row[to].m[slot] = Marker(seat=m.seat, sym=m.sym, t=m.t, d=int(d))
    state.cur.ap -= cost(state, "reagendar")
    log(events, "da_director", player=who(s), owner=who(m.seat), trick=trick_name(m.t), card=to + 1,
        slot=slot_msg(slot))
    _done(state)


def _street(state: State, s: int, index: int, slot: str, events: list[Event]) -> None:
    """Street Performance: the marker leaves its card and its trick's yields are collected now."""
    m = state.row[index].m.pop(slot)
    y = TRICKS[m.t].yields
    fame, coins = marker_yield(state, s, s, m.t)  # as if performed by this player, every modifier applied
    gain(state.p[s], fame=fame, coins=coins, shards=y.shards)
    state.cur.ap -= cost(state, "reagendar")
    state.alley.mode = "used"
    log(events, "da_street", player=who(s), trick=trick_name(m.t), fame=fame, coins=qty("coins", coins),
        shards=qty("shards", y.shards))
    shards_gained(state, s, y.shards, events)


def _room(state: State, s: int, tid: str) -> bool:
    o = owned(state.p[s], tid)
    return o is not None and o.on + markers_in_theater(state, s, o.sym) < MARKERS_PER_SYMBOL


def _durable(state: State, s: int, tid: str, events: list[Event]) -> None:
    owned(state.p[s], tid).on += 1
    log(events, "da_durable", player=who(s), trick=trick_name(tid))


def duravel_opcoes(state: State, s: int) -> list[str]:
    return [f"du:{t}" for t in state.ctx["tricks"]]


def duravel(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    _durable(state, s, choice[3:], events)
    state.turn, state.step, state.ctx = None, "", {}
    return True


def estreia_opcoes(state: State, s: int) -> list[str]:
    out = []
    for first in state.alley.premiere[str(s)]:
        tid, *amounts = first.split(":")
        out += [f"ge:{tid}:{kind}" for kind, n in zip(("fame", "coins", "shards"), amounts, strict=True) if int(n)]
    return out + ["ge:-"]


def estreia(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    """Grand Premiere: one yield of a trick performed for the first time is paid once more."""
    firsts = {f.split(":")[0]: f.split(":")[1:] for f in state.alley.premiere.pop(str(s))}
    if choice != "ge:-":
        _, tid, kind = choice.split(":")
        n = int(firsts[tid][("fame", "coins", "shards").index(kind)])
        gain(state.p[s], **{kind: n})
        log(events, "da_premiere", player=who(s), trick=trick_name(tid),
            what=msg(f"trickerion.da.yield.{kind}", n=n, count=n))
        if kind == "shards":
            shards_gained(state, s, n, events)
    state.turn, state.step, state.ctx = None, "", {}
    return True
