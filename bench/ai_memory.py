"""A bot's memory of its last search (rulesets/core/ai/memory.py), as the AI task keeps it in Redis
(`ai:mem:<table>`, workers/tables/bots.py `keep`): its size and the time to write and read it back,
per decision of solo Spellbook games played by difícil (or another level), the tournament's way (the
same seeds: `--seed S` plays the tournament's games S, S+1, …).

    .venv/bin/python -m bench.ai_memory [--seed 8901] [--games 1] [--level dificil] [--decisions N]

Prints, over every decision that left a memory: the subtree's nodes, the bytes stored (base64, as in
Redis), and `dump`/`load` in ms (one core), as median / p95 / max; and how many searches started from
a memory, with the visits they started with.
"""

from __future__ import annotations

import argparse
import base64
import statistics
import time

from rulesets.core import new_match
from rulesets.core.ai import decide
from rulesets.core.ai.search import Node
from rulesets.core.match import act
from rulesets.registry import get_game, get_knowledge
from workers.tables.bots import keep, recall


def _nodes(node: Node) -> int:
    count, stack = 0, [node]
    while stack:
        n = stack.pop()
        count += 1
        stack.extend(n.children.values())
    return count


def _q(values: list[float], q: float) -> float:
    data = sorted(values)
    return data[min(len(data) - 1, round(q * (len(data) - 1)))]


def run(seed: int, games: int, level: str, decisions: int | None) -> None:
    game, knowledge = get_game("spellbook"), get_knowledge("spellbook")
    nodes: list[int] = []
    stored: list[int] = []
    dumps: list[float] = []
    loads: list[float] = []
    started_with: list[int] = []
    searched = 0
    for g in range(games):
        match = new_match(game, {"difficulty": 3}, 1, seed + g)
        memory: Node | None = None
        made = 0
        while not game.is_over(match.state) and (decisions is None or made < decisions):
            many = len(game.legal_choices(match.state, 0)) > 1
            if many and memory is not None and knowledge.in_tree(match.state):  # (minor steps search afresh)
                started_with.append(memory.visits)
            decision = decide(game, match.state, 0, level, (seed + g) * 1_000_003 + len(match.log), memory=memory)
            searched += decision.iterations > 0
            if decision.memory is not None and decision.memory is not memory:
                t0 = time.perf_counter()
                blob = keep(decision.memory, 0, match.version + 1, decision.choice)
                t1 = time.perf_counter()
                text = base64.b64encode(blob)
                match, _ = act(match, 0, decision.choice, inplace=True)
                t2 = time.perf_counter()
                back = recall(base64.b64decode(text), match, 0)
                t3 = time.perf_counter()
                assert back is not None and back.visits == decision.memory.visits
                nodes.append(_nodes(decision.memory))
                stored.append(len(text))
                dumps.append((t1 - t0) * 1000)
                loads.append((t3 - t2) * 1000)
            else:
                match, _ = act(match, 0, decision.choice, inplace=True)
            memory = decision.memory
            made += many
    print(f"solo Spellbook, {level}, seeds {seed}..{seed + games - 1}: {searched} searches, "
          f"{len(started_with)} of them from a memory (visits it held: median {statistics.median(started_with):.0f}, "
          f"max {max(started_with)})" if started_with else "no search started from a memory")
    for name, values, unit in (("nodes kept", nodes, ""), ("bytes in Redis", stored, " B"),
                               ("dump (keep)", dumps, " ms"), ("load (recall)", loads, " ms")):
        print(f"  {name:15} median {statistics.median(values):9.1f}{unit}   p95 {_q(values, 0.95):9.1f}{unit}   "
              f"max {max(values):9.1f}{unit}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=8901)
    parser.add_argument("--games", type=int, default=1)
    parser.add_argument("--level", default="dificil")
    parser.add_argument("--decisions", type=int, default=None, help="stop each game after this many decisions")
    args = parser.parse_args()
    run(args.seed, args.games, args.level, args.decisions)


if __name__ == "__main__":
    main()
