"""Bad input gets a short answer in the user's language and leaves the table unchanged."""

import pytest

from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.protocol import callback


@pytest.fixture
def playing(world: World) -> World:
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    return world


def refused(result, text: str | None = None) -> None:
    assert result.table is None
    assert result.reminders == [] and result.cancel_reminders == [] and result.set_active == {}
    if text is not None:
        answers = [result.callback_answer] + [o.text for o in result.outbound]
        assert any(a and text in a for a in answers), answers
    assert any(k.startswith("rejected:") for k in result.metrics), result.metrics


def test_a_stale_button_answers_that_the_option_is_gone(playing):
    data = playing.prompt_buttons(ANA)[0].callback_data
    playing.click(ANA, ANA, data)
    refused(playing.click(ANA, ANA, data), "Essa opção não vale mais.")


def test_a_button_from_an_older_drawing_of_a_prompt_is_stale(playing):
    world = playing
    world.click(ANA, ANA, world.prompt_buttons(ANA)[2].callback_data)
    world.click(BIA, BIA, world.prompt_buttons(BIA)[0].callback_data)  # Ana rolls now: mark or roll
    old = world.prompt_buttons(ANA)[0].callback_data
    world.click(ANA, ANA, old)  # mark: her prompt is redrawn with only "roll"
    refused(world.click(ANA, ANA, old), "não vale mais")


def test_someone_elses_button_is_refused(playing):
    data = playing.prompt_buttons(ANA)[0].callback_data  # forwarded to Bia, pressed there
    refused(playing.click(BIA, BIA, data), "Esse botão não é seu.")


def test_a_non_player_pressing_is_told_so(playing):
    data = playing.prompt_buttons(ANA)[0].callback_data
    refused(playing.click(CAIO, CAIO, data), "Você não está nesta mesa.")


def test_a_prompt_button_pressed_in_the_group_is_forged(playing):
    data = playing.prompt_buttons(ANA)[0].callback_data
    refused(playing.click(ANA, GROUP, data), "não é válido")


@pytest.mark.parametrize("data", ["garbage", "", "x" * 70, "{id}:{v}:zz", "{id}:{v}:0.99", "{id}:{v}:7.0",
                                  "{id}:99999:0.0", "{id}:{v}:Lq", "{id}:{v}:0.-1", "{id}:{v}:U"])
def test_forged_callback_data_changes_nothing(playing, data):
    table = playing.table()
    data = data.format(id=table["id"], v=table["version"])
    result = playing.click(ANA, ANA, data)
    refused(result)
    assert result.callback_answer  # a short toast, never silence
    assert playing.table() == table


# Unicode digits are digits to str.isdigit(): int("²") raised inside the worker (a handler
# error), int("٣") quietly read 3. Only ASCII digits are numbers in callback data.
@pytest.mark.parametrize("arg", ["².0", "0.²", "٣.0", "0.٣", "0.𝟙", "V²", "V٣", "V𝟘", "0.0²"])
def test_unicode_digits_in_a_button_are_forged(playing, arg):
    table = playing.table()
    voting = table["seats"][0]
    voting["reminded"], voting["waiting_since"] = 2, playing.now  # so a vote for seat 0 would count
    result = playing.click(BIA, GROUP if arg.startswith("V") else BIA, f"{table['id']}:{table['version']}:{arg}")
    refused(result, "não é válido")


def test_unicode_digits_in_a_lobby_button_are_forged(world):
    world.open_lobby("spellbook", [ANA])
    table = world.table()
    world.click(ANA, GROUP, callback(table["id"], table["version"], "Lo"))
    table = world.table()
    for arg in ("Lo²", "Lo٠", "Lo𝟎"):
        refused(world.click(ANA, GROUP, callback(table["id"], table["version"], arg)), "não é válido")
    assert world.table() == table


