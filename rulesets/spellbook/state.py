"""What is on the table, compactly (a game state is stored as JSON, well under 8 KB).

Materia are ints (kind = colour * 3 + rune, see data.py). The bag and the discard box are
21 counts (one per kind): a bag has no order worth keeping, and a draw picks a random token.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, Field, field_validator

from rulesets.core import Event, Msg, Seat, msg
from rulesets.spellbook.data import KIND_IDS, NCOL, SPELL_COLOUR, SPELLS

Mode = Literal["first", "set2", "set3", "classic", "custom"]

# Day phases, in order. SETUP: the first player is still choosing spells (personalizada).
SETUP, MORNING, MIDDAY, NIGHT, DUSK, OVER = 0, 1, 2, 3, 4, 5
PHASE_NAMES = {MORNING: "morning", MIDDAY: "midday", NIGHT: "night"}


class Options(BaseModel):
    mode: Mode = "first"
    difficulty: int = Field(0, ge=0, le=3)  # solo only: materia in the opponent's bottom area at start
    spells: list[str] | None = None  # personalizada from the CLI: one spell id per colour

    @field_validator("spells", mode="before")
    @classmethod
    def _split(cls, v: Any) -> Any:
        return [s.strip() for s in v.split(",") if s.strip()] if isinstance(v, str) else v

    @field_validator("spells")
    @classmethod
    def _one_per_colour(cls, v: list[str] | None) -> list[str] | None:
        if v is None:
            return v
        if len(v) != NCOL or any(s not in SPELLS for s in v):
            raise ValueError("spells: give 7 spell ids, one per colour")
        by_colour = sorted(v, key=SPELL_COLOUR.__getitem__)
        if [SPELL_COLOUR[s] for s in by_colour] != list(range(NCOL)):
            raise ValueError("spells: one spell of each colour")
        return by_colour


class Player(BaseModel):
    pool: list[int] = []  # reserva, kept sorted
    fam: list[int] = []  # Familiar, in space order
    lv: list[int] = [0] * NCOL  # level of the spell of each colour (0 = not learned)
    tok: list[int] = [-1] * NCOL  # the materia placed on each learned card (its rune matters)
    days: int = 0


class State(BaseModel):
    mode: Mode
    difficulty: int = 0
    spells: list[str]  # the spell of each colour in this game ("" while personalizada is chosen)
    players: list[Player]
    altar: list[int] = []
    bag: list[int]  # count per kind
    disc: list[int]  # count per kind (caixa de Descarte)
    first: int = 0
    cur: int = 0
    phase: int = SETUP
    acted: int = 0  # actions taken in the current phase (Agilidade level 5: two Mornings)
    q: list[dict[str, Any]] = []  # pending steps of the action being resolved, front first
    ending: str = ""  # why the last round is being played ("spells" / "familiar" / "track")
    opp: list[int] = []  # solo: materia on the opponent's track
    bottom: list[int] = []  # solo: materia in the opponent's bottom area

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def __setattr__(self, name: str, value: Any) -> None:
        # A field is set as pydantic's own __setattr__ sets it (no validation on assignment is
        # configured), without its two calls: the rules set the phase, `acted` or `cur` at nearly
        # every step of every simulated move. Anything else goes through pydantic.
        if name in _STATE_FIELDS:
            self.__dict__[name] = value
            self.__pydantic_fields_set__.add(name)
        else:
            super().__setattr__(name, value)

    def has(self, p: int, spell: str) -> int:
        """The level at which seat p learned `spell` (0 if not, or not in this game)."""
        c = SPELL_COLOUR[spell]
        return self.players[p].lv[c] if self.spells[c] == spell else 0


_STATE_FIELDS = frozenset(State.model_fields)  # (State.__setattr__)


class Log:
    """Collects what one action did: events, and whether undo must stop here."""

    __slots__ = ("events", "checkpoint")

    def __init__(self) -> None:
        self.events: list[Event] = []
        self.checkpoint = False

    def add(self, key: str, **params: Any) -> None:
        # model_construct skips validation: every parameter here is built by the rules
        # (Seat, Msg, list[Msg], int, str), and a random playout logs thousands of events.
        text = Msg.model_construct(key=f"spellbook.log.{key}", params=params)
        self.events.append(Event.model_construct(text=text, audience=None))


class QuietLog(Log):
    """A log that keeps no text: the AI's simulations play thousands of moves nobody reads
    (building the events is a quarter of a move's cost)."""

    __slots__ = ()

    def add(self, key: str, **params: Any) -> None:
        pass


# Shared immutable message parts (building a Msg costs a few microseconds; these are reused).
SEATS = [Seat(seat=i) for i in range(4)]
MATERIA = [msg(f"spellbook.materia.{k}") for k in KIND_IDS]
SPELL_NAMES = {s: msg(f"spellbook.spell.{s}.name") for s in SPELLS}


def materia_list(kinds: list[int]) -> list[Msg]:
    return [MATERIA[k] for k in kinds]
