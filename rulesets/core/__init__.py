"""The game-agnostic rules contract shared by every ruleset (see contract.py)."""

from rulesets.core.contract import (
    Card,
    Choice,
    Event,
    FinalScore,
    Game,
    IllegalMove,
    Outcome,
    Prompt,
    RivalScore,
    RulesSection,
    ScoreLine,
    SeatScore,
)
from rulesets.core.match import LogEntry, Match, act, can_undo, load_match, new_match, replay, state_hash, undo
from rulesets.core.messages import Msg, Seat, msg, seat
from rulesets.core.rng import ReplayMismatch, Rng

__all__ = [
    "Card", "Choice", "Event", "FinalScore", "Game", "IllegalMove", "LogEntry", "Match", "Msg", "Outcome",
    "Prompt", "ReplayMismatch", "RivalScore", "Rng", "RulesSection", "ScoreLine", "Seat", "SeatScore", "act",
    "can_undo", "load_match", "msg", "new_match", "replay", "seat", "state_hash", "undo",
]
