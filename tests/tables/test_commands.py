"""/status, /ajuda, /historico, /jogos, /lembrar, /lembretes, /start and reminders."""

import pytest

from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.protocol import Command
from workers.tables import handle
from workers.tables.commands import STATUS_COOLDOWN
from workers.tables.reminders import PING_COOLDOWN

HOUR = 3600.0


@pytest.fixture
def playing(world: World) -> World:
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    return world


def tick(world: World, key: str):
    world.update += 1
    cmd = Command(update_id=world.update, kind="message", route=world.last_table, chat_id=0, chat_type="group",
                  user_id=0, user_name="", text=f"/_tick {key}", received_at=world.now)
    return world.run(cmd)


def test_status_reposts_the_status_message_at_most_once_a_minute(playing):
    world = playing
    assert world.say(CAIO, GROUP, "/status").outbound == []  # just posted: it is right above
    world.now += STATUS_COOLDOWN + 1
    result = world.say(CAIO, GROUP, "/status")
    assert [(o.slot, o.delete_slot) for o in result.outbound] == [("status", True), ("status.1", False)]
    assert "Vez de: <b>Ana e Bia</b>" in world.chat(GROUP).slots["status.1"].text


def test_status_in_private_shows_my_tables_from_my_seat(playing):
    world = playing
    world.say(BIA, BIA, "/status")
    text = world.chat(BIA).transcript[-1]
    assert "Toy com Ana" in text and "sua vez" in text


def test_jogos_lists_tables_waiting_for_me_first(playing):
    world = playing
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    world.say(ANA, ANA, "/jogos")
    assert "vez de Bia" in world.chat(ANA).transcript[-1]
    assert world.say(CAIO, CAIO, "/jogos").outbound[0].text.startswith("Você não está em nenhuma mesa")


def test_ajuda_by_phase(playing):
    world = playing
    text = world.say(CAIO, GROUP, "/ajuda").outbound[0].text
    assert "em andamento" in text and "/novojogo" in text
    world.langs_app[CAIO] = "en"
    assert "/newgame" in world.say(CAIO, CAIO, "/help@BoardGamesBot").outbound[0].text


def test_ajuda_in_spellbook_explains_the_current_phase():
    world = World()
    world.open_lobby("spellbook", [ANA])
    assert "Toque em Entrar" in world.say(ANA, GROUP, "/ajuda").outbound[0].text
    world.press(ANA, GROUP, "Começar")
    text = world.say(ANA, GROUP, "/ajuda").outbound[0].text
    assert "<b>Manhã</b>: pegue 1 Matéria do Altar" in text


def test_historico_in_the_group_shows_public_lines(playing):
    world = playing
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data)
    text = world.say(CAIO, GROUP, "/historico").outbound[0].text
    assert text.startswith("<b>Histórico: Toy</b>") and text.count("•") >= 2


def test_lembrar_pings_whoever_the_table_waits_on_once_an_hour(playing):
    world = playing
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    result = world.say(CAIO, GROUP, "/lembrar")
    assert [o.chat_id for o in result.outbound] == [BIA, GROUP]
    assert "Caio lembrou" in result.outbound[0].text
    assert 'href="tg://user?id=102"' in result.outbound[1].text
    again = world.say(ANA, GROUP, "/lembrar")
    assert again.table is None and "Tente de novo em 60 minutos" in again.outbound[0].text
    world.now += PING_COOLDOWN
    assert world.say(ANA, GROUP, "/lembrar").table is not None


def test_reminders_are_scheduled_when_the_table_starts_waiting(playing):
    world = playing
    table_id = world.last_table
    start = world.now
    assert world.reminders == {(table_id, "w0"): start + 12 * HOUR, (table_id, "w1"): start + 12 * HOUR}
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    assert (table_id, "w0") not in world.reminders  # she acted: nothing to remind her of


def test_reminders_fire_after_12_and_24_idle_hours_the_second_also_in_the_group(playing):
    world = playing
    start = world.now
    world.now = start + 12 * HOUR
    result = tick(world, "w1")
    assert [o.chat_id for o in result.outbound] == [BIA]  # first reminder: private only
    assert "espera há 12 horas" in result.outbound[0].text and not result.outbound[0].silent
    assert world.reminders[(world.last_table, "w1")] == start + 24 * HOUR
    world.now = start + 24 * HOUR
    result = tick(world, "w1")
    assert [o.chat_id for o in result.outbound] == [BIA, GROUP]
    assert 'tg://user?id=102' in result.outbound[1].text
    world.now += 24 * HOUR
    assert tick(world, "w1").outbound == []  # no third reminder


def test_a_reminder_stays_quiet_when_the_player_acted_recently(world):
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    start = world.now
    world.click(ANA, ANA, world.prompt_buttons(ANA)[2].callback_data)
    world.now = start + 11 * HOUR
    world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data)  # Ana must roll: her wait starts now
    wait_start = world.now
    world.now = wait_start + 5 * HOUR
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)  # she marks: still her turn (roll)
    acted = world.now
    world.now = wait_start + 12 * HOUR  # the reminder scheduled at the start of her wait fires
    result = tick(world, "w0")
    assert result.outbound == [] and result.metrics == {"tick:quiet": 1}
    assert [r.due for r in result.reminders] == [acted + 12 * HOUR]


def test_a_tick_for_a_seat_no_longer_waiting_changes_nothing(playing):
    world = playing
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    world.now += 13 * HOUR
    result = tick(world, "w0")
    assert result.table is None and result.outbound == []
    assert tick(world, "bogus").table is None


