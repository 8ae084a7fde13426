"""The engine's speed work changes no game: seeded games give the same log, state, views and prompts.

Golden fingerprints taken before the engine was made faster (issue 16): a seed must give the very
same game, events, log and saved state, whatever is done to the engine's speed. A rules change that
means to change games updates these fingerprints (`python -m tests.trickerion.test_same_games`).
"""

from __future__ import annotations

import hashlib
import json

from rulesets.core.ai import decide
from rulesets.core.ai.knowledge import Budget
from rulesets.core.match import act, dump_match, new_match
from rulesets.core.playout import random_playout

from .helpers import GAME, eager_playout, purposeful_playout

# (players, seed, options, how): a few of every module, the bench's 4-player Dark Alley above all
CASES = [
    (4, 1, {"dark_alley": True}, "random"),
    (4, 2, {"dark_alley": True}, "random"),
    (4, 3, {"dark_alley": True, "prophecies": True}, "random"),
    (3, 4, {"dark_alley": True, "secret_workshop": True}, "purposeful"),
    (2, 5, {"dark_alley": True, "quick_game": True}, "eager"),
    (4, 6, {}, "random"),
    (2, 7, {"beginner_setup": True, "secret_workshop": True}, "purposeful"),
    (3, 8, {"quick_game": True}, "eager"),
    (3, 9, {"dark_alley": True, "prophecies": True}, "bots"),
]
# the bots' search (its own copies and steps, not `act`), tiny and counted in iterations only
SMALL = Budget(iterations=3, horizon=1, max_rollout=80, time_cap_s=10**6)
KINDS = ("medio", "stand-in", "random")

GOLDEN = {
    '4p seed 1 random dark_alley': '91c99e36734e95a2c03a',
    '4p seed 2 random dark_alley': 'b90f13d0f1ee70d98883',
    '4p seed 3 random dark_alley,prophecies': '77d251bcc89dd3036035',
    '3p seed 4 purposeful dark_alley,secret_workshop': '3612e19da67ae2674bef',
    '2p seed 5 eager dark_alley,quick_game': '177366b3bfbbda7b44c9',
    '4p seed 6 random base': '07a10ee0927a9890be9f',
    '2p seed 7 purposeful beginner_setup,secret_workshop': '91dbe2c3ea40a7cb84a9',
    '3p seed 8 eager quick_game': '62f8aacbaadf4bb94aa0',
    '3p seed 9 bots dark_alley,prophecies': 'fae32bebc12f1363b7de',
}


class Looks:
    """Every 17th position: every seat's prompt and view and the group's view, hashed."""

    def __init__(self) -> None:
        self.n = 0
        self.h = hashlib.sha256()

    def __call__(self, game, match) -> None:
        self.n += 1
        if self.n % 17:
            return
        st = match.state
        for seat in [None, *range(st.n)]:
            self.h.update(json.dumps(game.view(st, seat), sort_keys=True, default=repr).encode())
            if seat is not None and seat in game.to_act(st):
                self.h.update(game.prompt(st, seat).model_dump_json().encode())


def fingerprint(players: int, seed: int, options: dict, how: str) -> str:
    looks = Looks()
    if how == "random":
        match = random_playout(GAME, players, seed, options, check=looks).match
    elif how == "bots":
        match = bots_playout(players, seed, options, check=looks)
    else:
        match = (eager_playout if how == "eager" else purposeful_playout)(players, seed, options, check=looks)
    h = hashlib.sha256(dump_match(match).encode())
    h.update(GAME.score(match.state).model_dump_json().encode())
    h.update(looks.h.digest())
    return h.hexdigest()[:20]


def bots_playout(players: int, seed: int, options: dict, check):
    match = new_match(GAME, options, players, seed)
    while not GAME.is_over(match.state):
        seat = GAME.to_act(match.state)[0]
        choice = decide(GAME, match.state, seat, KINDS[seat % 3], seed + len(match.log), SMALL).choice
        match, _ = act(match, seat, choice, inplace=True)
        check(GAME, match)
    return match


def key(players: int, seed: int, options: dict, how: str) -> str:
    return f"{players}p seed {seed} {how} {','.join(sorted(options)) or 'base'}"


def test_seeded_games_are_the_same_as_before():
    got = {key(*case): fingerprint(*case) for case in CASES}
    assert got == GOLDEN


if __name__ == "__main__":
    for case in CASES:
        print(f"    {key(*case)!r}: {fingerprint(*case)!r},")
