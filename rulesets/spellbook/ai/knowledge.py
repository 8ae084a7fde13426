"""What the search knows about Spellbook.

- **Determinization**: everything is on the table but the bag and the discard box, of which a
  seat's view shows only how many Materia each holds. Each iteration deals the unseen Materia
  (105 minus those in sight) between the two at random, and the future draws come from the
  search's own generator, never the game's seed (ruling AI1 in docs/rulings/spellbook.md).
- **Horizon**: the end of a Day (the clock is the number of Days played by everyone); in solo,
  where no other player's Day comes between, the end of every fourth Day (`SOLO_DAYS`): one Day
  ahead, the solo bot lost to the track by 13 points a game, two Days ahead by 4, four Days ahead
  (with the solo evaluation below) by 2.4 (docs/ai.md).
- **Evaluation**: estimated final points (estimate.py) turned into each seat's standing; in solo
  the chance of ending ahead of the track (weighed as a finished game's reward is: mostly the win,
  a little the margin on `SOLO_SCALE`), from the final margin that a linear fit on solo games
  expects from the position and how far games ended from that fit at that Day (solo_value.py,
  whose measures include the hand-made projection against the track, `estimate.solo_lead`).
  Fitted instead of hand-made: 35 wins of 60 instead of 24 (seeds 5001-5060) and, on fresh seeds,
  26 of 60 with a better margin; fitted again with games it played itself, 63 of those 120 instead
  of 61; read as the chance of winning instead of the margin, 70 of 120 instead of 63, but 27 of
  60 fresh ones instead of 29; fitted a third time with difícil's own games, 68 of the 120 and 64
  of 100 fresh ones instead of 48; a fourth time, 119 of 200 as before, 61 of 100 fresh ones
  instead of 55 (docs/ai.md).
- **Policy and ordering**: values.py's judgement of every choice; the rollouts take the best
  with a little noise, the tree searches the best first and fácil only the few best.
- **A plan per iteration (solo)**: each iteration also picks a spell its player sets out to collect
  (`values.plan_weights`: an engine such as Sacrifício the likeliest), and that iteration's judgement
  wants its colour more. The one-move judgement never takes a Materia today to take another
  tomorrow; rollouts that do let the search see a collection pay. Over 100 fresh solo games: 34 wins
  instead of 30, margin −1.7 instead of −2.7 (docs/ai.md).
- **The search's own habits (solo)**: the rollouts add to the judgement the offsets distilled from
  difícil's root visits (distilled.py: per kind of choice, by stage of the game and weighed by the
  seat's reserve, Familiar and spells learned — early on, draw from the bag and keep the Materia
  rather than store): 41 wins of 100 fresh solo games instead of 27; distilled again from the search
  with the fitted evaluation, 115 of 200 instead of 104 (docs/ai.md).
- **The tree, in solo**: below the root, the minor steps (which Materia to pay, give the track or
  discard) are played by the policy instead of taking a level of the tree each (`in_tree`), so the
  tree reaches the next Mornings and Nights: 18 wins of 60 fresh solo games instead of 14 (docs/ai.md).
- **Budget, in solo**: difícil thinks with four times its iterations (`solo_budgets`: 2,400, minor
  steps 840). Twice (1,200) won 130 of 200 paired fresh solo games instead of 114 and 64.6 % of 500;
  four times wins about 73 % of fresh games, at a p95 under 1 s once the search runs compiled
  (docs/ai.md, "Solo, compiled").
- **The tree kept from one decision to the next (solo)**: a search starts from the subtree its last
  one left under the move played (`reuses`, rulesets/core/ai/memory.py): 72 wins of 100 paired solo
  games against 66, then 70, 58 and 84 of 140 fresh — 64.5 % of 440, within chance of the code before
  on fresh seeds, at a lower p95 (0.76–0.94 s in session 27, up to 1.06 s on a slow hour; docs/ai.md).
- **Close calls (difícil, two or more players)**: moves the evaluation at the cut values within 0.03
  of the best are played to the end of the game in the same 40 games each (`Budget.settle`, `close`,
  `settles`); not in solo, where it made the bot worse.
"""

from __future__ import annotations

from rulesets.core.ai import Budget, Knowledge, SearchRng, standing
from rulesets.core.ai.knowledge import MARGIN_SHARE, WIN_SHARE, final_rewards
from rulesets.core.rng import Rng
from rulesets.spellbook.ai import solo_value
from rulesets.spellbook.ai.estimate import estimate
from rulesets.spellbook.ai.rollout import QUIET, deal_unseen, horizon, pick_plan, play_on, rollout_move
from rulesets.spellbook.ai.simstate import copy_state
from rulesets.spellbook.ai.values import NO_PLAN, choice_values, minor_step, undominated
from rulesets.spellbook.day import play
from rulesets.spellbook.game import GAME
from rulesets.spellbook.scoring import seat_points, track_score
from rulesets.spellbook.state import State

MINOR_EFFORT = 0.35  # which Materia to take, store, pay or discard: fewer iterations settle it
FACIL_WIDTH = 4  # fácil searches only this many of the best-looking choices
SOLO_SCALE = 1.2  # solo: points of margin over the track that make a clear lead (2+ players: `scale`);
# the margin's part of a solo value, as of a finished game's reward, is on four times this


def solo_reward(state: State, fit: solo_value.Weights = solo_value.FITTED,
                spread: solo_value.Spread = solo_value.FIT.spread) -> float:
    """A solo cut valued as a finished game is (final_rewards): mostly the chance of ending ahead of
    the track, a little the margin expected — by the data file's fit unless another is given
    (bench/fit_solo_value.py plays each round of difícil's own games with the fit of the rounds before)."""
    mean = solo_value.margin(state, fit)
    by_margin = standing([mean], 4 * SOLO_SCALE, 0.0)[0]
    return WIN_SHARE * solo_value.win_chance(state, mean, spread) + MARGIN_SHARE * by_margin


