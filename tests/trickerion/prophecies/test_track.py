"""The prophecy track: setup, the end-of-round move, Clarividência, Tecer o Destino, an empty pile, and
what the players see of it."""

import json

import locales
from rulesets.core import Rng, new_match
from rulesets.trickerion import prophecies as P
from rulesets.trickerion.prophecies import PROPHECIES

from ..harness import do
from .helpers import GAME, TrackCheck, activate, forced_module, with_prophecies


def test_data_has_the_27_tokens_with_both_languages():
    assert len(PROPHECIES) == 27 and P.PENDING == 3
    for pid in PROPHECIES:
        for lang in ("pt_BR", "en"):
            assert locales.render(P.name(pid), lang) and locales.render(P.text(pid), lang)
    assert locales.render(P.name("P20"), "pt_BR") == "Intenções Ocultas"


def test_setup_after_the_players_setup_three_pending_no_active():
    with forced_module(P.NAME):
        m = new_match(GAME, {"beginner_setup": True}, 3, 4)
        assert m.state.proph is None  # nothing before the players' setup is finished
        events = []
        for s in range(3):
            _match, evs = __import__("rulesets.core", fromlist=["act"]).act(m, s, GAME.legal_choices(m.state, s)[0],
                                                                           inplace=True)
            events += evs
    t = m.state.proph
    assert t.active is None and len(t.pending) == 3 and len(t.pile) == 24 and t.discard == []
    drawn = [e.text.params["prophecy"].key for e in events if e.text.key == "trickerion.prophecies.log.drawn"]
    assert drawn == [f"trickerion.prophecy.{p}" for p in t.pending]  # every draw's outcome in its event
    assert P.in_order(m.state)


def test_end_of_round_move():
    m = with_prophecies(2)
    st = m.state
    a, b, c = st.proph.pending
    top = st.proph.pile[0]
    events: list = []
    P.mover_as_profecias(st, Rng(1), events)
    assert st.proph.active == a and st.proph.pending == [b, c, top] and st.proph.discard == []
    P.mover_as_profecias(st, Rng(1), events)
    assert st.proph.active == b and st.proph.discard == [a] and st.proph.pending[:2] == [c, top]
    assert P.in_order(st)


def test_the_round_end_moves_them_and_the_last_round_does_not():
    m = with_prophecies(2)
    st = m.state
    nxt = st.proph.pending[0]
    while st.phase == "advertise":
        do(m, GAME.to_act(st)[0], "passar")
    for s in range(2):
        do(m, s, "pronto")
    assert st.round == 2 and st.proph.active == nxt  # it rules round 2
    st.round = st.rounds
    before = st.proph.model_copy(deep=True)
    while st.phase == "advertise":
        do(m, GAME.to_act(st)[0], "passar")
    for s in range(2):
        do(m, s, "pronto")
    assert GAME.is_over(st) and st.proph == before  # no move after the last round


def test_clairvoyance_moves_every_pending_one_space_clockwise():
    m = with_prophecies(2, "P07")
    st = m.state
    a, b, c = st.proph.pending
    events: list = []
    P.clairvoyance(st, 0, events)
    assert st.proph.pending == [b, c, a] and st.proph.active == "P07" and len(st.proph.pile) == 23
    assert events[0].text.key == "trickerion.prophecies.log.clairvoyance"
    P.clairvoyance(st, 0, events)
    P.clairvoyance(st, 0, events)
    assert st.proph.pending == [a, b, c]  # three moves bring them back: nothing drawn, nothing lost
    assert P.clairvoyance_ok(st)
    st.proph.pending = [a]
    assert not P.clairvoyance_ok(st)  # limit: with one pending prophecy there is nothing to move


def test_fate_weaving_replaces_the_active_and_refills_that_space():
    m = with_prophecies(2, "P07")
    st = m.state
    a, b, c = st.proph.pending
    top = st.proph.pile[0]
    assert P.fate_weaving_choices(st) == ["td:0", "td:1", "td:2"]
    assert GAME.prompt(st, GAME.to_act(st)[0]).title  # prompts still render
    P.fate_weaving(st, 0, "td:1", Rng(2), [])
    assert st.proph.active == b and st.proph.discard == ["P07"] and st.proph.pending == [a, top, c]
    assert P.in_order(st)


def test_fate_weaving_in_round_one_has_nothing_to_discard():
    m = with_prophecies(2)
    st = m.state
    a = st.proph.pending[0]
    P.fate_weaving(st, 0, "td:0", Rng(2), [])
    assert st.proph.active == a and st.proph.discard == []
    assert P.in_order(st)


def test_fate_weaving_away_from_p20_reveals_the_rest():
    from ..harness import place, revelar

    m = with_prophecies(2, "P20")
    st = m.state
    revelar(m, {0: {"mag": "downtown"}, 1: {"mag": "market", "a1": "workshop"}}, order=[0, 1])
    place(m, 0, "mag", "downtown.3")
    assert GAME.view(st, 0)["players"][1]["plan"] == {}
    events: list = []
    P.fate_weaving(st, 0, "td:0", Rng(2), events)
    assert not st.proph.delayed and GAME.view(st, 0)["players"][1]["plan"] == {"mag": "market", "a1": "workshop"}
    assert any(e.text.key == "trickerion.log.reveal" for e in events)


def test_an_empty_pile_is_remade_from_the_discards():
    m = with_prophecies(2)
    st = m.state
    t = st.proph
    t.discard, t.pile = list(t.pile), []
    events: list = []
    P.mover_as_profecias(st, Rng(9), events)
    keys = [e.text.key for e in events]
    assert "trickerion.prophecies.log.reshuffled" in keys and len(t.pending) == 3 and P.in_order(st)
    assert len(t.pile) == 23  # the 24 discards reshuffled, one drawn into the rightmost space
    # the reshuffle's event gives only the count, never the order
    assert all(p not in json.dumps([e.text.model_dump() for e in events]) for p in t.pile)


def test_views_and_table_show_the_track_but_not_the_pile():
    m = with_prophecies(3, "P12")
    st = m.state
    for seat in (None, 0, 1, 2):
        v = GAME.view(st, seat)["prophecies"]
        assert v == {"active": "P12", "pending": st.proph.pending, "discard": st.proph.discard, "pile": 23,
                     "delayed": False}
        assert not any(p in json.dumps(v) for p in st.proph.pile)  # (performance cards are "P01".. too)
        lines = GAME.table(st, seat)
        text = [locales.render(x, "pt_BR", names=["A", "B", "C"]) for x in lines]
        assert any("Dahlgaard Generoso" in x for x in text)
    prompt = GAME.prompt(st, GAME.to_act(st)[0])
    assert any(i.key == "trickerion.prophecies.info" for i in prompt.info)
    assert len(prompt.choices) <= 8  # one info line more, the keyboard unchanged


def test_fate_weaving_buttons_are_named():
    m = with_prophecies(2, "P12")
    st = m.state
    label = P.Module().label(st, 0, "td:2")
    assert label.params["prophecy"] == P.name(st.proph.pending[2])
    assert P.Module().label(st, 0, "xx:1") is None


def test_track_check_catches_a_duplicate():
    m = with_prophecies(2)
    check = TrackCheck()
    check(GAME, m)
    m.state.proph.pending[0] = m.state.proph.pending[1]
    try:
        check(GAME, m)
    except AssertionError:
        return
    raise AssertionError("a duplicated token went unnoticed")


def test_activate_helper_keeps_the_track_in_order():
    m = with_prophecies(2, "P01")
    activate(m.state, m.state.proph.pending[1])
    assert P.in_order(m.state) and len(m.state.proph.pending) == 3
