"""Final scoring with the Dark Alley: Shards, coins, special cards in hand, level-3 bonuses; no points
for apprentices and specialists; every line capped at 20."""

import pytest

from rulesets.trickerion.dark_alley import level3
from rulesets.trickerion.dark_alley.facts import SPECIALS

from ..helpers import GAME
from .positions import begin, tricks


def lines(state, s):
    return {line.label.key.split(".")[-1] + (f":{line.label.params['trick'].key[-3:]}" if "trick" in line.label.params
                                              else ""): line.points for line in GAME.score(state).seats[s].lines}


def test_special_cards_in_hand_and_no_apprentices_or_specialists():
    m = begin(2, magicians=("M02", "M04"))
    p = m.state.p[0]
    p.shards, p.coins = 3, 10
    p.hand.update({c: 1 for c in list(SPECIALS)[:4]})
    got = lines(m.state, 0)
    assert got["shards"] == 3 and got["coins"] == 3 and got["specials"] == 8
    assert "apprentices" not in got and "specialists" not in got


def test_every_line_is_capped_at_twenty():
    m = begin(2, magicians=("M02", "M04"))
    p = m.state.p[0]
    p.shards, p.coins = 25, 90
    p.hand.update({c: 1 for c in list(SPECIALS)[:11]})
    got = lines(m.state, 0)
    assert got["shards"] == 20 and got["coins"] == 20 and got["specials"] == 20


@pytest.mark.parametrize("tid,setup,points", [
    ("T12", {"specs": ["manager"]}, 7),                      # Desaparecimento do Elefante
    ("T33", {"specs": ["engineer"]}, 7),                     # Enterrado Vivo
    ("T34", {"specs": ["assistant"]}, 7),                    # Vingança da Assistente
    ("T09", {"specs": ["assistant", "engineer", "manager"]}, 12),  # Mutilação
    ("T11", {"tricks": ["T01", "T02", "T03"]}, 10),          # Feras Interiores: four tricks
    ("T21", {}, 3 * 1),                                       # Bálsamo: 3 per superior component (its padlock)
    ("T22", {"apps": ["a1", "a2"]}, 6),                      # Sessão Espírita: 3 per apprentice
    ("T24", {"coins": 10}, 3),                                # Metamorfose: 1 per 3 coins
    ("T46", {"shards": 4}, 4),                                # Serras do Terror: 1 per Shard
    ("T45", {"on": 3}, 6),                                    # Dama Asteca: 2 per marker on trick cards
    ("T48", {"hand": ["A06", "A07"]}, 4),                     # Cão do Inferno: 2 per special card
])
def test_level_three_bonuses(tid, setup, points):
    from rulesets.trickerion.data import TRICKS

    m = begin(2, magicians=("M02", "M04"))
    p = m.state.p[0]
    tricks(m, 0, tid, *setup.get("tricks", []))
    p.comps = dict(TRICKS[tid].components)
    p.multi = [None, None]
    p.specs = setup.get("specs", [])
    p.apps = setup.get("apps", ["a1"])
    p.coins = setup.get("coins", 0)
    p.shards = setup.get("shards", 0)
    p.tricks[0].on = setup.get("on", 0)
    for c in setup.get("hand", []):
        p.hand[c] = 1
    assert level3.bonus(m.state, 0, tid) == points
    p.comps = {}
    assert level3.bonus(m.state, 0, tid) == 0  # the trick's components are needed


@pytest.mark.parametrize("tid,counted,points", [
    ("T35", ("T01", "T02", "T25"), 12),  # Dama de Ferro: 4 per level-1 trick
    ("T47", ("T05", "T06"), 8),          # Autômato: 4 per level-2 trick
])
def test_level_three_tricks_that_count_tricks_need_their_own_components(tid, counted, points):
    """PT p.20: "Se os requisitos de Componentes do Truque forem atendidos, seu proprietário recebe Pontos
    de Fama"; p.22 Dama de Ferro / Autômato: "Receba 4 de Fama por cada Truque de Nível 1 [2] que você
    possui, mesmo que você não cumpra com seus Requisitos de Componentes" — the counted tricks' requirements
    are waived (compare Homem Teletransportado: "dos outros Truques"), not the level-3 trick's own."""
    from rulesets.trickerion.data import TRICKS

    m = begin(2, magicians=("M02", "M04"))
    p = m.state.p[0]
    tricks(m, 0, tid, *counted)
    p.comps, p.multi = {}, [None, None]
    assert level3.bonus(m.state, 0, tid) == 0  # its own components missing: no bonus
    p.comps = dict(TRICKS[tid].components)  # its own met, the counted tricks' not
    assert not any(all(p.comps.get(c, 0) >= k for c, k in TRICKS[t].components.items()) for t in counted)
    assert level3.bonus(m.state, 0, tid) == points


def test_homem_teletransportado_and_the_cap():
    """PT p.22 Homem Teletransportado: "Receba 4 de Fama por cada Truque de Nível 3 que você possui
    (incluindo este), mesmo que você não cumpra com os Requisitos de Componentes dos outros Truques"; its
    own are needed (p.20). PT p.20 "IMPORTANTE": each level-3 trick's extra Fame is limited to 20."""
    m = begin(2, magicians=("M02", "M04"))
    p = m.state.p[0]
    tricks(m, 0, "T36", "T09")
    p.comps = {}
    assert level3.bonus(m.state, 0, "T36") == 0   # Homem Teletransportado needs its own components
    p.comps = {"fabric": 3, "petroleum": 2, "disguise": 2}
    assert level3.bonus(m.state, 0, "T36") == 8   # itself and Mutilação, whose components are missing
    tricks(m, 0, "T10")
    p.comps = {"glass": 3, "petroleum": 3, "mirror": 1, "cog": 1, "rope": 3, "saw": 3, "animal": 3}
    assert level3.bonus(m.state, 0, "T10") == 20  # Escadas de Água: 2 × 11 advanced, capped
    got = lines(m.state, 0)
    assert got["level3:T10"] == 20
