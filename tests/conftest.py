import pytest

from rulesets import registry


@pytest.fixture
def toy_registered(monkeypatch):
    """Registers the core's toy test game under the name 'toy'."""
    monkeypatch.setitem(registry.GAMES, "toy", "tests.core.toy_game:GAME")
    registry.get_game.cache_clear()
    yield
    registry.get_game.cache_clear()
