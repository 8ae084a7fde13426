"""Opening a table, joining through the deep link, options, starting and cancelling."""

from tests.tables.harness import ANA, BIA, CAIO, GROUP, World, bot_username
from workers.protocol import join_payload


def lobby_message(world: World):
    return world.chat(GROUP).slots["lobby"]


def test_novojogo_opens_a_lobby_with_a_deep_link_to_join(world):
    result = world.say(ANA, GROUP, "/novojogo toy")
    table_id = world.last_table
    assert result.set_active == {GROUP: table_id}
    msg = lobby_message(world)
    buttons = {b.text: b for row in msg.buttons for b in row}
    assert set(buttons) == {"Entrar", "Sair", "Começar", "🤖 + Bot"}  # the toy game has no lobby options
    assert buttons["Entrar"].url == f"https://t.me/{bot_username()}?start={join_payload(table_id)}"
    assert "nova mesa" in msg.text and "ninguém ainda" in msg.text


def test_joining_through_start_payload_seats_the_player_and_edits_the_lobby(world):
    world.say(ANA, GROUP, "/novojogo toy")
    result = world.say(BIA, BIA, f"/start j{world.last_table}")
    assert result.user_tables_add == {BIA: [world.last_table]}
    assert [o.chat_id for o in result.outbound] == [BIA, GROUP]
    assert result.outbound[1].slot == "lobby" and result.outbound[1].silent  # edited in place
    assert "Você entrou na mesa de <b>Toy</b>" in world.chat(BIA).transcript[-1]
    assert "Jogadores (1/2): Bia" in lobby_message(world).text


def test_leaving_the_lobby_with_the_button(world):
    world.open_lobby("toy", [ANA, BIA])
    result = world.press(BIA, GROUP, "Sair")
    assert result.user_tables_remove == {BIA: [world.last_table]}
    assert result.callback_answer == "Você saiu da mesa."
    assert "Jogadores (1/2): Ana" in lobby_message(world).text
    world.say(ANA, GROUP, "/sair")
    assert [s["user_id"] for s in world.table()["seats"]] == []


def test_only_the_creator_or_an_admin_starts(world):
    world.open_lobby("toy", [ANA, BIA], creator=CAIO)
    assert world.press(BIA, GROUP, "Começar").table is None
    world.admins.add(ANA)  # an admin of the group who is not the creator
    result = world.press(ANA, GROUP, "Começar")
    assert result.table is not None and world.table()["status"] == "playing"
    # the lobby becomes a record of who plays, then the status and the first prompts
    assert result.outbound[0].slot == "lobby" and result.outbound[0].buttons == []
    assert "a partida começou com Ana e Bia" in result.outbound[0].text
    status = [o for o in result.outbound if o.chat_id == GROUP and o.slot == "status"]
    assert len(status) == 1 and not status[0].silent  # a new message: the group is notified
    prompts = [o for o in result.outbound if o.chat_id in (ANA, BIA) and o.slot.startswith("prompt")]
    assert {o.chat_id for o in prompts} == {ANA, BIA} and not any(o.silent for o in prompts)
    # the join confirmations lose their Sair button, silently (the game is left from the group)
    joined = [o for o in result.outbound if o.chat_id in (ANA, BIA) and o.slot.startswith("joined")]
    assert len(joined) == 2 and all(o.silent and not o.buttons for o in joined)


def test_the_creator_starts_without_being_admin(world):
    world.open_lobby("toy", [ANA, BIA], creator=BIA)
    assert world.press(BIA, GROUP, "Começar").table is not None


def test_cancel_asks_for_confirmation_and_no_keeps_the_table(world):
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    result = world.say(ANA, GROUP, "/cancelar")
    assert world.table()["status"] == "playing"
    assert [b.text for row in result.outbound[0].buttons for b in row] == ["Sim, cancelar", "Não"]
    assert world.press(BIA, GROUP, "Sim, cancelar").table is None  # not the creator, not an admin
    result = world.press(ANA, GROUP, "Não")
    assert result.outbound[0].delete_slot and world.table()["status"] == "playing"
    assert result.callback_answer == "A mesa continua."


