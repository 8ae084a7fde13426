"""The end-of-round summary: one public recap per round, whose figures add up to the players' Fame."""

from __future__ import annotations

import pytest

import locales
from rulesets.core import Msg, new_match
from rulesets.trickerion import round_summary
from tests.trickerion.helpers import GAME, purposeful_playout


def _num(text: str) -> int:
    return int(text.replace("−", "-"))


@pytest.mark.parametrize("options", [{}, {"dark_alley": True, "prophecies": True}])
def test_each_round_ends_with_a_public_summary_whose_fame_adds_up(options):
    match = purposeful_playout(3, 11, options)
    summaries = [e for entry in match.log for e in entry.events if e.summary]
    titles = [e for e in summaries if e.text.key == "trickerion.summary.title"]
    assert [t.text.params["round"] for t in titles] == list(range(1, len(titles) + 1))
    assert len(titles) == (7 if options else 5)
    assert all(e.audience is None for e in summaries)  # the group may read all of it
    previous = {s: 5 for s in range(3)}  # everyone starts with 5 Fame
    for e in summaries:
        if e.text.key != "trickerion.summary.player":
            continue
        p = e.text.params
        seat, delta, total = p["player"].seat, _num(p["fame"]), p["total"]
        sources = [s for s in p["sources"] if isinstance(s, Msg) and "fame" in s.params]
        assert sum(_num(s.params["fame"]) for s in sources) == delta
        assert total - previous[seat] == delta, (seat, previous[seat], total, delta)
        previous[seat] = total
    shows = [e for e in summaries if e.text.key == "trickerion.summary.show"]
    performed = [e for entry in match.log for e in entry.events if e.text.key == "trickerion.log.perform"]
    assert len(shows) == len(performed)


def test_summary_tells_where_fame_came_from_the_performances_and_the_wages():
    state = new_match(GAME, {}, 2, 3).state
    state.order = [1, 0]
    round_summary.begin(state)
    state.p[0].fame += 2  # Propaganda
    round_summary.before_performances(state)
    state.p[0].fame += 7
    state.p[0].coins += 4
    card = state.row[0].id
    round_summary.performed(state, 0, card, "friday")
    state.p[1].fame -= 4  # two coins of wages unpaid
    round_summary.wages(state, 1, 1, 4)
    round_summary.wages(state, 0, 3, 0)
    events = []
    round_summary.emit(state, events)
    text = [locales.render(e.text, "pt_BR", ["Ana", "Bia"]) for e in events]
    assert all(e.summary and e.audience is None for e in events)
    assert text[0] == "Resumo da Rodada 0"
    assert text[1] == "Bia: Fama −4 (agora 1) — −4 por salários não pagos; Moedas +0, Fragmentos +0"
    assert text[2] == ("Ana: Fama +9 (agora 14) — +2 antes das Apresentações (Propaganda, Conexões, cartas) e +7 nas "
                       "Apresentações; Moedas +4, Fragmentos +0")
    assert text[3] == f"Sexta-feira: Ana apresentou Teatro Marginal ({card})"
    assert text[4:] == ["Salários: Bia pagou 1 Moeda e perdeu 4 de Fama pelo que faltou.",
                        "Salários: Ana pagou 3 Moedas."]
    english = locales.render(events[2].text, "en", ["Ana", "Bia"])
    assert english.startswith("Ana: Fame +9 (now 14) — +2 before the performances")
