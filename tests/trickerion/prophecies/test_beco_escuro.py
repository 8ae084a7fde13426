"""Clarividência and Tecer o Destino through the Beco Escuro's menu in a Dark Alley game with prophecies."""

from rulesets.core import new_match

from ..harness import do, offered, put, revelar
from .helpers import GAME

OPTIONS = {"beginner_setup": True, "dark_alley": True, "prophecies": True}


def _at_the_alley(magician: str = "M03", space: str = "alley.0"):
    m = new_match(GAME, OPTIONS, 2, 3)
    do(m, 0, f"m:{magician}")
    do(m, 1, GAME.legal_choices(m.state, 1)[0])
    revelar(m, {0: {"mag": "alley"}}, order=[0, 1])
    put(m, 0, "mag", f"{space}")
    while m.state.step != "acoes":  # Reforçar o Personagem and any question before the actions: decline
        do(m, 0, next(c for c in GAME.legal_choices(m.state, 0) if c in ("fr:0", "voltar", "fim") or c.endswith(":0")))
    return m


def test_clarividencia_costs_one_ap_moves_the_pending_and_once_per_placement():
    m = _at_the_alley("M01")
    st = m.state
    a, b, c = st.proph.pending
    ap = st.cur.ap
    assert "bx:td" not in GAME.legal_choices(st, 0)  # not the Priestess
    do(m, 0, "bx:cv")
    assert st.proph.pending == [b, c, a] and st.cur.ap == ap - 1 and st.proph.active is None
    assert "bx:cv" not in GAME.legal_choices(st, 0)  # limit: once per placement


def test_tecer_o_destino_by_the_priestess():
    m = _at_the_alley("M03")
    st = m.state
    a, b, c = st.proph.pending
    top = st.proph.pile[0]
    ap = st.cur.ap
    do(m, 0, "bx:td")
    assert GAME.legal_choices(st, 0) == ["td:0", "td:1", "td:2", "voltar"]
    info = [x for x in GAME.prompt(st, 0).info if x.key == "trickerion.prophecies.info_pending"]
    shown = [x.params["prophecy"].key for x in info[0].params["pending"]]
    assert shown == [f"trickerion.prophecy.{p}" for p in (a, b, c)]  # the buttons' numbers, named
    do(m, 0, "td:2")
    assert st.proph.active == c and st.proph.pending == [a, b, top] and st.cur.ap == ap - 1
    assert st.proph.discard == []  # round 1: there was no Active prophecy to discard
    assert "bx:td" in GAME.legal_choices(st, 0)  # no limit but AP (PT p.21 prints none): again
    do(m, 0, "bx:td", "td:0")
    assert st.proph.active == a and st.proph.discard == [c] and st.cur.ap == ap - 2


def _planned(active: str):
    from .helpers import activate

    m = new_match(GAME, OPTIONS, 2, 3)
    do(m, 0, "m:M01")
    do(m, 1, GAME.legal_choices(m.state, 1)[0])
    activate(m.state, active)
    revelar(m, {0: {"mag": "alley"}}, order=[0, 1])
    return m


def test_p18_and_p27_at_the_beco_escuro():
    m = _planned("P18")
    coins = m.state.p[0].coins
    assert coins >= 3 and "alley.0" in offered(m, 0, "mag")
    put(m, 0, "mag", "alley.0")
    assert m.state.p[0].coins == coins - 3  # the Beco Escuro's +2 space costs 3 coins too
    m = _planned("P27")
    assert offered(m, 0, "mag") == ["alley.3"]


def test_p05_draw_further_cards_for_one_ap():
    from rulesets.trickerion.dark_alley.beco_escuro import cost

    m = _planned("P05")
    assert cost(m.state, "comprar_adicionais") == 1 and cost(m.state, "comprar_primeira") == 1
    put(m, 0, "mag", "alley.3")
    while m.state.step != "acoes":
        do(m, 0, next(c for c in GAME.legal_choices(m.state, 0) if c in ("fr:0", "voltar", "fim") or c.endswith(":0")))
    m.state.cur.ap = 1
    assert "bx:2" in GAME.legal_choices(m.state, 0)  # Comprar Cartas Adicionais with a single AP
    m = _planned("P12")
    assert cost(m.state, "comprar_adicionais") == 2  # limit: only while P05 is Active
