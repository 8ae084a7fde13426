"""Fase de Apresentação: Thursday to Sunday, each magician on a performance space performs one card
holding at least one of their markers — every trick on it."""

from __future__ import annotations

from rulesets.core import Event, Rng, msg

from . import hooks, ledger, round_summary
from .data import BOARD, CARDS, DAYS, TRICKS
from .rules import gain, link_count, log, owner_of, shards_gained, trick_name, who
from .state import State


def performer(state: State, day: int) -> int | None:
    entry = state.occ.get(f"theater.{day}.p")
    return owner_of(entry)[0] if entry else None


def cards_of(state: State, s: int) -> list[int]:
    return [i for i, card in enumerate(state.row) if card and any(m.seat == s for m in card.m.values())]


def next_decision(state: State, events: list[Event]) -> bool:
    """Point state.turn at the next performer who has a card to perform; False when the phase is over."""
    while state.perf_day < len(DAYS):
        s = performer(state, state.perf_day)
        if s is not None:
            if cards_of(state, s):
                state.turn, state.step = s, "apresentar"
                for h in hooks.active(state):  # a module may ask something first (e.g. a magician's power)
                    h.before_perform(state, s, events)
                return True
            log(events, "nothing_to_perform", player=who(s))
        state.perf_day += 1
    return False


def modifier(state: State, owner: int, performing: int) -> int:
    """Thursday -1/-1, Sunday +1/+1, for players with a character on that day; a player with no character
    in the Theater takes the performing magician's modifier."""
    p = state.p[owner]
    day = p.day if p.day is not None else state.p[performing].day
    for m in hooks.active(state):
        day = m.weekday(state, owner, performing, day)
    value = DAYS[day].yield_
    for m in hooks.active(state):
        value = m.day_yield(state, day, value)
    return value


def marker_yield(state: State, owner: int, s: int, tid: str) -> tuple[int, int]:
    """Fame and coins a performed trick of `owner` yields when s performs: the weekday's and the modules'
    modifiers (each keeps both at 0 or more), then the modules' final changes."""
    y = TRICKS[tid].yields
    fame, coins = y.fame, y.coins
    for mod in [modifier(state, owner, s), *(x for h in hooks.active(state)
                                             for x in h.yield_modifiers(state, owner, s, tid))]:
        fame, coins = max(0, fame + mod), max(0, coins + mod)
    for h in hooks.active(state):
        fame, coins = h.trick_yield(state, owner, s, fame, coins)
    return fame, coins


def slot_yield(state: State, s: int, index: int, slot: str) -> tuple[str, int, int, int]:
    """What the owner of the marker at `slot` receives when s performs card `index`: the trick whose
    Rendimentos they are, its Fame and coins (modifiers applied) and its Shards. A module may give the
    owner another trick's yields or change the Fame received for one; it never goes below 0 (PT p.18)."""
    m = state.row[index].m[slot]
    tid, change = m.t, 0
    for h in hooks.active(state):
        tid, delta = h.yields_of(state, index, slot, tid)
        change += delta
    fame, coins = marker_yield(state, m.seat, s, tid)
    return tid, max(0, fame + change), coins, TRICKS[tid].yields.shards


def apresentar(state: State, s: int, index: int, events: list[Event]) -> None:
    card = state.row[index]
    for h in hooks.active(state):
        h.performing(state, s, index, events)
    log(events, "perform", player=who(s), card=index + 1, day=msg(f"trickerion.day.{DAYS[state.p[s].day].key}"))
    round_summary.performed(state, s, card.id, DAYS[state.p[s].day].key)
    for slot in sorted(card.m):
        m = card.m[slot]
        tid, fame, coins, shards = slot_yield(state, s, index, slot)
        gain(state.p[m.seat], fame=fame, coins=coins, shards=shards)
        ledger.yielded(state, m.seat, fame)
        log(events, "yield", player=who(m.seat), trick=trick_name(tid), fame=fame, coins=coins, shards=shards)
        shards_gained(state, m.seat, shards, events)
    # the links are the markers' symbols as placed (PT p.17), whoever's yields a marker paid
    links = link_count(card)
    bonus = CARDS[card.id].bonus
    fame, coins, shards = links + bonus.fame, bonus.coins, bonus.shards
    backstage = {c for c, key in state.p[s].placed.items() if key.startswith("theater.")}
    for spec in BOARD.specialists:
        if spec in backstage:
            b = BOARD.backstage_bonus[spec]
            fame, coins, shards = fame + b.fame, coins + b.coins, shards + b.shards
    printed = fame - links  # the card's and the Specialists' Fame, before any module changes the bonus
    for h in hooks.active(state):
        fame, coins, shards = h.performer_bonus(state, s, fame, coins, shards)
    before = state.p[s].fame
    gain(state.p[s], fame=fame, coins=coins, shards=shards)
    ledger.performer(state, s, state.p[s].fame - before, links, printed)
    log(events, "performer_bonus", player=who(s), links=links, fame=fame, coins=coins, shards=shards)
    shards_gained(state, s, shards, events)
    card.m = {}  # markers return to their owners' supply


def apresentar_opcoes(state: State, s: int) -> list[str]:
    return [f"ap:{i}" for i in cards_of(state, s)]


def escolher_apresentacao(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    apresentar(state, s, int(choice[3:]), events)
    state.perf_day += 1
    state.turn, state.step = None, ""
    for h in hooks.active(state):  # a module may ask the performer something afterwards
        h.performed(state, s, events)
    return True


STEPS = {"apresentar": (apresentar_opcoes, escolher_apresentacao)}
