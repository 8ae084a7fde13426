"""What a finished game leaves behind, decided when it ends: its record (archived, read by /partidas,
the replay and /exportar), the new ratings and what it adds to each person's statistics.

`ending(ctx, game, match)` fills `Result.finished`; the plumbing writes it in the commit that saves
the table as over (workers/retention.py), so it exists exactly when the game's end does: a
redelivered end-of-game command finds the command's done-marker (or the table's `seen`) and changes
nothing, and a worker killed before the commit leaves nothing half-written.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

from rulesets.core import FinalScore, Game, Match
from rulesets.core.summary import RoundPoints, Summary, SummarySeat, timeline
from workers.protocol import Finished, RatingUpdate, StatsUpdate
from workers.tables import ratings
from workers.tables.context import Ctx
from workers.tables.model import SeatInfo


class RecordSeat(BaseModel):
    name: str
    user_id: int
    entity: str  # "u<user id>" or "bot:<level>"
    bot: str | None = None
    left: bool = False
    total: int = 0
    place: int = 1
    won: bool = False
    rating: float | None = None  # the ordinal in the group's ranking after this game (None: not rated)
    change: float | None = None  # its change through this game


class GameRecord(BaseModel):
    """A finished game as archived: enough to list it, show its summary, replay and export it."""

    id: str
    game: str
    chat_id: int
    started_at: float | None = None
    ended_at: float
    options: dict[str, Any] = {}
    seats: list[RecordSeat]
    rated: bool
    with_bots: bool
    score: FinalScore
    rounds: list[RoundPoints] = []
    round_starts: list[tuple[int, int]] = []  # (round, log index where it began): the replay's jumps
    start_points: list[int] = []  # each seat's points when the first round began (the chart's start)
    start_rivals: list[int] = []  # each rival's (Spellbook's solo opponent)
    match: dict[str, Any]  # rulesets.core.Match JSON, log included

    def summary(self, view: dict[str, Any]) -> Summary:
        """The end-of-game picture's data; `view` is the final public view."""
        return Summary(game=self.game, score=self.score, rounds=self.rounds, view=view, start=self.start_points,
                       start_rivals=self.start_rivals,
                       seats=[SummarySeat(seat=i, rank=s.place, rating=s.rating, change=s.change, left=s.left)
                              for i, s in enumerate(self.seats)])


def entity(seat: SeatInfo) -> str:
    return ratings.bot(seat.bot) if seat.bot else ratings.person(seat.user_id)


def _rated_entities(seats: list[SeatInfo], place: list[int]) -> list[tuple[str, int, int]]:
    """(entity, seat, place) once per entity, at its best place: a game may seat two bots of one level,
    which are one rated entity."""
    best: dict[str, tuple[int, int]] = {}
    for i, s in enumerate(seats):
        e = entity(s)
        if e not in best or place[i] < best[e][1]:
            best[e] = (i, place[i])
    return [(e, seat, p) for e, (seat, p) in best.items()]


def _new_ratings(ctx: Ctx, game: str, scope: str, seats: list[SeatInfo], place: list[int],
                 won: list[bool]) -> list[tuple[int, ratings.Rating, ratings.Rating]]:
    """(seat, before, after) for each rated entity of the game, in one scope."""
    rated = _rated_entities(seats, place)
    stored = ctx.dir.ratings(game, scope, [e for e, _, _ in rated])
    before = [ratings.Rating(**stored[e]) if e in stored else ratings.Rating() for e, _, _ in rated]
    after = ratings.rate(before, [p for _, _, p in rated], [won[seat] for _, seat, _ in rated])
    out = []
    for (e, seat, _), old, new in zip(rated, before, after, strict=True):
        name = seats[seat].name if not seats[seat].bot else e
        out.append((seat, old, new.model_copy(update={"name": name})))
    return out


def _stats(game: Game, table_game: str, seat: SeatInfo, i: int, final: FinalScore, won: bool,
           public: dict[str, Any]) -> StatsUpdate:
    mine = next(s for s in final.seats if s.seat == i)
    add = {"games": 1, "wins": int(won), "score": mine.total, "moves": seat.moves, "think": round(seat.think)}
    for line in mine.lines:
        add[f"l:{line.label.key}"] = add.get(f"l:{line.label.key}", 0) + line.points
    for ref in game.played_with(public, i):
        add[f"c:{ref}"] = 1
    return StatsUpdate(game=table_game, entity=entity(seat), add=add, best={"best": mine.total})


def ending(ctx: Ctx, game: Game, match: Match) -> GameRecord:
    """The finished game's record, ratings and statistics, into `ctx.result.finished`."""
    table = ctx.table
    assert table is not None
    final = game.score(match.state)
    seats = table.seats
    left = [s.left for s in seats]
    place = ratings.places(final, left)
    won = [i in final.winners and not seats[i].left for i in range(len(seats))]
    record_seats = [RecordSeat(name=s.name, user_id=s.user_id, entity=entity(s), bot=s.bot, left=s.left,
                               total=next((x.total for x in final.seats if x.seat == i), 0), place=place[i],
                               won=won[i]) for i, s in enumerate(seats)]
    rated = len({entity(s) for s in seats}) >= 2
    updates: list[RatingUpdate] = []
    if rated:
        for scope in (ratings.group_scope(table.chat_id), ratings.EVERYONE):
            for seat, old, new in _new_ratings(ctx, table.game, scope, seats, place, won):
                updates.append(RatingUpdate(game=table.game, scope=scope, entity=record_seats[seat].entity,
                                            mu=new.mu, sigma=new.sigma, ordinal=new.ordinal, games=new.games,
                                            wins=new.wins, name=new.name, rev=old.rev))
                if scope != ratings.EVERYONE:
                    record_seats[seat].rating = new.ordinal
                    record_seats[seat].change = new.ordinal - old.ordinal
        for s in record_seats:  # a second bot of one level shows its entity's rating
            if s.rating is None:
                twin = next(x for x in record_seats if x.entity == s.entity and x.rating is not None)
                s.rating, s.change = twin.rating, twin.change
    public = game.view(match.state, None)
    rounds = timeline(game, match)
    stats = [_stats(game, table.game, s, i, final, won[i], public)
             for i, s in enumerate(seats) if not s.bot and not s.left]
    record = GameRecord(id=table.id, game=table.game, chat_id=table.chat_id, started_at=table.started_at,
                        ended_at=ctx.now, options=dict(match.options), seats=record_seats, rated=rated,
                        with_bots=any(s.bot for s in seats), score=final, rounds=rounds.rounds,
                        round_starts=rounds.starts, start_points=rounds.start,
                        start_rivals=rounds.start_rivals, match=match.model_dump(mode="json"))
    ctx.result.finished = Finished(table_id=table.id, game=table.game, chat_id=table.chat_id, ended_at=ctx.now,
                                   record=record.model_dump(mode="json"), users=[s.user_id for s in seats if not s.bot],
                                   ratings=updates, stats=stats)
    return record
