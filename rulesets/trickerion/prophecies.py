"""Profecias: the optional prophecies of the Dark Alley (module "prophecies", PT p.6, p.9, p.13, p.19).

The track (`State.proph`): three Pending Prophecies face up on the Fortune Teller's orb, leftmost
first (the next to become active); the Active one beside the round track rules the whole round; the
rest is a face-down pile (secret: views and events show only its size and each token as it is drawn).

    after the players' setup   three tokens drawn as the Pending ones; no Active one in round 1
    Mover as Profecias         (end of round) the Active one discarded, the leftmost Pending one becomes
                               Active, the others move one space clockwise (towards it), a new one is
                               drawn into the rightmost space
    Clarividência              (Beco Escuro, 1 AP) every Pending one moves one space clockwise: the
                               leftmost wraps round to the rightmost space — `clairvoyance`
    Tecer o Destino            (Priestess of Mysticism, 1 AP at the Beco Escuro) the Active one discarded,
                               a chosen Pending one becomes Active, a new one drawn into its space —
                               `fate_weaving_choices` / `fate_weaving`

Each Active prophecy's rule change is read at the moment it matters (the hooks below), so one that
becomes Active in the middle of a round by Tecer o Destino rules from then on. The effects are data
(data/prophecies.yaml); rulings on the open points are in docs/rulings/trickerion.md, "Prophecies".
"""

from __future__ import annotations

from typing import Any, Literal

import yaml
from pydantic import BaseModel, model_validator

from rulesets.core import Event, Rng, msg, seat
from rulesets.core.messages import Msg

from . import hooks
from .data import BOARD, CATEGORIES, DAYS, HERE, TRICKS
from .placement import card_msg, char_msg, space_ap
from .rules import comp_cost, gain, kind
from .state import Prophecies, State

NAME = "prophecies"
DAY_KEYS = tuple(d.key for d in DAYS)
# Actions whose cost a prophecy may change: the base game's and the Beco Escuro's Comprar Cartas Adicionais.
ACTIONS = (*BOARD.actions, "comprar_adicionais")
ALLEY = "alley"  # the Beco Escuro's location key (dark_alley/)


class Effect(BaseModel):
    type: Literal["base_ap", "shards_gained", "buy_orders", "action_cost", "performer_bonus", "take_coins",
                  "enhance_ap", "placements_per_turn", "set_up_fame", "day_yield", "coins_as_fame",
                  "advertised_apprentices", "slot_fee", "performer_modifier", "delayed_reveal", "component_price",
                  "enhance_in", "lowest_slot"]
    ap: int = 0
    shards: int = 0
    fame: int = 0
    coins: int = 0
    factor: int = 1
    count: int = 1
    action: str | None = None
    category: str | None = None
    days: dict[str, int] = {}
    locations: list[str] = []
    location: str | None = None

    @model_validator(mode="after")
    def _sane(self):
        assert self.action is None or self.action in ACTIONS, self.action
        assert self.category is None or self.category in CATEGORIES, self.category
        assert set(self.days) <= set(DAY_KEYS), self.days
        assert (self.type == "action_cost") == (self.action is not None)
        assert (self.type == "set_up_fame") == (self.category is not None)
        return self


class Prophecy(BaseModel):
    id: str
    effect: Effect


def _load() -> tuple[dict[str, Prophecy], int]:
    with (HERE / "prophecies.yaml").open(encoding="utf-8") as fh:
        raw = yaml.safe_load(fh)
    found = {p["id"]: Prophecy.model_validate(p) for p in raw["prophecies"]}
    assert list(found) == [f"P{i:02d}" for i in range(1, 28)], "27 prophecy tokens, one of each"
    return found, raw["meta"]["pending"]


PROPHECIES, PENDING = _load()


# ---------------------------------------------------------------------------------------------- texts


def name(pid: str) -> Msg:
    return msg(f"trickerion.prophecy.{pid}")


def text(pid: str) -> Msg:
    return msg(f"trickerion.prophecy.{pid}.text")


def _log(events: list[Event], key: str, **params) -> None:
    events.append(Event(text=msg(f"trickerion.prophecies.log.{key}", **params)))


