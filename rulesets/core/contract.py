"""The rules contract every game honours.

A game is a pure state machine over a typed (pydantic) state, in the spirit of OpenSpiel's
`legal_actions` / `apply_action` and boardgame.io's game definitions:

    setup(options, players, rng)        -> (state, events)
    to_act(state)                       -> seats that must decide now (several = simultaneous)
    legal_choices(state, seat)          -> the ids of the choices that seat may make (fast path)
    prompt(state, seat)                 -> the same choices with a title and labels, for people
    apply(state, seat, choice, rng)     -> Outcome(events, checkpoint); mutates `state`
    view(state, seat | None)            -> what that seat (None = the group) may see, as JSON
    table(state, seat | None)           -> the table as lines of text (Msg), from that view
    is_over(state) / score(state)       -> the end, with a breakdown a player can read
    picture(view, names, say)           -> optional: the table as a PNG, drawn from a view
    seat_picture(view, seat, names, say, subject) -> optional: a private PNG from a seat's view
    progress(view)                      -> optional: the round and each seat's points, from a view
    played_with(view, seat)             -> optional: the cards that seat played with (favourites)
    summary_picture(summary, names, say) -> optional: the end-of-game picture (rulesets/core/summary.py)

Rules:
- `apply` may only be called with a choice from `legal_choices`; `rulesets.core.match.act`
  checks that (and who is asking) before calling it, so `apply` can trust its input while
  the outside world never is trusted.
- Randomness only through the `Rng` given to `setup`/`apply`; its outcomes land in the log.
- Composite decisions ("buy 3 Rope, then haggle") are a short series of prompts, each small
  enough for one inline keyboard; the intermediate choice lives in the state.
- `Outcome.checkpoint=True` marks an action that reveals information or ends a player's
  decision sequence: undo never goes back past it (nor past any action that drew randomness).
- Pictures are pure functions of a view (never of the state), so they can show nothing the view
  hides, and anyone holding a view (the status message, a replay, an end-of-game summary) can
  draw them. Their labels come from `say`, which renders a Msg in the viewer's language: the
  caller passes it, so rulesets never import `locales` (which imports rulesets.core).
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict

from rulesets.core.messages import Msg
from rulesets.core.rng import Rng

if TYPE_CHECKING:  # summary.py replays matches, which need this module
    from rulesets.core.summary import Progress, Summary


class Choice(BaseModel):
    """One button: a short stable id (becomes the move) and its label."""

    model_config = ConfigDict(frozen=True)
    id: str
    label: Msg


class Prompt(BaseModel):
    """A decision one seat must make now."""

    seat: int
    title: Msg
    choices: list[Choice]
    info: list[Msg] = []  # context lines shown above the buttons (e.g. "your pool: ...")
    # A private picture that helps this decision: the `subject` of Game.seat_picture (e.g. "card:2":
    # the performance card a trick marker is being placed on). None: the prompt is text only.
    picture: str | None = None
    # the cards this prompt offers or shows, as `Game.card` references ("magician:M02"), so
    # the table can explain them on request (an ℹ️ button) without the game saying how
    cards: list[str] = []


class Event(BaseModel):
    """Something that happened, as a log line. `audience=None` means everyone may read it;
    otherwise only those seats (a secret choice is logged twice: in full for its owner,
    redacted for the rest)."""

    model_config = ConfigDict(frozen=True)
    text: Msg
    audience: list[int] | None = None
    # part of a recap the group gets as a message of its own (a round's summary); consecutive summary
    # events of one move make one message. Only public events may be summaries.
    summary: bool = False

    def visible_to(self, seat: int | None) -> bool:
        return self.audience is None or (seat is not None and seat in self.audience)


class Outcome(BaseModel):
    events: list[Event] = []
    checkpoint: bool = False


class Card(BaseModel):
    """A card as a player reads it: its name and its rules text, one Msg per paragraph."""

    ref: str  # "<kind>:<id>", stable: prompts name cards by it
    name: Msg
    text: list[Msg]


class RulesSection(BaseModel):
    """One part of "how to play" (`/regras`): a heading and a few short paragraphs."""

    title: Msg
    text: list[Msg]


class ScoreLine(BaseModel):
    """One part of a seat's final score. Averages over many games (`/estatisticas`) add up the lines
    with the same label key; the game's catalogue names that sum `<label key>.sum` ("Feitiços")."""

    label: Msg
    points: int


class SeatScore(BaseModel):
    seat: int
    total: int
    lines: list[ScoreLine]


class RivalScore(BaseModel):
    """A non-player score, such as Spellbook's solo opponent."""

    label: Msg
    total: int
    lines: list[ScoreLine]


class FinalScore(BaseModel):
    seats: list[SeatScore]
    winners: list[int]  # several = shared victory; empty = nobody won (e.g. a solo tie)
    end_reason: str
    rivals: list[RivalScore] = []
    notes: list[Msg] = []  # how ties were broken, etc.

    def rivals_above(self, total: int) -> int:
        """How many rivals scored more than `total`: they take the places above it (a solo game lost to
        Spellbook's opponent is second)."""
        return sum(r.total > total for r in self.rivals)

    def rival_winners(self) -> list[RivalScore]:
        """The rivals that won: no seat did, and each scored more than every seat (the solo opponent)."""
        if self.winners:
            return []
        return [r for r in self.rivals if all(r.total > s.total for s in self.seats)]


