"""Rough edges of issue 13: leaving a lobby from the private chat, option labels, setup headers,
plurals from the catalogue."""

from __future__ import annotations

import re

import pytest

import locales
from rulesets.core import new_match
from rulesets.registry import available, get_game
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.tables import lobby


def test_someone_who_joined_through_the_link_can_leave_from_the_private_chat():
    world = World()
    world.say(ANA, GROUP, "/novojogo trickerion")
    table_id = world.dir.active_table(GROUP)
    world.say(CAIO, CAIO, f"/start j{table_id}")  # Caio is not in the group: the link was shared elsewhere
    assert "Caio" in world.chat(GROUP).slots["lobby"].text
    result = world.press(CAIO, CAIO, "Sair da mesa de Trickerion")
    assert result.callback_answer == "Você saiu da mesa."
    assert "Caio" not in world.chat(GROUP).slots["lobby"].text and world.table()["seats"] == []
    confirmation = [m for m in world.chat(CAIO).slots.values() if m.slot.startswith("joined")]
    assert len(confirmation) == 1 and confirmation[0].buttons == []  # the button is gone from that message
    assert "Você saiu da mesa de <b>Trickerion</b>." in confirmation[0].text
    assert world.dir.user_tables(CAIO) == []


def test_leave_command_in_private_offers_a_button_per_lobby():
    world = World()
    world.open_lobby("trickerion", [ANA, BIA])
    world.say(BIA, BIA, "/sair")
    offer = world.chat(BIA).oneoffs[-1]
    assert offer.text == "De qual mesa você quer sair?"
    world.click(BIA, BIA, offer.buttons[0][0].callback_data)
    assert [s["name"] for s in world.table()["seats"]] == ["Ana"]
    world.say(BIA, BIA, "/sair")
    nothing = world.chat(BIA).oneoffs[-1].text
    assert nothing.startswith("Você não está em nenhuma mesa.") and "/novojogo trickerion" in nothing


def test_a_private_leave_button_after_the_start_is_refused_and_points_to_the_group():
    world = World()
    world.open_lobby("trickerion", [ANA, BIA])
    old = [b for m in world.chat(BIA).slots.values() for row in m.buttons for b in row][0].callback_data
    world.press(ANA, GROUP, "Começar")
    before = world.table()
    result = world.click(BIA, BIA, old)
    assert result.table is None and "use /sair no grupo" in result.callback_answer
    assert world.table() == before
    world.say(BIA, BIA, "/sair")
    assert "use /sair no grupo" in world.chat(BIA).oneoffs[-1].text
    assert world.click(BIA, GROUP, old).callback_answer == "Esse botão não é válido."  # not from a group


def test_every_lobby_option_has_a_label_in_both_languages():
    for game in available():
        g = get_game(game)
        for players in range(g.min_players, g.max_players + 1):
            for field, values, _ in lobby.adjustable(g, players):
                for lang in locales.LANGUAGES:
                    for value in values:
                        label, shown = lobby._option_text(game, field, value, lang)
                        assert label != field and "_" not in label, (game, field, lang)
                        assert shown != str(value) or isinstance(value, int) and not isinstance(value, bool), \
                            (game, field, value, lang)


def test_the_lobby_shows_no_raw_option_key():
    world = World()
    world.say(ANA, GROUP, "/novojogo trickerion")
    world.press(ANA, GROUP, "Opções")
    text = world.chat(GROUP).slots["lobby"].text
    labels = " ".join(b.text for row in world.chat(GROUP).slots["lobby"].buttons for b in row)
    for raw in ("dark_alley", "prophecies", "secret_workshop", "quick_game", "beginner_setup"):
        assert raw not in text and raw not in labels
    assert "Beco Escuro" in labels and "Profecias" in labels


def test_setup_header_is_not_round_zero():
    game = get_game("trickerion")
    for options, rounds in (({}, 5), ({"dark_alley": True}, 7)):
        state = new_match(game, options, 3, 1).state
        head = locales.render(game.table(state, None)[0], "pt_BR")
        assert head == f"Preparação — Escolha dos Mágicos (partida de {rounds} rodadas)"
        assert locales.render(game.table(state, None)[0], "en") == f"Setup — Choosing magicians ({rounds}-round game)"


@pytest.mark.parametrize("lang", locales.LANGUAGES)
def test_no_catalogue_text_writes_a_plural_with_parentheses(lang):
    """"moeda(s)", "no(a)", "Conexão(ões)", "marker(s)": plurals and genders come from the catalogue's
    forms (key[one]/key[other]) or a text that needs none."""
    pattern = re.compile(r"\w\((s|es|a|as|is|ões|ns)\)")
    bad = {k: v for k, v in locales.catalog(lang).items() if pattern.search(v)}
    assert not bad, bad


def test_quantities_read_naturally():
    from rulesets.core import msg

    one, two = msg("trickerion.qty.coins", count=1), msg("trickerion.qty.coins", count=2)
    assert locales.render(one, "pt_BR") == "1 Moeda" and locales.render(two, "pt_BR") == "2 Moedas"
    assert locales.render(one, "en") == "1 coin" and locales.render(two, "en") == "2 coins"
    wages = msg("trickerion.log.wages_short", player="Ana", paid=msg("trickerion.qty.coins", count=1),
                unpaid=msg("trickerion.qty.coins", count=3), fame=6)
    assert locales.render(wages, "pt_BR") == "Ana paga 1 Moeda de salários e fica devendo 3 Moedas: Fama −6."
    at = msg("trickerion.info.ap", count=1, char=msg("trickerion.char.magician"), loc=msg("trickerion.at.workshop"))
    assert locales.render(at, "pt_BR") == "Mágico na Oficina: 1 PA restante"
