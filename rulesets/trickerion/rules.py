"""Rules shared by every place of the game: Workshop capacities, trick markers and their geometry,
characters, and the small helpers that write log lines."""

from __future__ import annotations

from functools import cache

from rulesets.core import Event, msg, seat
from rulesets.core.messages import Msg
from rulesets.core.unchecked import _new, _set_dict, _set_extra, _set_fields_set, _set_private, fields_set

from . import hooks
from .data import BOARD, CARDS, CATEGORIES, COMPONENTS, COST, TRICKS
from .state import Card, Marker, Player, State

MAX_PER_TYPE = BOARD.workshop["max_per_component"]
MARKERS_PER_SYMBOL = BOARD.workshop["markers_per_symbol"]
SPECIALISTS = tuple(BOARD.specialists)

# ---------------------------------------------------------------------------------------------- texts


def log(events: list[Event], key: str, audience: list[int] | None = None, **params) -> None:
    # unvalidated: every parameter is built by the rules (Seat, Msg, list[Msg], int, str), and a game logs
    # hundreds of lines; the playout tests check that every event survives the JSON round trip unchanged.
    # `unchecked` written out twice (its two calls were a third of a line's cost)
    text = _new(Msg)
    _set_dict(text, {"key": f"trickerion.log.{key}", "params": params})
    _set_fields_set(text, _MSG_FIELDS)
    _set_extra(text, None)
    _set_private(text, None)
    event = _new(Event)
    _set_dict(event, {"text": text, "audience": audience, "summary": False})
    _set_fields_set(event, _EVENT_FIELDS)
    _set_extra(event, None)
    _set_private(event, None)
    events.append(event)


_MSG_FIELDS, _EVENT_FIELDS = fields_set(Msg), fields_set(Event)


@cache  # Msgs are frozen: one per (noun, number) is shared (building one costs microseconds, logs want many)
def qty(what: str, n: int) -> Msg:
    """"2 de Fama", "1 Moeda", "3 Fragmentos", "2 Conexões": a number and its noun, in the plural form the
    language wants (`trickerion.qty.<what>[one|other]`), never "Moeda(s)"."""
    return msg(f"trickerion.qty.{what}", count=n)


# Names are frozen Msgs, so each is built once and shared (building one costs microseconds).
@cache
def trick_name(tid: str) -> Msg:
    return msg(f"trickerion.trick.{tid}")


@cache
def comp_name(key: str) -> Msg:
    return msg(f"trickerion.comp.{key}")


OFF_SLOT = "off"  # a marker on a performance card outside its slots (the Dark Alley's Guest Performer)


@cache
def slot_msg(slot: str) -> Msg:
    """A performance-card slot ("x.y") in words: column and row."""
    if slot == OFF_SLOT:
        return msg("trickerion.da.slot_off")
    x, y = slot.split(".")
    return msg("trickerion.slot", col=int(x) + 1, row=int(y) + 1)


@cache
def slot_number(card_id: str, slot: str) -> int:
    """A slot's number on its performance card, in reading order (top row first, left to right):
    the number the placement buttons and the card's picture both show."""
    order = sorted(CARDS[card_id].slots, key=lambda sl: tuple(int(v) for v in reversed(sl.split("."))))
    return order.index(slot) + 1


@cache
def who(n: int):
    return seat(n)


# ---------------------------------------------------------------------------------------------- decisions


def step_of(state: State, s: int) -> str:
    """The decision seat s is asked now: the table's when it is on turn (the others may be waiting on
    it), else its own, when several seats decide at the same time, each something of its own (the
    players' setup, Propaganda, the quick game's components)."""
    step = state.step  # (read once: asked several times a move)
    if s == state.turn and step:
        return step
    return state.steps.get(str(s)) or step


def deciding(state: State) -> list[int]:
    """Who must decide now: everyone still assigning; else the seat on turn, beside the seats deciding
    something of their own at the same time (state.steps)."""
    phase, turn = state.phase, state.turn  # (read once: asked several times a move)
    if phase == "assign":
        return [s for s, p in enumerate(state.p) if not p.ready]
    if phase == "over":
        return []
    seats = [] if turn is None else [turn]
    if not state.steps:  # (the usual case: asked every move)
        return seats
    return seats + sorted([int(k) for k in state.steps if int(k) != turn])


def set_step(state: State, s: int, step: str) -> None:
    """Seat s's own next decision ("": it has none for now)."""
    if step:
        state.steps[str(s)] = step
    else:
        state.steps.pop(str(s), None)


def acted(state: State, s: int, action: str, events: list[Event], **info) -> None:
    """Tell rule modules an action was completed (a special card may improve it)."""
    for m in hooks.active(state):
        m.acted(state, s, action, info, events)


def cost(state: State, action: str) -> int:
    """AP cost of an action, after any rule module's change."""
    value = COST[action]
    for m in hooks.active(state):
        value = m.action_cost(state, action, value)
    return value


# ---------------------------------------------------------------------------------------------- characters


def characters(p: Player) -> list[str]:
    """The player's team: magician, specialists that joined, apprentices."""
    return ["mag", *p.specs, *p.apps]


def kind(char: str) -> str:
    if char == "mag":
        return "magician"
    return "specialist" if char in SPECIALISTS else "apprentice"


def wages(p: Player, chars) -> int:
    """The wages of these characters at the end of the round: apprentices 1, specialists 2, the magician
    and the apprentice on the Assistant's extension nothing (PT p.19)."""
    return sum(BOARD.characters[kind(c)].wage for c in chars if c != p.app_ext)


def base_ap(char: str) -> int:
    return BOARD.characters[kind(char)].ap


