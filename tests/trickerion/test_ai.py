"""Trickerion's AI knowledge: determinizations keep every card in one place and hide what a seat may
not see; the AI's choice does not depend on hidden information (the others' secret assignments, their
special cards, the special decks, the performance deck, the prophecy pile) for any level; the levels
play sensibly. Budgets are tiny: strength is measured by tournaments (docs/ai.md), not here."""

from __future__ import annotations

import random

import pytest

from rulesets.core.ai import SearchRng, decide
from rulesets.core.ai.knowledge import Budget
from rulesets.core.match import act, new_match
from rulesets.trickerion.ai import KNOWLEDGE
from rulesets.trickerion.ai.copying import copy_state
from rulesets.trickerion.dark_alley.facts import SPECIALS
from rulesets.trickerion.dark_alley.special_cards import check as specials_in_one_place
from rulesets.trickerion.data import CARDS
from rulesets.trickerion.placement import shown_plan
from rulesets.trickerion.rules import characters

from .helpers import GAME

OPTIONS = {"dark_alley": True, "prophecies": True}
TINY = {"facil": None, "medio": Budget(iterations=6, horizon=1, max_rollout=150),
        "dificil": Budget(iterations=6, horizon=2, bias=0.5, max_rollout=150)}


def positions(seeds, every: int = 37, players: int = 4, options=OPTIONS):
    """(state, seat) pairs from games the fácil AI plays, every `every` moves, where the seat to act
    has a real choice; the assignment phase is sampled more often (it is where most is hidden)."""
    out = []
    for seed in seeds:
        match = new_match(GAME, options, players, seed)
        rnd = random.Random(seed)
        while not GAME.is_over(match.state):
            st = match.state
            seat = GAME.to_act(st)[0]
            choices = GAME.legal_choices(st, seat)
            if len(choices) > 1 and (len(match.log) % every == 0 or st.phase == "assign" and rnd.random() < 0.02):
                out.append((st.model_copy(deep=True), seat))
            pick = decide(GAME, st, seat, "facil", seed).choice if rnd.random() < 0.8 else rnd.choice(choices)
            match, _ = act(match, seat, pick, inplace=True)
    return out


def scramble(state, seat: int, rnd: random.Random):
    """The same position as `seat` sees it, with everything it may not see changed."""
    st = state.model_copy(deep=True)
    if st.proph is not None:
        rnd.shuffle(st.proph.pile)
    on_table = {c.id for c in st.row if c}
    for i, cid in enumerate(st.deck):  # another card of the same theater, not on the table
        pool = [c for c, d in CARDS.items() if d.theater == CARDS[cid].theater and c not in on_table
                and c not in st.deck]
        if pool and rnd.random() < 0.7:
            st.deck[i] = rnd.choice(pool)
    rnd.shuffle(st.deck) if len({CARDS[c].theater for c in st.deck}) == 1 else None
    for o, p in enumerate(st.p):
        if o == seat:
            continue
        if st.alley is not None:
            for deck in st.alley.decks.values():
                rnd.shuffle(deck)
            shown = set(shown_plan(st, o, seat).values()) if st.phase != "assign" else set()
            for card in [c for c in p.hand if c in SPECIALS and c not in shown]:
                deck = st.alley.decks[SPECIALS[card].location]
                if deck and rnd.random() < 0.7:  # swap with a card of the same deck
                    j = rnd.randrange(len(deck))
                    deck[j], swapped = card, deck[j]
                    p.hand = {(swapped if c == card else c): n for c, n in p.hand.items()}
                    p.plan = {ch: (swapped if c == card else c) for ch, c in p.plan.items()}
        if st.phase == "assign":  # the others' secret cards under characters
            cards = [c for c, n in p.hand.items() for _ in range(n)]
            rnd.shuffle(cards)
            chars = characters(p)
            rnd.shuffle(chars)
            p.plan = dict(zip(chars[:rnd.randrange(len(chars) + 1)], cards, strict=False))
            p.pick = None if p.ready else rnd.choice([None, *[c for c in characters(p) if c not in p.plan]])
        else:
            shown = shown_plan(st, o, seat)
            hidden = [c for c in p.plan if c not in shown]
            cards = [p.plan[c] for c in hidden]
            rnd.shuffle(cards)
            p.plan = {c: shown[c] if c in shown else cards[hidden.index(c)] for c in p.plan}
    return st


