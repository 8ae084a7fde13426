"""Trickerion: Lendas da Ilusão, base game (2–4 players, five rounds, without the Dark Alley).

The round, as the rulebook summarises it; each phase is a function named after it, in the module
named after its place:

    Rolar os Dados                town_center.rolar_dados: the six Town Center dice
    Ajustar a Ordem de Iniciativa ajustar_ordem_de_iniciativa: reverse Fame, ties invert (not in round 1)
    Propaganda                    propaganda: pay 1-4 coins (the initiative space) for 2 Fame, once;
                                  every player who can pay is asked at the same time
    Fase de Atribuição            placement.atribuir: SECRET and SIMULTANEOUS, every player puts cards
                                  under characters, one press a character; placement.revelar shows them
                                  all at once (checkpoint)
    Fase de Alocar Personagens    placement.alocar_personagem (a character and its space in one choice)
                                  -> the place's actions one by one, Reforçar o Personagem among the
                                  first (town_center, market, workshop, theater) -> "fim": one
                                  character per turn, in initiative order
    Fase de Apresentação          performance.apresentar: Thursday to Sunday
    Fase de Fim da Rodada         end_of_round: pagar_salarios, retornar_personagens,
                                  chegada_das_encomendas, mover_cartas_de_apresentacao, posters,
                                  the round marker; after round 5, scoring.final

Before round 1 (setup.py): in seat order each player picks a magician (one per favourite category) and
then — unless the beginner setup is chosen — a starting trick, 2 coins of components and a specialist
with its bonus, at the same time as the players after them pick theirs; Engineers pick their extra
trick one at a time after everyone's own setup.
`advance` runs everything automatic until someone must decide; `settle` answers every question that
has a single answer (told in the log), so none is asked (issue 13).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel, model_validator

from rulesets.core import Card, Event, FinalScore, Game, Outcome, Prompt, Rng, RulesSection, contract
from rulesets.core.contract import Say
from rulesets.core.messages import Msg
from rulesets.core.summary import Progress, Summary
from rulesets.core.unchecked import _new, _set_dict, _set_extra, _set_fields_set, _set_private, fields_set

from . import (
    cards,
    dark_alley,  # importing it registers the Dark Alley module in hooks.REGISTRY
    end_of_round,
    hooks,
    market,
    performance,
    picture,
    placement,
    prophecies,  # noqa: F401  (importing it registers the prophecies module: option `prophecies`)
    round_summary,
    scoring,
    setup,
    standing,
    theater,
    town_center,
    views,
    workshop,
)
from .data import BOARD
from .picture import summary as final_picture
from .quick_game import NAME as QUICK_GAME  # importing an option's module registers it in hooks.REGISTRY
from .rules import deciding, gain, initiative_space, log, qty, set_step, step_of, who
from .secret_workshop import NAME as SECRET_WORKSHOP
from .state import State


class Options(BaseModel):
    beginner_setup: bool = False  # the rulebook's recommended starting tricks, components and specialists
    secret_workshop: bool = False  # the Secret Workshop promo (secret_workshop.py)
    quick_game: bool = False       # the quick-game variant: start at round 2 (quick_game.py)
    dark_alley: bool = False       # the Dark Alley (dark_alley/): special cards, powers, level 3, seven rounds
    prophecies: bool = False       # the prophecies (prophecies.py); only with the Dark Alley

    @model_validator(mode="after")
    def _prophecies_need_the_dark_alley(self):
        if self.prophecies and not self.dark_alley:
            raise ValueError("prophecies need dark_alley")
        if self.prophecies and "prophecies" not in hooks.REGISTRY:
            raise ValueError("the prophecies module is not available")
        return self


# ---------------------------------------------------------------------------------------------- Propaganda


def oferecer_propaganda(state: State, events: list[Event]) -> None:
    """PT p.11 gives every player "a chance" to advertise once a round and sets no order, and no player's
    choice changes another's: everyone who can pay their initiative space's cost is asked at once
    (ruling 13); a player who cannot is told why."""
    for s in state.order:
        cost = initiative_space(state, s)
        if state.p[s].coins >= cost:
            set_step(state, s, "propaganda")
        else:
            log(events, "advertise_cannot", player=who(s), cost=qty("coins", cost),
                coins=qty("coins", state.p[s].coins))


def propaganda_opcoes(state: State, s: int) -> list[str]:
    return ["propaganda", "passar"]


def propaganda(state: State, s: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    if choice == "propaganda":
        p = state.p[s]
        cost = initiative_space(state, s)
        p.coins -= cost
        p.poster = True
        gain(p, fame=BOARD.advertise["fame"])
        log(events, "advertise", player=who(s), coins=qty("coins", cost), fame=BOARD.advertise["fame"])
    set_step(state, s, "")
    return True


STEPS: dict[str, tuple] = {
    **setup.STEPS, **placement.STEPS, **town_center.STEPS, **market.STEPS, **workshop.STEPS,
    **theater.STEPS, **performance.STEPS, "propaganda": (propaganda_opcoes, propaganda),
}


# ---------------------------------------------------------------------------------------------- the round


def iniciar_rodada(state: State, rng: Rng, events: list[Event]) -> None:
    round_summary.begin(state)
    log(events, "round", round=state.round)
    town_center.rolar_dados(state, rng, events)
    adjust = state.round > 1
    for m in hooks.active(state):
        adjust = m.adjust_initiative(state, adjust)
    if adjust:
        ajustar_ordem_de_iniciativa(state, events)
    for m in hooks.active(state):
        m.start_round(state, rng, events)
    state.phase, state.pi = "advertise", 0
    oferecer_propaganda(state, events)


def ajustar_ordem_de_iniciativa(state: State, events: list[Event]) -> None:
    """Least Fame first; players on the same Fame space invert their current relative order."""
    position = {s: i for i, s in enumerate(state.order)}
    state.order = sorted(state.order, key=lambda s: (state.p[s].fame, -position[s]))
    log(events, "initiative_adjusted", order=[setup._seat_msg(s) for s in state.order])


def advance(state: State, rng: Rng, events: list[Event]) -> bool:
    """Run the automatic parts of the game until someone must decide. True if information was revealed."""
    revealed = False
    while True:
        phase = state.phase  # (read once: asked after every move)
        if phase in ("magician", "start"):
            if setup.next_decision(state):
                return revealed
            if state.beginner:
                setup.beginner_setup(state, events)
            setup.finish(state, rng, events)
            state.phase, state.round = "round", 1
            for m in hooks.active(state):
                m.after_setup(state, rng, events)
        elif phase == "round":
            if state.step or state.steps:  # a module's decisions after the setup (the quick game's)
                return revealed
            iniciar_rodada(state, rng, events)
        elif phase == "advertise":
            if state.steps:
                return revealed
            state.phase, state.turn, state.step = "assign", None, "assign"
            placement.iniciar_atribuicao(state)
            log(events, "assignment")
        elif phase == "assign":
            for p in state.p:  # (a loop, not all() over a generator: asked after every assignment press)
                if not p.ready:
                    return revealed
            placement.revelar(state, events)
            revealed = True
            state.phase, state.pi, state.step = "place", 0, ""
        elif phase == "place":
            if state.step:
                return revealed
            s = placement.next_seat(state)
            if s is not None:
                state.turn, state.step = s, "alocar"
                return revealed
            state.phase, state.perf_day, state.turn = "perform", 0, None
            round_summary.before_performances(state)
            log(events, "performances")
            for m in hooks.active(state):
                m.before_performances(state, rng, events)
            if state.step:
                return revealed
        elif phase == "perform":
            if state.step or performance.next_decision(state, events):
                return revealed
            state.phase = "end"
        elif phase == "end":
            end_of_round.run(state, rng, events)
            if state.round >= rounds(state):
                state.phase, state.turn, state.step = "over", None, ""
                log(events, "game_over")
                return revealed
            state.round += 1
            state.phase = "round"
        else:
            return revealed


def handlers(state: State, seat: int) -> tuple:
    """The (choices, apply) pair of the seat's decision in progress; modules' places bring their own steps."""
    step = state.step  # step_of, written out (asked several times a move)
    if seat != state.turn or not step:
        step = state.steps.get(str(seat)) or step
    found = STEPS.get(step)
    if found is None:
        for m in hooks.active(state):
            found = found or m.steps(state).get(step)
            for place in m.places(state).values():
                found = found or getattr(place, "STEPS", {}).get(step)
    return found


# ---------------------------------------------------------------------------------------------- one answer

SETTLE_LIMIT = 200  # single answers in a row (a game has far fewer; more would be a rules loop)
# (step, choice head) of single answers whose own log line says why: a character left idle for want of
# a free space, a character's actions ended with nothing left to do
TOLD = {("alocar", "ocioso"), ("ocioso", "o"), ("acoes", "fim")}


def only_answer(state: State, s: int, choices: list[str]) -> str | None:
    """The answer to a question that has only one (backing out of the menu that asked it aside): a
    question like that is not asked (issue 13). None: the question is a real one."""
    real = len(choices) - choices.count("voltar")  # (counted, not listed: asked every move)
    if real == 1:
        return next(c for c in choices if c != "voltar")
    return choices[0] if not real and len(choices) == 1 else None


def _moment(state: State) -> tuple:
    """Where the game stands: a seat deciding at the same time as others, whose own decision did not
    change, is not asked anything new while the moment is the same."""
    return state.phase, state.round, state.turn, state.step


def _may_have_one_answer(state: State, s: int) -> bool:
    """A cheap look before listing a seat's choices: the decisions that always offer two answers or more
    (Propaganda; an assignment still asking for a character's card) need no listing."""
    step = step_of(state, s)
    if step == "propaganda":
        return False
    if step == "assign":
        p = state.p[s]
        return p.pick is None and not p.plan and not p.rest
    if step == "alocar":  # "ocioso" and a space for some character, or "passar"
        return not state.tp and not any(placement.has_space(state, s, c) for c in placement.waiting(state, s))
    if step == "ocioso":
        return len(placement.waiting(state, s)) == 1
    if step == "acoes":  # "fim" and an action the place surely offers
        return not placement.surely_busy(state, s)
    return True


_OUTCOME_FIELDS = fields_set(Outcome)

# The last settled position, who acts there and the menus listed there, seat by seat: a playout asks for them
_LISTED: tuple[State | None, tuple[list[int], dict[int, list[str]]] | None] = (None, None)


def settle(state: State, rng: Rng, events: list[Event], actor: int | None = None,
           before: tuple | None = None) -> bool:
    """Apply every question with a single legal answer, each told in the log (privately during the secret
    assignment), then the automatic parts after it; True if one of them was a checkpoint. Part of the
    move that led to it: replayed with it, undone with it. `actor` and `before` (the `_moment` before
    its move): while the moment is the same, only the seats it may have changed are looked at."""
    checkpoint = False
    for _ in range(SETTLE_LIMIT):
        found = None
        seats = everyone = deciding(state)
        # a seat deciding alone is listed at once, without the cheap look first: whoever moves next (a
        # playout, the search) lists its menu anyway, and takes this one (`settled`)
        alone = len(seats) == 1
        if before is not None and actor is not None:
            turn = state.turn  # (the moment is looked at only when some seat would be left out)
            if not (alone and (seats[0] == actor or seats[0] == turn)) and _moment(state) == before:
                seats = [s for s in seats if s == actor or s == turn]
        before = None  # after a step taken here, everyone is looked at again
        listed = {}
        for s in seats:
            if not alone and not _may_have_one_answer(state, s):
                continue
            listed[s] = choices = handlers(state, s)[0](state, s)
            choice = only_answer(state, s, choices)
            if choice is not None:
                found = s, choice
                break
        if found is None:
            global _LISTED
            _LISTED = state, (everyone, listed)  # the position stays as it is: who acts, their menus
            return checkpoint
        s, choice = found
        step = step_of(state, s)
        if step == "acoes" and choice == "fim":
            state.ctx["spent"] = True  # its own line says the character had nothing left to do
        if (step, choice.split(":")[0]) not in TOLD:
            secret = step == "assign" or any(m.secret_step(state, step) for m in hooks.active(state))
            log(events, "only", audience=[s] if secret else None, player=who(s),
                question=views.title(state, s), answer=views.label(state, s, choice))
        checkpoint = bool(handlers(state, s)[1](state, s, choice, rng, events)) or checkpoint
        checkpoint = advance(state, rng, events) or checkpoint
    raise RuntimeError("a question with a single answer leads to another, without end")


def play(state: State, seat: int, choice: str, rng: Rng, events: list[Event]) -> bool:
    """One decision and everything automatic after it; True if it is an undo checkpoint."""
    before = _moment(state)
    checkpoint = bool(handlers(state, seat)[1](state, seat, choice, rng, events))
    checkpoint = advance(state, rng, events) or checkpoint
    return settle(state, rng, events, seat, before) or checkpoint


def rounds(state: State) -> int:
    n = state.rounds
    for m in hooks.active(state):
        n = m.rounds(state, n)
    return n


def _declines(choice: str, choices: list[str]) -> bool:
    """A yes/no question asked as "x:1"/"x:0" (the Mechanizer, Empower, Test Run, Mass Recruitment...):
    "x:0" says no."""
    head, _, arg = choice.partition(":")
    return arg == "0" and f"{head}:1" in choices and sum(c.startswith(f"{head}:") for c in choices) == 2


def _purse(state: State, s: int) -> tuple[int, ...]:
    p = state.p[s]
    return p.coins, p.shards, sum(p.hand.values()), sum(p.comps.values()), p.fame


def cost_of(state: State, s: int, choice: str) -> int:
    """What seat s gives up (coins, Shards, cards in hand, components, Fame) by the decision itself: the
    step's apply on a copy, without the automatic parts that follow (the same whatever is chosen)."""
    trial = state.model_copy(deep=True)
    before = _purse(trial, s)
    handlers(trial, s)[1](trial, s, choice, Rng(0), [])
    return sum(max(0, b - a) for b, a in zip(before, _purse(trial, s), strict=True))



class Trickerion(Game[State, Options]):
    name = "trickerion"
    min_players = 2
    max_players = 4
    State = State
    Options = Options
    pictures = frozenset({contract.TABLE, contract.BOARD})

    def setup(self, options: Options, players: int, rng: Rng) -> tuple[State, list[Event]]:
        events: list[Event] = []
        state = setup.create(players, options.beginner_setup, rng, events)
        if options.dark_alley:
            dark_alley.setup.prepare(state, options.prophecies, rng, events)
        state.modules += [name for name, on in ((SECRET_WORKSHOP, options.secret_workshop),
                                                (QUICK_GAME, options.quick_game)) if on]
        advance(state, rng, events)
        settle(state, rng, events)
        return state, events

    def to_act(self, state: State) -> list[int]:
        return deciding(state)

    def legal_choices(self, state: State, seat: int) -> list[str]:
        return handlers(state, seat)[0](state, seat)

    def settled(self, state: State) -> tuple[list[int], dict[int, list[str]]] | None:
        # `settle` asked who acts and listed menus to see whether a question has one answer; asking and
        # listing them again for the playout was about a tenth of a random game
        kept, found = _LISTED
        return found if kept is state else None

    def apply(self, state: State, seat: int, choice: str, rng: Rng) -> Outcome:
        events: list[Event] = []
        checkpoint = play(state, seat, choice, rng, events)
        # built every move: no validation (`unchecked`, written out)
        outcome = _new(Outcome)
        _set_dict(outcome, {"events": events, "checkpoint": checkpoint})
        _set_fields_set(outcome, _OUTCOME_FIELDS)
        _set_extra(outcome, None)
        _set_private(outcome, None)
        return outcome

    def prompt(self, state: State, seat: int) -> Prompt:
        return views.prompt(state, seat, self.legal_choices(state, seat))

    def view(self, state: State, seat: int | None) -> dict[str, Any]:
        out = views.view(state, seat)
        if seat is not None and seat == state.turn and state.phase != "over":
            spot = views.placing(state, seat, self.legal_choices(state, seat))
            if spot is not None:  # a marker being set up: its spots, for the seat's card picture
                out["placing"] = spot
        return out

    def picture(self, view: dict[str, Any], names: Sequence[str], say: Say) -> bytes:
        return picture.table(view, names, say)

    def seat_picture(self, view: dict[str, Any], seat: int, names: Sequence[str], say: Say,
                     subject: str) -> bytes | None:
        """The seat's board (`contract.BOARD`), or `"card:<index>"`: the performance card a marker goes on."""
        if subject == contract.BOARD:
            return picture.board(view, seat, names, say)
        kind, _, arg = subject.partition(":")
        if kind == "card" and arg.isdigit():
            return picture.card(view, names, say, int(arg))
        return None

    def table(self, state: State, seat: int | None) -> list[Msg]:
        return views.table(state, seat)

    def progress(self, view: dict[str, Any]) -> Progress:
        return standing.progress(view)

    def played_with(self, view: dict[str, Any], seat: int) -> list[str]:
        return standing.played_with(view, seat)

    def summary_picture(self, summary: Summary, names: Sequence[str], say: Say) -> bytes:
        return final_picture.summary_picture(summary, names, say)

    def stand_in_choice(self, state: State, seat: int, pick: int) -> str:
        """A stand-in for a player who left spends nothing it need not, in every module's decisions: it
        ends or passes (assignments done with every character idle, no Propaganda, a turn ended), declines
        what a card, power or prophecy offers, leaves characters idle and backs out of a menu; a decision
        with none of these (setup, performing, a choice forced by a card) takes, by `pick`, one of the
        options that cost its player least (coins, Shards, cards, components, Fame)."""
        choices = self.legal_choices(state, seat)
        for safe in ("pronto", "fim", "passar"):
            if safe in choices:
                return safe
        preferred = [c for c in choices if c.endswith(":-") or c == "sa" or _declines(c, choices)]
        preferred += [c for c in choices if c == "ocioso" or c.startswith("o:")] + [c for c in choices if c == "voltar"]
        for c in preferred:
            if not cost_of(state, seat, c):  # a "no" that costs (no Barganhar) is not the cheapest
                return c
        costs = {c: cost_of(state, seat, c) for c in choices}
        cheapest = [c for c in choices if costs[c] == min(costs.values())]
        return next((c for c in preferred if c in cheapest), cheapest[pick % len(cheapest)])

    def is_over(self, state: State) -> bool:
        return state.phase == "over"

    def cards(self) -> list[str]:
        return cards.refs()

    def card(self, ref: str, state: State | None = None) -> Card | None:
        return cards.card(ref, state)

    def rules(self) -> list[RulesSection]:
        return cards.rules()

    def score(self, state: State) -> FinalScore:
        return scoring.final(state)


GAME = Trickerion()