def owner_of(entry: str) -> tuple[int, str]:
    s, c = entry.split(":", 1)
    return int(s), c


# ---------------------------------------------------------------------------------------------- components


def effective(p: Player, comp: str) -> int:
    """Units of a component as the rules count them: a stack on a Manager multi-component slot counts one more."""
    n = p.comps.get(comp, 0)
    return n + 1 if n and comp in p.multi else n


def component_counts(p: Player) -> dict[str, int]:
    """The player's components as every view shows them (texts and pictures alike): counted as the
    rules count them, so a stack on a Manager multi-component slot shows its extra unit."""
    return {c: effective(p, c) for c, n in p.comps.items() if n}


def regular_types(p: Player) -> list[str]:
    return [c for c, n in p.comps.items() if n and c not in p.multi]


def room_for(p: Player, comp: str) -> int:
    """How many more units of `comp` fit in the Workshop (3 of a type; 6 regular component spaces)."""
    if not p.comps.get(comp) and len(regular_types(p)) >= BOARD.workshop["component_slots"]:
        return 0
    n = p.comps.get(comp, 0)
    current = n + 1 if n and comp in p.multi else n
    return max(0, MAX_PER_TYPE - current)


def add_components(p: Player, comp: str, k: int) -> None:
    p.comps[comp] = p.comps.get(comp, 0) + k


def remove_component(p: Player, comp: str) -> None:
    p.comps[comp] -= 1
    if not p.comps[comp]:
        del p.comps[comp]
        if comp in p.multi:
            p.multi[p.multi.index(comp)] = None


def meets(p: Player, tid: str) -> bool:
    return all(effective(p, c) >= k for c, k in TRICKS[tid].components.items())


def comp_cost(comp: str) -> int:
    return COMPONENTS[comp].cost


# ---------------------------------------------------------------------------------------------- tricks & markers


def owned(p: Player, tid: str):
    for o in p.tricks:
        if o.t == tid:
            return o
    return None


def trick_capacity(p: Player) -> int:
    return BOARD.workshop["trick_slots"] + (1 if "engineer" in p.specs else 0)


def free_symbol(p: Player) -> int | None:
    used = {o.sym for o in p.tricks}
    return next((s for s in range(BOARD.workshop["symbols"]) if s not in used), None)


def markers_in_theater(state: State, s: int, sym: int) -> int:
    return sum(m.n for card in state.row if card for m in card.m.values() if m.seat == s and m.sym == sym)


def taken_tricks(state: State) -> set[str]:
    return {o.t for p in state.p for o in p.tricks}


def return_trick(state: State, s: int, tid: str) -> int:
    """Give a trick back to Dahlgaard's Residence; all its markers (also in the Theater) return."""
    p = state.p[s]
    o = owned(p, tid)
    p.tricks.remove(o)
    back = 0
    for card in state.row:
        if card:
            for slot in [k for k, m in card.m.items() if m.seat == s and m.sym == o.sym]:
                del card.m[slot]
                back += 1
    return back


def corner(own: str, pointing: int, direction: int) -> str:
    """The category shown by the corner at `direction` of a marker whose own-category corner points at
    `pointing` (corners clockwise: spiritual, mechanical, optical, escape)."""
    return CATEGORIES[(CATEGORIES.index(own) + direction - pointing) % 4]


def marker_category(m: Marker) -> str:
    return TRICKS[m.t].category


def placements(card: Card, s: int, sym: int, moving: str | None = None) -> list[tuple[str, int]]:
    """Free slots and rotations where a marker of seat s / symbol sym may go on this card: its own-category
    corner on a link circle; never two markers of one colour and symbol on a card. `moving`: the slot a
    rescheduled marker leaves (it counts as free)."""
    for slot, m in card.m.items():
        if slot != moving and m.seat == s and m.sym == sym:
            return []
    data = CARDS[card.id]
    out = []
    for slot in data.slots:
        if slot in card.m and slot != moving:
            continue
        for direction, _other, _li in data.neighbours[slot]:
            out.append((slot, direction))
    return out


def links_of(card: Card, slot: str) -> list[int]:
    """Indexes of the link circles around `slot` where the two touching corners show the same symbol."""
    m = card.m.get(slot)
    if m is None:
        return []
    out = []
    own = marker_category(m)
    for direction, other, li in CARDS[card.id].neighbours.get(slot, []):
        o = card.m.get(other)
        if o is not None and corner(own, m.d, direction) == corner(marker_category(o), o.d, (direction + 2) % 4):
            out.append(li)
    return out


def links_if(card: Card, marker: Marker, slot: str) -> int:
    """How many links `marker` would form at the free `slot` (its rotation as given), without placing it:
    the touching corners that would show the same symbol (as links_of counts them once it is there)."""
    own = marker_category(marker)
    n = 0
    for direction, other, _li in CARDS[card.id].neighbours.get(slot, []):
        o = card.m.get(other)
        if o is not None and corner(own, marker.d, direction) == corner(marker_category(o), o.d, (direction + 2) % 4):
            n += 1
    return n


def link_count(card: Card) -> int:
    return len({li for slot in card.m for li in links_of(card, slot)})


# ---------------------------------------------------------------------------------------------- money & fame


def gain(p: Player, fame: int = 0, coins: int = 0, shards: int = 0) -> None:
    p.fame = max(0, p.fame + fame)
    p.coins += coins
    p.shards += shards


def shards_gained(state: State, s: int, n: int, events: list[Event]) -> None:
    """Call right after player s gained n Shards in one go: a rule module may add to the gain."""
    if n > 0:
        for m in hooks.active(state):
            m.shards_gained(state, s, n, events)


def initiative_space(state: State, s: int) -> int:
    return state.spaces[state.order.index(s)]
