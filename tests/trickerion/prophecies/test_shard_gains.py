"""Every Shard gain of the Dark Alley goes through rules.shards_gained, so that P02 (+1 Shard) and P03
(+2 Fame) see it: Headliner's doubled link, Street Performance, Grand Premiere, Test Run, Break Free."""

from rulesets.core import Rng
from rulesets.trickerion import prophecies as P
from rulesets.trickerion.dark_alley import magicians
from rulesets.trickerion.dark_alley.special_cards import theater as cards_theater
from rulesets.trickerion.dark_alley.special_cards import workshop as cards_workshop
from rulesets.trickerion.rules import links_of
from rulesets.trickerion.state import Owned

from ..dark_alley.positions import begin, card, tricks, with_card
from ..harness import do, rotate_for_links
from .helpers import activate


def _with(m, pid: str = "P02"):
    if P.NAME not in m.state.modules:
        m.state.modules = [*m.state.modules, P.NAME]
        P.setup_track(m.state, Rng(5), [])
    activate(m.state, pid)
    return m.state


def _game():
    return begin(2, magicians=("M02", "M04"))


def test_p02_street_performance_shard_gets_the_extra_shard_and_p03_fame():
    for pid, extra_shards, extra_fame in (("P02", 1, 0), ("P03", 0, 2)):
        m = _game()
        tricks(m, 0, "T01", "T02", on=2)
        with_card(m, 0, "A14", "theater.1.b0")
        st = _with(m, pid)
        tricks(m, 0, "T04", "T02", on=2)
        card(m, 0, "P01", {"0.0": (0, 0, "T04")})
        shards, fame = st.p[0].shards, st.p[0].fame
        do(m, 0, "sp:0:0.0")
        assert st.p[0].shards == shards + 1 + extra_shards
        assert st.p[0].fame >= fame + extra_fame + 1  # T04's Fame (with modifiers) plus the prophecy's


def test_p02_test_run_and_grand_premiere_shards():
    m = _game()
    st = _with(m)
    st.p[0].tricks = [Owned(t="T04", sym=0, on=1)]
    st.ctx = {"t": "T04"}
    shards = st.p[0].shards
    cards_workshop.ensaio(st, 0, "en:1", Rng(0), [])
    assert st.p[0].shards == shards + 2
    st.alley.premiere = {"0": ["T04:1:1:1"]}
    cards_theater.estreia(st, 0, "ge:T04:shards", Rng(0), [])
    assert st.p[0].shards == shards + 4
    st.alley.premiere = {"0": ["T04:1:1:1"]}
    cards_theater.estreia(st, 0, "ge:T04:coins", Rng(0), [])
    assert st.p[0].shards == shards + 4  # limit: a coin gain is no Shard gain


def _shard_link(m):
    c = card(m, 0, "P01", {"0.0": (0, 0, "T01"), "0.1": (0, 1, "T02")})
    rotate_for_links(c, 1)
    assert 0 in links_of(c, "0.1")  # P01's link 0 (0.0-0.1) has a shard circle
    return c


def test_p02_headliner_doubled_shard_link():
    m = _game()
    st = _with(m)
    _shard_link(m)
    shards = st.p[0].shards
    cards_theater.headliner(st, 0, {"links": 1, "fame": 0, "coins": 0, "card": 0, "slot": "0.1"}, [])
    assert st.p[0].shards == shards + 2


def test_p02_master_of_chains_link_shard():
    m = _game()
    st = _with(m)
    c = _shard_link(m)
    marker = c.m.pop("0.1")
    c.m["0.9"] = marker  # the marker Break Free moves (the key is never a slot: it only has to leave)
    st.ctx = {"from": 0, "slot": "0.9", "to": 0}
    st.turn, st.step = 0, "da_correntes_e"
    shards = st.p[0].shards
    magicians.correntes_espaco(st, 0, f"ce:0.1:{marker.d}", Rng(0), [])
    assert st.p[0].shards == shards + 2  # the owner of both markers: 1 + P02's 1
