"""Invariants of the base game, checked after every action of the playouts, and a playout driver
that prefers doing something over "done"/"end"/"back" so that games reach deep positions."""

from __future__ import annotations

import random

from rulesets.core import Match, act, load_match, new_match
from rulesets.core.match import dump_match
from rulesets.registry import get_game
from rulesets.trickerion.data import BASE_TRICKS, DAYS
from rulesets.trickerion.rules import characters, effective, markers_in_theater, regular_types, trick_capacity

GAME = get_game("trickerion")
RANK = {"magician": 0, "start": 0, "advertise": 1, "assign": 2, "place": 3, "perform": 4, "over": 5}
LAZY = {"pronto", "fim", "voltar", "passar", "devolver"}


class Invariants:
    """Call after setup and every action; remembers the phase sequence."""

    def __init__(self) -> None:
        self.last: tuple[int, int] = (-1, -1)

    def __call__(self, game, match: Match) -> None:
        st = match.state
        assert st.phase in RANK, st.phase
        now = (st.round, RANK[st.phase])
        assert now >= self.last, f"phase order: {self.last} -> {now}"
        self.last = now
        assert 0 <= st.round <= 5
        if st.phase == "over":
            assert st.round == 5
        owners: dict[str, int] = {}
        for s, p in enumerate(st.p):
            assert p.coins >= 0 and p.fame >= 0 and p.shards >= 0, (s, p.coins, p.fame, p.shards)
            for c, n in p.comps.items():
                assert n > 0 and effective(p, c) <= 3, (c, n, p.multi)
            assert len(regular_types(p)) <= 6
            assert all(m is None or p.comps.get(m, 0) > 0 for m in p.multi)
            assert len(p.tricks) <= trick_capacity(p) and sum(o.eng for o in p.tricks) <= 1
            assert len({o.sym for o in p.tricks}) == len(p.tricks)
            for o in p.tricks:
                assert o.t in BASE_TRICKS and o.t not in owners
                owners[o.t] = s
                assert 0 <= o.on and o.on + markers_in_theater(st, s, o.sym) <= 4
            # every character accounted for
            team = characters(p)
            assert len(team) == len(set(team))
            assert len(p.apps) + p.hires.count("apprentice") <= 4
            assert len(set(p.specs)) == len(p.specs) and not set(p.specs) & set(p.hires)
            assert p.app_ext is None or p.app_ext in p.apps
            assert set(p.plan) <= set(team) and set(p.placed) <= set(p.plan)
            assert not set(p.placed) & set(p.idle)
            if st.phase in ("place", "perform"):
                for c in team:
                    assert c in p.placed or c in p.idle or c in p.plan, c
            for c, key in p.placed.items():
                assert st.occ[key] == f"{s}:{c}"
            theater_days = {int(k.split(".")[1]) for k in p.placed.values() if k.startswith("theater.")}
            assert len(theater_days) <= 1 and (not theater_days or theater_days == {p.day})
        for key, who in st.occ.items():
            s, c = who.split(":")
            assert st.p[int(s)].placed.get(c) == key
            if key.startswith("theater."):
                assert st.days[int(key.split(".")[1])] == int(s)
        held = [d for d in st.days if d is not None]
        assert len(held) == len(set(held)), "a player holds two weekdays"
        assert len(st.days) == len(DAYS)
        for card in st.row:
            if card:
                seen = set()
                for m in card.m.values():
                    assert owners.get(m.t) == m.seat
                    assert (m.seat, m.sym) not in seen
                    seen.add((m.seat, m.sym))
        if st.phase == "assign":  # secret plans: nobody else's view shows them
            for viewer in (None, 0):
                players = game.view(st, viewer)["players"]
                assert all("plan" not in players[s] for s in range(st.n) if s != viewer)
        if game.is_over(st):
            score = game.score(st)
            for seat_score in score.seats:
                assert seat_score.total == sum(line.points for line in seat_score.lines)
                assert all(line.points <= 20 for line in seat_score.lines[1:])


