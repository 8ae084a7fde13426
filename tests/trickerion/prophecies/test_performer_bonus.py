"""Aplausos em Dobro (P06) doubles the Bônus do Artista (PT p.18: links, specialists backstage, the card's
printed bonus) and nothing else: the perform-framed special cards' gains (Arranged Fiasco's Fame swing,
Grand Premiere's repaid yield) are not part of it (rulings P9 and DA8)."""

from rulesets.core import Rng
from rulesets.trickerion import prophecies as P

from ..dark_alley.test_special_cards import perform_with
from ..harness import do
from .helpers import activate


def _performed(card_id: str, markers: dict, pid: str | None, first=frozenset()):
    m = perform_with(card_id, markers, first)
    if pid:
        m.state.modules = [*m.state.modules, P.NAME]
        P.setup_track(m.state, Rng(5), [])
        activate(m.state, pid)
    events = do(m, 0, "ap:0")
    return m, {e.text.key.split(".")[-1]: e.text.params for e in events}


def test_p06_doubles_the_performer_bonus_but_not_arranged_fiasco():
    markers = {"0.0": (0, 0, "T01"), "0.1": (0, 1, "T02"), "1.1": (1, 0, "T13")}
    _, plain = _performed("A12", markers, None)
    _, doubled = _performed("A12", markers, "P06")
    assert doubled["performer_bonus"]["fame"] == 2 * plain["performer_bonus"]["fame"] > 0
    assert doubled["da_fiasco"] == plain["da_fiasco"]  # the special card's swing is no Bônus do Artista


def test_p06_does_not_double_grand_premiere():
    markers = {"0.0": (0, 0, "T01"), "0.1": (0, 1, "T02")}
    m, _ = _performed("A13", markers, "P06", first={"T01"})
    fame = m.state.p[0].fame
    do(m, 0, "ge:T02:fame")
    assert m.state.p[0].fame == fame + 3  # T02's Fame yield paid once more, not twice

