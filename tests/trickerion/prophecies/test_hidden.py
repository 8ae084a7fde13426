"""Intenções Ocultas (P20) keeps the cards under characters not yet placed face down: no other seat's
choice, prompt, view or log may depend on them (the Great Optico's Mimesis, Hypnotic Motivation's card)."""

import locales
from rulesets.trickerion.dark_alley.facts import SPECIALS
from rulesets.trickerion.dark_alley.magicians import mimic_candidates
from rulesets.trickerion.placement import shown_plan
from rulesets.trickerion.rules import characters

from ..dark_alley.positions import begin, give, go, plan
from ..harness import do, put
from ..helpers import GAME, purposeful_playout
from .helpers import activate


def _hidden_game(magicians=("M02", "M04")):
    m = begin(2, magicians=magicians, prophecies=True)
    activate(m.state, "P20")
    return m


def _texts(events, lang="en") -> str:
    return " ".join(locales.render(e.text, lang) for e in events)


def test_p20_great_optico_cannot_copy_a_card_still_face_down():
    m = _hidden_game()
    give(m, 1, "A33")
    m.state.p[0].hand["downtown"] = 2
    plan(m, {0: {"mag": "downtown", "a1": "downtown"}, 1: {"mag": "A33"}})
    assert m.state.proph.delayed
    put(m, 0, "mag", "downtown.0")
    assert m.state.step != "da_mimetismo"  # A33 lies face down under a character not placed
    assert "A33" not in repr(GAME.prompt(m.state, 0)) and "A33" not in repr(GAME.view(m.state, 0))
    do(m, 0, "fim")
    go(m, 1, "mag", "downtown.3")  # now placed: revealed
    assert mimic_candidates(m.state, 0, "downtown") == ["A33"]  # limit: a placed character's card may be copied


def test_shown_plan_hides_unplaced_cards_only_from_other_seats_and_only_under_p20():
    m = _hidden_game()
    plan(m, {0: {"mag": "downtown"}, 1: {"mag": "market", "a1": "workshop"}})
    st = m.state
    assert shown_plan(st, 1, 0) == {} and shown_plan(st, 1, None) == {}
    assert shown_plan(st, 1, 1) == {"mag": "market", "a1": "workshop"}
    m2 = begin(2, magicians=("M02", "M04"), prophecies=True)
    plan(m2, {1: {"mag": "market"}})
    assert shown_plan(m2.state, 1, 0) == {"mag": "market"}  # limit: no P20, everything revealed


def test_p20_hypnotic_motivation_puts_its_card_face_down():
    m = _hidden_game(("M04", "M02"))
    p = m.state.p[0]
    give(m, 0, "A27")
    p.hand["market"] = 1
    plan(m, {0: {"mag": "A27"}})
    go(m, 0, "mag", "downtown.0")
    m.state.dice["i1"] = "apprentice"
    do(m, 0, "ct:i1")
    new = m.state.ctx["new"]
    events = do(m, 0, "hy:market")
    assert p.plan[new] == "market"
    keys = [e.text.key for e in events]
    assert "trickerion.log.da_hypnotic_card" not in keys and "trickerion.prophecies.log.face_down" in keys
    assert "Market" not in _texts(events) and "Mercado" not in _texts(events, "pt_BR")
    assert GAME.view(m.state, 1)["players"][0]["plan"] == {"mag": "A27"}
    assert "loc.market" not in repr([line for line in GAME.table(m.state, 1) if line.key == "trickerion.table.plan"])


class HiddenCheck:
    """After every action of a Dark Alley game with Intenções Ocultas forced active each round: a special
    card under a character not yet placed is named in no other seat's view, table or prompt, nor in the
    group's, nor in any event another seat receives."""

    def __init__(self) -> None:
        self.checked = 0

    def __call__(self, game, match) -> None:
        st = match.state
        if st.phase == "advertise" and st.proph and st.proph.active != "P20":
            activate(st, "P20")
        if st.phase == "assign":  # special cards in hand go under free characters, to have secrets to keep
            for p in st.p:
                free = [c for c in characters(p) if c not in p.plan]
                for card in [c for c in p.hand if c in SPECIALS and c not in p.plan.values()][:len(free)]:
                    p.plan[free.pop(0)] = card
        if not (st.proph and st.proph.delayed):
            return
        events = match.log[-1].events if match.log else []
        for s, p in enumerate(st.p):
            secret = {card for c, card in p.plan.items() if c not in p.placed and card in SPECIALS}
            if not secret:
                continue
            self.checked += 1
            seen = [repr(e.text) for e in events if e.audience is None or set(e.audience) - {s}]
            for viewer in (None, *(v for v in range(st.n) if v != s)):
                seen += [repr(game.view(st, viewer)), repr(game.table(st, viewer))]
                if viewer in game.to_act(st):
                    seen.append(repr(game.prompt(st, viewer)))
            for card in secret:
                assert not any(f"'{card}'" in t or f"card.{card}'" in t or f":{card}'" in t for t in seen), card


def test_p20_no_view_prompt_or_event_names_a_face_down_special_card():
    check = HiddenCheck()
    for seed in (1, 2, 3, 10):  # four players (seed 1 caught Mimesis copying a secret); about 190 checks
        purposeful_playout(4, seed, {"dark_alley": True, "prophecies": True}, check=check)
    assert check.checked > 100
