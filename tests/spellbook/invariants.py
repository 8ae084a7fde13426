"""Checks that must hold after every action of every Spellbook game."""

from __future__ import annotations

from collections import Counter

from rulesets.core import Game, Match
from rulesets.spellbook.ai.sight import unseen, unseen_by_sight
from rulesets.spellbook.data import FAMILIAR_SPACES, NKIND, PER_KIND, POOL_LIMIT, TRACK_SPACES
from rulesets.spellbook.state import State


def where_materia_are(st: State) -> Counter:
    seen: Counter = Counter()
    for k in range(NKIND):
        seen[k] += st.bag[k] + st.disc[k]
    for place in (st.altar, st.opp, st.bottom):
        seen.update(place)
    for pl in st.players:
        seen.update(pl.pool)
        seen.update(pl.fam)
        seen.update(t for t, lv in zip(pl.tok, pl.lv, strict=True) if lv)
    for task in st.q:  # a spell being paid for: its token and the materia spent so far
        if task["do"].startswith("learn_") and "t" in task:
            seen[task["t"]] += 1
            seen.update(task["sp"])
    return seen


def check_state(st: State) -> None:
    seen = where_materia_are(st)
    assert all(seen[k] == PER_KIND for k in range(NKIND)), f"materia lost or duplicated: {seen}"
    assert min(st.bag) >= 0 and min(st.disc) >= 0
    for i, pl in enumerate(st.players):
        assert len(pl.pool) <= POOL_LIMIT, f"seat {i} pool {len(pl.pool)}"
        assert pl.pool == sorted(pl.pool)
        assert len(pl.fam) <= FAMILIAR_SPACES
        for lv, tok in zip(pl.lv, pl.tok, strict=True):
            assert lv == 0 or 3 <= lv <= 5
            assert (lv == 0) == (tok == -1)
    assert len(st.opp) <= TRACK_SPACES
    assert st.solo or not st.opp and not st.bottom
    # the AI reads what nobody sees off the bag and the box together (sight.unseen): the same counts
    assert unseen(st) == unseen_by_sight(st)


def check(game: Game, match: Match) -> None:
    st = match.state
    check_state(st)
    if not game.is_over(st):
        seat = game.to_act(st)[0]
        choices = game.legal_choices(st, seat)
        assert choices and len(set(choices)) == len(choices), choices
        assert len(choices) <= 22, choices  # one Telegram inline keyboard
        assert all(len(c) <= 24 and c.isascii() for c in choices), choices
