"""Picture speed: how long drawing one picture takes on one core, and how big its PNG is.

A picture is drawn inside the command that makes a move (the group's status, a player's placement
prompt), so its time is part of press→prompt. Positions come from games played in this process
with odds that favour the Workshop and the Theater (tables full of trick markers, the heaviest to
draw), sampled every few actions; each picture is drawn from its view as the bot draws it, after
one warm-up drawing (a worker process draws many: its label cache is warm). Goals (issue 13): the
Trickerion table with 4 players and the Dark Alley at p95 ≤ 60 ms and ≤ 250 KB.
"""

from __future__ import annotations

import random
import statistics
import time
from dataclasses import dataclass

import locales
from rulesets.core import Match, act, contract, new_match
from rulesets.registry import available, get_game

NAMES = ["Ana", "Bruno", "Carla", "Duda"]
GOAL_MS, GOAL_BYTES = 60.0, 250_000
# Choices a player heading for the Theater makes more often (prefixes of Trickerion's choice ids).
THEATRICAL = {"aq": 40, "pp": 30, "pt": 10, "pc": 5, "pe": 3, "reagendar": 3, "comprar": 4, "l:theater": 8,
              "l:workshop": 8, "es:theater": 8, "es:workshop": 8}
LAZY = {"pronto", "fim", "voltar", "passar", "devolver"}


@dataclass
class PictureFigure:
    picture: str
    setup: str
    count: int
    millis: list[float]
    sizes: list[int]

    def pct(self, q: float) -> float:
        ordered = sorted(self.millis)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def _weight(choice: str) -> float:
    if choice in LAZY:
        return 0.3
    if choice.startswith("al:"):  # a character and its space in one choice: weighed by the space
        choice = "es:" + choice.split(":", 2)[2]
    for prefix, w in THEATRICAL.items():
        if choice.startswith(prefix):
            return w
    return 1.0


def positions(game: str, players: int, options: dict, count: int, keep=None, seed: int = 1) -> list[Match]:
    """`count` positions spread over whole games: every 7th action, or each one `keep(match)` wants."""
    spec = get_game(game)
    out: list[Match] = []
    while len(out) < count:
        match = new_match(spec, options, players, seed)
        rnd = random.Random(seed * 17 + 5)
        actions = 0
        while not spec.is_over(match.state) and len(out) < count:
            seat = rnd.choice(spec.to_act(match.state))
            choices = spec.legal_choices(match.state, seat)
            match, _ = act(match, seat, rnd.choices(choices, weights=[_weight(c) for c in choices])[0], inplace=True)
            actions += 1
            if (keep(match) if keep else actions % 7 == 0):
                out.append(match.model_copy(deep=True))
        seed += 1
    return out


def _placing(match: Match) -> bool:
    spec, st = get_game(match.game), match.state
    return st.turn is not None and not spec.is_over(st) and spec.prompt(st, st.turn).picture is not None


def _say(names):
    return lambda m: locales.render(m, "pt_BR", names)


def measure(picture: str, setup: str, game: str, players: int, options: dict, count: int) -> PictureFigure:
    spec = get_game(game)
    names = NAMES[:players]
    say = _say(names)
    jobs: list[tuple[dict, int | None, str | None]] = []  # (view, seat, subject): what the bot would draw
    for match in positions(game, players, options, count, keep=_placing if picture == "placement card" else None):
        st = match.state
        if picture == "table":
            jobs.append((spec.view(st, None), None, None))
        elif picture == "board":
            jobs.append((spec.view(st, 0), 0, contract.BOARD))
        else:  # the card of whoever is setting a trick marker up
            jobs.append((spec.view(st, st.turn), st.turn, spec.prompt(st, st.turn).picture))

    def draw(view: dict, seat: int | None, subject: str | None) -> bytes | None:
        return spec.picture(view, names, say) if seat is None else spec.seat_picture(view, seat, names, say, subject)

    millis, sizes = [], []
    if jobs:
        draw(*jobs[0])  # warm-up: fonts loaded, the label cache filling as in a running worker
    for job in jobs:
        started = time.thread_time()  # CPU time: one core's figure, whatever else the machine runs
        data = draw(*job)
        millis.append((time.thread_time() - started) * 1000)
        sizes.append(len(data or b""))
    return PictureFigure(picture, setup, len(jobs), millis, sizes)


def run(count: int = 60) -> list[PictureFigure]:
    present = set(available())
    out = []
    if "trickerion" in present:
        dark = {"dark_alley": True, "prophecies": True, "beginner_setup": True}
        out.append(measure("table", "Trickerion, 4 players, Dark Alley", "trickerion", 4, dark, count))
        out.append(measure("table", "Trickerion, 2 players, base", "trickerion", 2, {"beginner_setup": True},
                           count // 2))
        out.append(measure("placement card", "Trickerion, 4 players, Dark Alley", "trickerion", 4, dark, count // 2))
        out.append(measure("board", "Trickerion, 4 players, Dark Alley", "trickerion", 4, dark, count // 2))
    if "spellbook" in present:
        out.append(measure("table", "Spellbook, 4 players", "spellbook", 4, {}, count // 2))
    return [f for f in out if f.count]


def table(figures: list[PictureFigure]) -> list[str]:
    lines = ["| picture | game | drawn | median ms | p95 ms | max ms | PNG median KB | PNG max KB |",
             "|---|---|---|---|---|---|---|---|"]
    for f in figures:
        lines.append(f"| {f.picture} | {f.setup} | {f.count} | {statistics.median(f.millis):.1f} | "
                     f"{f.pct(0.95):.1f} | {max(f.millis):.1f} | {statistics.median(f.sizes) / 1000:.0f} | "
                     f"{max(f.sizes) / 1000:.0f} |")
    for f in figures:
        if f.picture == "table" and "Dark Alley" in f.setup:
            p95, biggest = f.pct(0.95), max(f.sizes)
            lines += ["", f"Goal (issue 13): p95 ≤ {GOAL_MS:.0f} ms — {p95:.1f} ms, "
                          f"{'met' if p95 <= GOAL_MS else '**missed**'}; PNG ≤ {GOAL_BYTES // 1000} KB — "
                          f"{biggest / 1000:.0f} KB, {'met' if biggest <= GOAL_BYTES else '**missed**'}."]
    lines += ["", "CPU time of one thread (one core, whatever else the machine runs): each picture drawn from its "
              "view as the bot draws it, PNG encoding included; positions every 7 actions (placement cards: each "
              "placement prompt) of games that favour the Workshop and the Theater; the first drawing (fonts, "
              "label cache) left out."]
    return lines
