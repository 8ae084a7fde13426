"""Spellbook's AI players: they never read what their seat may not see (the bag, the discard box,
the game's future draws), they are deterministic, fácil makes no beginner's blunder, and the
knowledge's pieces (copy, deal, evaluation) are sound. Budgets are cut for speed: the levels'
knowledge is the same, only the iteration counts shrink."""

from __future__ import annotations

import math
import random
from dataclasses import replace
from types import SimpleNamespace

import pytest

from rulesets.core import new_match, replay
from rulesets.core.ai import LEVELS, SearchRng, choose, decide, players
from rulesets.core.ai.knowledge import Budget, final_rewards
from rulesets.core.ai.players import derive_seed
from rulesets.core.ai.search import _rollout, search
from rulesets.core.match import act
from rulesets.core.playout import random_playout
from rulesets.spellbook.ai import KNOWLEDGE, solo_value
from rulesets.spellbook.ai.estimate import SOLO_TRUST, estimate, solo_lead
from rulesets.spellbook.ai.knowledge import SOLO_SCALE, copy_state, minor_step, pick_plan
from rulesets.spellbook.ai.rollout import SOLO_DAYS
from rulesets.spellbook.ai.sight import in_sight
from rulesets.spellbook.ai.simstate import SimPlayer, SimState
from rulesets.spellbook.ai.values import NO_PLAN, PLAN_WANT, choice_values, plan_weights, wants
from rulesets.spellbook.data import KIND_BY_ID, NCOL, NKIND, NRUNE, PER_KIND, SPELL_COLOUR
from rulesets.spellbook.game import GAME
from rulesets.spellbook.scoring import seat_points, track_points
from rulesets.spellbook.state import MIDDAY, MORNING, NIGHT, QuietLog

from .helpers import m, position

SCALE = {"facil": 1.0, "medio": 0.2, "dificil": 0.06}  # iterations kept per level


@pytest.fixture(autouse=True)
def small_budgets(monkeypatch):
    budgets = {level: b.scaled(SCALE[level]) for level, b in KNOWLEDGE.budgets.items()}
    monkeypatch.setattr(KNOWLEDGE, "budgets", budgets)
    solo = {level: b.scaled(SCALE[level]) for level, b in KNOWLEDGE.solo_budgets.items()}
    monkeypatch.setattr(KNOWLEDGE, "solo_budgets", solo)


def _positions(count: int, seed: int) -> list:
    """Matches at varied points of random games (1-4 players, several modes), someone to decide."""
    rnd = random.Random(seed)
    out = []
    while len(out) < count:
        players = rnd.randint(1, 4)
        mode = rnd.choice(["first", "set2", "set3", "classic"])
        full = random_playout(GAME, players, rnd.randrange(10**6), {"mode": mode}).match
        match = replay(full, upto=rnd.randrange(2, len(full.log)))
        seat = GAME.to_act(match.state)[0]
        if len(GAME.legal_choices(match.state, seat)) > 1 and any(match.state.disc):
            out.append(match)
    return out


