"""Engine speed: random full games per second, per game and player count, on one core.

Each measurement plays whole games with uniformly random legal choices (the same playouts as
`boardgamesbot engine simulate`), in this process only, and counts this process's CPU time
(`time.process_time`), so the figure is one core's even when other work shares the machine. Only
the playouts are timed: the JSON sizes reported beside them are measured outside that time.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from rulesets.core.match import dump_match
from rulesets.core.playout import random_playout
from rulesets.registry import available, get_game


@dataclass
class EngineFigure:
    game: str
    label: str  # options in short, e.g. "base" or "dark_alley"
    players: int
    games: int
    seconds: float  # CPU seconds of this process spent in the playouts
    actions: int
    state_bytes: int  # JSON size of the final state
    match_bytes: int  # JSON size of the whole match, log included

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    @property
    def actions_per_game(self) -> float:
        return self.actions / self.games if self.games else 0.0


# (game, label, options) rows measured; only games present in this build are run.
SCENARIOS: list[tuple[str, str, dict[str, str]]] = [
    ("spellbook", "set 1", {"mode": "first"}),
    ("spellbook", "classic", {"mode": "classic"}),
    ("trickerion", "base", {}),
    ("trickerion", "dark alley", {"dark_alley": "true"}),
]


def measure(game: str, label: str, options: dict[str, str], players: int, budget_s: float,
            min_games: int = 3, seed: int = 1) -> EngineFigure:
    played = actions = state_bytes = match_bytes = 0
    cpu = 0.0
    started = time.perf_counter()
    while played < min_games or time.perf_counter() - started < budget_s:
        before = time.process_time()
        result = random_playout(game, players, seed + played, options)
        cpu += time.process_time() - before
        played += 1
        actions += result.actions
        state_bytes = max(state_bytes, len(result.match.state.model_dump_json()))
        match_bytes = max(match_bytes, len(dump_match(result.match)))
    return EngineFigure(game, label, players, played, cpu, actions, state_bytes, match_bytes)


def run(budget_s: float = 2.0) -> list[EngineFigure]:
    present = set(available())
    figures = []
    for game, label, options in SCENARIOS:
        if game not in present:
            continue
        spec = get_game(game)
        for players in range(spec.min_players, spec.max_players + 1):
            figures.append(measure(game, label, options, players, budget_s))
    return figures


def table(figures: list[EngineFigure]) -> list[str]:
    lines = [
        "| game | setup | players | games | games per CPU-second (1 core) | actions/game | final state (bytes) "
        "| match with log (bytes) |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for f in figures:
        lines.append(f"| {f.game} | {f.label} | {f.players} | {f.games} | {f.games_per_second:.1f} | "
                     f"{f.actions_per_game:.0f} | {f.state_bytes} | {f.match_bytes} |")
    return lines
