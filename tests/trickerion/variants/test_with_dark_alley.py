"""The Secret Workshop and the quick game with the Dark Alley: one special assignment card each in
reverse initiative order (the top card of a deck the player picks), seven rounds from round 2, special
Workshop cards at the Secret Workshop; playouts with the Dark Alley's invariants."""

import pytest

from rulesets.core import replay, state_hash
from rulesets.core.match import can_undo
from rulesets.core.playout import random_playout
from rulesets.trickerion.dark_alley.facts import LOCATIONS, SPECIALS
from rulesets.trickerion.placement import free_spaces
from rulesets.trickerion.rules import step_of

from ..dark_alley.checks import Invariants as AlleyInvariants
from ..harness import do, give_tricks, offered, put, revelar
from ..helpers import GAME, eager_playout, purposeful_playout
from .support import finish_quick_setup, rendered, start, workshop_playout

DA = {"dark_alley": True}


def _specials(p) -> list[str]:
    return [c for c in p.hand if c in SPECIALS]


def test_one_special_card_each_in_reverse_initiative_order_then_the_components():
    m = start({**DA, "quick_game": True}, n=3, seed=8)
    st = m.state
    assert st.round == 2 and st.step == "rapido_carta" and st.turn == st.order[-1]
    assert GAME.legal_choices(st, st.turn) == [f"qd:{loc}" for loc in LOCATIONS]
    for k, s in enumerate(reversed(list(st.order))):
        assert st.turn == s and st.step == "rapido_carta"
        top = st.alley.decks[LOCATIONS[k]][0]
        size = len(st.alley.decks[LOCATIONS[k]])
        do(m, s, f"qd:{LOCATIONS[k]}")
        assert _specials(st.p[s]) == [top] and len(st.alley.decks[LOCATIONS[k]]) == size - 1
        assert not can_undo(m, s)  # the card was seen: no taking it back to pick another deck
        for viewer in range(3):
            if viewer != s:
                assert top not in GAME.view(st, viewer)["players"][s]["hand"]
    assert st.turn is None and GAME.to_act(st) == [0, 1, 2]  # the components: everyone at once
    assert all(step_of(st, s) == "rapido_comps" for s in range(3))
    finish_quick_setup(m)
    assert st.phase == "advertise" and st.round == 2
    assert all(p.fame == 8 and p.shards == 2 for p in st.p)


def test_rounds_two_to_seven_and_the_extra_card_from_the_alley_deck():
    m = start({**DA, "quick_game": True}, n=2, seed=3)
    base = start(DA, n=2, seed=3)
    assert [c.id if c else None for c in m.state.row] == [base.state.row[0].id, base.state.deck[0], None]
    assert m.state.deck == base.state.deck[1:] and len(base.state.deck) == 6
    texts = rendered(m, m.state.turn)
    assert any(t.startswith("Partida rápida: de qual Baralho") for t in texts)
    finish_quick_setup(m)
    rounds = []
    while not GAME.is_over(m.state):
        if m.state.phase == "advertise" and (not rounds or rounds[-1] != m.state.round):
            rounds.append(m.state.round)
        s = GAME.to_act(m.state)[0]
        choices = GAME.legal_choices(m.state, s)
        lazy = [c for c in ("pronto", "fim", "passar", "sa") if c in choices]
        do(m, s, lazy[0] if lazy else choices[0])
    assert rounds == [2, 3, 4, 5, 6, 7] and m.state.round == 7


def test_a_special_workshop_card_reaches_the_secret_workshop():
    m = start({**DA, "secret_workshop": True}, n=2, seed=1)
    card = next(c for c, d in SPECIALS.items() if d.location == "workshop" and d.frame == "arquitetar")
    m.state.p[0].hand[card] = 1
    m.state.p[0].plan = {"mag": card}
    assert "secret_workshop.0" in free_spaces(m.state, 0, "mag")
    m.state.p[0].plan = {"mag": "alley"}
    assert "secret_workshop.0" not in free_spaces(m.state, 0, "mag")
    m.state.p[0].plan = {}
    revelar(m, {0: {"mag": card}}, order=[0, 1])
    put(m, 0, "mag", "secret_workshop.0")
    assert m.state.step == "da_especial"
    do(m, 0, "sa")  # +1 AP instead of the printed bonus
    assert m.state.cur.ap == 3 + 1 + 1 and m.state.cur.loc == "secret_workshop"


def _at_secret_workshop_with(card: str):
    m = start({**DA, "secret_workshop": True}, n=2, seed=1)
    p = m.state.p[0]
    p.hand[card] = 1
    p.comps = {"fabric": 2}
    give_tricks(m, 0, "T01")
    revelar(m, {0: {"mag": card}}, order=[0, 1])
    put(m, 0, "mag", "secret_workshop.0")
    return m


