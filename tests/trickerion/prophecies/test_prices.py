"""Prices when a prophecy and the Dark Alley's cards both change them (ruling P18)."""

from rulesets.core import Rng
from rulesets.trickerion import prophecies as P
from rulesets.trickerion.market import unit_price

from ..dark_alley.positions import begin, with_card
from .helpers import activate


def test_p21_keeps_workshop_deliverys_discount_and_the_quick_order_surcharge():
    """Ruling P18: Preço Único sets every component's price to 2; Workshop Delivery's 1 coin off and the
    Quick Order slot's +1 still apply on top of it."""
    m = begin(2, magicians=("M02", "M04"))
    with_card(m, 0, "A45", "market.0")
    st = m.state
    st.modules = [*st.modules, P.NAME]
    P.setup_track(st, Rng(5), [])
    activate(st, "P21")
    st.p[0].comps = {"rope": 1}
    st.stock = ["rope", "wood", None, None]
    st.quick = "mirror"
    assert unit_price(st, "rope") == 1 and unit_price(st, "wood") == 2 and unit_price(st, "mirror") == 3

