import pytest

import locales
from rulesets import registry
from tests.tables.harness import World
from tests.tables.secret_toy import TEXTS


@pytest.fixture
def world(toy_registered):
    return World()


@pytest.fixture
def secret_world(toy_registered, monkeypatch):
    """The toy game with leak-revealing texts, registered as 'secrettoy'."""
    monkeypatch.setitem(registry.GAMES, "secrettoy", "tests.tables.secret_toy:GAME")
    registry.get_game.cache_clear()
    for lang in locales.LANGUAGES:
        catalog = locales.catalog(lang)
        for key, text in TEXTS.items():
            monkeypatch.setitem(catalog, key, text)
    yield World()
    registry.get_game.cache_clear()
