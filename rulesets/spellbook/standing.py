"""Where each player stands, read from the public view: the round of Days and the points as they
stand now (`Game.progress`: the summary's chart, the replay's jumps), and the spells each one
learned (`Game.played_with`: the favourites of `/estatisticas`)."""

from __future__ import annotations

from typing import Any

from rulesets.core.summary import Progress


def round_of(view: dict[str, Any]) -> int:
    """0 during the setup; else the round of Days in progress: the first player's Day opens a
    round, and everyone has the same number of Days when the game ends (p.9)."""
    if view.get("phase") == "setup":
        return 0
    players = view.get("players") or []
    first = view.get("first", 0)
    if not players or first >= len(players):
        return 0
    done = players[first].get("days", 0)
    opening = view.get("day_player") == first and not view.get("over")
    return done + 1 if opening else max(done, 1)


def progress(view: dict[str, Any]) -> Progress:
    solo = view.get("solo")  # the opponent's points: its track and its bottom area (scoring.opponent_score)
    rivals = [solo.get("track_points", 0) + len(solo.get("bottom") or [])] if solo else []
    return Progress(round=round_of(view), points=[p.get("points", 0) for p in view.get("players") or []],
                    rivals=rivals)


def played_with(view: dict[str, Any], seat: int) -> list[str]:
    players = view.get("players") or []
    if seat >= len(players):
        return []
    return [f"spell:{name}" for name in sorted(players[seat].get("spells") or {})]
