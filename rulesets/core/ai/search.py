"""Information-set Monte Carlo tree search for one observer seat (Cowling, Powley & Whitehouse,
"Information Set Monte Carlo Tree Search", 2012: single-observer ISMCTS).

Every iteration:
1. determinize: the game's knowledge copies the root state with everything the observer may
   not see re-sampled (others' hidden cards, deck orders, the bag). The true state is never
   simulated, so the choice cannot depend on what the seat does not know;
2. select: walk the tree of moves from the root. A node's children are the moves legal in
   *this* determinization; each counts how often it was available, and UCT uses that count
   instead of the parent's visits (moves that exist only in some determinizations are not
   favoured). A knowledge prior adds progressive bias, fading as a child is visited. Below the
   root, a decision the knowledge keeps out of the tree (`in_tree`) is played by the policy and
   the walk goes on to the next one;
3. expand one untried move (the best by the knowledge's order) and leave the tree;
4. roll out with the knowledge's policy until the game ends or the horizon clock has risen by
   the budget's `horizon` (end of a Day, a round), and score: the real result at the end, the
   knowledge's evaluation at a cut;
5. back up: each node adds the reward of the seat that made its move.

Chance needs no nodes: the rules draw inside `apply` from the search's own `SearchRng`, so
the tree is open-loop over random outcomes (a node is a sequence of moves).

Simultaneous decisions (several seats in `to_act`, as Trickerion's secret assignment): the
observer's own moves are tree moves, and it moves first; the other seats' moves at such a
decision are sampled from the policy and stay out of the tree, so the observer's plan is never
conditioned on choices it could not have seen.

A search may start from a memory instead of an empty root (memory.py): the node of an earlier
search of the same seat that the moves played since lead to. Its statistics count as iterations
already run; the budget's iterations are added to them.

The result is the root move visited most (ties: the better mean, then the knowledge's order);
the search stops early once no other root move could catch up in the iterations left. A level
with `settle` then plays each close call (root moves whose means lie within `close` of the
best's) to the end of the game a few times with the policy and takes the best result, the
tree's own mean counted beside it (`tree_weight`): the evaluation at a cut cannot tell such
moves apart, the game's end can.
"""

from __future__ import annotations

import math
import time
from dataclasses import dataclass, field, replace
from typing import Any

from rulesets.core.ai.knowledge import Budget, Knowledge, SearchRng

_NONE: dict[int, list[str]] = {}  # no menus kept by the game (read only)
SETTLE_VISITS = 10  # a root move visited less than this is no close call: its mean is too unsure
SETTLE_ACTIONS = 2000  # a game played on to settle a close call is cut after this many actions


class Node:
    __slots__ = ("actor", "choice", "prior", "visits", "avail", "total", "children")

    def __init__(self, actor: int, choice: str, prior: float) -> None:
        self.actor = actor  # the seat whose move led here (its rewards are summed)
        self.choice = choice
        self.prior = prior
        self.visits = 0
        self.avail = 0
        self.total = 0.0
        self.children: dict[tuple[int, str], Node] = {}


@dataclass
class SearchResult:
    choice: str
    iterations: int
    capped: bool  # the time safety net (CPU seconds) stopped the search before its budget
    visits: dict[str, int]  # root moves and their visits (for tests and inspection)
    root: Node = field(compare=False, repr=False)  # the tree searched, for the seat's next decision (memory.py)


