"""A match: one game in progress, with everything needed to replay it.

`Match` is what gets saved: the game's name, options, seat count, seed, the current state,
the random counter, a version that increases with every change, and the log. The functions
here are the only way to change a match, and the only place the outside world is checked:

    new_match(game, options, players, seed)  -> Match
    act(match, seat, choice, expected_version=None) -> (Match, [Event])   raises IllegalMove
    undo(match, seat)                        -> (Match, [Event])          raises IllegalMove
    replay(match)                            -> Match (raises ReplayMismatch if it diverges)
"""

from __future__ import annotations

import copy
import hashlib
from typing import Any

from pydantic import BaseModel

from rulesets.core.contract import Event, Game, IllegalMove
from rulesets.core.messages import msg
from rulesets.core.rng import ReplayMismatch, Rng
from rulesets.core.unchecked import _new, _set_dict, _set_extra, _set_fields_set, _set_private, fields_set

SCHEMA_VERSION = 1
SETUP = "setup"


class LogEntry(BaseModel):
    """One action: who chose what, the random outcomes it drew, and what happened."""

    seat: int | None  # None: the setup
    choice: str
    draws: list[int] = []
    events: list[Event] = []
    checkpoint: bool = False


class Match(BaseModel):
    # plain assignment: `act` sets the counter and version every move, and pydantic's __setattr__
    # bookkeeping (no assignment validation here; the set-fields record nothing reads) cost more
    __setattr__ = object.__setattr__

    schema_version: int = SCHEMA_VERSION
    game: str
    options: dict[str, Any]
    players: int
    seed: int
    rng_counter: int = 0
    version: int = 0
    state: Any  # the game's own State model (see `load_match` for decoding)
    log: list[LogEntry] = []


_GAMES: dict[str, Game] = {}
_ENTRY_FIELDS = fields_set(LogEntry)


def _game(name: str) -> Game:
    # remembered here: the import statement alone cost more than a Trickerion move's own rules
    game = _GAMES.get(name)
    if game is None:
        from rulesets.registry import get_game

        game = _GAMES[name] = get_game(name)
    return game


def new_match(game: Game | str, options: dict[str, Any], players: int, seed: int,
              forced: list[int] | None = None) -> Match:
    game = _game(game) if isinstance(game, str) else game
    if not game.min_players <= players <= game.max_players:
        raise IllegalMove(msg("core.error.player_count", min=game.min_players, max=game.max_players))
    parsed = game.parse_options(options, players)
    rng = Rng(seed, 0, forced)
    state, events = game.setup(parsed, players, rng)
    draws = rng.finish()
    return Match(game=game.name, options=parsed.model_dump(mode="json"), players=players,
                 seed=seed, rng_counter=rng.counter, version=1, state=state,
                 log=[LogEntry(seat=None, choice=SETUP, draws=draws, events=events, checkpoint=True)])


def check_move(game: Game, match: Match, seat: int, choice: str,
               expected_version: int | None = None, legal: list[str] | None = None) -> None:
    """Raise IllegalMove with a readable reason if `seat` may not make `choice` now. `legal`: the seat's
    legal choices in this very position, when the caller has just asked the game who acts and what this
    seat may choose (a playout, every move: asking again whether the game is over and who acts was a
    fiftieth of a random Trickerion game)."""
    if expected_version is not None and expected_version != match.version:
        raise IllegalMove(msg("core.error.stale"))
    if legal is not None:
        if choice not in legal:
            raise IllegalMove(msg("core.error.illegal_choice"))
        return
    if game.is_over(match.state):
        raise IllegalMove(msg("core.error.game_over"))
    if not 0 <= seat < match.players:
        raise IllegalMove(msg("core.error.not_a_player"))
    if seat not in game.to_act(match.state):
        raise IllegalMove(msg("core.error.not_your_turn"))
    if choice not in game.legal_choices(match.state, seat):
        raise IllegalMove(msg("core.error.illegal_choice"))