def _hidden_changed(match, rnd: random.Random):
    """The same table with other future draws (seed, counter) and the bag and the discard box dealt
    differently (same sizes): the unseen Materia go in colour blocks, in a random order of the
    colours, so the box takes whole colours the bag then lacks — the biggest change a seat cannot
    see."""
    st = copy_state(match.state)
    seen = in_sight(st)
    colours = list(range(NCOL))
    rnd.shuffle(colours)
    unseen = sorted((k for k in range(NKIND) for _ in range(PER_KIND - seen[k])),
                    key=lambda k: (colours.index(k // NRUNE), rnd.random()))
    box = sum(st.disc)
    st.disc, st.bag = [0] * NKIND, [0] * NKIND
    for i, k in enumerate(unseen):
        (st.disc if i < box else st.bag)[k] += 1
    return match.model_copy(update={"state": st, "seed": match.seed + 1 + rnd.randrange(1000),
                                    "rng_counter": match.rng_counter + rnd.randrange(1, 50)})


def _thinking(match, level: str, seed: int) -> tuple:
    """What a bot of `level` makes of `match`: its choice, and the search's root statistics (far more
    sensitive than the choice alone: any peek at a draw moves some visit)."""
    seat = GAME.to_act(match.state)[0]
    decision = decide(GAME, match.state, seat, level, seed)
    considered = KNOWLEDGE.order(match.state, seat, GAME.legal_choices(match.state, seat), level)
    if len(considered) == 1:
        return decision.choice, {}
    result = search(KNOWLEDGE, match.state, seat, KNOWLEDGE.budget(level), level, derive_seed(seed, seat, level))
    return decision.choice, result.visits


def _differences(level: str, positions: list, rnd: random.Random) -> int:
    """How many (position, hidden variant) pairs change what the bot of `level` thinks."""
    out = 0
    for i, match in enumerate(positions):
        first = _thinking(match, level, seed=i)
        for _ in range(2):
            other = _hidden_changed(match, rnd)
            assert other.state.bag != match.state.bag
            out += _thinking(other, level, seed=i) != first
    return out


def test_the_knowledge_reads_nothing_hidden_from_the_true_state():
    # the search hands the true state only to determinize, order and effort (everything else runs on
    # determinizations): each must give the same answer whatever the bag and the box hold
    rnd = random.Random(5)
    for match in _positions(12, seed=21):
        st = match.state
        seat = GAME.to_act(st)[0]
        choices = GAME.legal_choices(st, seat)
        for _ in range(2):
            other = _hidden_changed(match, rnd).state
            assert KNOWLEDGE.determinize(other, seat, SearchRng(3)) == KNOWLEDGE.determinize(st, seat, SearchRng(3))
            assert KNOWLEDGE.effort(other, seat, choices) == KNOWLEDGE.effort(st, seat, choices)
            for level in LEVELS:
                assert KNOWLEDGE.order(other, seat, choices, level) == KNOWLEDGE.order(st, seat, choices, level)


@pytest.mark.parametrize("level", LEVELS)
def test_hidden_parts_never_change_the_choice(level):
    positions = _positions(6, seed=100 + LEVELS.index(level))
    assert _differences(level, positions, random.Random(16)) == 0


@pytest.mark.parametrize("level", LEVELS)
def test_a_bot_that_read_the_bag_would_be_caught(level, monkeypatch):
    # the check above can fail: a search on the true bag and box (no re-deal) thinks differently
    monkeypatch.setattr(KNOWLEDGE, "determinize", lambda state, seat, rng: copy_state(state))
    positions = _positions(6, seed=100 + LEVELS.index(level))
    assert _differences(level, positions, random.Random(16)) > 0


def test_the_same_seed_gives_the_same_choice_and_the_match_is_untouched():
    for i, match in enumerate(_positions(4, seed=7)):
        seat = GAME.to_act(match.state)[0]
        before = match.model_dump_json()
        assert choose(match, seat, "medio", 40 + i) == choose(match, seat, "medio", 40 + i)
        assert match.model_dump_json() == before


def test_a_determinization_keeps_what_is_in_sight_and_each_box_size():
    for match in _positions(10, seed=3):
        st = match.state
        d = KNOWLEDGE.determinize(st, 0, SearchRng(5))
        assert sum(d.bag) == sum(st.bag) and sum(d.disc) == sum(st.disc)
        assert [a + b for a, b in zip(d.bag, d.disc, strict=True)] == \
            [a + b for a, b in zip(st.bag, st.disc, strict=True)]
        kept = {name: value for name, value in d.fields().items() if name not in ("bag", "disc")}
        assert kept == st.model_dump(exclude={"bag", "disc"})
        d.players[0].pool.append(0)
        d.q.append({"do": "x"})
        assert st.players[0].pool != d.players[0].pool and st.q != d.q  # a copy of its own


def test_facil_never_passes_a_morning_it_could_use():
    seen = 0
    for seed in range(40):
        match = random_playout(GAME, 2, seed, {}).match
        for upto in range(2, len(match.log), 7):
            rebuilt = replay(match, upto=upto)
            st = rebuilt.state
            if not st.q and st.phase == MORNING and len(st.players[st.cur].pool) < 8 and st.altar:
                seen += 1
                assert choose(rebuilt, st.cur, "facil", seed) != "pass"
                break
    assert seen > 20


@pytest.mark.parametrize("level", LEVELS)
def test_no_level_pays_with_a_wild_when_the_spells_colour_would_do(level):
    # learning Oferenda (black) at level 4 with two black left to pay and three circles beside
    st = position(pools={0: m("black_circle", "black_square", "black_triangle", "red_circle", "green_circle",
                              "blue_circle")}, phase=NIGHT)
    st.q = [{"do": "learn_pay", "m": "s", "c": KIND_BY_ID["black_circle"] // NRUNE, "lv": 4,
             "t": KIND_BY_ID["black_triangle"], "need": 3, "sp": []}]
    st.players[0].pool.remove(KIND_BY_ID["black_triangle"])
    match = new_match(GAME, {}, 2, 1).model_copy(update={"state": st})
    choices = GAME.legal_choices(st, 0)
    assert "wild_circle" in choices and "black_circle" in choices
    assert not choose(match, 0, level, 3).startswith("wild_")


def test_the_evaluation_counts_points_on_the_table():
    lean = position(pools={0: [], 1: []}, fams={0: m("red_circle"), 1: []})
    rich = position(pools={0: m("black_circle", "black_square", "black_triangle", "black_circle"), 1: []},
                    fams={0: m("red_circle", "red_square", "green_circle"), 1: []},
                    learned={0: {"offering": (4, KIND_BY_ID["black_square"])}})
    (a0, a1), _ = estimate(lean)
    (b0, b1), _ = estimate(rich)
    assert b0 - b1 > a0 - a1 + 5  # the lead: a faster storer also brings the end closer for both
    solo = position(players=1, pools={0: []}, opp=m("red_circle", "red_square", "red_triangle", "blue_circle",
                                                    "blue_square", "blue_triangle", "green_circle", "green_square",
                                                    "green_triangle", "white_circle"))
    _, rival = estimate(solo)
    assert rival >= 26  # ten on the track already score 26; more Days will add to it


def test_a_finished_solo_game_is_rewarded_as_its_final_score_says():
    """The search rewards a finished solo rollout from the points without building the score: the same
    rewards as the score's, in games of every difficulty — each also with the track's bottom area
    emptied (a win) and filled to the player's points (a tie, won by nobody)."""
    outcomes = set()
    for seed in range(30):
        played = random_playout(GAME, 1, 3100 + seed, {"difficulty": seed % 4}).match.state
        won = copy_state(played)
        won.opp, won.bottom = won.opp[:1], []
        tied = copy_state(played)
        tied.opp = tied.opp[:1]
        tied.bottom = [0] * (seat_points(tied, 0) - track_points(1))
        for st in (played, won, tied):
            score = GAME.score(st)
            assert KNOWLEDGE.final(st) == final_rewards(score, 1, SOLO_SCALE)
            outcomes.add("tie" if score.notes else "won" if score.winners else "lost")
    assert outcomes == {"won", "lost", "tie"}


def test_the_horizon_cuts_after_each_day_and_in_solo_after_every_four():
    duel, solo = position(), position(players=1, pools={0: []})
    base_duel, base_solo = KNOWLEDGE.horizon(duel), KNOWLEDGE.horizon(solo)
    duel.players[0].days += 1
    solo.players[0].days += 1
    assert KNOWLEDGE.horizon(duel) - base_duel == 1
    assert KNOWLEDGE.horizon(solo) - base_solo == pytest.approx(1 / SOLO_DAYS) and SOLO_DAYS == 4


@pytest.mark.parametrize("level", LEVELS)
def test_a_full_pool_never_passes_a_midday_it_could_store(level):
    # two players who pass every Midday with nine Materia never end the game (seen: Day 300)
    pool = m("red_circle", "red_square", "red_triangle", "green_circle", "green_square", "purple_circle",
             "purple_square", "blue_circle", "blue_square")
    st = position(pools={0: pool, 1: list(pool)}, fams={0: m("white_circle"), 1: []}, phase=MIDDAY,
                  learned={0: {"sacrifice": (3, KIND_BY_ID["yellow_circle"])}})
    choices = GAME.legal_choices(st, 0)
    assert "pass" in choices and any(c.startswith("store.") for c in choices)
    assert "pass" not in [c for c, _ in KNOWLEDGE.order(st, 0, choices, level)]
    match = new_match(GAME, {}, 2, 1).model_copy(update={"state": st})
    assert choose(match, 0, level, 5).startswith("store.")


def test_the_solo_standing_is_the_chance_of_winning_and_a_little_the_margin_on_its_own_scale():
    solo = position(players=1, pools={0: m("black_circle", "black_square")}, opp=m("red_circle", "red_square"))
    margin = solo_value.margin(solo)  # the final margin over the track the fit expects
    assert SOLO_SCALE < KNOWLEDGE.scale
    assert KNOWLEDGE.evaluate(solo)[0] == pytest.approx(
        0.85 * solo_value.win_chance(solo, margin) + 0.15 / (1 + math.exp(-margin / (4 * SOLO_SCALE))))


def test_the_solo_player_is_measured_against_the_track_as_it_stands():
    # ten tokens on the track (26), today's still to come (28), two in the bottom area (30); the Days
    # left would add more
    opp = m("red_circle", "red_square", "red_triangle", "blue_circle", "blue_square", "blue_triangle",
            "green_circle", "green_square", "green_triangle", "white_circle")
    solo = position(players=1, pools={0: m("black_circle", "black_square", "black_triangle")}, opp=opp,
                    fams={0: m("yellow_circle", "yellow_square")}, bottom=m("purple_circle", "purple_square"),
                    learned={0: {"sacrifice": (3, KIND_BY_ID["red_circle"])}})
    mine, track = solo_lead(solo)
    (projected,), rival = estimate(solo)
    now = seat_points(solo, 0)
    assert now == 1 + 2  # Sacrifício at level 3, two on the Familiar
    assert track == track_points(len(opp) + 1) + 2 == 30  # the track's tokens, today's and the bottom's
    assert rival > track  # the estimate's rival adds the Days left; the solo lead does not
    assert mine == pytest.approx(now + SOLO_TRUST * (projected - now))
    assert now < mine < projected  # its own projection counts, but only in part


def test_a_solo_plan_is_most_often_sacrificio_at_the_start_and_none_with_two_players():
    # first-game spells, nothing learned: Sacrifício's income for every Day left returns the most
    # per Materia of its price, so it is the likeliest plan; a learned spell is never a plan
    solo = position(players=1, pools={0: m("blue_circle", "yellow_circle")})
    weights = dict(plan_weights(solo, 0))
    red = SPELL_COLOUR["sacrifice"]
    assert max(weights, key=weights.get) == red
    learned = position(players=1, learned={0: {"sacrifice": (3, KIND_BY_ID["red_circle"])}})
    assert red not in dict(plan_weights(learned, 0))
    rng = SearchRng(7)
    picks = [pick_plan(solo, rng) for _ in range(200)]
    assert max(set(picks), key=picks.count) == red and len(set(picks)) > 1  # the likeliest, not the only one
    duo = position(players=2)
    sim = KNOWLEDGE.determinize(duo, 0, SearchRng(1))
    assert KNOWLEDGE.plan(sim) == NO_PLAN


def test_a_simulation_plays_on_a_copy_the_rules_treat_as_the_state():
    # the search's copy is a SimState (simstate.py): State's fields, nothing of pydantic's (a field
    # added to State and not to SimState fails here: model_dump() lists it, fields() does not)
    spells = sorted(SPELL_COLOUR)
    for match in _positions(8, seed=11):
        state = match.state.model_copy(deep=True)
        sim = copy_state(state)
        assert isinstance(sim, SimState) and isinstance(sim.players[0], SimPlayer)
        assert sim.fields() == state.model_dump()
        chooser, rules, sim_rules = random.Random(4), SearchRng(9), SearchRng(9)
        for _ in range(60):  # the same moves and draws on both: the same positions
            assert (sim.solo, sim.over) == (state.solo, state.over)
            assert [sim.has(p, s) for p in range(len(state.players)) for s in spells] == \
                [state.has(p, s) for p in range(len(state.players)) for s in spells]
            if state.over:
                break
            seat = GAME.to_act(state)[0]
            choices = GAME.legal_choices(state, seat)
            assert GAME.legal_choices(sim, seat) == choices
            choice = chooser.choice(choices)
            GAME.play(state, choice, rules, QuietLog())
            GAME.play(sim, choice, sim_rules, QuietLog())
            assert sim.fields() == state.model_dump()
        again = copy_state(sim)
        assert again == sim and again is not sim and again.players[0] is not sim.players[0]


class _GenericRollouts(type(KNOWLEDGE)):
    """Spellbook's knowledge without its own rollout loop: the search's generic one plays them."""

    play_out = None


def test_spellbooks_own_rollout_loop_plays_the_generic_loops_moves():
    generic = _GenericRollouts()
    for match in _positions(12, seed=21):
        state = match.state
        for budget in (Budget(iterations=1, horizon=1), Budget(iterations=1, horizon=1 << 30, max_rollout=60),
                       Budget(iterations=1, horizon=1 << 30, max_rollout=2000)):
            for world in (1, 2):
                sims, rewards = [], []
                for knowledge in (KNOWLEDGE, generic):
                    sim = knowledge.determinize(state, 0, SearchRng(world))
                    rewards.append(_rollout(knowledge, sim, SearchRng(world + 10), knowledge.horizon(sim), budget, 0,
                                            SearchRng(world + 20)))
                    sims.append(sim.fields())
                assert sims[0] == sims[1] and rewards[0] == rewards[1]


def test_the_plan_belongs_to_its_iterations_copy_and_makes_its_colour_wanted():
    solo = position(players=1, pools={0: m("blue_circle", "yellow_circle")},
                    altar=m("red_circle", "red_triangle", "purple_circle", "purple_square", "blue_triangle",
                            "yellow_square", "green_circle"))
    rng = SearchRng(3)
    sims = [KNOWLEDGE.determinize(solo, 0, rng) for _ in range(5)]
    assert KNOWLEDGE.plan(sims[-1]) != NO_PLAN  # the iteration under way follows a plan
    assert all(KNOWLEDGE.plan(s) == NO_PLAN for s in sims[:-1])  # earlier iterations' copies: no more
    assert KNOWLEDGE.plan(solo) == NO_PLAN  # nor the real state, as the workers ask about it
    red = SPELL_COLOUR["sacrifice"]
    plain, planned = wants(solo, 0), wants(solo, 0, red)
    for k in range(NKIND):
        assert planned[k] == pytest.approx(plain[k] + (PLAN_WANT if k // NRUNE == red else 0.0))
    # set on red, one chosen red beats two random Materia; without the plan it does not
    choices = ["take.red_circle", "draw2"]
    take, draw = choice_values(solo, 0, choices, red)
    assert take > draw
    take, draw = choice_values(solo, 0, choices)
    assert take < draw
    five = position(players=1, pools={0: m("red_circle", "red_circle", "red_square", "red_triangle", "red_triangle")})
    assert wants(five, 0, red) == wants(five, 0)  # five held: the plan is paid for


def test_difficil_settles_close_calls_in_two_player_games_only():
    # a third of difícil's two-player moves are close calls at the cut; solo, the policy's games to
    # the end judge the race too badly to settle anything (docs/ai.md)
    assert KNOWLEDGE.budget("dificil").settle > 0 and KNOWLEDGE.budget("dificil").close == 0.03
    assert KNOWLEDGE.budget("dificil").tree_weight == 2.0
    assert not KNOWLEDGE.budget("medio").settle and not KNOWLEDGE.budget("facil").settle
    assert KNOWLEDGE.settles(position(players=2)) and KNOWLEDGE.settles(position(players=4))
    assert not KNOWLEDGE.settles(position(players=1))


def test_solo_difficil_thinks_four_times_as_long_and_the_other_levels_as_in_company(monkeypatch):
    # four times the iterations win about 74 % of fresh solo games, under 1 s at the p95 compiled
    # (docs/ai.md, "Solo, compiled"); fácil keeps its 0.2 s and médio its budget; without a state (the
    # benches' fits) every level is as in company
    solo, pair = position(players=1), position(players=2)
    assert KNOWLEDGE.budget("dificil", solo) == replace(KNOWLEDGE.budget("dificil"),
                                                      iterations=4 * KNOWLEDGE.budget("dificil").iterations)
    assert KNOWLEDGE.budget("dificil", pair) == KNOWLEDGE.budget("dificil")
    for level in ("facil", "medio"):
        assert KNOWLEDGE.budget(level, solo) == KNOWLEDGE.budget(level, pair) == KNOWLEDGE.budget(level)
    handed = []
    monkeypatch.setattr(players, "search", lambda k, st, seat, budget, *a: handed.append(budget) or
                        SimpleNamespace(choice=GAME.legal_choices(st, seat)[0], iterations=1, capped=False,
                                        visits={}, root=None))
    match = new_match(GAME, {"difficulty": 3}, 1, 7)
    decide(GAME, match.state, 0, "dificil", 5)  # the bots' own call: the solo budget reaches the search
    assert handed == [KNOWLEDGE.budget("dificil", match.state)]


class _CountingMinorSteps(type(KNOWLEDGE)):
    """Spellbook's knowledge, counting the minor steps (which Materia to pay, give, discard) the
    tree ordered: the tree orders a decision only when it makes it a node."""

    def __init__(self, keep_minor_in_tree: bool) -> None:
        super().__init__()
        self.keep = keep_minor_in_tree
        self.minor_nodes = 0

    def in_tree(self, state) -> bool:
        return True if self.keep else super().in_tree(state)

    def order(self, state, seat, choices, level):
        if minor_step(state):
            self.minor_nodes += 1
        return super().order(state, seat, choices, level)


def test_in_solo_the_tree_holds_the_days_decisions_and_the_policy_plays_the_minor_steps():
    match = new_match(GAME, {"difficulty": 3}, 1, 7)
    match, _ = act(match, 0, "draw2")  # to the Midday: the Materia to give the track comes soon after
    assert match.state.phase == MIDDAY and not match.state.q  # a root that is no minor step
    counts = {}
    for keep in (True, False):
        knowledge = _CountingMinorSteps(keep)
        search(knowledge, match.state, 0, KNOWLEDGE.budget("dificil"), "dificil", 11)
        counts[keep] = knowledge.minor_nodes
    assert counts[True] > 0  # as before: the tree reached the Night's payments and the track's token
    assert counts[False] == 0  # now: the policy plays them, the tree walks on to the next decision


def test_two_player_trees_keep_every_decision():
    match = new_match(GAME, {}, 2, 7)
    state = match.state
    assert not state.solo and KNOWLEDGE.in_tree(state)
    st = copy_state(state)
    st.q = [{"do": "feed_bottom"}]
    assert KNOWLEDGE.in_tree(st)
