"""Which games exist, by the name players type (`/novojogo spellbook`)."""

from __future__ import annotations

import importlib
import importlib.util
from functools import cache
from typing import TYPE_CHECKING

from rulesets.core.contract import Game

if TYPE_CHECKING:
    from rulesets.core.ai.knowledge import Knowledge

# name -> "module:attribute" of the Game instance; imported on first use.
GAMES: dict[str, str] = {
    "spellbook": "rulesets.spellbook.game:GAME",
    "trickerion": "rulesets.trickerion.game:GAME",
}

# name -> "module:attribute" of the game's AI knowledge (rulesets.core.ai.Knowledge).
KNOWLEDGE: dict[str, str] = {
    "spellbook": "rulesets.spellbook.ai:KNOWLEDGE",
    "trickerion": "rulesets.trickerion.ai:KNOWLEDGE",
}


def available() -> list[str]:
    """Games whose module is present in this build."""
    names = []
    for name, target in GAMES.items():
        try:
            present = importlib.util.find_spec(target.split(":")[0]) is not None
        except ModuleNotFoundError:  # the game's package itself is absent
            present = False
        if present:
            names.append(name)
    return names


@cache
def get_game(name: str) -> Game:
    if name not in GAMES:
        raise KeyError(f"unknown game {name!r}; known: {', '.join(sorted(GAMES))}")
    module, attr = GAMES[name].split(":")
    return getattr(importlib.import_module(module), attr)


@cache
def get_knowledge(name: str) -> Knowledge:
    """The game's knowledge for the AI players (search levels); KeyError if it has none."""
    if name not in KNOWLEDGE:
        raise KeyError(f"no AI knowledge for {name!r}; known: {', '.join(sorted(KNOWLEDGE))}")
    module, attr = KNOWLEDGE[name].split(":")
    return getattr(importlib.import_module(module), attr)
