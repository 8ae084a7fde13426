"""The compiled rules and search against the same Python from source: the same moves, how much faster.

    python -m bench.compiled [--iterations 200] [--seeds 8401,8402,8403] [--rounds 3]

Plays solo Spellbook games (difficulty 3) with difícil's search at a fixed budget, once per round
compiled and once from source (`BGB_PURE=1`, rulesets/compiled.py), each in a process of its own,
the two alternated so that a busy host slows both alike. Prints each game's moves as a digest,
which must be the same both ways, and the CPU seconds of the fastest round of each; exits 1 if a
digest differs or the compiled build is not in use.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import subprocess
import sys
import time


def play(iterations: int, seeds: list[int]) -> dict[str, object]:
    """This process's games: each seed's digest of moves and CPU seconds."""
    from rulesets import compiled
    from rulesets.core.ai import tournament
    from rulesets.registry import get_knowledge

    solo = get_knowledge("spellbook").solo_budgets["dificil"]
    budget = solo.scaled(iterations / solo.iterations)
    moves: list[str] = []
    act = tournament.act

    def noted(match, seat, choice, inplace=False):  # every move of the game, in order
        moves.append(f"{seat}:{choice}")
        return act(match, seat, choice, inplace=inplace)

    tournament.act = noted
    games = {}
    for seed in seeds:
        moves.clear()
        started = time.process_time()
        stats = {"dificil": tournament.KindStats()}
        tournament.play_game("spellbook", {"difficulty": 3}, ["dificil"], seed, stats, budgets={"dificil": budget})
        games[str(seed)] = [hashlib.sha1("\n".join(moves).encode()).hexdigest()[:12], time.process_time() - started]
    return {"status": compiled.STATUS, "games": games}


def run_once(pure: bool, iterations: int, seeds: list[int]) -> dict:
    env = dict(os.environ)
    env.pop("BGB_PURE", None)
    if pure:
        env["BGB_PURE"] = "1"
    out = subprocess.run([sys.executable, "-m", "bench.compiled", "--one", "--iterations", str(iterations),
                          "--seeds", ",".join(map(str, seeds))], env=env, capture_output=True, text=True, check=True)
    return json.loads(out.stdout)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--iterations", type=int, default=200)
    parser.add_argument("--seeds", default="8401,8402,8403")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--one", action="store_true", help="(internal) play once in this process, print JSON")
    args = parser.parse_args()
    seeds = [int(s) for s in args.seeds.split(",")]
    if args.one:
        print(json.dumps(play(args.iterations, seeds)))
        return 0
    best: dict[str, float] = {}
    digests: dict[str, dict[str, str]] = {}
    ok = True
    for r in range(args.rounds):
        for mode in ("compiled", "source"):
            result = run_once(mode == "source", args.iterations, seeds)
            if mode == "compiled" and result["status"] != "compiled":
                print(f"the compiled build is not in use: {result['status']}")
                return 1
            total = sum(cpu for _, cpu in result["games"].values())
            best[mode] = min(best.get(mode, total), total)
            for seed, (digest, _) in result["games"].items():
                digests.setdefault(seed, {})[mode] = digest
            print(f"round {r + 1} {mode:8s} {total:6.1f} s CPU  "
                  + "  ".join(f"{seed}:{d}" for seed, (d, _) in result["games"].items()), flush=True)
    for seed, by_mode in digests.items():
        same = len(set(by_mode.values())) == 1
        ok &= same
        each = ", ".join(f"{m} {d}" for m, d in by_mode.items())
        print(f"seed {seed}: moves {'the same' if same else 'DIFFER'} ({each})")
    print(f"fastest round: compiled {best['compiled']:.1f} s, source {best['source']:.1f} s: "
          f"{best['source'] / best['compiled']:.2f} times as fast compiled")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
