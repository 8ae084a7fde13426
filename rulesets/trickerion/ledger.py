"""Where each player's Fame came from, kept through the whole game for the end-of-game summary.

Fame is public (the Fame track; every change is in the log), so the ledger is too: the group's view
carries it (`view`) and the summary picture shows it (standing.py, picture/summary.py). It is kept the
way round_summary.py keeps a round's tally — a few numbers the rules add to where Fame changes —
never by reading log texts:

    start      the Fame the first round began with (the setup's 5, PT p.10; the quick game's bonus)
    advertise  Propaganda (p.11: 2 Fame), read from the posters: counted when they come down at the end
               of the round, and a poster still up counts for its round
    yields     the Rendimentos of the player's own tricks performed, by them or by another magician (p.18)
    links      Fame for links: formed when setting a trick up (p.17, "Bônus por Conectar Truques", and
               the Dark Alley's cards and powers that pay it again) and the performer's Bônus de
               Conexões (1 Fame a link, p.18)
    bonus      the performer's other bonuses: the performance card's and the Specialists' backstage (p.18)
    wages      Fame lost for wages not paid (negative; p.19)

What none of these names — special assignment cards, magicians' powers, prophecies, a module's change
to a bonus — is the rest (`other`), so the sources always add up to the Fame on the track. In the base
game nothing else gives or takes Fame, so there the rest is 0 (tests/trickerion/test_standing.py)."""

from __future__ import annotations

from .data import BOARD
from .state import Ledger, State

SOURCES = ("start", "advertise", "yields", "links", "bonus", "wages", "other")


def begin(state: State) -> None:
    """Called when a round begins: the first time, what everyone starts with."""
    if not state.ledger:
        state.ledger = [Ledger(start=p.fame) for p in state.p]


def _of(state: State, s: int) -> Ledger | None:
    return state.ledger[s] if s < len(state.ledger) else None  # a game saved before the ledger: no sources


def posters_down(state: State) -> None:
    """Called as the posters come down at the end of a round: each one was 2 Fame of Propaganda."""
    for s, p in enumerate(state.p):
        entry = _of(state, s)
        if entry is not None and p.poster:
            entry.advertise += BOARD.advertise["fame"]
        p.poster = False


def linked(state: State, s: int, fame: int) -> None:
    """Fame seat s took for links it formed setting a trick up (the rest of the bonus as coins)."""
    entry = _of(state, s)
    if entry is not None:
        entry.links += fame


def yielded(state: State, s: int, fame: int) -> None:
    """Fame a performed trick of seat s gave it (as received: never below 0)."""
    entry = _of(state, s)
    if entry is not None:
        entry.yields += fame


def performer(state: State, s: int, received: int, links: int, bonus: int) -> None:
    """The performer's bonus as received, split into the links' Fame, then the card's and the Specialists'
    (`bonus`) as far as it goes; what a module added beyond them is left to the rest."""
    entry = _of(state, s)
    if entry is None:
        return
    from_links = max(0, min(links, received))
    entry.links += from_links
    entry.bonus += max(0, min(bonus, received - from_links))


def unpaid(state: State, s: int, lost: int) -> None:
    """Fame seat s lost for wages it could not pay."""
    entry = _of(state, s)
    if entry is not None:
        entry.wages -= lost


def sources(state: State) -> list[dict[str, int]]:
    """Each seat's Fame by source, the rest included (they add up to its Fame); empty before the first
    round (or in a game saved before the ledger existed)."""
    if len(state.ledger) != state.n:
        return []
    out = []
    for p, entry in zip(state.p, state.ledger, strict=True):
        known = entry.model_dump()
        if p.poster:  # this round's Propaganda, before its poster comes down
            known["advertise"] += BOARD.advertise["fame"]
        known["other"] = p.fame - sum(known.values())
        out.append({key: known[key] for key in SOURCES})
    return out
