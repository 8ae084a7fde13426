"""A whole game through `handle` alone: scripted users press the buttons they were shown."""

import re

from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.protocol import parse_callback, parse_chat_callback
from workers.tables import handle


def start_toy(world: World, game: str = "toy") -> None:
    world.open_lobby(game, [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    assert world.table()["status"] == "playing"


def test_a_toy_game_played_by_pressing_buttons_ends_with_scores_in_the_group(world):
    start_toy(world)
    presses = world.play_out([ANA, BIA], seed=3)
    table = world.table()
    assert table["status"] == "over" and presses >= 3
    final = world.chat(GROUP).final_scores()
    assert "Fim de jogo" in final and ("Vencedor" in final or "Vitória compartilhada" in final)
    assert "Ana" in final and "Bia" in final
    assert world.dir.active_table(GROUP) is None  # the group may open a new table
    assert world.dir.user_tables(ANA) == [] and world.dir.user_tables(BIA) == []
    # nobody is left with live buttons in their private chat
    for user in (ANA, BIA):
        assert world.prompt_buttons(user) == []


def test_hidden_information_never_reaches_the_group_or_the_other_player(secret_world):
    world = secret_world
    start_toy(world, "secrettoy")
    world.play_out([ANA, BIA], seed=5)
    world.say(ANA, GROUP, "/historico")  # after the game: nothing open, but the transcript is checked below
    group = world.chat(GROUP).text()
    assert not re.search(r"SEGREDO|PRIVADO|MESA-PRIVADA", group)
    ana, bia = world.chat(ANA).text(), world.chat(BIA).text()
    assert "SEGREDO-0" in ana and "PRIVADO-0" in ana  # the owner does see them
    assert "SEGREDO-1" in bia and "PRIVADO-1" in bia
    assert not re.search(r"(SEGREDO|PRIVADO|MESA-PRIVADA)-1", ana)
    assert not re.search(r"(SEGREDO|PRIVADO|MESA-PRIVADA)-0", bia)


def test_history_and_private_status_keep_secrets_mid_game(secret_world):
    world = secret_world
    start_toy(world, "secrettoy")
    world.click(ANA, ANA, world.prompt_buttons(ANA)[2].callback_data)  # Ana bids 3, Bia has not bid yet
    world.say(BIA, GROUP, "/historico")
    world.say(BIA, BIA, "/status")
    world.say(BIA, BIA, "/historico")
    world.say(ANA, ANA, "/status")
    assert not re.search(r"SEGREDO|PRIVADO|MESA-PRIVADA", world.chat(GROUP).text())
    assert not re.search(r"(SEGREDO|PRIVADO|MESA-PRIVADA)-0", world.chat(BIA).text())
    assert "MESA-PRIVADA-0" in world.chat(ANA).transcript[-1]  # her own view shows her bid


def test_the_same_command_on_the_same_table_gives_the_same_result(world):
    start_toy(world)
    table = world.table()
    data = world.prompt_buttons(ANA)[0].callback_data
    cmd = world.command(ANA, ANA, data=data)
    first = handle(table, cmd, world.dir, world.now)
    assert handle(table, cmd, world.dir, world.now) == first
    assert first.table is not None and first.table["version"] == table["version"] + 1
    # once saved, the same update is recognised and changes nothing
    world.apply(first, table)
    again = handle(world.table(), cmd, world.dir, world.now)
    assert again.table is None and again.outbound == [] and again.metrics == {"duplicate": 1}


def test_after_a_move_unchanged_prompts_are_not_sent_again(world):
    start_toy(world)
    result = world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)  # Ana bids; Bia still to bid
    chats = [o.chat_id for o in result.outbound]
    assert chats == [ANA]  # only Ana's answered prompt is edited; Bia's prompt and the status stay
    assert result.outbound[0].slot == "prompt.1" and "Aguardando" in result.outbound[0].text
    # Bia's buttons, drawn before Ana's move, are still valid
    assert world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data).table is not None


def test_a_player_whose_turn_starts_gets_a_new_message_that_notifies(world):
    start_toy(world)
    world.click(ANA, ANA, world.prompt_buttons(ANA)[2].callback_data)
    result = world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data)  # bids revealed: Ana rolls
    to_ana = [o for o in result.outbound if o.chat_id == ANA]
    assert len(to_ana) == 1 and to_ana[0].slot == "prompt.2" and not to_ana[0].silent
    status = [o for o in result.outbound if o.chat_id == GROUP]
    assert len(status) == 1 and status[0].slot == "status" and status[0].silent
    assert "Vez de: <b>Ana</b>" in status[0].text


def test_outbound_per_move_in_a_toy_game(world):
    start_toy(world)
    before = len(world.results)
    presses = world.play_out([ANA, BIA], seed=7)
    calls = sum(len(r.outbound) for r in world.results[before:])
    # the toy game is the worst case (short simultaneous rounds): every round starts two turns
    assert calls / presses <= 3.0


def test_every_button_ever_shown_fits_telegram(world):
    start_toy(world)
    world.play_out([ANA, BIA], seed=9)
    for chat in world.chats.values():
        for out in chat.outbound:
            for row in out.buttons:
                for b in row:
                    if b.callback_data:
                        assert len(b.callback_data.encode()) <= 64
                        if parse_chat_callback(b.callback_data) is not None:  # the finished game's buttons
                            assert world.last_table in b.callback_data
                            continue
                        table_id, _, _ = parse_callback(b.callback_data)
                        assert table_id == world.last_table


def test_a_caio_who_never_joined_has_no_messages(world):
    start_toy(world)
    world.play_out([ANA, BIA], seed=1)
    assert world.chat(CAIO).transcript == []
