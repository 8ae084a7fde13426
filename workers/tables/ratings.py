"""Skill ratings: openskill's Plackett–Luce model (Weng & Lin's Bayesian approximation), one rating
per game in two scopes — the group's own ranking and everyone's — updated once, when a game ends.

Who is rated: every seat of a finished game with at least two seats. A person is the entity
"u<user id>", a bot seat "bot:<level>" (one rating per AI level, like a player of its own). A
game with one seat (Spellbook's solo, against the rulebook's opponent) is not rated: there is
nobody with a rating to measure against. Cancelled tables never reach here.

Places: the winners first (FinalScore.winners: a shared victory is a tie), then by total; equal
totals tie, and a tie is shared as the model shares it. A seat whose player left (`/sair`: the
stand-in played on) is placed below everyone who stayed, tied with the others who left — leaving
a game you are losing must not protect your rating — so a game where everyone but one left still
counts, as a win for the one who stayed (docs/telegram.md, "Ratings"). A rival that is no seat (the
solo opponent) takes a place too when it scored more: a solo game lost 30 to 37 is second, not first.

The table logic reads the old ratings through the Directory (with the revision of each record) and
writes the new ones in the Result; the commit that ends the game checks those revisions, so two
games ending at once for the same player are applied one after the other, never one over the other.
"""

from __future__ import annotations

from openskill.models import PlackettLuce
from pydantic import BaseModel

from rulesets.core import FinalScore

MODEL = PlackettLuce()  # mu 25, sigma 25/3: a newcomer's ordinal (mu - 3 sigma) is 0
EVERYONE = "all"


def group_scope(chat_id: int) -> str:
    return f"g{chat_id}"


def person(user_id: int) -> str:
    return f"u{user_id}"


def bot(level: str) -> str:
    return f"bot:{level}"


class Rating(BaseModel):
    """One entity's rating in one (game, scope), as stored; `rev` counts its saves."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0
    wins: int = 0
    name: str = ""
    rev: int = 0

    @property
    def ordinal(self) -> float:
        """What rankings sort and show: mu - 3 sigma, a cautious estimate that starts at 0."""
        return ordinal(self.mu, self.sigma)


def ordinal(mu: float, sigma: float) -> float:
    return mu - 3 * sigma


def places(score: FinalScore, left: list[bool]) -> list[int]:
    """Each seat's place, 1 = first; tied seats share a place (see the module's docstring)."""
    totals = {s.seat: s.total for s in score.seats}
    key = {seat: (True, True, 0) if left[seat] else (False, seat not in score.winners, -totals.get(seat, 0))
           for seat in range(len(left))}
    order = sorted(set(key.values()))
    return [order.index(key[seat]) + 1 + (0 if seat in score.winners else score.rivals_above(totals.get(seat, 0)))
            for seat in range(len(left))]


def rate(old: list[Rating], place: list[int], won: list[bool]) -> list[Rating]:
    """The new ratings of one game's entities (distinct, at least two), given their places."""
    teams = [[MODEL.rating(mu=r.mu, sigma=r.sigma)] for r in old]
    new = MODEL.rate(teams, ranks=[float(p) for p in place])
    return [r.model_copy(update={"mu": team[0].mu, "sigma": team[0].sigma, "games": r.games + 1,
                                 "wins": r.wins + int(w)})
            for r, team, w in zip(old, new, won, strict=True)]
