"""Every card of every game explains itself in both languages, and prompts name only real cards.

The card ids are read from the games' own data files (rulesets/*/data/*.yaml), not from the code
that builds the texts, so a card added to the data without its texts fails here."""

from __future__ import annotations

from pathlib import Path

import pytest
import yaml

import locales
from rulesets.core import new_match
from rulesets.core.playout import random_playout
from rulesets.registry import get_game
from tests.trickerion.helpers import purposeful_playout

DATA = Path(__file__).resolve().parents[2] / "rulesets"


def _yaml(game: str, name: str) -> dict:
    return yaml.safe_load((DATA / game / "data" / name).read_text(encoding="utf-8"))


def data_refs() -> dict[str, list[str]]:
    board = _yaml("trickerion", "board.yaml")
    trickerion = ([f"magician:{m['id']}" for m in board["magicians"]]
                  + [f"char:{c}" for c in ("magician", "apprentice", *board["specialists"])]
                  + [f"trick:{t['id']}" for t in _yaml("trickerion", "tricks.yaml")["tricks"]]
                  + [f"perf:{c['id']}" for c in _yaml("trickerion", "performance_cards.yaml")["cards"]]
                  + [f"special:{c['id']}" for c in _yaml("trickerion", "special_assignments.yaml")["cards"]]
                  + [f"prophecy:{p['id']}" for p in _yaml("trickerion", "prophecies.yaml")["prophecies"]])
    spellbook = [f"spell:{s['id']}" for s in _yaml("spellbook", "spells.yaml")["spells"]] + ["familiar"]
    return {"trickerion": trickerion, "spellbook": spellbook}


ALL = [(game, ref) for game, refs in data_refs().items() for ref in refs]


def test_every_data_file_card_is_a_card_of_its_game():
    for game, refs in data_refs().items():
        assert sorted(get_game(game).cards()) == sorted(refs), game
    assert len(ALL) == 156 + 22  # Trickerion 8+5+48+28+40+27, Spellbook 21 spells and the Familiar


@pytest.mark.parametrize(("game", "ref"), ALL)
def test_card_has_a_name_and_a_text_in_both_languages(game, ref):
    card = get_game(game).card(ref)
    assert card is not None and card.ref == ref and card.text
    rendered = {}
    for lang in locales.LANGUAGES:
        name = locales.render(card.name, lang)  # raises MissingText when a key is missing
        text = [locales.render(m, lang) for m in card.text]
        assert name.strip() and all(t.strip() for t in text), (lang, ref)
        assert "{" not in name + "".join(text), (lang, ref)
        rendered[lang] = " ".join(text)
    assert rendered["pt_BR"] != rendered["en"], ref  # an untranslated text would read the same


def test_a_magician_shows_its_power_only_with_the_dark_alley():
    game = get_game("trickerion")
    base = new_match(game, {}, 2, 1).state
    alley = new_match(game, {"dark_alley": True}, 2, 1).state
    assert len(game.card("magician:M01", base).text) == 1
    assert len(game.card("magician:M01", alley).text) == 2
    assert len(game.card("magician:M01").text) == 2  # /carta outside a game: the power, marked as the Dark Alley's


def test_unknown_references_are_no_card():
    for game in ("trickerion", "spellbook"):
        for ref in ("", "trick", "trick:T99", "nope:T01", "spell:", "magician:M01:x"):
            assert get_game(game).card(ref) is None


def _named(game, match, named: set[str]) -> None:
    for seat in game.to_act(match.state):
        for ref in game.prompt(match.state, seat).cards:
            assert game.card(ref, match.state) is not None, ref
            named.add(ref.split(":")[0])


def test_trickerion_prompts_name_real_cards():
    """A purposeful game with the Dark Alley and prophecies: every card a prompt names exists, and every kind of
    card is named by some prompt (performance cards as soon as a trick is set up)."""
    named: set[str] = set()
    options = {"dark_alley": True, "prophecies": True, "beginner_setup": True}  # (tricks prepared from round 1)
    purposeful_playout(3, 5, options, check=lambda g, m: _named(g, m, named))
    assert named == {"magician", "char", "trick", "perf", "special", "prophecy"}, named


def test_spellbook_prompts_name_real_cards():
    game = get_game("spellbook")
    named: set[str] = set()
    random_playout(game, 2, 3, check=lambda g, m: _named(g, m, named))
    assert named == {"spell"}
