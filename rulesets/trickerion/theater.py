"""Teatro: one weekday per player per round (never one an opponent holds); Preparar um Truque with the
marker geometry, links, link bonuses and the shard circle (the card first, then the trick, then the spot;
Electra's Supercarga chooses the trick first); Reagendar (no link bonuses). The performance spaces take
magicians only, whose AP are lost."""

from __future__ import annotations

from rulesets.core import Event, Rng

from . import hooks, ledger
from .data import CARDS, TRICKS
from .rules import (
    acted,
    cost,
    gain,
    links_if,
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
from .state import Marker, State

# ---------------------------------------------------------------------------------------------- Preparar um Truque


def spots(state: State, s: int, sym: int, index: int, moving: tuple[int, str] | None = None) -> list[tuple[str, int]]:
    """Where a marker may go on card `index`; a rescheduled marker (`moving`: its card and slot) must
    move to another, empty slot."""
    card = state.row[index]
    if moving is None or moving[0] != index:
        return placements(card, s, sym)
    return [(sl, d) for sl, d in placements(card, s, sym, moving[1]) if sl != moving[1]]


def _cards_for(state: State, s: int, sym: int, moving: tuple[int, str] | None = None) -> list[int]:
    return [i for i, card in enumerate(state.row) if card is not None and spots(state, s, sym, i, moving)]


def truques_para_preparar(state: State, s: int) -> list[str]:
    return [f"pt:{o.t}" for o in state.p[s].tricks if o.on and _cards_for(state, s, o.sym)]


def marcadores_para_reagendar(state: State, s: int) -> list[str]:
    out = []
    for i, card in enumerate(state.row):
        if card:
            out += [f"rm:{i}:{slot}" for slot, m in card.m.items()
                    if m.seat == s and _cards_for(state, s, m.sym, (i, slot))]
    return out


def cartas_para_preparar(state: State, s: int) -> list[int]:
    """The performance cards where one of the player's prepared tricks has a spot."""
    syms = [o.sym for o in state.p[s].tricks if o.on]
    return [i for i, card in enumerate(state.row) if card is not None and any(spots(state, s, y, i) for y in syms)]


def menu(state: State, s: int) -> list[str]:
    """Preparar um Truque is offered card by card ("pp:<card>": the card is the first thing chosen, the
    trick after it only when several could go there), then Reagendar."""
    ap = state.cur.ap
    out = []
    if ap >= cost(state, "preparar"):
        out += [f"pp:{i}" for i in cartas_para_preparar(state, s)]
    if ap >= cost(state, "reagendar") and marcadores_para_reagendar(state, s):
        out.append("reagendar")
    return out


def surely_busy(state: State, s: int) -> bool:
    """A prepared marker and a card with a free slot holding no marker of that trick: Preparar um Truque
    is there (every slot has a link circle for the marker's corner)."""
    if state.cur.ap < cost(state, "preparar"):
        return False
    syms = {o.sym for o in state.p[s].tricks if o.on}
    for card in state.row:
        if card is not None and len(card.m) < len(CARDS[card.id].slots):
            mine = {m.sym for m in card.m.values() if m.seat == s}
            if syms - mine:
                return True
    return False


def opened_by_returns(state: State, s: int) -> bool:
    """Whether giving a trick back could open Preparar or Reagendar: its markers would leave the
    performance cards, freeing slots for another trick's markers."""
    p = state.p[s]
    return (state.cur.ap >= min(cost(state, "preparar"), cost(state, "reagendar")) and len(p.tricks) > 1
            and any(o.on or markers_in_theater(state, s, o.sym) for o in p.tricks))


def start(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice.startswith("pp:"):
        state.ctx = {"card": int(choice[3:])}
        state.step = "preparar_t"
    else:
        state.step = "reagendar_m"


def back(state: State) -> None:
    state.step, state.ctx = "acoes", {}


def preparar_truques_opcoes(state: State, s: int) -> list[str]:
    """The prepared tricks that have a spot on the chosen card."""
    index = state.ctx["card"]
    return [f"pt:{o.t}" for o in state.p[s].tricks if o.on and spots(state, s, o.sym, index)] + ["voltar"]


def preparar_escolher_truque(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    state.ctx["t"] = choice[3:]
    state.step = "preparar_e"


def preparar_cartas_opcoes(state: State, s: int) -> list[str]:
    o = owned(state.p[s], state.ctx["t"])
    return [f"pc:{i}" for i in _cards_for(state, s, o.sym)] + ["voltar"]


def preparar_escolher_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    state.ctx["card"] = int(choice[3:])
    state.step = "preparar_e"


def preparar_espacos_opcoes(state: State, s: int) -> list[str]:
    """Where the marker goes, and for a spot that links, how its link bonus is taken, in one press:
    "pe:<slot>:<direction>", or "pe:<slot>:<direction>:<links as Fame>" (the rest as coins; PT p.17,
    ruling 29)."""
    o = owned(state.p[s], state.ctx["t"])
    card = state.row[state.ctx["card"]]
    out = []
    for slot, d in placements(card, s, o.sym):
        k = links_if(card, Marker(seat=s, sym=o.sym, t=o.t, d=d), slot)
        out += [f"pe:{slot}:{d}:{f}" for f in range(k, -1, -1)] if k else [f"pe:{slot}:{d}"]
    return out + ["voltar"]


def preparar_truque(state: State, s: int, tid: str, index: int, slot: str, d: int, events: list[Event]) -> list[int]:
    """Move one marker of `tid` from its trick card to a performance card; return the links it formed.
    Shards of a shard circle are paid here; the placer's Fame/coin bonus is chosen next."""
    p = state.p[s]
    o = owned(p, tid)
    o.on -= 1
    card = state.row[index]
    card.m[slot] = Marker(seat=s, sym=o.sym, t=tid, d=d)
    links = links_of(card, slot)
    log(events, "set_up", player=who(s), trick=trick_name(tid), card=index + 1, slot=slot_msg(slot),
        links=qty("links", len(links)))
    for m in hooks.active(state):
        m.set_up(state, s, tid, events)
    data = CARDS[card.id]
    for li in links:
        if data.links[li].shard:
            partners = {card.m[x].seat for x in data.links[li].between}
            for seat_ in sorted(partners):
                gain(state.p[seat_], shards=1)
                log(events, "link_shard", player=who(seat_))
                shards_gained(state, seat_, 1, events)
    return links


def preparar_no_espaco(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    _, slot, d, *fame = choice.split(":")
    tid = state.ctx["t"]
    links = preparar_truque(state, s, tid, state.ctx["card"], slot, int(d), events)
    state.cur.ap -= cost(state, "preparar")
    if links:
        state.ctx = {"t": tid, "links": len(links), "card": state.ctx["card"], "slot": slot}
        state.step = "conexao"
        bonus_de_conexao(state, s, f"cf:{fame[0]}", rng, events)
    else:
        index = state.ctx["card"]
        back(state)
        acted(state, s, "preparar", events, trick=tid, card=index, slot=slot, links=0, fame=0, coins=0)


def conexao_opcoes(state: State, s: int) -> list[str]:
    return [f"cf:{k}" for k in range(state.ctx["links"], -1, -1)]


def bonus_de_conexao(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """Each link pays by the level of the trick just placed: that many Fame or that many coins."""
    level = TRICKS[state.ctx["t"]].level
    as_fame = int(choice[3:])
    as_coins = state.ctx["links"] - as_fame
    gain(state.p[s], fame=as_fame * level, coins=as_coins * level)
    ledger.linked(state, s, as_fame * level)
    log(events, "link_bonus", player=who(s), fame=as_fame * level, coins=as_coins * level)
    done = dict(state.ctx)
    back(state)
    acted(state, s, "preparar", events, trick=done["t"], card=done["card"], slot=done["slot"], links=done["links"],
          fame=as_fame * level, coins=as_coins * level)


# ---------------------------------------------------------------------------------------------- Reagendar


def reagendar_marcadores_opcoes(state: State, s: int) -> list[str]:
    return marcadores_para_reagendar(state, s) + ["voltar"]


def reagendar_escolher_marcador(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    _, i, slot = choice.split(":")
    state.ctx = {"from": int(i), "slot": slot}
    state.step = "reagendar_c"


def reagendar_cartas_opcoes(state: State, s: int) -> list[str]:
    i, slot = state.ctx["from"], state.ctx["slot"]
    sym = state.row[i].m[slot].sym
    return [f"rc:{k}" for k in _cards_for(state, s, sym, (i, slot))] + ["voltar"]


def reagendar_escolher_carta(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    state.ctx["to"] = int(choice[3:])
    state.step = "reagendar_e"


def reagendar_espacos_opcoes(state: State, s: int) -> list[str]:
    i, slot, to = state.ctx["from"], state.ctx["slot"], state.ctx["to"]
    m = state.row[i].m[slot]
    return [f"re:{sl}:{d}" for sl, d in spots(state, s, m.sym, to, (i, slot))] + ["voltar"]


def reagendar(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    if choice == "voltar":
        return back(state)
    _, slot, d = choice.split(":")
    i, old, to = state.ctx["from"], state.ctx["slot"], state.ctx["to"]
    m = state.row[i].m.pop(old)
    state.row[to].m[slot] = Marker(seat=s, sym=m.sym, t=m.t, d=int(d))
    state.cur.ap -= cost(state, "reagendar")
    log(events, "reschedule", player=who(s), trick=trick_name(m.t), card=to + 1, slot=slot_msg(slot))
    back(state)
    acted(state, s, "reagendar", events, trick=m.t, card=to, slot=slot)


STEPS = {
    "preparar_t": (preparar_truques_opcoes, preparar_escolher_truque),
    "preparar_c": (preparar_cartas_opcoes, preparar_escolher_carta),
    "preparar_e": (preparar_espacos_opcoes, preparar_no_espaco),
    "conexao": (conexao_opcoes, bonus_de_conexao),
    "reagendar_m": (reagendar_marcadores_opcoes, reagendar_escolher_marcador),
    "reagendar_c": (reagendar_cartas_opcoes, reagendar_escolher_carta),
    "reagendar_e": (reagendar_espacos_opcoes, reagendar),
}
