"""Invariants of Dark Alley games, checked after every action of the playouts."""

from __future__ import annotations

from rulesets.core import Match
from rulesets.trickerion.dark_alley import special_cards
from rulesets.trickerion.dark_alley.facts import SPECIALS
from rulesets.trickerion.data import DAYS, TRICKS
from rulesets.trickerion.rules import characters, effective, markers_in_theater, regular_types, trick_capacity

RANK = {"magician": 0, "start": 0, "round": 0, "advertise": 1, "assign": 2, "place": 3, "perform": 4, "over": 5}


class Invariants:
    """The base game's invariants with seven rounds and level-3 tricks, plus the Dark Alley's."""

    def __init__(self, views_every: int = 1) -> None:
        self.last: tuple[int, int] = (-1, -1)
        self.seen: set[str] = set()    # special cards and magicians that appeared
        self.views_every = views_every  # the views and prompts of every seat: after every n-th action
        self.calls = 0

    def __call__(self, game, match: Match) -> None:
        st = match.state
        now = (st.round, RANK[st.phase])
        assert now >= self.last, f"phase order: {self.last} -> {now}"
        self.last = now
        assert st.round <= 7 and st.rounds == 7 and (st.phase != "over" or st.round == 7)
        special_cards.check(st)
        owners: dict[str, int] = {}
        for s, p in enumerate(st.p):
            self.seen.update(c for c in p.hand if c in SPECIALS)
            if p.magician:
                self.seen.add(p.magician)
            assert p.coins >= 0 and p.fame >= 0 and p.shards >= 0
            for c, n in p.comps.items():
                assert n > 0 and effective(p, c) <= 3
            assert len(regular_types(p)) <= 6
            assert len(p.tricks) <= trick_capacity(p) and len({o.sym for o in p.tricks}) == len(p.tricks)
            for o in p.tricks:
                assert o.t in TRICKS and o.t not in owners
                owners[o.t] = s
                assert 0 <= o.on and o.on + markers_in_theater(st, s, o.sym) <= 4, (o, markers_in_theater(st, s, o.sym))
            team = characters(p)
            assert len(team) == len(set(team)) and len(p.apps) + p.hires.count("apprentice") <= 4
            assert set(p.plan) <= set(team) and set(p.placed) <= set(p.plan) and not set(p.placed) & set(p.idle)
            for card in p.plan.values():
                assert p.hand.get(card, 0) >= 1
            for c, key in p.placed.items():
                assert st.occ[key] == f"{s}:{c}"
        for key, who in st.occ.items():
            s, c = who.split(":")
            assert st.p[int(s)].placed.get(c) == key
        held = [d for d in st.days if d is not None]
        assert len(held) == len(set(held)) and len(st.days) == len(DAYS)
        for card in st.row:
            if card:
                same: dict[tuple[int, int], int] = {}
                for m in card.m.values():  # New Twist allows a second marker of one trick on a card
                    assert owners.get(m.t) == m.seat and m.n in (1, 2)
                    same[m.seat, m.sym] = same.get((m.seat, m.sym), 0) + 1
                assert all(k <= 2 for k in same.values())
        assert len(st.stock) <= 5
        self.calls += 1
        if self.calls % self.views_every == 0 or game.is_over(st):
            self.views(game, st)
        if game.is_over(st):
            for seat_score in game.score(st).seats:
                assert seat_score.total == sum(line.points for line in seat_score.lines)
                assert all(line.points <= 20 for line in seat_score.lines[1:])

    @staticmethod
    def views(game, st) -> None:
        for viewer in (None, *range(st.n)):  # secret hands: never in another seat's or the group's view
            players = game.view(st, viewer)["players"]
            for s in range(st.n):
                if s != viewer:
                    assert not set(players[s]["hand"]) & set(SPECIALS)
                    if st.phase == "assign":
                        assert "plan" not in players[s]
        for seat in game.to_act(st):
            prompt = game.prompt(st, seat)
            assert len(prompt.choices) <= 21, [c.id for c in prompt.choices]  # keyboard-sized
            assert all(len(c.id) <= 32 and c.id.isascii() for c in prompt.choices)