class SpellbookKnowledge(Knowledge):
    game = GAME
    scale = 4.0
    budgets = {
        "facil": Budget(iterations=60, horizon=1, exploration=0.5, time_cap_s=1.0),
        "medio": Budget(iterations=250, horizon=1, exploration=0.5, time_cap_s=3.0),
        "dificil": Budget(iterations=600, horizon=1, exploration=0.5, bias=0.5, settle=40, close=0.03,
                          tree_weight=2.0, time_cap_s=5.0),
    }
    # Solo, difícil thinks four times as long (2,400 iterations, minor steps 840): one seat's decisions
    # are all the search serves, and the strength is bought with iterations (docs/ai.md, "Solo,
    # compiled"): twice the iterations won 130 of 200 paired fresh games against 114 (sessions 23-24),
    # four times 74 % of fresh ones; affordable since the search runs compiled (rulesets/compiled.py).
    # Fácil and médio keep theirs (fácil's 0.2 s).
    solo_budgets = {"dificil": budgets["dificil"].scaled(4.0)}

    def __init__(self) -> None:
        # The plan of the iteration under way, with the state it was dealt for: the search runs one
        # iteration at a time and calls `determinize` first, so the plan belongs to that copy (held
        # here, so no later object can take its identity); any other state — the real one the
        # workers ask about, another search's — is judged without a plan.
        super().__init__()
        self._plan: tuple[State | None, int] = (None, NO_PLAN)

    def determinize(self, state: State, seat: int, rng: SearchRng) -> State:
        st = copy_state(state)
        if any(st.disc):  # with an empty box the bag is known exactly
            deal_unseen(st, rng)
        self._plan = (st, pick_plan(st, rng) if st.solo else NO_PLAN)
        return st

    def plan(self, state: State) -> int:
        held, colour = self._plan
        return colour if held is state else NO_PLAN

    def evaluate(self, state: State) -> list[float]:
        if state.solo:
            return [solo_reward(state)]
        points, _ = estimate(state)
        return standing(points, self.scale)

    def final(self, state: State) -> list[float]:
        if state.solo:  # final_rewards of GAME.score, without building the score (every late rollout ends here)
            mine, track = seat_points(state, 0), track_score(state)
            won = 1.0 if mine > track else 0.0  # a tie is won by nobody
            return [WIN_SHARE * won + MARGIN_SHARE * standing([float(mine)], SOLO_SCALE * 4, float(track))[0]]
        score = GAME.score(state)
        return final_rewards(score, len(score.seats), self.scale)

    def in_tree(self, state: State) -> bool:
        # Solo: which Materia to pay, give the track or discard takes a level of the tree each, and
        # the tree's means cannot tell them apart (they differ by noise at a few hundred visits);
        # played by the policy below the root, the tree reaches the next Mornings and Nights instead
        # (docs/ai.md, "Solo, a tree of the Day's decisions"). Two players: unchanged.
        return not (state.solo and minor_step(state))

    def reuses(self, state: State) -> bool:
        # Solo: a search starts from the subtree the last one left under the moves played since
        # (memory.py) — under a Morning's choice, some 300–1,000 iterations that went on to the Midday
        # and the Night. Two players: unmeasured, unchanged.
        return state.solo

    def settles(self, state: State) -> bool:
        # Two players: a third of difícil's moves are close calls the evaluation cannot tell apart
        # (which Materia to store, whether to end the game), and the game's end can (docs/ai.md:
        # 93 wins of 156 against médio instead of 88 at 0.01; at 0.03 in common games, 89 of 160
        # instead of 77.5 at 0.01; with the tree's own mean counted twice beside those games, 55.5 of
        # 80 instead of 48.5). Solo: the policy's own games lose the race by 8 points
        # and judge it badly — 4 wins of 23 instead of 8, and slower (docs/ai.md).
        return not state.solo

    def horizon(self, state: State) -> float:
        return horizon(state)

    def play_out(self, state: State, rng: SearchRng, pick: SearchRng, clock: float, limit: int, most: int,
                 actions: int) -> int:
        return play_on(state, rng, pick, clock, limit, most, actions, self.plan(state))

    def policy(self, state: State, seat: int, choices: list[str], rng: SearchRng) -> str:
        return rollout_move(state, seat, choices, self.plan(state), rng)

    def order(self, state: State, seat: int, choices: list[str], level: str) -> list[tuple[str, float]]:
        choices = undominated(state, choices)
        values = choice_values(state, seat, choices, self.plan(state))
        ranked = sorted(zip(choices, values, strict=True), key=lambda cv: -cv[1])
        top = ranked[0][1]
        out = [(c, max(0.0, 1.0 - (top - v) / 3.0)) for c, v in ranked]
        if level == "facil":
            useful = [cv for cv in out if cv[0] != "pass"] if top > 0.3 else out
            out = useful[:FACIL_WIDTH] or out[:1]
        return out

    def budget(self, level: str, state: State | None = None) -> Budget:
        if state is not None and state.solo and level in self.solo_budgets:
            return self.solo_budgets[level]
        return self.budgets[level]

    def effort(self, state: State, seat: int, choices: list[str]) -> float:
        return MINOR_EFFORT if minor_step(state) else 1.0

    def apply(self, state: State, seat: int, choice: str, rng: Rng) -> None:
        play(state, choice, rng, QUIET)


KNOWLEDGE = SpellbookKnowledge()
