"""No question with a single answer is asked (issue 13): random games of both games, played through the
table logic as a person presses buttons, never show a prompt whose buttons offer one choice (backing out
of a menu aside), except the confirmations the rules require, listed below with why."""

from __future__ import annotations

import random

import pytest

import locales
from rulesets.core import load_match
from rulesets.registry import get_game
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from tests.trickerion import route
from workers.tables import handle

USERS = [ANA, BIA, CAIO, 104]
BACK = {locales.text("trickerion.choice.voltar", "pt_BR")}  # backing out of a menu: not an answer
# Prompts the rules require even with one answer: none. Each game applies a single answer itself and
# says so in the log (Trickerion: "única opção"); Spellbook never asks a question with one answer. A
# confirmation the rules required would be listed here as (game, title key) with the rule that wants it.
CONFIRMATIONS: set[tuple[str, str]] = set()


class Table(World):
    """The table logic once per command (its determinism is tested elsewhere)."""

    def run(self, cmd):
        table = self.dir.tables.get(cmd.route)
        result = handle(table, cmd, self.dir, self.now)
        self.apply(result, table)
        self.results.append(result)
        self.commands.append(cmd)
        return result


def walk(game_name: str, players: int, seed: int, options: tuple[str, ...] = ()) -> int:
    """A random game through the table logic; after every press, every live prompt is looked at as it is
    shown. Returns the prompts looked at."""
    users = USERS[:players]
    world = Table()
    world.open_lobby(game_name, users)
    if options:
        world.press(ANA, GROUP, "Opções")
        for start in options:
            world.click(ANA, GROUP, next(b for b in world.buttons(GROUP) if b.text.startswith(start)).callback_data)
        world.press(ANA, GROUP, "Voltar")
    world.update = seed * 7919  # the table's seed comes from the start command's update id
    world.press(ANA, GROUP, "Começar")
    game = get_game(game_name)
    rng = random.Random(seed)
    seen = 0
    while world.table()["status"] == "playing":
        movers = [u for u in users if world.prompt_buttons(u)]
        assert movers, "nobody has a prompt but the game goes on"
        match = None
        for user in movers:
            buttons = world.prompt_buttons(user)
            answers = [b for b in buttons if b.text not in BACK]
            seen += 1
            if len(answers) > 1:
                continue
            match = match or load_match(world.table()["match"])
            seat = next(i for i, s in enumerate(world.table()["seats"]) if s["user_id"] == user)
            title = game.prompt(match.state, seat).title.key
            assert (game_name, title) in CONFIRMATIONS, (title, [b.text for b in buttons])
        user = rng.choice(movers)
        offered = world.prompt_buttons(user)
        keen = [b for b in offered if b.text not in BACK]
        choice = rng.choice(keen) if keen and rng.random() < 0.9 else rng.choice(offered)
        world.click(user, user, choice.callback_data)
    return seen


# lobby options by their buttons' first words: the base game, the browser test's table (beginner setup,
# Dark Alley, prophecies), the Secret Workshop with the quick game, the quick game with the Dark Alley
TRICKERION = [(2, ()), (3, route.option_labels()), (4, ("Oficina Secreta", "Partida rápida")),
              (3, ("Beco Escuro", "Partida rápida"))]


@pytest.mark.parametrize("players,options", TRICKERION[:1])
def test_a_random_trickerion_game_never_asks_a_question_with_one_answer(players, options):
    assert walk("trickerion", players, 1, options) > 100


@pytest.mark.parametrize("players", [1, 3])
def test_a_random_spellbook_game_never_asks_a_question_with_one_answer(players):
    assert walk("spellbook", players, 1) > 20


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 5))
@pytest.mark.parametrize("players,options", TRICKERION)
def test_many_random_trickerion_games(players, options, seed):
    walk("trickerion", players, seed, options)


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2, 6))
@pytest.mark.parametrize("players", [1, 2, 3, 4])
def test_many_random_spellbook_games(players, seed):
    walk("spellbook", players, seed)
