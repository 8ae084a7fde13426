"""Build positions for rule tests: a started game, plans, placements, hand-made Theater cards."""

from __future__ import annotations

import itertools

from rulesets.core import Match, Rng, act, new_match
from rulesets.trickerion import game as game_module
from rulesets.trickerion.rules import characters, link_count
from rulesets.trickerion.state import Card, Marker, Owned

from .helpers import GAME


def do(match: Match, seat: int, *choices: str) -> list:
    events = []
    for c in choices:
        assert c in GAME.legal_choices(match.state, seat), (c, GAME.legal_choices(match.state, seat))
        match, evs = act(match, seat, c, inplace=True)
        events += evs
    return events


def begin(n: int = 4, seed: int = 0, beginner: bool = True, magicians: tuple[str, ...] = ()) -> Match:
    """A game at round 1's Propaganda, magicians picked in seat order (first available unless given)."""
    match = new_match(GAME, {"beginner_setup": beginner}, n, seed)
    for s in range(n):
        if match.state.p[s].magician is not None:  # the one magician left: given without asking
            assert s >= len(magicians) or match.state.p[s].magician == magicians[s]
            continue
        choice = f"m:{magicians[s]}" if s < len(magicians) else GAME.legal_choices(match.state, s)[0]
        do(match, s, choice)
    return match


def to_assignment(match: Match) -> None:
    """Everyone asked about Propaganda (they are asked at the same time) passes."""
    while match.state.phase == "advertise":
        do(match, GAME.to_act(match.state)[0], "passar")


def revelar(match: Match, plans: dict[int, dict[str, str]], order: list[int] | None = None) -> list:
    """Jump to the assignment phase, give the plans, everyone says done; the placement phase starts."""
    to_assignment(match)
    if order is not None:
        match.state.order = order
    for s, plan in plans.items():
        match.state.p[s].plan = dict(plan)
    events = []
    for s in range(match.state.n):
        events += do(match, s, "pronto")
    return events


def put(match: Match, seat: int, char: str, space: str) -> list:
    """Place a character on a space, as the placement prompt offers it: in one choice ("al:"), or in
    two when its card opens too many spaces ("a:", then "es:"). A space of the same kind as one already
    offered (the Workshop's second, a weekday's second backstage space) is offered as that one."""
    from rulesets.trickerion.placement import space_kind

    st = match.state
    choices = GAME.legal_choices(st, seat)
    if f"a:{char}" in choices:
        events = do(match, seat, f"a:{char}")
        if f"lc:{space.split('.')[0]}" in GAME.legal_choices(st, seat):
            events += do(match, seat, f"lc:{space.split('.')[0]}")
            if st.p[seat].placed.get(char) is not None:  # the location's one kind of space: not asked
                assert space_kind(st.p[seat].placed[char], st) == space_kind(space, st)
                return events
        offered = [c[3:] for c in GAME.legal_choices(st, seat) if c.startswith("es:")]
        return events + do(match, seat, "es:" + next(k for k in offered if space_kind(k, st) == space_kind(space, st)))
    offered = [c for c in choices if c.startswith(f"al:{char}:")]
    exact = f"al:{char}:{space}"
    same = [c for c in offered if space_kind(c.split(":", 2)[2], st) == space_kind(space, st)]
    assert exact in offered or same, (exact, choices)
    return do(match, seat, exact if exact in offered else same[0])


def buy(match: Match, seat: int, comp: str, n: int, bargain: int = 0) -> list:
    """Comprar: the type and the quantity in one choice, then Barganhar when it is asked (AP to spare)."""
    events = do(match, seat, "comprar", f"cp:{comp}:{n}")
    if match.state.step == "comprar_b":
        events += do(match, seat, f"bg:{bargain}")
    return events


def idle(match: Match, seat: int, char: str) -> list:
    """Leave a character idle in the placement phase ("ocioso", then which one when several wait)."""
    events = do(match, seat, "ocioso")
    if GAME.to_act(match.state) == [seat] and match.state.step == "ocioso":
        events += do(match, seat, f"o:{char}")
    return events


