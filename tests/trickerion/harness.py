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
        choice = f"m:{magicians[s]}" if s < len(magicians) else GAME.legal_choices(match.state, s)[0]
        do(match, s, choice)
    return match


def to_assignment(match: Match) -> None:
    while match.state.phase == "advertise":
        do(match, match.state.turn, "passar")


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


def place(match: Match, seat: int, char: str, space: str, shard: bool = False) -> None:
    assert match.state.turn == seat, (match.state.turn, seat)
    do(match, seat, f"a:{char}", f"es:{space}")
    if match.state.step == "reforcar":
        do(match, seat, "fr:1" if shard else "fr:0")


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
    st.phase, st.step, st.turn, st.ctx, st.cur, st.pi = "place", "", None, {}, None, 0
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