def test_a_bonus_framed_for_arquitetar_is_lost_at_the_secret_workshop():
    framed = [c for c, d in SPECIALS.items() if d.location == "workshop" and d.frame == "arquitetar"]
    offered = [c for c in framed if "sb" in GAME.legal_choices(_at_secret_workshop_with(c).state, 0)]
    assert offered  # the Dark Alley offers the printed bonus of some of them
    for card in offered:
        m = _at_secret_workshop_with(card)
        do(m, 0, "sb")  # the printed bonus: it improves Arquitetar, which the Secret Workshop does not offer
        events = do(m, 0, "sx:T01", "sn:2")
        assert "trickerion.log.da_lost" in [e.text.key for e in events], card
        assert m.state.p[0].tricks[0].on == 2 and m.state.alley.mode == "lost"


class Checks(AlleyInvariants):
    """The Dark Alley's invariants; the quick game's setup decisions are checked as part of the setup."""

    def __call__(self, game, match):
        st = match.state
        if st.phase == "round":
            assert all(step_of(st, s) in ("rapido_carta", "rapido_comps") for s in game.to_act(st)) and st.round == 2
            match = match.model_copy(update={"state": st.model_copy(update={"phase": "start"})})
        super().__call__(game, match)
        assert len([k for k in st.occ if k.startswith("secret_workshop.")]) <= 1


COMBOS = {
    "sw": {**DA, "secret_workshop": True},
    "qg": {**DA, "quick_game": True},
    "both": {**DA, "secret_workshop": True, "quick_game": True},
}


def _play(name: str, players: int, seeds: range, beginner: bool) -> None:
    options = {"beginner_setup": beginner, **COMBOS[name]}
    for seed in seeds:
        matches = [random_playout(GAME, players, seed, options, check=Checks()).match]
        matches += [play(players, seed, options, check=Checks())
                    for play in (eager_playout, purposeful_playout, workshop_playout)]
        for match in matches:
            assert GAME.is_over(match.state) and match.state.round == 7
            assert state_hash(replay(match)) == state_hash(match)
            if "quick_game" in options:
                dealt = [e.choice for e in match.log if e.choice.startswith("qd:")]
                assert len(dealt) == players


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(COMBOS))
def test_playouts_with_the_dark_alley(name, players):
    _play(name, players, range(2), beginner=True)


# 3 combinations x 3 player counts x 2 setups x 3 seeds x 4 playouts = 216 games, plus 72 above.
@pytest.mark.slow
@pytest.mark.parametrize("beginner", [False, True])
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("name", list(COMBOS))
def test_many_playouts_with_the_dark_alley(name, players, beginner):
    _play(name, players, range(3000 + 10 * players, 3003 + 10 * players), beginner)


def test_fila_ordenada_leaves_the_secret_workshop_open():
    """P27 keeps each location's lowest free spaces: the Secret Workshop's only space is its lowest."""
    from rulesets.core import Rng
    from rulesets.trickerion import prophecies

    from ..prophecies.helpers import activate

    m = start({"secret_workshop": True}, n=2, seed=0)
    m.state.modules = [*m.state.modules, prophecies.NAME]
    prophecies.setup_track(m.state, Rng(5), [])
    activate(m.state, "P27")
    revelar(m, {0: {"mag": "workshop"}}, order=[0, 1])
    assert offered(m, 0, "mag") == ["workshop.0.0", "secret_workshop.0"]


def test_no_active_prophecy_in_the_quick_games_first_round():
    from rulesets.trickerion import prophecies

    from ..prophecies.helpers import forced_module

    with forced_module(prophecies.NAME):
        m = start({**DA, "quick_game": True}, n=2, seed=4)
        finish_quick_setup(m)
        st = m.state
        assert st.round == 2 and st.proph.active is None and len(st.proph.pending) == 3
        while st.round == 2:
            s = GAME.to_act(st)[0]
            choices = GAME.legal_choices(st, s)
            lazy = [c for c in ("pronto", "fim", "passar", "sa") if c in choices]
            do(m, s, lazy[0] if lazy else choices[0])
        assert st.proph.active is not None


def test_freelancer_at_the_secret_workshop_offers_plus_one_ap_as_at_the_workshop():
    """SW2: any Workshop card reaches the Secret Workshop, so Freelancer's placement there is no use of its
    bonus (which sends the character elsewhere): +1 AP is offered, as at the Workshop."""
    m = start({**DA, "secret_workshop": True}, n=2, seed=1)
    m.state.p[0].hand["A25"] = 1
    for deck in m.state.alley.decks.values():
        if "A25" in deck:
            deck.remove("A25")
    revelar(m, {0: {"mag": "A25"}}, order=[0, 1])
    events = put(m, 0, "mag", "secret_workshop.0")  # (many free spaces: the location first)
    # +1 AP is the only answer there: taken without asking, and told
    assert "trickerion.log.only" in [e.text.key for e in events]
    assert m.state.cur.ap == 3 + 1 + 1 and m.state.cur.loc == "secret_workshop"