def offered(match: Match, seat: int, char: str) -> list[str]:
    """The spaces the placement prompt offers the character (one of each kind), as space keys; for a
    card that opens too many, the spaces of the two-step prompt (location first: all locations')."""
    choices = GAME.legal_choices(match.state, seat)
    if f"a:{char}" not in choices:
        return [c.split(":", 2)[2] for c in choices if c.startswith(f"al:{char}:")]
    trial = match.model_copy(deep=True)
    do(trial, seat, f"a:{char}")
    out: list[str] = []
    for c in GAME.legal_choices(trial.state, seat):
        if c.startswith("lc:"):
            inner = trial.model_copy(deep=True)
            do(inner, seat, c)
            placed = inner.state.p[seat].placed.get(char)
            if placed:  # the location's one kind of space: taken without asking
                out.append(placed)
            else:
                out += [x[3:] for x in GAME.legal_choices(inner.state, seat) if x.startswith("es:")]
        elif c.startswith("es:"):
            out.append(c[3:])
    return out


def preparing(match: Match, seat: int, trick: str, card: int) -> list:
    """Preparar um Truque up to the spot: the card, then the trick when several could go there."""
    events = do(match, seat, f"pp:{card}")
    if match.state.step == "preparar_t":
        events += do(match, seat, f"pt:{trick}")
    assert match.state.ctx.get("t") == trick, (match.state.ctx, trick)
    return events


def set_up(match: Match, seat: int, trick: str, card: int, slot: str, d: int, fame: int | None = None) -> list:
    """Preparar um Truque: the card, the trick (when several could go there), the spot with its link
    bonus (`fame`: the links taken as Fame; all of them unless said)."""
    events = preparing(match, seat, trick, card)
    choices = GAME.legal_choices(match.state, seat)
    spot = f"pe:{slot}:{d}"
    if spot not in choices:
        linked = [c for c in choices if c.startswith(spot + ":")]
        assert linked, (spot, choices)
        spot = f"{spot}:{fame}" if fame is not None else linked[0]
    return events + do(match, seat, spot)


def place(match: Match, seat: int, char: str, space: str, shard: bool = False) -> None:
    assert match.state.turn == seat, (match.state.turn, seat)
    put(match, seat, char, space)
    if shard and "fr:1" in GAME.legal_choices(match.state, seat):
        do(match, seat, "fr:1")


def advance(match: Match) -> list:
    events: list = []
    game_module.advance(match.state, Rng(99), events)
    return events


def give_tricks(match: Match, seat: int, *tids: str, on: int = 0) -> None:
    match.state.p[seat].tricks = [Owned(t=t, sym=i, on=on) for i, t in enumerate(tids)]


def lay(card: Card, seat: int, sym: int, tid: str, slot: str, d: int = 0) -> None:
    card.m[slot] = Marker(seat=seat, sym=sym, t=tid, d=d)


def rotate_for_links(card: Card, links: int) -> None:
    """Give the markers on a card rotations (own-category corner on one of its link circles) that make
    exactly `links` links: a test shortcut for hand-made positions."""
    from rulesets.trickerion.data import CARDS

    slots = sorted(card.m)
    options = [[d for d, _o, _l in CARDS[card.id].neighbours[s]] for s in slots]
    for combo in itertools.product(*options):
        for s, d in zip(slots, combo, strict=True):
            card.m[s].d = d
        if link_count(card) == links:
            return
    raise AssertionError(f"no rotation gives {links} links")


def to_performances(match: Match, placed: dict[int, dict[str, str]]) -> list:
    """Jump to the end of the placement phase with only the given characters placed (seat -> character ->
    space key, e.g. {0: {"mag": "theater.1.p"}}), every other character idle, and let the game run on into
    the Performance phase: its first decision is then asked. A position builder: no prompt is walked."""
    st = match.state
    st.phase, st.step, st.turn, st.ctx, st.cur, st.pi, st.steps = "place", "", None, {}, None, 0, {}
    st.occ, st.days = {}, [None] * len(st.days)
    for s, p in enumerate(st.p):
        chars = placed.get(s, {})
        p.plan = {c: key.split(".")[0] for c, key in chars.items()}
        p.placed, p.idle, p.ready, p.day = dict(chars), [c for c in characters(p) if c not in chars], True, None
        for c, key in chars.items():
            st.occ[key] = f"{s}:{c}"
            if key.startswith("theater."):
                p.day = int(key.split(".")[1])
                st.days[p.day] = s
    return advance(match)