def search(knowledge: Knowledge, state: Any, seat: int, budget: Budget, level: str, seed: int,
           memory: Node | None = None) -> SearchResult:
    """The observer `seat`'s move in `state` (it must be one of the seats to act), searched from
    `memory` (a subtree an earlier search left, memory.carry) or from an empty root."""
    game = knowledge.game
    rng = SearchRng(seed)
    root = memory if memory is not None else Node(-1, "", 0.0)
    order_at_root: list[str] = []
    started = time.process_time()
    capped = False
    done = 0
    legal = game.legal_choices(state, seat)
    effort = knowledge.effort(state, seat, legal)
    # a remembered root may hold moves that were legal only in the worlds its earlier search dealt
    # (a Midday after another draw): they neither count nor can be chosen
    now = set(legal) if memory is not None else None
    iterations = max(1, round(budget.iterations * effort))
    for done in range(1, iterations + 1):
        sim = knowledge.determinize(state, seat, rng)
        clock = knowledge.horizon(sim)
        path = [root]
        node: Node | None = root
        actions = 0
        while not game.is_over(sim) and node is not None:
            # who acts and their menus, if the game kept them from the last step (nothing changed sim since)
            kept = game.settled(sim)
            seats, menus = kept if kept is not None else (game.to_act(sim), _NONE)
            actor, in_tree = _mover(seats, seat)
            choices = menus.get(actor) or game.legal_choices(sim, actor)
            if len(choices) == 1:
                choice = choices[0]
            elif not in_tree or (node is not root and not knowledge.in_tree(sim)):
                choice = knowledge.policy(sim, actor, choices, rng)  # out of the tree: the walk goes on
            else:
                ranked = knowledge.order(sim, actor, choices, level) or [(choices[0], 0.0)]
                if node is root and not order_at_root:
                    order_at_root = [c for c, _ in ranked]
                child, expanded = _select(node, actor, ranked, budget)
                path.append(child)
                choice = child.choice
                if expanded:
                    node = None  # leave the tree: the rest is the rollout
                else:
                    node = child
            knowledge.apply(sim, actor, choice, rng)
            actions += 1
            if knowledge.horizon(sim) - clock >= budget.horizon:
                break
        rewards = _rollout(knowledge, sim, rng, clock, budget, actions)
        for n in path[1:]:
            n.visits += 1
            n.total += rewards[n.actor]
        root.visits += 1
        if done < iterations and _decided(root, seat, iterations - done, now):
            break
        if time.process_time() - started > budget.time_cap_s and done < iterations:
            capped = True
            break
    mine = [c for c in root.children.values() if c.actor == seat and (now is None or c.choice in now)]
    rank = {c: i for i, c in enumerate(order_at_root)}
    best = max(mine, key=lambda c: (c.visits, c.total / c.visits if c.visits else 0.0,
                                    -rank.get(c.choice, len(rank))))
    best = _settle(knowledge, state, seat, mine, best, rng, budget)
    return SearchResult(choice=best.choice, iterations=done, capped=capped,
                        visits={c.choice: c.visits for c in mine}, root=root)


def _settle(knowledge: Knowledge, state: Any, seat: int, mine: list[Node], best: Node, rng: SearchRng,
            budget: Budget) -> Node:
    """A close call settled by playing on: when other root moves' means lie within `budget.close`
    of the best one's, the evaluation at the cut cannot tell them apart (in Spellbook two-player
    games, a third of the moves: which Materia to store, whether to end the game now — docs/ai.md),
    so each is played to the end of the game `budget.settle` times with the policy, and the best
    mean result is taken — plus `budget.tree_weight` times the tree's own mean for the move: the
    policy's games judge the end better than the cut does, but are noisy and biased by how the
    policy plays, so the tree's small differences still count (docs/ai.md: in Spellbook, at 2,
    55.5 wins of 80 against médio instead of 48.5).

    Every close move is played on in the same games (common random numbers): the same
    determinizations, the same draws of chance and the same policy noise, so what tells two moves
    apart is what they do and not which of them was dealt the luckier games. Measured in Spellbook,
    that is what let the net widen from 0.01 to 0.03 (docs/ai.md)."""
    if not budget.settle or not best.visits or not knowledge.settles(state):
        return best
    top = best.total / best.visits
    close = [c for c in mine if c.visits >= SETTLE_VISITS and top - c.total / c.visits <= budget.close]
    if len(close) < 2:
        return best
    to_the_end = replace(budget, horizon=1 << 30, max_rollout=SETTLE_ACTIONS)
    games = [(_seed(rng), _seed(rng), _seed(rng)) for _ in range(budget.settle)]
    return max(close, key=lambda child: played_on(knowledge, state, seat, child.choice, games, to_the_end)
               + budget.tree_weight * child.total / child.visits)