def test_cancel_confirmed_closes_the_table_everywhere(world):
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    world.say(ANA, GROUP, "/cancelar")
    old_yes = world.button(GROUP, "Sim, cancelar").callback_data
    world.say(ANA, GROUP, "/cancelar")  # asked twice: the first question's buttons go stale
    assert world.click(ANA, GROUP, old_yes).table is None
    world.admins.add(CAIO)
    result = world.press(CAIO, GROUP, "Sim, cancelar")
    assert world.table()["status"] == "cancelled"
    assert result.set_active == {GROUP: None}
    assert result.user_tables_remove == {ANA: [world.last_table], BIA: [world.last_table]}
    assert {"w0", "w1"} <= set(result.cancel_reminders)
    assert world.prompt_buttons(ANA) == [] and world.prompt_buttons(BIA) == []
    assert "foi cancelada por Caio" in world.chat(GROUP).transcript[-1]
    # the group can open a new table right away
    world.say(BIA, GROUP, "/novojogo toy")
    assert world.dir.active_table(GROUP) == world.last_table and world.table()["status"] == "lobby"


def test_cancel_in_the_lobby(world):
    world.open_lobby("toy", [ANA])
    world.say(ANA, GROUP, "/cancelar")
    world.press(ANA, GROUP, "Sim, cancelar")
    assert world.table()["status"] == "cancelled"
    assert "cancelada" in lobby_message(world).text and lobby_message(world).buttons == []


def test_which_game(world):
    assert "spellbook" in world.say(ANA, GROUP, "/novojogo").outbound[0].text
    assert "Qual jogo?" in world.say(ANA, GROUP, "/novojogo banco-imobiliario").outbound[0].text
    assert world.dir.active_table(GROUP) is None


def test_spellbook_options_cycle_and_solo_difficulty_only_with_one_player():
    world = World()
    world.open_lobby("spellbook", [ANA])
    assert "Feitiços: <b>conjunto 1 (primeira partida)</b>" in lobby_message(world).text
    assert "Dificuldade do solo: <b>0</b>" in lobby_message(world).text
    assert world.press(BIA, GROUP, "Opções").table is None  # not the creator
    world.press(ANA, GROUP, "Opções")
    labels = [b.text for row in lobby_message(world).buttons for b in row]
    assert labels == ["Feitiços: conjunto 1 (primeira partida) ▸", "Dificuldade do solo: 0 ▸", "Voltar"]
    world.press(ANA, GROUP, "Feitiços: conjunto 1 (primeira partida) ▸")
    world.press(ANA, GROUP, "Feitiços: conjunto 2 ▸")
    world.press(ANA, GROUP, "Dificuldade do solo: 0 ▸")
    world.press(ANA, GROUP, "Dificuldade do solo: 1 ▸")
    assert world.table()["options"] == {"mode": "set3", "difficulty": 2}
    world.press(ANA, GROUP, "Voltar")
    world.say(BIA, BIA, f"/start j{world.last_table}")  # two players: no solo difficulty
    assert "Dificuldade" not in lobby_message(world).text
    world.press(BIA, GROUP, "Sair")
    world.press(ANA, GROUP, "Começar")
    from rulesets.core import load_match

    match = load_match(world.table()["match"])
    assert match.options["mode"] == "set3" and match.options["difficulty"] == 2


def test_options_that_do_not_apply_are_left_out_at_start():
    world = World()
    world.open_lobby("spellbook", [ANA])
    world.press(ANA, GROUP, "Opções")
    world.press(ANA, GROUP, "Dificuldade do solo: 0 ▸")
    world.press(ANA, GROUP, "Voltar")
    world.say(BIA, BIA, f"/start j{world.last_table}")
    world.press(ANA, GROUP, "Começar")
    assert world.table()["status"] == "playing"
    from rulesets.core import load_match

    assert load_match(world.table()["match"]).options["difficulty"] == 0


def test_novojogo_reaching_a_closed_table_asks_to_send_it_again(world):
    world.open_lobby("toy", [ANA])
    world.say(ANA, GROUP, "/cancelar")
    world.press(ANA, GROUP, "Sim, cancelar")
    closed = world.table()
    cmd = world.command(ANA, GROUP, text="/novojogo toy")  # routed before the close was saved
    from workers.tables import handle

    result = handle(closed, cmd.model_copy(update={"route": closed["id"]}), world.dir, world.now)
    assert result.table is None and "Envie /novojogo de novo" in result.outbound[0].text


def test_cancelling_a_lobby_edits_it_and_removes_the_question(world):
    world.open_lobby("toy", [ANA])
    world.say(ANA, GROUP, "/cancelar")
    result = world.press(ANA, GROUP, "Sim, cancelar")
    assert [(o.slot, o.delete_slot) for o in result.outbound] == [("lobby", False), ("confirm", True)]
