"""Hidden information, prompt shape (Telegram inline keyboards), texts in both languages, undo."""

import json
import random

import pytest

import locales
from rulesets.core import IllegalMove, act, can_undo, new_match, undo

from .harness import begin, do, place, revelar, to_assignment
from .helpers import GAME


@pytest.mark.parametrize("seed", range(12))
def test_assignments_never_leak_to_other_seats(seed):
    """Random assignment phases: no other seat's view, table or events show a player's cards."""
    rnd = random.Random(seed)
    m = begin(2 + seed % 3, seed=seed)
    to_assignment(m)
    n = m.state.n
    while m.state.phase == "assign":
        s = rnd.choice(GAME.to_act(m.state))
        choices = GAME.legal_choices(m.state, s)
        others = [c for c in choices if c != "pronto"]
        pick = rnd.choice(others) if others and (rnd.random() < 0.9 or "pronto" not in choices) else "pronto"
        m, events = act(m, s, pick, inplace=True)
        if m.state.phase != "assign":
            assert m.log[-1].checkpoint  # the reveal
            break
        for e in events:
            assert e.audience in (None, [s])
            if e.audience is None:
                assert e.text.key == "trickerion.log.assign_done"
        for owner in range(n):
            plan = m.state.p[owner].plan
            for viewer in [None, *range(n)]:
                seen = GAME.view(m.state, viewer)["players"][owner]
                if viewer == owner:
                    assert seen["plan"] == plan
                else:
                    assert "plan" not in seen and "pick" not in seen
                    assert "ctx" not in GAME.view(m.state, viewer) or viewer == m.state.turn
        for viewer in [None, *range(n)]:
            # what a seat sees does not change when the others' secret choices do
            blind = m.state.model_copy(deep=True)
            for owner in range(n):
                if owner != viewer:
                    blind.p[owner].plan, blind.p[owner].pick = {}, None
            assert GAME.table(m.state, viewer) == GAME.table(blind, viewer)
            assert GAME.view(m.state, viewer) == GAME.view(blind, viewer)
    for viewer in [None, *range(n)]:
        for owner in range(n):
            assert GAME.view(m.state, viewer)["players"][owner]["plan"] == m.state.p[owner].plan


def test_performance_deck_is_face_down():
    m = begin(3)
    for viewer in (None, 0):
        v = GAME.view(m.state, viewer)
        assert v["deck"] == len(m.state.deck)
        assert not any(cid in json.dumps(v) for cid in m.state.deck)


@pytest.mark.parametrize("seed", range(8))
def test_prompts_fit_a_keyboard_and_every_text_exists(seed):
    from .helpers import LAZY

    match = new_match(GAME, {"beginner_setup": seed % 2 == 0}, 2 + seed % 3, seed)
    rnd = random.Random(seed)
    for e in match.log[0].events:
        locales.render(e.text, "pt_BR"), locales.render(e.text, "en")
    while not GAME.is_over(match.state):
        s = rnd.choice(GAME.to_act(match.state))
        prompt = GAME.prompt(match.state, s)
        assert 1 <= len(prompt.choices) <= 20, (match.state.step, len(prompt.choices))
        for c in prompt.choices:
            assert len(c.id) <= 32 and c.id.isascii() and " " not in c.id
            for lang in ("pt_BR", "en"):
                assert len(locales.render(c.label, lang)) <= 60  # a button's width (render.label)
        for lang in ("pt_BR", "en"):
            locales.render(prompt.title, lang)
            for line in prompt.info:
                locales.render(line, lang)
        if rnd.random() < 0.05:
            for lang in ("pt_BR", "en"):
                for line in GAME.table(match.state, s):
                    locales.render(line, lang)
        busy = [c.id for c in prompt.choices if c.id not in LAZY and not c.id.startswith(("r:", "o:", "d"))]
        pick = rnd.choice(busy) if busy and rnd.random() > 0.2 else rnd.choice(prompt.choices).id
        match, events = act(match, s, pick, inplace=True)
        for e in events:
            locales.render(e.text, "pt_BR"), locales.render(e.text, "en")
    score = GAME.score(match.state)
    for seat_score in score.seats:
        for line in seat_score.lines:
            locales.render(line.label, "pt_BR"), locales.render(line.label, "en")
    for note in score.notes:
        locales.render(note, "pt_BR")