def _seed(rng: SearchRng) -> int:
    return int(rng.random() * 2**62)


def played_on(knowledge: Knowledge, state: Any, seat: int, choice: str, games: list[tuple[int, int, int]],
              budget: Budget) -> float:
    """`seat`'s mean reward when it plays `choice` and the game goes on with the policy, once per
    game of `games`: seeds of the determinization, of chance (the rules' draws) and of the policy's
    noise, each its own stream so that two moves played in the same game meet the same luck."""
    total = 0.0
    for world, draws, noise in games:
        sim = knowledge.determinize(state, seat, SearchRng(world))
        chance = SearchRng(draws)
        knowledge.apply(sim, seat, choice, chance)
        total += _rollout(knowledge, sim, chance, knowledge.horizon(sim), budget, 0, SearchRng(noise))[seat]
    return total / len(games)


def _decided(root: Node, seat: int, left: int, now: set[str] | None) -> bool:
    """Whether the most visited root move (of those legal `now`, when given) can no longer be
    overtaken in the iterations left (stopping then changes nothing but the time spent)."""
    first = second = 0
    for child in root.children.values():
        if child.actor == seat and (now is None or child.choice in now):
            if child.visits > first:
                first, second = child.visits, first
            elif child.visits > second:
                second = child.visits
    return first - second > left


def _mover(seats: list[int], observer: int) -> tuple[int, bool]:
    """Who moves next in a simulation, and whether that move belongs in the tree."""
    if len(seats) == 1:
        return seats[0], True
    if observer in seats:
        return observer, True
    return seats[0], False


def _select(node: Node, actor: int, ranked: list[tuple[str, float]], budget: Budget) -> tuple[Node, bool]:
    """UCT over the moves available here (ISMCTS availability counts); an untried move first."""
    children = node.children
    fresh: tuple[str, float] | None = None
    available: list[Node] = []
    for choice, prior in ranked:
        child = children.get((actor, choice))
        if child is None:
            if fresh is None:
                fresh = (choice, prior)
            continue
        child.avail += 1
        available.append(child)
    if fresh is not None:
        child = Node(actor, fresh[0], fresh[1])
        child.avail = 1
        children[(actor, fresh[0])] = child
        return child, True
    c, bias = budget.exploration, budget.bias
    best, best_value = available[0], -math.inf
    for child in available:
        value = (child.total / child.visits + c * math.sqrt(math.log(child.avail) / child.visits)
                 + bias * child.prior / (child.visits + 1))
        if value > best_value:
            best, best_value = child, value
    return best, False


def _rollout(knowledge: Knowledge, sim: Any, rng: SearchRng, clock: float, budget: Budget,
             actions: int, noise: SearchRng | None = None) -> list[float]:
    """Play on with the policy to the horizon or the end. `rng` draws chance (the rules') and,
    unless a stream of its own is given as `noise`, the policy's choices too."""
    game = knowledge.game
    pick = rng if noise is None else noise
    # the loop of every iteration: its methods looked up once
    is_over, horizon, settled, policy, apply = (game.is_over, knowledge.horizon, game.settled, knowledge.policy,
                                                knowledge.apply)
    limit, most = budget.horizon, budget.max_rollout
    if knowledge.play_out is not None:  # the game's own loop: the same moves as the one below
        actions = knowledge.play_out(sim, rng, pick, clock, limit, most, actions)
    while not is_over(sim) and horizon(sim) - clock < limit and actions < most:
        kept = settled(sim)  # (as in search)
        seats, menus = kept if kept is not None else (game.to_act(sim), _NONE)
        actor = seats[0] if len(seats) == 1 else seats[int(pick.random() * len(seats))]
        choices = menus.get(actor) or game.legal_choices(sim, actor)
        choice = choices[0] if len(choices) == 1 else policy(sim, actor, choices, pick)
        apply(sim, actor, choice, rng)
        actions += 1
    if is_over(sim):
        return knowledge.final(sim)
    return knowledge.evaluate(sim)
