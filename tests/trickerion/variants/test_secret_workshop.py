"""The Secret Workshop (option secret_workshop): reached with a Workshop card, +1 AP, one space in
total, only Arquitetar com Maestria there (1 marker per AP, markers already on the card allowed,
components needed, no Engineer bonus, 4 markers of a symbol at most)."""

import locales
from rulesets.core import new_match
from rulesets.trickerion.data import CARDS, TRICKS
from rulesets.trickerion.placement import free_spaces

from ..harness import do, give_tricks, lay, offered, place, revelar
from ..helpers import GAME
from .support import rendered, start

SW = {"secret_workshop": True}
T17_COMPS = {"wood": 3, "fabric": 3, "rope": 3, "petroleum": 1}  # Mesa Flutuante: printed cost 2 AP


def _secret(tricks=("T17",), comps=None, specs=(), char="mag", shard=False, on=0):
    """Seat 0 first in initiative; its `char` placed in the Secret Workshop with a Workshop card."""
    m = start(SW)
    p = m.state.p[0]
    give_tricks(m, 0, *tricks, on=on)
    p.comps, p.multi, p.specs = dict(T17_COMPS if comps is None else comps), [None, None], list(specs)
    p.apps = ["a1"]
    revelar(m, {0: {char: "workshop"}}, order=[0, 1])
    place(m, 0, char, "secret_workshop.0", shard=shard)
    return m


def test_a_workshop_card_offers_the_secret_workshop_and_no_other_card_does():
    m = start(SW)
    st = m.state
    st.p[0].plan = {"mag": "workshop", "a1": "market"}
    assert free_spaces(st, 0, "mag") == ["workshop.0.0", "workshop.0.1", "secret_workshop.0"]
    assert not [k for k in free_spaces(st, 0, "a1") if k.startswith("secret")]
    base = new_match(GAME, {"beginner_setup": True}, 2, 0)
    base.state.p[0].plan = {"mag": "workshop"}
    assert free_spaces(base.state, 0, "mag") == ["workshop.0.0", "workshop.0.1"]
    assert base.state.modules == [] and m.state.modules == ["secret_workshop"]


def test_plus_one_ap_and_only_expert_preparation_there():
    m = _secret(tricks=("T17", "T01"), comps={**T17_COMPS, "fabric": 3}, specs=("engineer", "manager", "assistant"))
    st = m.state
    assert st.cur.loc == "secret_workshop" and st.cur.ap == 3 + 1
    choices = GAME.legal_choices(st, 0)
    assert sorted(choices) == ["devolver", "fim", "fr:1", "sx:T01", "sx:T17"]  # no Arquitetar, no Mover ...
    assert st.p[0].specs == ["engineer", "manager", "assistant"]


def test_a_shard_adds_to_the_plus_one():
    m = _secret(shard=True)
    assert m.state.cur.ap == 3 + 1 + 1 and m.state.p[0].shards == 0


def test_one_marker_per_ap_whatever_the_printed_cost():
    m = _secret()
    st, o = m.state, m.state.p[0].tricks[0]
    assert TRICKS["T17"].prepare_ap == 2 and TRICKS["T17"].markers == 2
    do(m, 0, "sx:T17")
    assert GAME.legal_choices(st, 0) == ["sn:1", "sn:2", "sn:3", "sn:4", "voltar"]
    events = do(m, 0, "sn:1")
    assert o.on == 1 and st.cur.ap == 3
    assert "Mesa Flutuante" in locales.render(events[-1].text, "pt_BR")
    do(m, 0, "sx:T17")  # the card already holds a marker: allowed here
    assert GAME.legal_choices(st, 0) == ["sn:1", "sn:2", "sn:3", "voltar"]
    events = do(m, 0, "sn:3")
    assert o.on == 4 and st.cur is None  # no AP left: the actions end by themselves
    assert "trickerion.log.char_spent" in [e.text.key for e in events]


def test_back_spends_nothing():
    m = _secret()
    do(m, 0, "sx:T17", "voltar")
    assert m.state.step == "acoes" and m.state.cur.ap == 4 and m.state.p[0].tricks[0].on == 0


def test_the_components_are_needed_and_never_spent():
    m = _secret(comps={"wood": 3, "fabric": 3, "rope": 2, "petroleum": 1})
    assert [c for c in GAME.legal_choices(m.state, 0) if c.startswith("sx:")] == []
    m = _secret()
    do(m, 0, "sx:T17", "sn:2")
    assert m.state.p[0].comps == T17_COMPS


def test_four_markers_of_a_symbol_card_and_theater_together_no_engineer_bonus():
    m = _secret(tricks=("T01",), comps={"fabric": 2}, specs=("engineer",), on=1)
    st, o = m.state, m.state.p[0].tricks[0]
    o.eng = True  # on the Engineer's slot: Arquitetar would add one marker; this action does not
    card = next(c for c in st.row if c)
    lay(card, 0, o.sym, "T01", CARDS[card.id].slots[0])
    do(m, 0, "sx:T01")
    assert GAME.legal_choices(st, 0) == ["sn:1", "sn:2", "voltar"]  # 1 on the card + 1 in the Theater
    events = do(m, 0, "sn:2")
    assert o.on == 3  # the symbol's 4 markers are all out: nothing left to do with the 2 AP, the actions end
    spent = next(e for e in events if e.text.key == "trickerion.log.char_spent")
    assert spent.text.params["ap"].params["count"] == 2 and st.cur is None


def test_an_apprentice_there_has_two_ap():
    m = _secret(char="a1")
    assert m.state.cur.ap == 1 + 1
    do(m, 0, "sx:T17")
    assert GAME.legal_choices(m.state, 0) == ["sn:1", "sn:2", "voltar"]


def test_one_space_in_total():
    m = start(SW)
    revelar(m, {0: {"mag": "workshop"}, 1: {"mag": "workshop"}}, order=[0, 1])
    place(m, 0, "mag", "secret_workshop.0")
    do(m, 0, "fim")
    assert free_spaces(m.state, 1, "mag") == ["workshop.1.0", "workshop.1.1"]
    assert offered(m, 1, "mag") == ["workshop.1.0"]  # the Workshop's two spaces are one choice
    assert "secret_workshop.0" not in offered(m, 1, "mag")


def test_the_space_frees_at_the_end_of_the_round():
    m = _secret()
    do(m, 0, "fim")
    while m.state.phase != "advertise":
        s = GAME.to_act(m.state)[0]
        choices = GAME.legal_choices(m.state, s)
        lazy = [c for c in ("fim", "pronto", "passar") if c in choices]
        do(m, s, lazy[0] if lazy else choices[0])
    assert not m.state.occ and m.state.round == 2


def test_prompts_render_in_both_languages():
    m = _secret()
    texts = rendered(m, 0)
    assert "Arquitetar com Maestria: Mesa Flutuante" in texts and "Expert Preparation: Floating Table" in texts
    assert any("Oficina Secreta" in t for t in texts) and any("Secret Workshop" in t for t in texts)
    do(m, 0, "sx:T17")
    texts = rendered(m, 0)
    assert "1 marcador (1 PA)" in texts and "3 markers (3 AP)" in texts
    m = start(SW)
    revelar(m, {0: {"mag": "workshop"}}, order=[0, 1])
    assert "Mágico → Oficina Secreta (+1 PA)" in rendered(m, 0)
