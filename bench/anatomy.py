"""The anatomy of one move: where the time between a press and the next prompt goes.

The stacks run with `BGB_ANATOMY=1`, so the webhook and the worker stamp each press
(workers/anatomy.py: wall clock, this machine); the scripted players stamp the press, its
answer and the first message delivered after it (bench/live.py, in the emulator's process). The
records are lined up by callback query id, for the presses that were moves:

    emulator → webhook       the press queued in the emulator → the webhook's request began
    webhook intake           → the command in its inbox (dedupe, admission, RPUSH: one Lua call)
    hand-off to a worker     → the drainer read it (Celery's task, the route's lease, the commands
                               queued before it on that table)
    reading the table        → the table document loaded and decoded
    table logic              → `tables.handle` returned (rules, texts, pictures drawn in it)
    commit                   → the commit returned (plan, zlib, one Lua call)
    outbox → Bot API         → the prompt stored by the emulator (token, request, Telegram's work)
    press → prompt           the whole, as the players feel it
    press → answer           the toast: the verdict in the webhook's reply (or the worker's request)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from workers import anatomy
from workers.keys import Keys

STAGES = [
    ("emulator → webhook", "pressed", "recv"),
    ("webhook intake", "recv", "queued"),
    ("hand-off to a worker", "queued", "picked"),
    ("reading the table", "picked", "loaded"),
    ("table logic", "loaded", "handled"),
    ("commit", "handled", "committed"),
    ("outbox → Bot API", "committed", "delivered"),
    ("press → prompt", "pressed", "delivered"),
    ("press → answer", "pressed", "answered"),
]


@dataclass
class AnatomyFigure:
    label: str
    moves: int
    stages: dict[str, list[float]] = field(default_factory=dict)  # stage -> seconds
    late: int = 0  # presses the webhook stopped waiting for (answered by a request)

    def pct(self, stage: str, q: float) -> float:
        xs = sorted(self.stages.get(stage) or [])
        return xs[min(len(xs) - 1, int(q * len(xs)))] if xs else float("nan")


def measure(stack, live, label: str, since: float) -> AnatomyFigure:
    """Line up every press made after `since` (wall clock) that was a move."""
    keys = Keys(stack.prefix)
    hook = {h["q"]: h for h in anatomy.read(stack.redis, keys, "hook")}
    work = {w["q"]: w for w in anatomy.read(stack.redis, keys, "work")}
    figure = AnatomyFigure(label, 0)
    for q, timed in list(live.presses.items()):
        if timed.get("pressed", 0) < since or not timed.get("moved") or q not in work:
            continue
        row = {**timed, **hook.get(q, {}), **work[q]}
        figure.moves += 1
        figure.late += row.get("how") == "late"
        for name, start, end in STAGES:
            if row.get(start) is not None and row.get(end) is not None:
                figure.stages.setdefault(name, []).append(max(0.0, row[end] - row[start]))
    return figure


def table(figures: list[AnatomyFigure]) -> list[str]:
    head = "| stage | " + " | ".join(f"{f.label} median / p95 / p99 (ms)" for f in figures) + " |"
    lines = [head, "|---|" + "---|" * len(figures)]
    for name, _, _ in STAGES:
        cells = []
        for f in figures:
            cells.append(" / ".join("–" if f.pct(name, q) != f.pct(name, q) else f"{f.pct(name, q) * 1000:.0f}"
                                    for q in (0.5, 0.95, 0.99)))
        lines.append(f"| {name} | " + " | ".join(cells) + " |")
    lines.append("| moves lined up (answers the webhook stopped waiting for) | "
                 + " | ".join(f"{f.moves} ({f.late})" for f in figures) + " |")
    return lines