Say = Callable[[Msg], str]  # renders a Msg in the viewer's language (player names included)
TABLE = "table"  # Game.pictures: the game draws the table (Game.picture)
BOARD = "board"  # Game.pictures, and seat_picture's subject: the player's own board

S = TypeVar("S", bound=BaseModel)
O = TypeVar("O", bound=BaseModel)


class IllegalMove(Exception):
    """A move refused. `reason` is a Msg the player can read; the state is unchanged."""

    def __init__(self, reason: Msg) -> None:
        super().__init__(reason.key)
        self.reason = reason


class Game(ABC, Generic[S, O]):
    """One ruleset. Subclasses set the class attributes and implement the methods."""

    name: ClassVar[str]
    min_players: ClassVar[int]
    max_players: ClassVar[int]
    State: ClassVar[type[BaseModel]]
    Options: ClassVar[type[BaseModel]]
    # The pictures the game draws, so callers know without drawing: TABLE (`picture`) and BOARD
    # (`seat_picture(..., BOARD)`, offered to players as a button). Prompt pictures need no entry.
    pictures: ClassVar[frozenset[str]] = frozenset()

    def parse_options(self, raw: dict[str, Any], players: int) -> O:
        """Validate table options (strings from a CLI or lobby are coerced by pydantic)."""
        return self.Options.model_validate(raw)  # type: ignore[return-value]

    @abstractmethod
    def setup(self, options: O, players: int, rng: Rng) -> tuple[S, list[Event]]: ...

    @abstractmethod
    def to_act(self, state: S) -> list[int]: ...

    @abstractmethod
    def legal_choices(self, state: S, seat: int) -> list[str]: ...

    def settled(self, state: S) -> tuple[list[int], dict[int, list[str]]] | None:
        """Who acts (`to_act`) and the legal choices of those seats whose menu the game listed already, if
        it kept them from the end of its last `apply` to this very state (None: not kept). Only for a
        caller that has changed nothing in the state since (a playout, the search): a game that keeps them
        saves asking who acts and listing a menu twice a move."""
        return None

    @abstractmethod
    def prompt(self, state: S, seat: int) -> Prompt: ...

    @abstractmethod
    def apply(self, state: S, seat: int, choice: str, rng: Rng) -> Outcome: ...

    @abstractmethod
    def view(self, state: S, seat: int | None) -> dict[str, Any]: ...

    @abstractmethod
    def table(self, state: S, seat: int | None) -> list[Msg]: ...

    @abstractmethod
    def is_over(self, state: S) -> bool: ...

    @abstractmethod
    def score(self, state: S) -> FinalScore: ...

    def picture(self, view: dict[str, Any], names: Sequence[str], say: Say) -> bytes | None:
        """The table as PNG bytes, drawn from `view` alone (the group's: `view(state, None)`);
        None when the game draws no picture (the status is then text only)."""
        return None

    def seat_picture(self, view: dict[str, Any], seat: int, names: Sequence[str], say: Say,
                     subject: str) -> bytes | None:
        """A private PNG drawn from `view` = `view(state, seat)` alone: the seat's own board
        (`subject` = BOARD) or the picture a prompt asks for (`Prompt.picture`). None when the
        game has no such picture."""
        return None

    def progress(self, view: dict[str, Any]) -> Progress | None:
        """The round and each seat's points as `view` (the group's: `view(state, None)`) shows them: the
        end-of-game summary charts the points at each round's end, the replay jumps from round to round.
        None: the game reports no progress."""
        return None

    def played_with(self, view: dict[str, Any], seat: int) -> list[str]:
        """Card references (`Game.card`) the seat played with this game, read from the final public
        view: `/estatisticas` names the favourite of each kind (the part before ":")."""
        return []

    def summary_picture(self, summary: Summary, names: Sequence[str], say: Say) -> bytes | None:
        """The end-of-game picture (final scores with each seat's breakdown, points per round, rating
        changes), drawn from `summary` alone: public data. None: the game draws none."""
        return None

    def waiting_on(self, state: S) -> list[int]:
        """Seats the table is waiting for (reminders, /lembrar). Same as to_act by default."""
        return [] if self.is_over(state) else self.to_act(state)

    def stand_in_choice(self, state: S, seat: int, pick: int) -> str:
        """The choice a stand-in makes for a seat whose player left: a legal move chosen
        by the caller's number `pick`. Games may override with something smarter."""
        choices = self.legal_choices(state, seat)
        return choices[pick % len(choices)]

    # -------------------------------------------------------------- presentation

    def cards(self) -> list[str]:
        """Every card reference of the game (what `/carta` searches), in the rulebook's order."""
        return []

    def card(self, ref: str, state: S | None = None) -> Card | None:
        """The card's name and text; with a game in progress, as that game plays it (e.g.
        a magician's Dark Alley power only when the Dark Alley is on). None: no such card."""
        return None

    def rules(self) -> list[RulesSection]:
        """How to play, per phase, in the rulebook's order (`/regras`)."""
        return []
