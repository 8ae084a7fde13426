import pytest

from rulesets import registry


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