# ---------------------------------------------------------------------------------------------- the track


def active_effect(state: State) -> Effect | None:
    t = state.proph
    return PROPHECIES[t.active].effect if t is not None and t.active else None


def _effect(state: State, kind_: str) -> Effect | None:
    e = active_effect(state)
    return e if e is not None and e.type == kind_ else None


def _draw(state: State, rng: Rng, events: list[Event]) -> str | None:
    """The pile's top token, face up. An empty pile is remade from the shuffled discards (the
    rulebook is silent; see the rulings)."""
    t = state.proph
    if not t.pile and t.discard:
        t.pile, t.discard = list(t.discard), []
        rng.shuffle(t.pile)
        _log(events, "reshuffled", count=len(t.pile))
    if not t.pile:
        return None
    pid = t.pile.pop(0)
    _log(events, "drawn", prophecy=name(pid), text=text(pid))
    return pid


def setup_track(state: State, rng: Rng, events: list[Event]) -> None:
    """After the players' setup: three Pending Prophecies drawn at random, no Active one (PT p.9, step 7)."""
    pile = list(PROPHECIES)
    rng.shuffle(pile)
    state.proph = Prophecies(pile=pile)
    _log(events, "setup")
    for _ in range(PENDING):
        state.proph.pending.append(_draw(state, rng, events))


def mover_as_profecias(state: State, rng: Rng, events: list[Event]) -> None:
    """End of round (PT p.19): discard the Active one; the leftmost Pending one becomes Active (for the
    next round); the rest move one space clockwise; a new one is drawn into the rightmost space."""
    t = state.proph
    if t.active:
        t.discard.append(t.active)
        _log(events, "discarded", prophecy=name(t.active))
    t.active = t.pending.pop(0) if t.pending else None
    if t.active:
        _log(events, "active", prophecy=name(t.active), text=text(t.active))
    new = _draw(state, rng, events)
    if new:
        t.pending.append(new)


def clairvoyance(state: State, s: int, events: list[Event]) -> None:
    """Clarividência (PT p.13): every Pending Prophecy moves one space clockwise. Clockwise is the
    direction of the end-of-round move (towards the Active space), so the leftmost one, which cannot
    become Active, wraps round to the rightmost space: [a, b, c] -> [b, c, a]."""
    t = state.proph
    t.pending = t.pending[1:] + t.pending[:1]
    _log(events, "clairvoyance", player=seat(s), pending=[name(p) for p in t.pending])


def clairvoyance_ok(state: State) -> bool:
    """Moving the Pending Prophecies changes something only with two or more of them."""
    return state.proph is not None and len(state.proph.pending) > 1


def fate_weaving_choices(state: State) -> list[str]:
    """Tecer o Destino: which Pending Prophecy replaces the Active one (`td:<space>`)."""
    t = state.proph
    return [f"td:{i}" for i in range(len(t.pending))] if t is not None else []