POSITIONS = positions(range(2))


def test_positions_cover_the_secret_phases():
    phases = {st.phase for st, _ in POSITIONS}
    assert {"assign", "place"} <= phases
    assert any(st.phase == "assign" and any(p.plan for o, p in enumerate(st.p) if o != seat) for st, seat in POSITIONS)


@pytest.mark.parametrize("level", ["facil", "medio", "dificil"])
def test_choice_ignores_hidden_information(level):
    rnd = random.Random(level)
    for i, (state, seat) in enumerate(POSITIONS):
        seed = 1000 + i
        first = decide(GAME, state, seat, level, seed, TINY[level]).choice
        for _ in range(2):
            other = scramble(state, seat, rnd)
            assert GAME.view(other, seat) == GAME.view(state, seat) or state.phase == "assign"
            assert decide(GAME, other, seat, level, seed, TINY[level]).choice == first, (i, state.step, level)


def test_determinization_keeps_every_card_in_one_place_and_the_seat_own_view():
    rng = SearchRng(5)
    for state, seat in POSITIONS:
        before = state.model_dump()
        sim = KNOWLEDGE.determinize(state, seat, rng)
        assert state.model_dump() == before  # the true state is never touched
        specials_in_one_place(sim)
        assert sim.p[seat] == state.p[seat]
        assert [len(d) for d in sim.alley.decks.values()] == [len(d) for d in state.alley.decks.values()]
        for o in range(state.n):
            assert sum(c in SPECIALS for c in sim.p[o].hand) == sum(c in SPECIALS for c in state.p[o].hand)
            if state.phase != "assign":
                assert shown_plan(sim, o, seat) == shown_plan(state, o, seat)
        assert sorted(sim.proph.pile) == sorted(state.proph.pile)
        assert [CARDS[c].theater for c in sim.deck] == [CARDS[c].theater for c in state.deck]


def test_copy_shares_nothing_mutable():
    state, _ = POSITIONS[-1]
    copy = copy_state(state)
    assert copy == state
    copy.p[0].hand["x"] = 1
    copy.p[0].tricks and setattr(copy.p[0].tricks[0], "on", 9)
    copy.row[0] and copy.row[0].m.clear()
    assert state == state.model_copy(deep=True) and copy != state


def test_facil_plays_sensibly_against_stand_ins():
    """Fácil never passes when something useful is free: it scores far above the stand-ins, who pass."""
    from rulesets.core.ai.tournament import KindStats, play_game

    stats = {k: KindStats() for k in ("facil", "stand-in")}
    record = play_game("trickerion", OPTIONS, ["facil", "stand-in", "stand-in", "stand-in"], 3, stats)
    assert record.winners == [0] and record.scores[0] >= max(record.scores[1:]) + 10


def test_every_level_finishes_a_game():
    """No bot loops: backing out of a menu it chose (and choosing it again) is never a move of theirs."""
    from rulesets.core.ai.tournament import KindStats, play_game

    budgets = {"medio": Budget(iterations=2, horizon=1, max_rollout=60),
               "dificil": Budget(iterations=3, horizon=2, bias=0.5, max_rollout=60)}
    kinds = ["dificil", "medio", "facil", "stand-in"]
    stats = {k: KindStats() for k in kinds}
    record = play_game("trickerion", OPTIONS, kinds, 2, stats, budgets, max_actions=3000)
    assert len(record.scores) == 4 and all(stats[k].seats == 1 for k in kinds)


def test_bots_never_back_out_of_a_menu_they_entered():
    from rulesets.trickerion.ai.knowledge import forward

    for state, seat in POSITIONS:
        choices = GAME.legal_choices(state, seat)
        kept = forward(state, choices)
        assert kept and ("voltar" not in kept or kept == ["voltar"] or choices == ["voltar"])
        assert "devolver" not in kept
