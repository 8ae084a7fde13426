"""A made-up rule module shows that the Dark Alley's kinds of change plug in without touching the base
game: a fifth location with its own action, more AP, more rounds, yield modifiers and score lines."""

import random

from rulesets.core import Event, act, new_match
from rulesets.core.contract import ScoreLine
from rulesets.core.messages import msg
from rulesets.trickerion import hooks
from rulesets.trickerion.state import State

from .helpers import GAME


class Alley:
    """A fifth place with two +0 spaces and one action: 'wait' (1 AP) gains 1 coin. Its card is
    'alley_card'; Aprender um Truque costs 1 AP; a magician gains 1 Fame whenever placed."""

    STEPS: dict = {}

    def __init__(self, name: str = "alley") -> None:
        self.name = name

    def spaces(self, state: State, s: int, char: str) -> list[str]:
        return [k for k in (f"{self.name}.0", f"{self.name}.1") if k not in state.occ]

    def space_ap(self, key: str) -> int:
        return 0

    def menu(self, state: State, s: int) -> list[str]:
        return ["wait"] if state.cur.ap >= 1 else []

    def start(self, state: State, s: int, choice: str, rng, events: list[Event]) -> None:
        state.cur.ap -= 1
        state.p[s].coins += 1


class Demo(hooks.Module):
    name = "demo"

    def places(self, state):
        return {"alley": Alley()}

    def card_location(self, state, card):
        return "alley" if card == "alley_card" else None

    def action_cost(self, state, action, cost):
        return 1 if action == "aprender" else cost

    def placed(self, state, s, char, space, events):
        if char == "mag":
            state.p[s].fame += 1

    def hand(self, state, s, hand):
        return {**hand, "alley_card": 1}

    def placement_ap(self, state, s, char, loc):
        return 1

    def yield_modifiers(self, state, owner, performer, tid):
        return [1]

    def rounds(self, state, rounds):
        return 7

    def before_performances(self, state, rng, events):
        """A decision of the module's own before the performances: the first player may take 1 coin."""
        state.turn, state.step = state.order[0], "demo_gift"

    def steps(self, state):
        def choices(st, s):
            return ["take", "leave"]

        def apply(st, s, choice, rng, events):
            st.p[s].coins += choice == "take"
            st.step, st.turn = "", None
            return True

        return {"demo_gift": (choices, apply)}

    def score_lines(self, state, s):
        return [ScoreLine(label=msg("trickerion.score.fame"), points=1)]


def test_a_module_plugs_in():
    hooks.register(Demo())
    try:
        for seed in range(6):
            match = new_match(GAME, {}, 2 + seed % 3, seed)
            match.state.modules = ["demo"]
            rnd = random.Random(seed)
            seen_alley = seen_gift = False
            while not GAME.is_over(match.state):
                s = rnd.choice(GAME.to_act(match.state))
                choices = GAME.legal_choices(match.state, s)
                busy = [c for c in choices if c not in ("pronto", "fim", "voltar", "passar") and not c.startswith("r:")]
                if "l:alley_card" in choices:
                    busy = ["l:alley_card"]
                if "take" in choices:
                    busy = ["take"]
                pick = rnd.choice(busy or choices)
                seen_alley |= pick == "wait"
                seen_gift = seen_gift or pick == "take"
                match, _ = act(match, s, pick, inplace=True)
            assert match.state.round == 7
            assert all(p.hand.get("alley_card") == 1 for p in match.state.p)
            assert seen_alley and seen_gift
            score = GAME.score(match.state)
            assert all(len(x.lines) == 6 and x.total == sum(line.points for line in x.lines) for x in score.seats)
    finally:
        hooks.REGISTRY.pop("demo", None)


def test_module_costs_and_placement_hooks_apply():
    from .harness import begin, place, revelar

    hooks.register(Demo())
    try:
        m = begin(2)
        m.state.modules = ["demo"]
        revelar(m, {0: {"mag": "downtown"}}, order=[0, 1])
        fame = m.state.p[0].fame
        place(m, 0, "mag", "downtown.3")
        assert m.state.p[0].fame == fame + 1 and m.state.cur.ap == 3 + 0 + 1
        m.state.cur.ap = 1
        m.state.dice["r0"] = "any"
        learn = next(c for c in GAME.prompt(m.state, 0).choices if c.id == "aprender")
        assert learn.label.params["ap"] == 1
    finally:
        hooks.REGISTRY.pop("demo", None)


class SecondWorkshop(hooks.Module):
    """Workshop cards may also go to a second, private place; the game starts at round 2."""

    name = "second_workshop"

    def places(self, state):
        return {"annex": Alley("annex")}

    def more_locations(self, state, s, card):
        return ["annex"] if card == "workshop" else []

    def after_setup(self, state, rng, events):
        state.round = 2


def test_a_card_may_open_a_second_place_and_setup_may_be_changed():
    from rulesets.trickerion.placement import free_spaces

    from .harness import begin

    hooks.register(SecondWorkshop())
    try:
        m = new_match(GAME, {"beginner_setup": True}, 2, 0)
        m.state.modules = ["second_workshop"]
        for s in range(2):
            act(m, s, GAME.legal_choices(m.state, s)[0], inplace=True)
        assert m.state.round == 2
        m = begin(2)
        m.state.modules = ["second_workshop"]
        m.state.p[0].plan = {"mag": "workshop"}
        assert free_spaces(m.state, 0, "mag") == ["workshop.0.0", "workshop.0.1", "annex.0", "annex.1"]
    finally:
        hooks.REGISTRY.pop("second_workshop", None)