def test_portuguese_names():
    st = begin(2).state
    assert locales.render(GAME.prompt(st, GAME.to_act(st)[0]).title, "pt_BR") == \
        "Propaganda: pagar para receber 2 de Fama?"
    from rulesets.core import msg

    assert locales.render(msg("trickerion.action.preparar", ap=1)) == "Preparar um Truque (1 PA)"
    assert locales.render(msg("trickerion.choice.pr", trick=msg("trickerion.trick.T28"), ap=1)) == \
        "Arquitetar Fuga do Tanque de Água (1 PA)"
    assert locales.render(msg("trickerion.trick.T37")) == "Conectando Anéis"


def test_undo_inside_a_characters_actions_but_not_past_its_end():
    m = begin(2)  # only legal moves from here: undo replays the log
    to_assignment(m)
    first = m.state.order[0]
    do(m, first, "l:market", "pronto")  # the magician to the Market, the others idle
    assert not can_undo(m, first)  # "done" ends the secret decision
    do(m, 1 - first, "pronto")
    place(m, first, "mag", "market.0")
    coins = m.state.p[first].coins
    do(m, first, "comprar", "cp:wood:1")  # 1 coin: nothing to bargain off, so not asked
    assert m.state.p[first].coins == coins - 1 and can_undo(m, first)
    back, _ = undo(m, first)  # the press and the step it made without asking, undone together
    assert back.state.step == "comprar_t" and back.state.p[first].coins == coins
    m2, _ = act(back, first, "cp:wood:1")
    m2, _ = act(m2, first, "fim")
    assert not can_undo(m2, first)
    with pytest.raises(IllegalMove):
        undo(m2, first)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_table_of_stand_ins_finishes_the_game_without_spending(players):
    match = new_match(GAME, {}, players, players)
    coins = None
    while not GAME.is_over(match.state):
        if coins is None and match.state.round == 1:
            coins = [p.coins for p in match.state.p]
        s = GAME.to_act(match.state)[0]
        match, _ = act(match, s, GAME.stand_in_choice(match.state, s, 7), inplace=True)
    assert match.state.round == 5
    assert [p.coins for p in match.state.p] == coins
    assert all(p.fame == 5 and p.shards == 1 for p in match.state.p)


def test_every_view_counts_components_the_same_way():
    """A stack on the Manager's multi-component slot counts one more: the status table, the private
    prompt and the view (which the pictures draw) all show that one count."""
    m = begin(3, seed=1)
    p = m.state.p[0]
    p.specs.append("manager")
    p.comps, p.multi = {"wood": 2, "glass": 1, "metal": 2}, ["glass", "metal"]
    revelar(m, {0: {"mag": "market"}, 1: {"mag": "market"}, 2: {"mag": "market"}}, order=[0, 1, 2])
    place(m, 0, "mag", "market.0")
    names = ["Ana", "Bia", "Caio"]
    shown = "2× Madeira, 2× Vidro e 3× Metal"
    status = [locales.render(line, "pt_BR", names) for line in GAME.table(m.state, None)]
    assert any(shown in line for line in status), status
    info = [locales.render(line, "pt_BR", names) for line in GAME.prompt(m.state, 0).info]
    assert any(shown in line for line in info), info
    assert GAME.view(m.state, None)["players"][0]["components"] == {"wood": 2, "glass": 2, "metal": 3}


def test_the_status_lists_each_team_and_who_was_hired():
    m = begin(3, seed=1)
    m.state.p[1].specs, m.state.p[1].apps, m.state.p[1].hires = ["engineer"], ["a1", "a2"], ["assistant"]
    lines = [locales.render(line, "pt_BR", ["Ana", "Bia", "Caio"]) for line in GAME.table(m.state, None)]
    assert "Equipe de Bia: Mágico, Engenheiro, Aprendiz 1 e Aprendiz 2" in lines
    assert "Contratados por Bia (chegam no fim da rodada): Assistente" in lines
    lines = [locales.render(line, "en", ["Ana", "Bia", "Caio"]) for line in GAME.table(m.state, None)]
    assert "Bia's team: Magician, Engineer, Apprentice 1 and Apprentice 2" in lines
