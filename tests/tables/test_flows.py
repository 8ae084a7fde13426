"""Undo, leaving (the stand-in finishes the game), languages, re-sending a prompt."""

import pytest

from rulesets.core import load_match
from tests.tables.harness import ANA, BIA, GROUP, World


@pytest.fixture
def playing(world: World) -> World:
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    return world


def test_undo_button_takes_back_a_move_inside_the_turn(playing):
    world = playing
    log_before = len(load_match(world.table()["match"]).log)
    world.click(ANA, ANA, world.prompt_buttons(ANA)[1].callback_data)  # a secret bid, not yet revealed
    assert world.prompt_buttons(ANA) == []
    result = world.press(ANA, ANA, "↩ Desfazer")
    assert result.callback_answer == "Jogada desfeita."
    assert len(load_match(world.table()["match"]).log) == log_before
    # her note is turned back into her prompt, in place (no new message)
    assert [o.slot for o in result.outbound] == ["prompt.1"] and len(world.prompt_buttons(ANA)) == 3


def test_undo_is_refused_once_the_bids_are_revealed(playing):
    world = playing
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)  # bids 1
    undo_data = world.button(ANA, "↩ Desfazer").callback_data
    world.click(BIA, BIA, world.prompt_buttons(BIA)[2].callback_data)  # bids 3, revealed: Bia rolls
    result = world.click(ANA, ANA, undo_data)
    assert result.table is None and "Não dá para desfazer" in result.callback_answer


def test_desfazer_typed_in_the_group(playing):
    world = playing
    world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data)
    result = world.say(BIA, GROUP, "/desfazer")
    assert result.table is not None
    assert "Bia desfez a última jogada." in world.chat(GROUP).transcript[-1]
    assert len(world.prompt_buttons(BIA)) == 3


def test_a_player_who_leaves_is_replaced_by_the_medio_ai_to_the_end(playing):
    world = playing
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    bia_messages = len(world.chat(BIA).transcript)
    moves = world.bot_moves
    result = world.say(BIA, GROUP, "/sair")
    assert result.bot_turn is not None and world.bot_moves > moves  # her pending bid was made for her
    assert result.user_tables_remove == {BIA: [world.last_table]}
    assert "w1" in result.cancel_reminders
    assert any("Bia saiu da partida; o bot médio joga no lugar até o fim" in o.text
               for o in result.outbound if o.chat_id == GROUP)
    assert world.prompt_buttons(BIA) == []
    world.play_out([ANA], seed=2)
    assert world.table()["status"] == "over"
    final = world.chat(GROUP).final_scores()
    assert "Bia</b> (saiu: bot médio)" in final
    # after the note that she left, Bia hears nothing more from this table
    assert len(world.chat(BIA).transcript) == bia_messages + 1


def test_a_leaver_pressing_an_old_button_is_told(playing):
    world = playing
    data = world.prompt_buttons(BIA)[0].callback_data
    world.say(BIA, GROUP, "/sair")
    result = world.click(BIA, BIA, data)
    assert result.table is None and "Você saiu desta partida" in result.callback_answer


def test_when_everyone_leaves_the_table_closes(playing):
    world = playing
    world.say(BIA, GROUP, "/sair")
    result = world.say(ANA, GROUP, "/sair")
    assert world.table()["status"] == "cancelled" and result.set_active == {GROUP: None}
    assert "Todos os jogadores saíram" in world.chat(GROUP).transcript[-1]


def test_idioma_switches_the_group_texts(playing):
    world = playing
    result = world.say(BIA, GROUP, "/idioma en")
    assert result.chat_lang == {GROUP: "en"}
    assert "I will speak English" in world.chat(GROUP).transcript[-2]
    status = world.chat(GROUP).slots["status"].text
    assert "Waiting for:" in status  # the status message redrawn in English, in place
    world.say(BIA, GROUP, "/idioma")  # no argument: toggles back
    assert "Vez de:" in world.chat(GROUP).slots["status"].text


def test_idioma_in_private_switches_that_players_prompts_and_answers(playing):
    world = playing
    world.say(ANA, ANA, "/idioma en")
    assert world.dir.chat_lang(ANA) == "en"
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    assert "Waiting for" in world.chat(ANA).slots["prompt.1"].text
    assert world.button(ANA, "↩ Undo")
    world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data)
    assert "with Bia" in world.chat(ANA).transcript[-1] or "with Bia" in world.chat(ANA).slots["prompt.1"].text
    assert "com Ana" in world.chat(BIA).transcript[-1]  # Bia still reads Portuguese


def test_idioma_in_the_lobby_redraws_the_buttons(world):
    world.open_lobby("toy", [ANA])
    world.say(ANA, GROUP, "/idioma english")
    labels = [b.text for row in world.chat(GROUP).slots["lobby"].buttons for b in row]
    assert labels == ["Join", "Leave", "Start", "🤖 + Bot", "Remove a player"]
    assert world.say(ANA, GROUP, "/idioma klingon").table is None


def test_resend_from_jogos_gives_a_fresh_prompt_and_the_old_one_goes_stale(playing):
    world = playing
    old = world.prompt_buttons(ANA)[0].callback_data
    world.say(ANA, ANA, "/jogos")
    listing = world.chat(ANA).transcript[-1]
    assert "sua vez" in listing and "Bia" in listing
    result = world.press(ANA, ANA, "Mostrar minha jogada em Toy")
    assert [(o.slot, o.delete_slot) for o in result.outbound] == [("prompt.1", True), ("prompt.2", False)]
    assert not result.outbound[1].silent
    assert world.click(ANA, ANA, old).table is None
    assert world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data).table is not None


def test_a_move_that_starts_no_turn_sends_its_movers_note_on_the_prompt_lane(playing):
    """One message per move (workers/tables/play.py, _one_message_per_move): a secret bid changes nobody
    else's prompt, so the mover's "done" note is the message the press is for and does not wait on the
    view lane; the bid that reveals both starts the roller's turn, and then the note is a view again."""
    world = playing
    first = world.click(ANA, ANA, world.prompt_buttons(ANA)[2].callback_data)  # Ana bids 3: hidden
    mine = [o for o in first.outbound if o.chat_id == ANA]
    assert [(o.slot, o.background) for o in mine] == [("prompt.1", False)]
    assert not [o for o in first.outbound if o.chat_id == BIA]
    second = world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data)  # Bia bids 1: Ana rolls
    assert [(o.slot, o.background) for o in second.outbound if o.chat_id == BIA] == [("prompt.1", True)]
    assert any(o.chat_id == ANA and not o.background for o in second.outbound)


def test_the_press_that_ends_a_turn_is_answered_with_what_its_note_says(playing):
    """The answer rides the webhook's reply, free; the note that says the same is a view that may wait
    for room (workers/views.py), so the toast carries it."""
    world = playing
    hidden = world.click(ANA, ANA, world.prompt_buttons(ANA)[2].callback_data)  # Ana bids: waiting on Bia
    assert hidden.callback_answer == "✔ Feito. Aguardando Bia."
    reveal = world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data)  # Bia bids: Ana's turn to roll
    assert reveal.callback_answer == "✔ Feito. Aguardando Ana."
