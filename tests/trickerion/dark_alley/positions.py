"""Build Dark Alley positions for rule tests: a started game, special cards in hand, a character
placed with a card (bonus or +1 AP), hand-made tricks and Theater cards."""

from __future__ import annotations

from rulesets.core import Match, new_match
from rulesets.trickerion.state import Card, Marker, Owned

from ..harness import do, put, revelar
from ..helpers import GAME


def begin(n: int = 2, seed: int = 0, magicians: tuple[str, ...] = (), prophecies: bool = False) -> Match:
    """A Dark Alley game at round 1's Propaganda (beginner setup), magicians picked in seat order."""
    match = new_match(GAME, {"beginner_setup": True, "dark_alley": True, "prophecies": prophecies}, n, seed)
    for s in range(n):
        if match.state.p[s].magician is not None:  # the one magician left: given without asking
            assert s >= len(magicians) or match.state.p[s].magician == magicians[s]
            continue
        choice = f"m:{magicians[s]}" if s < len(magicians) else GAME.legal_choices(match.state, s)[0]
        do(match, s, choice)
    return match


def give(match: Match, seat: int, *cards: str) -> None:
    """Special cards from their decks into a player's hand."""
    for card in cards:
        for deck in match.state.alley.decks.values():
            if card in deck:
                deck.remove(card)
        match.state.p[seat].hand[card] = 1


def plan(match: Match, plans: dict[int, dict[str, str]], first: int = 0) -> list:
    """Assignments revealed; `first` places first (the others follow in seat order)."""
    n = match.state.n
    return revelar(match, plans, order=[first, *[s for s in range(n) if s != first]])


def go(match: Match, seat: int, char: str, space: str, bonus: bool | None = True, shard: bool = False,
       mech: bool = False) -> list:
    """Place a character; with a special card take its bonus (True) or +1 AP (False); the Mechanizer's
    +1 AP if `mech`."""
    events = put(match, seat, char, space)
    if match.state.step == "da_especial" and bonus is not None and len(choices(match, seat)) > 1:
        events += do(match, seat, "sb" if bonus else "sa")
    if match.state.step == "da_mecanico":
        events += do(match, seat, "me:1" if mech else "me:0")
    if shard and match.state.step == "acoes" and "fr:1" in choices(match, seat):
        events += do(match, seat, "fr:1")
    return events


def with_card(match: Match, seat: int, card: str, space: str, char: str = "mag", bonus: bool | None = True,
              shard: bool = False) -> list:
    """Give the card, put it under the character, reveal, and place the character (it places first)."""
    give(match, seat, card)
    plan(match, {seat: {char: card}}, first=seat)
    return go(match, seat, char, space, bonus, shard)


def tricks(match: Match, seat: int, *tids: str, on: int = 0) -> None:
    match.state.p[seat].tricks = [Owned(t=t, sym=i, on=on) for i, t in enumerate(tids)]


def card(match: Match, index: int, cid: str, markers: dict[str, tuple[int, int, str]] | None = None) -> Card:
    """Put performance card `cid` at Theater space `index`, markers: slot -> (seat, symbol, trick)."""
    c = Card(id=cid, m={slot: Marker(seat=s, sym=y, t=t, d=0) for slot, (s, y, t) in (markers or {}).items()})
    match.state.row[index] = c
    return c


def keys(events: list) -> list[str]:
    return [e.text.key.split(".")[-1] for e in events]


def choices(match: Match, seat: int) -> list[str]:
    return GAME.legal_choices(match.state, seat)