def act(match: Match, seat: int, choice: str, expected_version: int | None = None,
        *, inplace: bool = False, forced: list[int] | None = None,
        legal: list[str] | None = None) -> tuple[Match, list[Event]]:
    """Apply one move after checking it. The given match is left untouched unless `inplace`.
    `legal` (see check_move) spares a playout, which has just listed the choices to pick one,
    from listing them a second time: that is a sixth of a random Trickerion game's time."""
    game = _game(match.game)
    if legal is None or expected_version is not None:
        check_move(game, match, seat, choice, expected_version, legal)
    elif choice not in legal:  # (check_move's own answer, without its call: a playout's every move)
        raise IllegalMove(msg("core.error.illegal_choice"))
    if not inplace:
        match = match.model_copy(update={"state": copy.deepcopy(match.state), "log": list(match.log)})
    rng = Rng(match.seed, match.rng_counter, forced)
    outcome = game.apply(match.state, seat, choice, rng)
    draws = rng.finish()
    match.rng_counter = rng.counter
    match.version += 1
    # unchecked: every field is the engine's own (a checked choice, the drawn ints, the game's Outcome)
    # (`unchecked`, written out: built every move)
    entry = _new(LogEntry)
    _set_dict(entry, {"seat": seat, "choice": choice, "draws": draws, "events": outcome.events,
                      "checkpoint": outcome.checkpoint})
    _set_fields_set(entry, _ENTRY_FIELDS)
    _set_extra(entry, None)
    _set_private(entry, None)
    match.log.append(entry)
    return match, outcome.events


def can_undo(match: Match, seat: int) -> bool:
    """Undo is allowed inside a player's own decision sequence: the last action is theirs,
    drew no randomness and revealed nothing (Board Game Arena's policy)."""
    if len(match.log) < 2:
        return False
    last = match.log[-1]
    return last.seat == seat and not last.draws and not last.checkpoint


def undo(match: Match, seat: int) -> tuple[Match, list[Event]]:
    """Take back `seat`'s last action by replaying the log without it."""
    if not can_undo(match, seat):
        raise IllegalMove(msg("core.error.cannot_undo"))
    undone = match.log[-1]
    rebuilt = replay(match, upto=len(match.log) - 1, verify_events=True)
    rebuilt.version = match.version + 1  # every button shown before the undo goes stale
    return rebuilt, [Event(text=msg("core.log.undone", player=_seat_ref(seat), choice=undone.choice))]


def _seat_ref(seat: int):
    from rulesets.core.messages import Seat

    return Seat(seat=seat)


def replay(match: Match, upto: int | None = None, verify_events: bool = True) -> Match:
    """Rebuild a match from its log, feeding back the recorded random outcomes.

    Raises ReplayMismatch if the rules now produce different events or need different
    randomness than the log recorded."""
    entries = match.log if upto is None else match.log[:upto]
    if not entries or entries[0].choice != SETUP:
        raise ReplayMismatch("a log starts with its setup entry")
    game = _game(match.game)
    rebuilt = new_match(game, match.options, match.players, match.seed, forced=entries[0].draws)
    if verify_events and rebuilt.log[0].events != entries[0].events:
        raise ReplayMismatch("setup events differ")
    for i, entry in enumerate(entries[1:], start=1):
        if entry.seat is None:
            raise ReplayMismatch(f"entry {i} has no seat")
        try:
            rebuilt, events = act(rebuilt, entry.seat, entry.choice, inplace=True, forced=entry.draws)
        except IllegalMove as exc:
            raise ReplayMismatch(f"entry {i} ({entry.seat}:{entry.choice}) is now illegal: {exc}") from exc
        if verify_events and events != entry.events:
            raise ReplayMismatch(f"entry {i} ({entry.seat}:{entry.choice}) produced different events")
    if upto is None:
        rebuilt.version = match.version
    return rebuilt


def state_hash(match: Match) -> str:
    """A stable fingerprint of the position: the state and where the randomness stands."""
    h = hashlib.sha256()
    h.update(match.game.encode())
    h.update(match.state.model_dump_json().encode())
    h.update(str(match.rng_counter).encode())
    return h.hexdigest()[:16]


def dump_match(match: Match) -> str:
    return match.model_dump_json()


def load_match(data: str | bytes | dict[str, Any]) -> Match:
    """Decode a saved match, turning its state back into the game's typed State."""
    raw = Match.model_validate_json(data) if isinstance(data, (str, bytes)) else Match.model_validate(data)
    if raw.schema_version != SCHEMA_VERSION:
        raise ValueError(f"unknown match schema version {raw.schema_version}")
    game = _game(raw.game)
    raw.state = game.State.model_validate(raw.state)
    return raw
