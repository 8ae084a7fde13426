"""A bot's memory of its last search (rulesets/core/ai/memory.py), on Spellbook solo where the
knowledge reuses it: the next search starts from the subtree of the move played, minor steps and
forced moves leave it as it is, it reads nothing hidden, it never offers a move that is not legal now,
and it survives the bytes the workers keep it in exactly."""

from __future__ import annotations

import random

import pytest

from rulesets.core import new_match
from rulesets.core.ai import Budget, decide, players
from rulesets.core.ai import memory as ai_memory
from rulesets.core.ai.memory import carry
from rulesets.core.ai.search import Node, search
from rulesets.core.ai.tournament import KindStats, play_game
from rulesets.core.match import act
from rulesets.spellbook.ai import KNOWLEDGE
from rulesets.spellbook.ai.values import minor_step
from rulesets.spellbook.game import GAME

from .test_ai import _hidden_changed

SMALL = Budget(iterations=80, horizon=1, exploration=0.5, bias=0.5)


def _solo(seed: int = 3):
    return new_match(GAME, {"difficulty": 3}, 1, seed)


def _to_major(match, rnd: random.Random, decisions: int = 0):
    """Play fácil-ish random moves until a decision the tree keeps below its root (a phase's choice),
    after at least `decisions` of them, with something in the discard box (so the bag is hidden)."""
    seen = 0
    while True:
        st = match.state
        choices = GAME.legal_choices(st, 0)
        if len(choices) > 1 and not minor_step(st):
            if seen >= decisions and any(st.disc):
                return match
            seen += 1
        match, _ = act(match, 0, rnd.choice(choices), inplace=True)


def _same(a: Node, b: Node) -> bool:
    if (a.actor, a.choice, a.prior, a.visits, a.avail, a.total) != (b.actor, b.choice, b.prior, b.visits, b.avail,
                                                                    b.total):
        return False
    return list(a.children) == list(b.children) and all(_same(a.children[k], b.children[k]) for k in a.children)


def test_the_memory_is_the_subtree_of_the_move_played_and_loads_back_exactly():
    match = _to_major(_solo(), random.Random(1), decisions=2)
    decision = decide(GAME, match.state, 0, "dificil", 11, SMALL)
    kept = decision.memory
    assert kept is not None and (kept.actor, kept.choice) == (0, decision.choice)
    assert kept.visits == decision.visits[decision.choice] and kept.children  # it went on to later decisions
    blob = ai_memory.dump(kept)
    again = ai_memory.load(blob)
    assert _same(kept, again) and ai_memory.dump(again) == blob
    assert len(blob) < 64_000  # the workers keep it in Redis beside the table, once per bot move


def test_the_next_search_starts_from_it_and_minor_steps_leave_it_as_it_was():
    match = _to_major(_solo(5), random.Random(2), decisions=1)
    memory = None
    reused = 0
    for step in range(40):
        st = match.state
        choices = GAME.legal_choices(st, 0)
        major = len(choices) > 1 and not minor_step(st)
        before = memory.visits if memory is not None else 0
        decision = decide(GAME, st, 0, "dificil", step, SMALL, memory=memory)
        if len(choices) == 1 or minor_step(st):
            assert decision.memory is memory  # forced and minor moves are no nodes below the root
        elif memory is not None:
            # the search went on from the remembered node: its own iterations were added to it
            assert memory.visits >= before + 1
            reused += 1
        if major:
            assert decision.memory is None or (decision.memory.actor, decision.memory.choice) == (0, decision.choice)
        memory = decision.memory
        match, _ = act(match, 0, decision.choice, inplace=True)
        if GAME.is_over(match.state):
            break
    assert reused >= 3


def test_carry_follows_the_trees_own_rule():
    match = _to_major(_solo(7), random.Random(3))
    st = match.state
    root = search(KNOWLEDGE, st, 0, SMALL, "dificil", 1).root
    tried = next(iter(root.children.values()))
    assert carry(KNOWLEDGE, root, st, 0, tried.choice, 0) is tried
    untried = [c for c in GAME.legal_choices(st, 0) if (0, c) not in root.children]
    if untried:
        assert carry(KNOWLEDGE, root, st, 0, untried[0], 0) is None
    assert carry(KNOWLEDGE, None, st, 0, tried.choice, 0) is None
    rnd = random.Random(4)
    while not minor_step(match.state):
        match, _ = act(match, 0, rnd.choice(GAME.legal_choices(match.state, 0)), inplace=True)
    minor = match.state
    assert carry(KNOWLEDGE, tried, minor, 0, GAME.legal_choices(minor, 0)[0], 0) is tried


def test_a_remembered_move_that_is_not_legal_now_is_never_chosen_nor_stops_the_search():
    match = _to_major(_solo(9), random.Random(5), decisions=1)
    st = match.state
    memory = Node(0, "earlier", 0.0)
    ghost = Node(0, "not-a-move", 0.0)
    ghost.visits, ghost.avail, ghost.total = 10**6, 10**6, 10**6
    memory.children[(0, ghost.choice)] = ghost
    result = search(KNOWLEDGE, st, 0, SMALL, "dificil", 2, memory)
    assert result.choice in GAME.legal_choices(st, 0) and "not-a-move" not in result.visits
    assert result.iterations > 1  # the ghost's lead did not end the search at once


@pytest.mark.parametrize("seed", [1, 2])
def test_the_memory_reads_nothing_hidden(seed):
    # the same table with the bag and the box dealt otherwise (and other future draws): the same memory,
    # and the next decision from it the same
    rnd = random.Random(seed)
    match = _to_major(_solo(20 + seed), rnd, decisions=3)
    other = _hidden_changed(match, rnd)
    assert other.state.bag != match.state.bag
    mine = decide(GAME, match.state, 0, "dificil", seed, SMALL)
    theirs = decide(GAME, other.state, 0, "dificil", seed, SMALL)
    assert mine.choice == theirs.choice and ai_memory.dump(mine.memory) == ai_memory.dump(theirs.memory)
    match, _ = act(match, 0, mine.choice, inplace=True)
    while len(GAME.legal_choices(match.state, 0)) == 1 or minor_step(match.state):
        match, _ = act(match, 0, GAME.legal_choices(match.state, 0)[0], inplace=True)
    later = _hidden_changed(match, rnd)
    a = decide(GAME, match.state, 0, "dificil", seed, SMALL, memory=ai_memory.load(ai_memory.dump(mine.memory)))
    b = decide(GAME, later.state, 0, "dificil", seed, SMALL, memory=ai_memory.load(ai_memory.dump(theirs.memory)))
    assert a.choice == b.choice and a.visits == b.visits


def test_two_players_keep_no_memory():
    match = new_match(GAME, {}, 2, 4)
    seat = GAME.to_act(match.state)[0]
    assert decide(GAME, match.state, seat, "dificil", 1, SMALL).memory is None


def test_the_tournament_hands_each_search_the_memory_its_seat_kept(monkeypatch):
    handed: list[Node | None] = []
    real = players.search

    def spy(knowledge, state, seat, budget, level, seed, memory=None):
        handed.append(memory)
        return real(knowledge, state, seat, budget, level, seed, memory)

    monkeypatch.setattr(players, "search", spy)
    stats = {"facil": KindStats()}
    play_game("spellbook", {"difficulty": 3}, ["facil"], 6, stats)
    started_from = [m for m in handed if m is not None]
    assert len(started_from) > len(handed) // 4  # most phases' choices start from what the last search left