def fate_weaving(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> None:
    """Tecer o Destino (PT p.21): discard the Active Prophecy (if any: in round 1 there is none),
    replace it with the chosen Pending one, and draw a new Pending one into the space it left."""
    t = state.proph
    i = int(choice.split(":")[1])
    chosen = t.pending[i]
    if t.active:
        t.discard.append(t.active)
        _log(events, "discarded", prophecy=name(t.active))
    t.active = chosen
    _log(events, "fate_weaving", player=seat(s), prophecy=name(chosen), text=text(chosen))
    new = _draw(state, rng, events)
    if new:
        t.pending[i] = new
    else:
        del t.pending[i]
    if t.delayed and PROPHECIES[chosen].effect.type != "delayed_reveal":
        _reveal_rest(state, events)


def _reveal_rest(state: State, events: list[Event]) -> None:
    """The delayed reveal ends with its prophecy: the cards still face down are shown at once."""
    state.proph.delayed = False
    for s in state.order:
        p = state.p[s]
        rest = [msg("trickerion.plan_item", char=char_msg(c), loc=card_msg(state, card))
                for c, card in p.plan.items() if c not in p.placed and c not in p.idle]
        if rest:
            events.append(Event(text=msg("trickerion.log.reveal", player=seat(s), plan=rest)))


def in_order(state: State) -> bool:
    """Every token is in exactly one place (pending, active, pile, discard), at most 3 pending."""
    t = state.proph
    if t is None:
        return True
    tokens = [*t.pending, *([t.active] if t.active else []), *t.pile, *t.discard]
    return sorted(tokens) == sorted(PROPHECIES) and len(t.pending) <= PENDING


# ---------------------------------------------------------------------------------------------- the module


class Module(hooks.Module):
    name = NAME

    def after_setup(self, state: State, rng: Rng, events: list[Event]) -> None:
        setup_track(state, rng, events)

    def end_round(self, state: State, rng: Rng, events: list[Event]) -> None:
        if state.proph is None:
            return
        state.proph.delayed = False
        last = state.rounds
        for m in hooks.active(state):
            last = m.rounds(state, last)
        if state.round < last:  # after the last round no prophecy would rule again
            mover_as_profecias(state, rng, events)

    # -- Action Points

    def base_ap(self, state: State, s: int, char: str, ap: int) -> int:
        e = active_effect(state)
        if e is None:
            return ap
        if e.type == "base_ap":  # P01: magician, specialists and apprentices alike
            return e.ap
        if e.type == "advertised_apprentices" and kind(char) == "apprentice" and state.p[s].poster:
            return ap + e.ap  # P15: the player advertised this round
        return ap

    def enhance_ap(self, state: State, ap: int) -> int:
        e = _effect(state, "enhance_ap")
        return e.ap if e else ap

    def enhance(self, state: State, loc: str, allowed: bool) -> bool:
        e = _effect(state, "enhance_in")
        return True if e and e.location == loc else allowed

    def action_cost(self, state: State, action: str, cost: int) -> int:
        e = _effect(state, "action_cost")
        return e.ap if e and e.action == action else cost

    # -- placement

    def spaces(self, state: State, s: int, char: str, keys: list[str]) -> list[str]:
        e = active_effect(state)
        if e is None:
            return keys
        if e.type == "slot_fee" and state.p[s].coins < e.coins:  # P18: a +2 space is closed to who cannot pay
            return [k for k in keys if not self._fee_space(state, k, e)]
        if e.type == "lowest_slot":  # P27: per location, only its free spaces with the lowest modifier
            lowest: dict[str, int] = {}
            for k in keys:
                loc = k.split(".")[0]
                if loc in e.locations:
                    lowest[loc] = min(lowest.get(loc, 99), space_ap(k, state))
            return [k for k in keys if k.split(".")[0] not in lowest or space_ap(k, state) == lowest[k.split(".")[0]]]
        return keys

    @staticmethod
    def _fee_space(state: State, key: str, e: Effect) -> bool:
        return key.split(".")[0] in e.locations and space_ap(key, state) == e.ap

    def placed(self, state: State, s: int, char: str, space: str, events: list[Event]) -> None:
        t = state.proph
        if t is not None and t.delayed:  # shown right before the placement: ahead of its log line
            p = state.p[s]
            shown = Event(text=msg("trickerion.prophecies.log.revealed", player=seat(s),
                                   card=card_msg(state, p.plan[char]), char=char_msg(char)))
            at = max((i for i, e in enumerate(events) if e.text.key == "trickerion.log.placed"), default=len(events))
            events.insert(at, shown)
        e = _effect(state, "slot_fee")
        if e and self._fee_space(state, space, e):
            state.p[s].coins -= e.coins
            _log(events, "slot_fee", player=seat(s), coins=e.coins, prophecy=name(t.active))

    def placements_per_turn(self, state: State, n: int) -> int:
        e = _effect(state, "placements_per_turn")
        return max(n, e.count) if e else n

    def reveal(self, state: State, events: list[Event]) -> bool:
        if not _effect(state, "delayed_reveal"):
            return False
        state.proph.delayed = True  # P20: each card is shown only as its character is placed
        for s in state.order:
            p = state.p[s]
            if p.plan:  # which characters have a card is visible; where they go is not
                _log(events, "face_down", player=seat(s), chars=[char_msg(c) for c in p.plan])
        return True

    def plans_hidden(self, state: State) -> bool:
        return state.proph is not None and state.proph.delayed

    # -- Market, Town Center, Theater

    def buy_area(self, state: State, comps: list[str]) -> list[str]:
        if _effect(state, "buy_orders"):  # P04
            return [*comps, *(c for c in dict.fromkeys(state.orders) if c and c not in comps)]
        return comps

    def component_cost(self, state: State, comp: str, price: int) -> int:
        """P21 replaces the printed price; a discount another module already took off it (Workshop
        Delivery's 1 coin, which runs first) still applies to the new price (ruling P18)."""
        e = _effect(state, "component_price")
        return max(0, e.coins - (comp_cost(comp) - price)) if e else price

    def coins_taken(self, state: State, coins: int) -> int:
        e = _effect(state, "take_coins")
        return coins * e.factor if e else coins

    def set_up(self, state: State, s: int, tid: str, events: list[Event]) -> None:
        e = _effect(state, "set_up_fame")
        if e and TRICKS[tid].category == e.category:
            gain(state.p[s], fame=e.fame)
            _log(events, "fame_bonus", player=seat(s), fame=e.fame, prophecy=name(state.proph.active))

    def shards_gained(self, state: State, s: int, n: int, events: list[Event]) -> None:
        e = _effect(state, "shards_gained")
        if e:  # P02 / P03: once per gain, however many Shards it brought
            gain(state.p[s], fame=e.fame, shards=e.shards)
            if e.shards:
                _log(events, "extra_shards", player=seat(s), count=e.shards, prophecy=name(state.proph.active))
            if e.fame:
                _log(events, "fame_bonus", player=seat(s), fame=e.fame, prophecy=name(state.proph.active))

    # -- performances

    def weekday(self, state: State, owner: int, performer: int, day: int) -> int:
        if _effect(state, "performer_modifier") and owner != performer:  # P19
            return state.p[performer].day
        return day

    def day_yield(self, state: State, day: int, value: int) -> int:
        e = _effect(state, "day_yield")
        return e.days.get(DAYS[day].key, value) if e else value

    def trick_yield(self, state: State, owner: int, performer: int, fame: int, coins: int) -> tuple[int, int]:
        if _effect(state, "coins_as_fame"):  # P14: the trick's coin yield, after its modifiers, as Fame
            return fame + coins, 0
        return fame, coins

    def performer_bonus(self, state: State, s: int, fame: int, coins: int, shards: int) -> tuple[int, int, int]:
        e = _effect(state, "performer_bonus")
        return (fame * e.factor, coins * e.factor, shards * e.factor) if e else (fame, coins, shards)

    # -- what the players see (the pile's order never)

    def view(self, state: State, seat_: int | None) -> dict[str, Any]:
        t = state.proph
        if t is None:
            return {}
        return {"prophecies": {"active": t.active, "pending": list(t.pending), "discard": list(t.discard),
                               "pile": len(t.pile), "delayed": t.delayed}}

    def table(self, state: State, seat_: int | None) -> list[Msg]:
        t = state.proph
        if t is None:
            return []
        active = name(t.active) if t.active else msg("trickerion.prophecies.none")
        pending = [name(p) for p in t.pending]
        return [msg("trickerion.prophecies.table", active=active, pending=pending, pile=len(t.pile))]

    def info(self, state: State, seat_: int) -> list[Msg]:
        t = state.proph
        if t is None:
            return []
        out = [msg("trickerion.prophecies.info", prophecy=name(t.active), text=text(t.active))] if t.active else []
        if state.cur is not None and state.turn == seat_ and state.cur.loc == ALLEY:  # before Clarividência / Tecer
            out.append(msg("trickerion.prophecies.info_pending", pending=[
                msg("trickerion.prophecies.numbered", n=i + 1, prophecy=name(p)) for i, p in enumerate(t.pending)]))
        return out

    def label(self, state: State, seat_: int, choice: str) -> Msg | None:
        if choice.startswith("td:") and state.proph is not None:
            i = int(choice[3:])
            if i < len(state.proph.pending):
                return msg("trickerion.prophecies.choice", prophecy=name(state.proph.pending[i]))
        return None


hooks.register(Module())