@pytest.mark.parametrize("args", ["٣", "１２", "²", "1e2", "nan", "inf", "1_2", "12" + "0" * 400, "-5", "0x10"])
def test_lembretes_takes_ascii_numbers_only(playing, args):
    table = playing.table()
    result = playing.say(ANA, GROUP, f"/lembretes {args}")
    refused(result, "Use /lembretes")
    assert playing.table() == table


def test_lembretes_reads_hours_as_people_type_them(playing):
    playing.say(ANA, GROUP, "/lembretes 1,5 12h 24.25")
    assert playing.table()["reminder_hours"] == [1.5, 12.0, 24.25]


def test_a_button_of_a_table_that_does_not_exist_is_stale(playing):
    refused(playing.click(ANA, ANA, callback("nosuchtable", 3, "0.0")), "Essa opção não vale mais.")


def test_answers_come_in_the_users_language(playing):
    playing.langs_app[CAIO] = "en-US"
    data = playing.prompt_buttons(ANA)[0].callback_data
    refused(playing.click(CAIO, CAIO, data), "You are not at this table.")
    playing.dir.langs[BIA] = "en"  # Bia chose English with /idioma in private
    refused(playing.click(BIA, BIA, data), "That button is not yours.")


@pytest.mark.parametrize("user,chat,text,answer", [
    (ANA, ANA, "/novojogo toy", "Isso se usa no grupo da mesa."),
    (ANA, GROUP, "/jogos", "Isso se usa no chat privado comigo."),
    (CAIO, GROUP, "/sair", "Você não está nesta mesa."),
    (BIA, GROUP, "/cancelar", "Só quem criou a mesa ou um admin"),
    (ANA, GROUP, "/novojogo toy", "Já há uma mesa de Toy aberta"),
    (CAIO, GROUP, "/desfazer", "Você não está nesta mesa."),
    (ANA, GROUP, "/desfazer", "Não dá para desfazer agora"),
    (ANA, GROUP, "/lembretes 0.5", "Use /lembretes"),
    (ANA, ANA, "olá, quero jogar", "Eu só entendo botões e comandos."),
    (ANA, ANA, "/xyzzy", "Não conheço esse comando."),
    (ANA, GROUP, "/xyzzy", "Não conheço esse comando."),
    (ANA, ANA, "/desfazer", "Use o botão ↩ Desfazer"),
    (ANA, ANA, "/_tick w0", None),
    (ANA, GROUP, "/_tick w0", None),
])
def test_commands_out_of_place_get_a_short_answer(playing, user, chat, text, answer):
    table = playing.table()
    result = playing.say(user, chat, text)
    assert result.table is None and playing.table() == table
    if answer is None:
        assert result.outbound == []  # a person typing the beat's command is ignored
    else:
        assert len(result.outbound) == 1 and answer in result.outbound[0].text
        assert len(result.outbound[0].text) < 400


def test_group_chatter_and_other_bots_commands_are_ignored(playing):
    for text in ("bom dia, pessoal", "/roll@DiceBot 2d6"):
        result = playing.say(BIA, GROUP, text)
        assert result.table is None and result.outbound == []


def test_lobby_refusals(world):
    world.open_lobby("toy", [ANA])
    refused(world.press(BIA, GROUP, "Começar"), "Só quem criou a mesa")
    refused(world.press(ANA, GROUP, "Começar"), "Este jogo é para 2 a 2 jogadores.")
    refused(world.press(CAIO, GROUP, "Sair"), "Você não está nesta mesa.")
    world.say(BIA, BIA, f"/start j{world.last_table}")
    refused(world.say(BIA, BIA, f"/start j{world.last_table}"), "Você já está nesta mesa.")
    refused(world.say(CAIO, CAIO, f"/start j{world.last_table}"), "A mesa está cheia")
    refused(world.say(CAIO, CAIO, "/start jnosuchtable"), "Essa mesa não existe mais.")
    refused(world.say(ANA, GROUP, "/lembrar"), "A partida ainda não começou.")
    world.press(ANA, GROUP, "Começar")
    refused(world.say(CAIO, CAIO, f"/start j{world.last_table}"), "Essa partida já começou.")
