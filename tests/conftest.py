import os

import pytest

from rulesets import registry

# The views' credit (workers/config.py ViewCredit) trades a group status's freshness for fewer
# Bot API calls per move; the tests' stacks read their views at once, so they run without it
# (tests/plumbing/test_views.py tests the credit itself; `boardgamesbot bench` runs with it).
os.environ.setdefault("BGB_VIEW_CREDIT", "off")


@pytest.fixture
def toy_registered(monkeypatch):
    """Registers the core's toy test game (and its AI knowledge) under the name 'toy'."""
    monkeypatch.setitem(registry.GAMES, "toy", "tests.core.toy_game:GAME")
    monkeypatch.setitem(registry.KNOWLEDGE, "toy", "tests.core.toy_ai:KNOWLEDGE")
    registry.get_game.cache_clear()
    registry.get_knowledge.cache_clear()
    yield
    registry.get_game.cache_clear()
    registry.get_knowledge.cache_clear()
