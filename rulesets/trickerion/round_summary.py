"""The end-of-round summary the group gets as one message: each player's Fame, coins and Shards won or
lost this round and from what (before the performances: Propaganda, actions, links, cards; the
performances; unpaid wages), the performances, and the wages. Built from a small tally the rules keep
in the state during the round — never by reading log texts — and logged as one public summary event."""

from __future__ import annotations

from rulesets.core import Event, msg
from rulesets.core.messages import Msg
from rulesets.core.unchecked import unchecked

from . import ledger
from .data import CARDS
from .rules import qty, who
from .state import Show, State, Tally


def _purse(state: State) -> list[list[int]]:
    return [[p.fame, p.coins, p.shards] for p in state.p]


def begin(state: State) -> None:
    # unvalidated (every round): the rules' own ints, and fresh empty defaults (validation deep-copied them)
    state.tally = unchecked(Tally, start=_purse(state), before_shows=[], shows=[], wages={})
    ledger.begin(state)  # the whole game's tally of Fame starts with the first round


def before_performances(state: State) -> None:
    state.tally.before_shows = _purse(state)


def performed(state: State, s: int, card: str, day: str) -> None:
    state.tally.shows.append(Show(seat=s, card=card, day=day))


def wages(state: State, s: int, paid: int, lost: int) -> None:
    state.tally.wages[str(s)] = [paid, lost]
    ledger.unpaid(state, s, lost)


def _signed(n: int) -> str:
    return f"{n:+d}".replace("-", "−")


def _player_line(state: State, s: int) -> Msg:
    """Called right after the wages: Fame before them is the Fame now plus what unpaid wages cost."""
    t = state.tally
    p = state.p[s]
    now = [p.fame, p.coins, p.shards]
    start = t.start[s] if s < len(t.start) else now  # a round begun before the tally existed: no deltas
    middle = t.before_shows[s] if s < len(t.before_shows) else start
    lost = t.wages.get(str(s), [0, 0])[1]
    before_wages = p.fame + lost
    sources = []
    if middle[0] != start[0]:
        sources.append(msg("trickerion.summary.from_actions", fame=_signed(middle[0] - start[0])))
    if before_wages != middle[0]:
        sources.append(msg("trickerion.summary.from_shows", fame=_signed(before_wages - middle[0])))
    if lost:
        sources.append(msg("trickerion.summary.from_wages", fame=_signed(-lost)))
    return msg("trickerion.summary.player", player=who(s), fame=_signed(p.fame - start[0]), total=p.fame,
               sources=sources or [msg("trickerion.summary.no_change")],
               coins=_signed(p.coins - start[1]), shards=_signed(p.shards - start[2]))


def emit(state: State, events: list[Event]) -> None:
    """The round's summary as public events marked `summary`: the table sends them to the group together,
    as one message (and /historico keeps them as log lines)."""
    t = state.tally
    order = state.order or list(range(state.n))
    lines = [msg("trickerion.summary.title", round=state.round)]
    lines += [_player_line(state, s) for s in order]
    lines += [msg("trickerion.summary.show", player=who(show.seat), day=msg(f"trickerion.day.{show.day}"),
                  card=msg(f"trickerion.theater.{CARDS[show.card].theater}", id=show.card)) for show in t.shows]
    if not t.shows:
        lines.append(msg("trickerion.summary.no_show"))
    for s in order:
        paid, lost = t.wages.get(str(s), [0, 0])
        if lost:
            lines.append(msg("trickerion.summary.wages_short", player=who(s), paid=qty("coins", paid), fame=lost))
        elif paid:
            lines.append(msg("trickerion.summary.wages", player=who(s), paid=qty("coins", paid)))
    # unvalidated (a dozen lines every round): Msgs the rules built, public, a summary
    events.extend(unchecked(Event, text=line, audience=None, summary=True) for line in lines)
