"""Where each player stands, read from the public view: the round and the Fame on the track
(`Game.progress`: the summary's chart, the replay's jumps), and what each one played with
(`Game.played_with`: the favourites of `/estatisticas`)."""

from __future__ import annotations

from typing import Any

from rulesets.core.summary import Progress

SETUP_PHASES = ("magician", "start")  # before round 1: the magicians, starting tricks and specialists


def round_of(view: dict[str, Any]) -> int:
    """0 during the setup; else the round on the round track (the quick game's first is round 2)."""
    if view.get("phase") in SETUP_PHASES:
        return 0
    return int(view.get("round") or 0)


def progress(view: dict[str, Any]) -> Progress:
    return Progress(round=round_of(view), points=[p.get("fame", 0) for p in view.get("players") or []])


def played_with(view: dict[str, Any], seat: int) -> list[str]:
    """The seat's magician, the tricks in its Workshop at the end and the Specialists on its team."""
    players = view.get("players") or []
    if seat >= len(players):
        return []
    p = players[seat]
    refs = [f"magician:{p['magician']}"] if p.get("magician") else []
    refs += [f"trick:{t}" for t in sorted(o["t"] for o in p.get("tricks") or [])]
    refs += [f"char:{spec}" for spec in sorted(p.get("specs") or [])]
    return refs
