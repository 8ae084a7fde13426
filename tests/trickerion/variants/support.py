"""Shared by the Secret Workshop and quick-game tests: games started with options, and the base
invariants extended to the quick game's setup decisions and the option modules' own rules."""

from __future__ import annotations

import locales
from rulesets.core import Match, new_match
from rulesets.trickerion.placement import card_location
from rulesets.trickerion.quick_game import FIRST_ROUND
from rulesets.trickerion.rules import step_of
from rulesets.trickerion.secret_workshop import SPACES

from .. import helpers
from ..harness import do
from ..helpers import GAME, Invariants

QUICK_STEPS = ("rapido_comps", "rapido_carta")


def start(options: dict, n: int = 2, seed: int = 0, beginner: bool = True, magicians: tuple[str, ...] = ()) -> Match:
    """Magicians picked in seat order (first available unless given); with the quick game its setup
    decisions are left for the test."""
    match = new_match(GAME, {"beginner_setup": beginner, **options}, n, seed)
    for s in range(n):
        if match.state.p[s].magician is not None:  # the one magician left: given without asking
            assert s >= len(magicians) or match.state.p[s].magician == magicians[s]
            continue
        choice = f"m:{magicians[s]}" if s < len(magicians) else GAME.legal_choices(match.state, s)[0]
        do(match, s, choice)
    return match


def finish_quick_setup(match: Match) -> None:
    """Take the first offered choice of every quick-game setup decision."""
    while match.state.phase == "round":
        s = GAME.to_act(match.state)[0]
        do(match, s, GAME.legal_choices(match.state, s)[0])


def rendered(match: Match, seat: int) -> list[str]:
    """The seat's prompt (title, info, buttons) in both languages: every text exists and renders."""
    prompt = GAME.prompt(match.state, seat)
    out = []
    for lang in locales.LANGUAGES:
        out.append(locales.render(prompt.title, lang))
        out += [locales.render(line, lang) for line in prompt.info]
        out += [locales.render(c.label, lang) for c in prompt.choices]
    assert len(prompt.choices) <= 20 and all(len(c.id) <= 32 and c.id.isascii() for c in prompt.choices)
    return out


class VariantInvariants(Invariants):
    """The base invariants, plus: the quick game's setup decisions happen between the setup and its
    first round (checked as part of the setup), the Secret Workshop holds at most its spaces and only
    characters sent with a Workshop card, and a quick game never shows round 1."""

    def __call__(self, game, match: Match) -> None:
        st = match.state
        if st.phase == "round":
            assert "quick_game" in st.modules and st.round == FIRST_ROUND
            assert game.to_act(st) and all(step_of(st, s) in QUICK_STEPS for s in game.to_act(st))
            match = match.model_copy(update={"state": st.model_copy(update={"phase": "start"})})
        super().__call__(game, match)
        if "quick_game" in st.modules and st.phase not in ("magician", "start"):
            assert st.round >= FIRST_ROUND
        inside = [k for k in st.occ if k.startswith("secret_workshop.")]
        assert len(inside) <= SPACES
        for key in inside:
            s, c = st.occ[key].split(":")
            assert card_location(st, st.p[int(s)].plan[c]) == "workshop"
        if inside:  # the table names the place in both languages
            for lang in locales.LANGUAGES:
                [locales.render(line, lang) for line in game.table(st, None)]
        at_secret = st.step == "acoes" and st.cur is not None and st.cur.loc == "secret_workshop"
        for seat in game.to_act(st):  # the options' own prompts: keyboard-sized, in words
            if at_secret and seat == st.turn or step_of(st, seat) in ("perito", *QUICK_STEPS):
                rendered(match, seat)


def _weight(state, choice: str) -> float:
    """The base test weights, plus a pull towards the Secret Workshop and Arquitetar com Maestria."""
    if choice.endswith(":secret_workshop.0") or choice.startswith("sx:"):
        return 30.0
    if choice.startswith("sn:"):
        return 5.0
    if choice == "l:workshop" and state.step == "assign":
        return 4.0
    return helpers._weight(state, choice)


def workshop_playout(players: int, seed: int, options: dict | None = None, check=None):
    """Weighted random play that sends characters to the Secret Workshop and prepares there often."""
    return helpers.weighted_playout(players, seed, options, check, _weight, (977, 5))
