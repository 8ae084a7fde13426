"""A turn that flows (issue 13), at the rules' level: single answers applied and told, part of the press
that led to them (replayed and undone with it, private where the step is secret); the setup's
simultaneous choices and the order the rulebook keeps; prices and warnings shown before the press."""

from __future__ import annotations

import random

import pytest

import locales
from rulesets.core import act, new_match, replay, state_hash, undo
from rulesets.core.match import can_undo
from rulesets.trickerion.game import only_answer
from rulesets.trickerion.rules import step_of

from .harness import begin, do, put, revelar, to_assignment
from .helpers import GAME, LAZY

OPTIONS = [{}, {"beginner_setup": True}, {"dark_alley": True, "prophecies": True},
           {"dark_alley": True, "quick_game": True, "secret_workshop": True}, {"secret_workshop": True}]


def _render(m) -> str:
    return locales.render(m, "pt_BR", ["Ana", "Bia", "Caio", "Duda"])


@pytest.mark.parametrize("options", OPTIONS)
def test_random_games_never_ask_a_question_with_one_answer(options):
    """Every decision a seat is asked has two answers or more (backing out of a menu aside), in random
    games of every option; the single answers were applied, each told in the log."""
    told = 0
    for seed in range(3):
        players = 2 + seed
        match = new_match(GAME, options, players, seed)
        rnd = random.Random(seed)
        while not GAME.is_over(match.state):
            for s in GAME.to_act(match.state):
                choices = GAME.legal_choices(match.state, s)
                assert only_answer(match.state, s, choices) is None, (step_of(match.state, s), choices)
            s = rnd.choice(GAME.to_act(match.state))
            choices = GAME.legal_choices(match.state, s)
            busy = [c for c in choices if c not in LAZY and c != "ocioso" and c[:2] not in ("o:", "r:", "dc", "dt")]
            match, events = act(match, s, rnd.choice(busy) if busy and rnd.random() < 0.85 else rnd.choice(choices),
                                inplace=True)
            told += sum(e.text.key == "trickerion.log.only" for e in events)
        assert state_hash(replay(match)) == state_hash(match)  # the steps taken without asking replay
    assert told


def test_a_single_answer_is_told_replayed_and_undone_with_the_press_that_led_to_it():
    m = begin(2, magicians=("M02",))  # only legal moves from here: undo and replay rebuild from the log
    to_assignment(m)
    do(m, 0, "l:theater", "pronto")
    do(m, 1, "pronto")
    put(m, 0, "mag", "theater.0.b0")
    st = m.state
    assert [o.t for o in st.p[0].tricks if o.on] == ["T01"]  # Borboletas Encantadas, prepared at the start
    before = state_hash(m)
    m2, events = act(m, 0, "pp:0")  # one trick could go on that card: not asked which
    assert [e.text.key for e in events] == ["trickerion.log.only"] and m2.state.step == "preparar_e"
    assert _render(events[0].text) == "Ana: Borboletas Encantadas — única opção para “Preparar qual Truque?”."
    assert events[0].audience is None
    assert state_hash(replay(m2)) == state_hash(m2)
    assert can_undo(m2, 0)
    back, _ = undo(m2, 0)
    assert state_hash(back) == before and back.state.step == "acoes"


def test_the_performance_of_the_one_card_is_told_to_everyone():
    from rulesets.trickerion.state import Card

    from .harness import give_tricks, lay

    m = begin(2)
    st = m.state
    give_tricks(m, 0, "T01")
    st.row = [Card(id="P01"), None, None]
    lay(st.row[0], 0, 0, "T01", "0.0", 2)
    revelar(m, {0: {"mag": "theater"}, 1: {}}, order=[0, 1])
    events = put(m, 0, "mag", "theater.1.p")  # the last placement: the performances begin
    only = next(e for e in events if e.text.key == "trickerion.log.only")
    assert only.audience is None
    question = locales.text("trickerion.prompt.apresentar", "pt_BR")
    assert _render(only.text) == f"Ana: Carta 1: Teatro Marginal (P01) — única opção para “{question}”."
    assert "perform" in [e.text.key.rsplit(".", 1)[1] for e in events]


def test_a_secret_single_answer_is_told_to_its_owner_only():
    m = begin(2)
    m.state.p[1].hand = {}  # no card to put under anyone: "Pronto" is the one answer, a secret one
    to_assignment(m)
    only = [e for e in m.log[-1].events if e.text.key == "trickerion.log.only"]
    assert m.state.p[1].ready and len(only) == 1 and only[0].audience == [1]
    assert not m.state.p[0].ready  # the other player still assigns


def test_setup_magicians_in_seat_order_the_rest_at_the_same_time():
    """PT p.9: in turn, each player chooses a magician "com uma Categoria de Truque Favorita ainda não
    escolhida", "e então recebe" a starting trick, components and a specialist: only the magicians depend
    on each other. The Engineer's trick comes "após todos os Truques iniciais serem selecionados"."""
    m = new_match(GAME, {}, 3, 4)
    st = m.state
    assert GAME.to_act(st) == [0] and step_of(st, 0) == "magico"
    do(m, 0, "m:M01")
    assert GAME.to_act(st) == [1, 0] and step_of(st, 0) == "truque_inicial" and step_of(st, 1) == "magico"
    assert not any(c == "m:M05" for c in GAME.legal_choices(st, 1))  # escape is taken
    do(m, 0, next(c for c in GAME.legal_choices(st, 0)))  # seat 0 goes on while seat 1 chooses
    do(m, 1, "m:M02")
    assert sorted(GAME.to_act(st)) == [0, 1, 2]
    do(m, 2, "m:M03")
    while st.steps:  # their own choices, the later seats first: the order does not matter
        s = max(int(k) for k in st.steps)
        choices = GAME.legal_choices(st, s)
        do(m, s, "e:engineer" if "e:engineer" in choices else choices[0])
    # both Engineers pick their extra trick after everyone's own setup, one at a time, in seat order
    engineers = [s for s, p in enumerate(st.p) if "engineer" in p.specs]
    assert engineers and GAME.to_act(st) == [engineers[0]] and step_of(st, engineers[0]) == "truque_engenheiro"


def test_propaganda_and_wages_say_their_price_before_the_press():
    m = begin(3)
    st = m.state
    seat = st.order[1]  # the second initiative space: 2 coins
    label = next(c.label for c in GAME.prompt(st, seat).choices if c.id == "propaganda")
    assert _render(label) == "Fazer Propaganda: pagar 2 Moedas, +2 de Fama"
    to_assignment(m)
    st.p[0].coins = 1
    spec = st.p[0].specs[0]
    do(m, 0, "l:market", "l:market" if "l:market" in GAME.legal_choices(st, 0) else "l:downtown")
    assert st.p[0].plan[spec]
    warning = [x for x in GAME.prompt(st, 0).info if x.key == "trickerion.info.wages"]
    assert warning and _render(warning[0]) == ("⚠️ Salários no fim da rodada: 2 Moedas, e você tem 1 Moeda — cada "
                                               "Moeda não paga custa 2 de Fama (−2).")
