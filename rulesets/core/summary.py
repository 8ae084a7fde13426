"""What a finished game looks like afterwards: its points round by round and the end-of-game summary.

Everything here is public: the series comes from replaying the log and reading the *group's* view
(`Game.view(state, None)`) at each position, through `Game.progress`, and the summary picture
(`Game.summary_picture`) is drawn from a `Summary` that holds only the final scores, that series and
the rating changes, plus the final public view. So neither can show what the group may not see.

    positions(match)          -> every position of the log, replayed (the setup first)
    timeline(game, match)     -> each seat's points at the end of every round and at the end, and
                                 where each round began
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

from pydantic import BaseModel

from rulesets.core.contract import FinalScore, Game
from rulesets.core.match import SETUP, Match, act, new_match


class Progress(BaseModel):
    """Where a game stands in its public view: the round (0: the setup; Trickerion's rounds,
    Spellbook's rounds of Days) and each seat's points as the table shows them now."""

    round: int
    points: list[int]
    rivals: list[int] = []  # the points of each rival that is no seat (Spellbook's solo opponent), as shown


class RoundPoints(BaseModel):
    """Each seat's points when round `round` ended (the last entry: the final scores), and each rival's."""

    round: int
    points: list[int]
    final: bool = False
    rivals: list[int] = []


class SummarySeat(BaseModel):
    seat: int
    rank: int  # 1 = first; tied seats share a rank
    rating: float | None = None  # the rating shown after the game (None: the game was not rated)
    change: float | None = None  # its change through this game
    left: bool = False  # played by the stand-in at the end


class Summary(BaseModel):
    """The end-of-game picture's data, public only."""

    game: str
    score: FinalScore
    rounds: list[RoundPoints]
    seats: list[SummarySeat]
    view: dict[str, Any]  # the final position, as the group sees it
    start: list[int] = []  # each seat's points when the first round began (empty: 0 each)
    start_rivals: list[int] = []  # each rival's (the solo opponent's bottom area)


def positions(match: Match) -> Iterator[tuple[int, Any]]:
    """(log index, state after that entry) for every entry, replaying the log with its recorded draws.
    The state is the same object all along (replayed in place): read it before asking for the next."""
    entries = match.log
    if not entries or entries[0].choice != SETUP:
        raise ValueError("a log starts with its setup entry")
    current = new_match(match.game, match.options, match.players, match.seed, forced=entries[0].draws)
    yield 0, current.state
    for i, entry in enumerate(entries[1:], start=1):
        current, _ = act(current, entry.seat, entry.choice, inplace=True, forced=entry.draws)  # type: ignore[arg-type]
        yield i, current.state


class Timeline(BaseModel):
    """A finished game's rounds: each seat's points at the end of every round then the final scores, and
    the log index where each round began (the replay's jumps). Both empty when the game reports no
    progress (`Game.progress`).

    A round ends inside the move that finishes it: the rules run its end (Trickerion's wages, a
    Spellbook Day's Dusk) and open the next round before anyone decides again. So a round's points are
    those of the first position of the next round — the position before it would miss that last move."""

    rounds: list[RoundPoints] = []
    starts: list[tuple[int, int]] = []  # (round, index of its first log entry)
    start: list[int] = []  # each seat's points when the first round began (Trickerion's 5 Fame)
    start_rivals: list[int] = []  # each rival's then


def timeline(game: Game, match: Match) -> Timeline:
    """Replays the log once, reading the group's view at every position."""
    rounds: list[RoundPoints] = []
    starts: list[tuple[int, int]] = []
    start: list[int] = []
    start_rivals: list[int] = []
    last: Progress | None = None
    for i, state in positions(match):
        now = game.progress(game.view(state, None))
        if now is None:
            return Timeline()
        if last is not None and now.round != last.round and last.round > 0:
            rounds.append(RoundPoints(round=last.round, points=list(now.points), rivals=list(now.rivals)))
        if now.round > 0 and (last is None or now.round != last.round):
            starts.append((now.round, i))
            if len(starts) == 1:  # the first round began: the points before any round ended
                start, start_rivals = list(now.points), list(now.rivals)
        last = now
    final = game.score(match.state)
    totals = [0] * match.players
    for s in final.seats:
        totals[s.seat] = s.total
    rounds.append(RoundPoints(round=last.round if last else 0, points=totals, final=True,
                              rivals=[r.total for r in final.rivals]))
    return Timeline(rounds=rounds, starts=starts, start=start, start_rivals=start_rivals)
