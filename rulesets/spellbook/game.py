"""Spellbook, as the rulebook's turn summary (pt-BR, Galápagos v1.0).

Setup (p.3-4): the Altar gets 5 Materia (7 solo), each player draws 2, a random first
player; the 7 spells come from the selection mode (set 1 / 2 / 3, clássica: one random card
per colour, personalizada: the first player picks one per colour).

A Day (p.5-8), clockwise from the first player:
    Manhã     take 1 from the Altar, or draw 2, or a Morning spell   (Agilidade 5: twice)
    Meio-Dia  store 1 on the Familiar, or a Midday spell
    Noite     learn 1 spell, or a Night spell
    then      (solo: 1 Altar Materia to the opponent's track) refill the Altar
One action per phase, each phase may be skipped; the pool never holds more than 9.

End (p.9): someone learns a 7th spell or fills the Familiar's last space (solo: also the
opponent's 38) -> the round is finished so that everyone had the same number of Days.

The steps of composite actions are in steps.py; the actions themselves in day.py, altar.py,
pool.py, learning.py, spells/<colour>.py, solo.py; scores in scoring.py; views in views.py.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rulesets.core import Card, Event, FinalScore, Game, Msg, Outcome, Prompt, Rng, RulesSection
from rulesets.core.contract import TABLE, Say
from rulesets.core.summary import Progress, Summary
from rulesets.spellbook import (  # noqa: F401 (registers steps)
    altar,
    cards,
    day,
    learning,
    picture,
    picture_summary,
    pool,
    scoring,
    solo,
    standing,
    steps,
    views,
)
from rulesets.spellbook import materia as mt
from rulesets.spellbook.data import (
    ALTAR_SOLO,
    ALTAR_START,
    NCOL,
    NKIND,
    PER_KIND,
    SET_SPELLS,
    SPELLS_BY_COLOUR,
    START_POOL,
)
from rulesets.spellbook.spells import load_all
from rulesets.spellbook.state import SEATS, SETUP, SPELL_NAMES, Log, Options, Player, State
from rulesets.spellbook.steps import actor, push, settle, step_options

load_all()

MODE_SET = {"first": 1, "set2": 2, "set3": 3}


class Spellbook(Game[State, Options]):
    name = "spellbook"
    min_players = 1
    max_players = 4
    State = State
    Options = Options
    pictures = frozenset({TABLE})

    def parse_options(self, raw: dict[str, Any], players: int) -> Options:
        options = Options.model_validate(raw)
        if players > 1 and options.difficulty:
            raise ValueError("difficulty is for the solo mode only")
        if options.spells and options.mode != "custom":
            raise ValueError("spells is for mode=custom (personalizada)")
        return options

    def setup(self, options: Options, players: int, rng: Rng) -> tuple[State, list[Event]]:
        st = State(mode=options.mode, difficulty=options.difficulty, spells=[""] * NCOL,
                   players=[Player() for _ in range(players)], bag=[PER_KIND] * NKIND, disc=[0] * NKIND)
        log = Log()
        altar.add_from_bag(st, ALTAR_SOLO if players == 1 else ALTAR_START, rng, log)
        for p in range(players):
            mt.draw_to_pool(st, p, START_POOL, rng, log)
        st.first = st.cur = rng.below(players)
        log.add("first_player", player=SEATS[st.first])
        if players == 1 and options.difficulty:
            solo.setup_difficulty(st, options.difficulty, rng, log)
        self._choose_spells(st, options, rng, log)
        settle(st, rng, log, day.phase_flow)
        return st, log.events

    @staticmethod
    def _choose_spells(st: State, options: Options, rng: Rng, log: Log) -> None:
        if options.mode in MODE_SET:
            st.spells = list(SET_SPELLS[MODE_SET[options.mode]])
        elif options.mode == "classic":  # the first player draws one of the 3 cards of each colour
            st.spells = [cards[rng.below(len(cards))] for cards in SPELLS_BY_COLOUR]
        elif options.spells:
            st.spells = list(options.spells)
        else:  # personalizada at the table: the first player picks, colour by colour
            st.phase = SETUP
            push(st, {"do": "pick_spell", "seat": st.first, "c": 0})
            return
        log.add("spells", mode=Msg(key=f"spellbook.mode.{options.mode}"),
                spells=[SPELL_NAMES[s] for s in st.spells])

    def to_act(self, state: State) -> list[int]:
        return [] if state.over else [actor(state)]

    def legal_choices(self, state: State, seat: int) -> list[str]:
        if state.q:
            return step_options(state, state.q[0])
        return day.phase_options(state, state.cur, state.phase)

    def settled(self, state: State) -> tuple[list[int], dict[int, list[str]]] | None:
        # `settle` listed the menu of whoever decides next to see whether anyone must decide at all
        kept, found = steps.LISTED
        return found if kept is state else None

    def prompt(self, state: State, seat: int) -> Prompt:
        return views.prompt(state, seat)

    def apply(self, state: State, seat: int, choice: str, rng: Rng) -> Outcome:
        log = Log()
        self.play(state, choice, rng, log)
        return Outcome(events=log.events, checkpoint=log.checkpoint)

    @staticmethod
    def play(state: State, choice: str, rng: Rng, log: Log) -> None:
        """The move itself, logging into `log` (the AI's simulations pass a QuietLog)."""
        day.play(state, choice, rng, log)

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        return views.view(state, seat)

    def table(self, state: State, seat: int | None) -> list[Msg]:
        return views.table(state, seat)

    def picture(self, view: dict[str, Any], names: Sequence[str], say: Say) -> bytes:
        return picture.draw(view, names, say)

    def progress(self, view: dict[str, Any]) -> Progress:
        return standing.progress(view)

    def played_with(self, view: dict[str, Any], seat: int) -> list[str]:
        return standing.played_with(view, seat)

    def summary_picture(self, summary: Summary, names: Sequence[str], say: Say) -> bytes:
        return picture_summary.summary_picture(summary, names, say)

    def is_over(self, state: State) -> bool:
        return state.over

    def score(self, state: State) -> FinalScore:
        return scoring.final_score(state)

    def cards(self) -> list[str]:
        return cards.refs()

    def card(self, ref: str, state: State | None = None) -> Card | None:
        return cards.card(ref, state)

    def rules(self) -> list[RulesSection]:
        return cards.rules()


GAME = Spellbook()
