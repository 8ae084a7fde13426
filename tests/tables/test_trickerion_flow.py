"""Trickerion's turn flows (issue 13): a purposeful 3-player game costs each player at most 12 presses a
round on average, counted as a person presses buttons through the table logic, confirmations included;
hand-offs are counted too. `pytest -s` prints the figures."""

from __future__ import annotations

import collections

import pytest

from rulesets.core import load_match
from rulesets.registry import get_game
from rulesets.trickerion.rules import step_of
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from tests.trickerion.purposeful import choose
from workers.tables import handle

GAME = get_game("trickerion")
USERS = [ANA, BIA, CAIO]
ROUNDS = 5
BUDGET = 12  # presses a player, a round, on average (issue 13)


class Table(World):
    """The table logic once per command (the harness runs it twice to check it is deterministic: that
    is tested elsewhere), the group's picture not drawn (what is counted here is presses)."""

    def run(self, cmd):
        table = self.dir.tables.get(cmd.route)
        result = handle(table, cmd, self.dir, self.now)
        self.apply(result, table)
        self.results.append(result)
        self.commands.append(cmd)
        return result


def play(seed: int) -> tuple[dict, dict]:
    """A purposeful 3-player game, rounds 1 to 5: presses by round and seat (round 0 is the setup), and
    hand-offs by round (a player's turn beginning: a new prompt message in their chat)."""
    world = Table()
    world.open_lobby("trickerion", USERS)
    world.update = seed * 1000  # the table's seed comes from the start command's update id
    world.press(ANA, GROUP, "Começar")
    presses: dict[int, collections.Counter] = collections.defaultdict(collections.Counter)
    handoffs: collections.Counter = collections.Counter()
    slots: set[tuple[int, str]] = set()
    while world.table()["status"] == "playing":
        state = load_match(world.table()["match"]).state
        if state.round > ROUNDS:
            break
        moment = 0 if state.phase in ("magician", "start") else state.round
        for out in world.results[-1].outbound:
            if out.slot and out.slot.startswith("prompt.") and (out.chat_id, out.slot) not in slots:
                slots.add((out.chat_id, out.slot))
                handoffs[moment] += 1
        seat, user = next((i, u) for i, u in enumerate(USERS) if world.prompt_buttons(u))
        ids = [c.id for c in GAME.prompt(state, seat).choices]
        index = ids.index(choose(state, seat, ids))
        button = next(b for b in world.prompt_buttons(user) if b.callback_data.endswith(f":{seat}.{index}"))
        presses[moment][seat] += 1
        assert step_of(state, seat)  # a decision, never a press on nothing
        world.click(user, user, button.callback_data)
    return presses, handoffs


@pytest.mark.parametrize("seed", [1, pytest.param(2, marks=pytest.mark.slow)])
def test_a_purposeful_three_player_round_costs_each_player_at_most_twelve_presses(seed):
    presses, handoffs = play(seed)
    print(f"\nseed {seed}: presses per player (seats 0, 1, 2) and hand-offs, by round")
    for moment in sorted(presses):
        counts = [presses[moment][s] for s in range(3)]
        name = "setup" if moment == 0 else f"round {moment}"
        print(f"  {name:8} {counts}  average {sum(counts) / 3:4.1f}  hand-offs {handoffs[moment]}")
    each = [sum(presses[r][s] for r in range(1, ROUNDS + 1)) / ROUNDS for s in range(3)]
    print(f"  rounds 1-{ROUNDS}: per player {[round(a, 1) for a in each]}, {sum(each) / 3:.1f} on average "
          f"(goal: at most {BUDGET})")
    assert all(presses[r] for r in range(1, ROUNDS + 1))  # every round was played
    assert all(a <= BUDGET for a in each)  # each player, on average over the rounds
    # the setup hands the turn to each player once: their magician (after the one before), then their own
    # choices in the same message, at the same time as the others' (no Engineer here: it would choose its
    # extra trick after everyone, one hand-off more)
    assert handoffs[0] == 3