def survives_json(match: Match) -> None:
    """The saved match loads back equal, log included: the rules build their log lines unvalidated
    (rules.log), so a parameter of the wrong type (a tuple, None) would only show after a reload, in
    the replay that an undo makes."""
    loaded = load_match(dump_match(match))
    assert loaded.log == match.log
    assert loaded.state == match.state


def eager_playout(players: int, seed: int, options: dict | None = None, check=None, lazy: float = 0.15,
                  stand_ins: frozenset[int] = frozenset(), stand_in_check=None):
    """Play to the end, choosing "done"/"end"/"back" only with probability `lazy` when other moves exist.
    Seats in `stand_ins` are played by the game's stand-in from the start; `stand_in_check(state, seat,
    choice)` runs before each of their moves."""
    match = new_match(GAME, options or {}, players, seed)
    rnd = random.Random(seed * 31 + 7)
    if check:
        check(GAME, match)
    for _ in range(20_000):
        if GAME.is_over(match.state):
            return match
        s = rnd.choice(GAME.to_act(match.state))
        choices = GAME.legal_choices(match.state, s)
        if s in stand_ins:
            pick = GAME.stand_in_choice(match.state, s, rnd.randrange(1000))
            if stand_in_check:
                stand_in_check(match.state, s, pick)
            match, _ = act(match, s, pick, inplace=True)
            if check:
                check(GAME, match)
            continue
        busy = [c for c in choices if c not in LAZY and c[:2] not in ("r:", "o:", "dc", "dt")]
        pick = rnd.choice(busy) if busy and rnd.random() > lazy else rnd.choice(choices)
        match, _ = act(match, s, pick, inplace=True)
        if check:
            check(GAME, match)
    raise AssertionError("no end")


WEIGHTS = {"pr": 30, "aq": 30, "preparar": 20, "pp": 20, "st": 5, "sp": 3, "comprar": 6, "aprender": 4, "lt": 2,
           "pc": 1, "propaganda": 2, "reagendar": 2, "hi": 3, "mover_componentes": 2, "mt": 2, "ma": 2}


def _weight(state, choice: str) -> float:
    if choice in LAZY or choice.startswith(("r:", "o:", "dc:", "dt:")):
        return 0.3 if choice != "pronto" or state.step != "assign" else 0.6
    if choice == "l:theater" and state.step == "assign":
        return 6.0
    if choice.startswith(("es:", "al:")) and choice.split(":")[-1].startswith("theater."):
        return 25.0 if choice.endswith(".p") else 6.0  # performing, and setting markers up backstage
    if choice.startswith(("es:", "al:")) and choice.split(":")[-1].startswith("workshop."):
        return 6.0  # preparing the markers
    return WEIGHTS.get(choice.split(":")[0], 1)


def weighted_playout(players: int, seed: int, options: dict | None, check, weight, salt: tuple[int, int]):
    """Random play where `weight(state, choice)` sets each choice's odds; `salt` derives the
    chooser's generator from the seed (each kind of playout explores its own games)."""
    match = new_match(GAME, options or {}, players, seed)
    rnd = random.Random(seed * salt[0] + salt[1])
    if check:
        check(GAME, match)
    for _ in range(20_000):
        if GAME.is_over(match.state):
            return match
        s = rnd.choice(GAME.to_act(match.state))
        choices = GAME.legal_choices(match.state, s)
        pick = rnd.choices(choices, weights=[weight(match.state, c) for c in choices])[0]
        match, _ = act(match, s, pick, inplace=True)
        if check:
            check(GAME, match)
    raise AssertionError("no end")


def purposeful_playout(players: int, seed: int, options: dict | None = None, check=None):
    """Random play weighted towards the game's engine (prepare, set up, perform) so that performances,
    links and specialist moves happen often in the test playouts."""
    return weighted_playout(players, seed, options, check, _weight, (131, 3))
