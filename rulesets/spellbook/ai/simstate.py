"""What the search's simulations play on: a copy of the position with State's fields, as plain
(compiled: native) objects instead of pydantic models.

A solo search plays over a million simulated moves a game, and the rules read and set the state's
fields at every step. On a pydantic model each read goes through the class's `__getattr__` hook and
each write through `State.__setattr__`, a Python function; here both are plain slots. The rules take
a SimState for the State it copies (they only read and set its fields and call `solo`, `over` and
`has`, which it has too): `copy_state` says State to the type checker. tests/spellbook/test_ai.py
checks that the two have the same fields and answer alike.
"""

from __future__ import annotations

from typing import Any, cast

from rulesets.spellbook.data import SPELL_COLOUR
from rulesets.spellbook.state import OVER, State


class SimPlayer:
    """A seat's part of the table (state.Player's fields)."""

    __slots__ = ("pool", "fam", "lv", "tok", "days")

    def __init__(self, pool: list[int], fam: list[int], lv: list[int], tok: list[int], days: int) -> None:
        self.pool = pool
        self.fam = fam
        self.lv = lv
        self.tok = tok
        self.days = days

    def fields(self) -> dict[str, Any]:
        return {"pool": self.pool, "fam": self.fam, "lv": self.lv, "tok": self.tok, "days": self.days}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SimPlayer) and self.fields() == other.fields()

    def __repr__(self) -> str:
        return f"SimPlayer({self.fields()})"


class SimState:
    """state.State's fields, and the properties and method the rules use."""

    __slots__ = ("mode", "difficulty", "spells", "players", "altar", "bag", "disc", "first", "cur", "phase",
                 "acted", "q", "ending", "opp", "bottom")

    def __init__(self, st: Any) -> None:
        # `st` is a State or a SimState: every list is the copy's own; the steps' dicts are copied one
        # level (the rules build new lists for a step instead of changing one in place)
        self.mode: str = st.mode
        self.difficulty: int = st.difficulty
        self.spells: list[str] = list(st.spells)
        self.players: list[SimPlayer] = [SimPlayer(list(p.pool), list(p.fam), list(p.lv), list(p.tok), p.days)
                                         for p in st.players]
        self.altar: list[int] = list(st.altar)
        self.bag: list[int] = list(st.bag)
        self.disc: list[int] = list(st.disc)
        self.first: int = st.first
        self.cur: int = st.cur
        self.phase: int = st.phase
        self.acted: int = st.acted
        self.q: list[dict[str, Any]] = [dict(t) for t in st.q]
        self.ending: str = st.ending
        self.opp: list[int] = list(st.opp)
        self.bottom: list[int] = list(st.bottom)

    def fields(self) -> dict[str, Any]:
        """Every field, as State's model_dump() lists them (the players' as dicts)."""
        return {"mode": self.mode, "difficulty": self.difficulty, "spells": self.spells,
                "players": [p.fields() for p in self.players], "altar": self.altar, "bag": self.bag,
                "disc": self.disc, "first": self.first, "cur": self.cur, "phase": self.phase, "acted": self.acted,
                "q": self.q, "ending": self.ending, "opp": self.opp, "bottom": self.bottom}

    def __eq__(self, other: object) -> bool:
        return isinstance(other, SimState) and self.fields() == other.fields()

    def __repr__(self) -> str:
        return f"SimState({self.fields()})"

    @property
    def solo(self) -> bool:
        return len(self.players) == 1

    @property
    def over(self) -> bool:
        return self.phase == OVER

    def has(self, p: int, spell: str) -> int:
        """The level at which seat p learned `spell` (0 if not, or not in this game)."""
        c = SPELL_COLOUR[spell]
        return self.players[p].lv[c] if self.spells[c] == spell else 0


def copy_state(st: State) -> State:
    """A copy of the position to simulate on (a SimState, which the rules take for a State)."""
    return cast(State, SimState(st))