def test_lembretes_per_table(playing):
    world = playing
    assert "12 h e 24 h" in world.say(CAIO, GROUP, "/lembretes").outbound[0].text
    assert world.say(BIA, GROUP, "/lembretes 2 6").table is None  # only creator or admin
    world.say(ANA, GROUP, "/lembretes 6 2")
    assert world.table()["reminder_hours"] == [2.0, 6.0]
    world.say(ANA, GROUP, "/lembretes off")
    assert world.table()["reminder_hours"] == []
    world.now += 100 * HOUR
    assert tick(world, "w1").outbound == []


def test_start_without_payload_and_in_groups(world):
    assert "Olá!" in world.say(ANA, ANA, "/start").outbound[0].text
    assert "/novojogo spellbook" in world.say(ANA, GROUP, "/start").outbound[0].text


def test_english_command_names(playing):
    world = playing
    world.dir.langs[GROUP] = "en"
    text = world.say(CAIO, GROUP, "/help").outbound[0].text
    assert "/newgame spellbook" in text
    assert handle(world.table(), world.command(ANA, GROUP, text="/history"), world.dir, world.now).outbound


def test_status_in_the_lobby_posts_the_lobby_again(world):
    world.open_lobby("toy", [ANA, BIA])
    world.now += STATUS_COOLDOWN + 1
    result = world.say(CAIO, GROUP, "/status")
    assert [(o.slot, o.delete_slot) for o in result.outbound] == [("lobby", True), ("lobby.1", False)]
    world.press(ANA, GROUP, "Começar")  # from the re-posted lobby
    assert world.table()["status"] == "playing"
    assert "começou" in world.chat(GROUP).slots["lobby.1"].text


def test_after_the_last_reminder_the_others_can_vote_the_medio_ai_in_for_one_turn(playing):
    world = playing
    start = world.now
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)  # Ana bid; Bia goes quiet
    world.now = start + 12 * HOUR
    tick(world, "w1")
    assert not any(b.text.startswith("🤖") for b in world.buttons(GROUP))  # not after the first one
    world.now = start + 24 * HOUR
    tick(world, "w1")
    vote = world.button(GROUP, "🤖 Jogar a vez de Bia").callback_data
    assert "não pode votar em si mesmo" in world.click(BIA, GROUP, vote).callback_answer
    assert "Você não está nesta mesa." == world.click(CAIO, GROUP, vote).callback_answer
    world.auto_bots = False
    result = world.click(ANA, GROUP, vote)
    # the médio AI is to play her turn: the vote announces it to the AI task, her reminders stop
    assert result.bot_turn is not None and "w1" in result.cancel_reminders
    assert world.prompt_buttons(BIA) == [] and world.table()["seats"][1]["covered"]
    assert result.callback_answer == "O bot médio vai jogar a vez de Bia."
    assert any("A mesa votou" in o.text for o in result.outbound if o.chat_id == GROUP)
    assert any("bot médio joga esta sua vez" in o.text for o in result.outbound if o.chat_id == BIA)
    assert "Bia (🤖 bot médio nesta vez)" in world.chat(GROUP).slots["status"].text
    # it plays until the table no longer waits on her (here: her bid, then her roll)
    assert world.run_bots() >= 1
    world.auto_bots = True
    table = world.table()
    assert not table["seats"][1]["left"] and not table["seats"][1]["covered"] and table["votes"] == {}
    assert world.prompt_buttons(BIA) == []
    assert world.click(ANA, GROUP, vote).table is None  # that wait is over: the button is stale
    world.play_out([ANA, BIA], seed=4)  # and Bia plays her next turns herself
    assert world.table()["status"] == "over"


def test_with_three_players_two_votes_are_needed():
    world = World()
    world.open_lobby("spellbook", [ANA, BIA, CAIO])
    world.press(ANA, GROUP, "Começar")
    waiting = [u for u in (ANA, BIA, CAIO) if world.prompt_buttons(u)][0]
    seat = [s["user_id"] for s in world.table()["seats"]].index(waiting)
    others = [u for u in (ANA, BIA, CAIO) if u != waiting]
    world.now += 24 * HOUR
    tick(world, f"w{seat}")
    tick(world, f"w{seat}")
    name = {ANA: "Ana", BIA: "Bia", CAIO: "Caio"}[waiting]
    vote = world.button(GROUP, f"🤖 Jogar a vez de {name}").callback_data
    assert world.click(others[0], GROUP, vote).callback_answer == "Voto registrado (1 de 2)."
    assert world.click(others[0], GROUP, vote).callback_answer == "Você já votou."
    moves = world.bot_moves
    result = world.click(others[1], GROUP, vote)
    assert result.bot_turn is not None and world.bot_moves > moves
    assert world.prompt_buttons(waiting) == []


def test_a_solo_player_is_reminded_again_after_each_move():
    world = World()
    world.open_lobby("spellbook", [ANA])
    world.press(ANA, GROUP, "Começar")
    start = world.now
    world.now = start + 24 * HOUR
    tick(world, "w0")
    tick(world, "w0")  # both reminders of this wait are spent
    assert tick(world, "w0").outbound == []
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)  # she plays again
    assert world.reminders[(world.last_table, "w0")] == world.now + 12 * HOUR
    world.now += 12 * HOUR
    assert [o.chat_id for o in tick(world, "w0").outbound] == [ANA]
