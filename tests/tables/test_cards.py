"""Cards that explain themselves: the ℹ️ button of a prompt, /carta and /regras, in both languages."""

from __future__ import annotations

from rulesets.trickerion.data import CARDS
from tests.tables.harness import ANA, BIA, GROUP, World
from workers.tables import cards, render


def _trickerion(world: World) -> None:
    world.open_lobby("trickerion", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")


def _prompt(world: World, user: int):
    seat = next(s for s in world.table()["seats"] if s["user_id"] == user)
    return seat["shown"], world.chat(user).slots[seat["shown"]["slot"]]


def _waiting(world: World) -> int:
    return next(u for u in (ANA, BIA) if world.prompt_buttons(u))


def test_info_button_opens_the_card_texts_in_place_and_the_choices_stay_valid():
    world = World()
    _trickerion(world)
    user = _waiting(world)  # the first seat chooses a magician: the prompt offers magician cards
    shown, before = _prompt(world, user)
    assert "Categoria Favorita" not in before.text
    sent = len(world.chat(user).outbound)
    world.press(user, user, "ℹ️ Cartas")
    shown_after, after = _prompt(world, user)
    assert shown_after["slot"] == shown["slot"] and len(world.chat(user).outbound) == sent + 1  # one edit
    assert "Categoria Favorita" in after.text and "Mestre das Correntes" in after.text
    assert after.text.startswith(before.text.split("\n")[0])
    assert [b.callback_data for b in world.prompt_buttons(user)] == [
        b.callback_data for row in before.buttons for b in row if "." in b.callback_data.split(":")[2]]
    assert any(b.text == "ℹ️ Ocultar" for row in after.buttons for b in row)
    world.press(user, user, "ℹ️ Ocultar")
    assert "Categoria Favorita" not in _prompt(world, user)[1].text
    world.press(user, user, "ℹ️ Cartas")
    result = world.click(user, user, world.prompt_buttons(user)[0].callback_data)  # an old button still works
    assert result.table is not None and result.callback_answer == ""
    assert "Categoria Favorita" not in world.chat(user).slots[shown["slot"]].text  # the next prompt: closed


def test_info_button_of_an_older_drawing_is_stale_and_changes_nothing():
    world = World()
    _trickerion(world)
    user = _waiting(world)
    info = world.button(user, "ℹ️ Cartas").callback_data
    world.click(user, user, world.prompt_buttons(user)[0].callback_data)  # the prompt moves on
    before = world.table()
    result = world.click(user, user, info)
    assert result.table is None and result.callback_answer == "Essa opção não vale mais."
    assert world.table() == before


def test_info_button_of_someone_else_is_refused():
    world = World()
    _trickerion(world)
    user = _waiting(world)
    other = BIA if user == ANA else ANA
    info = world.button(user, "ℹ️ Cartas").callback_data
    result = world.click(other, other, info)
    assert result.table is None and result.callback_answer


def test_prompt_without_cards_has_no_info_button():
    world = World()
    world.open_lobby("spellbook", [ANA])
    world.press(ANA, GROUP, "Começar")
    shown, message = _prompt(world, ANA)
    labels = [b.text for row in message.buttons for b in row]
    assert "ℹ️ Cartas" not in labels  # the first Morning offers Materia, not spells


def test_card_command_finds_a_card_in_either_language_without_accents():
    world = World()
    world.say(ANA, ANA, "/carta optico")
    text = world.chat(ANA).oneoffs[-1].text
    assert "<b>O Grande Óptico</b>" in text and "Categoria Favorita: Óptico" in text and "Trickerion" in text
    world.say(ANA, ANA, "/carta The Great Optico")
    assert "<b>O Grande Óptico</b>" in world.chat(ANA).oneoffs[-1].text  # an English name, answered in pt-BR
    world.say(ANA, ANA, "/idioma en")
    world.say(ANA, ANA, "/card grande óptico")
    english = world.chat(ANA).oneoffs[-1].text
    assert "<b>The Great Optico</b>" in english and "Favourite category: Optical" in english


def test_card_command_lists_several_matches_and_says_when_nothing_matches():
    world = World()
    riverside = sum(c.theater == "riverside" for c in CARDS.values())  # every Teatro Marginal card
    world.say(ANA, ANA, "/carta teatro marginal")
    listed = world.chat(ANA).oneoffs[-1].text
    assert listed.startswith(f"Encontrei {riverside} cartas:") and listed.count("• ") == cards.LIST_LIMIT
    assert f"… e mais {riverside - cards.LIST_LIMIT}." in listed
    world.say(ANA, ANA, "/carta zzzz")
    assert "Nenhuma carta se chama “zzzz”" in world.chat(ANA).oneoffs[-1].text
    world.say(ANA, ANA, "/carta")
    assert "/carta Óptico" in world.chat(ANA).oneoffs[-1].text


def test_card_command_in_a_group_reads_the_card_as_the_table_plays_it():
    world = World()
    _trickerion(world)  # without the Dark Alley: a magician has no power
    world.say(BIA, GROUP, "/carta mestre das correntes")
    text = world.chat(GROUP).oneoffs[-1].text
    assert "Categoria Favorita: Escapismo" in text and "Libertar-se" not in text
    world.say(BIA, BIA, "/carta mestre das correntes")  # in private, outside the table: with the power
    assert "Com o Beco Escuro — Libertar-se" in world.chat(BIA).oneoffs[-1].text


def test_card_search_prefers_exact_names_then_prefixes_and_the_table_game():
    assert cards.find("Flama") == [("spellbook", "spell:flame")]
    assert cards.find("escadas") == [("trickerion", "trick:T10")]
    assert cards.find("familiar", first="spellbook")[0] == ("spellbook", "familiar")
    assert cards.find("otico") == [("trickerion", "magician:M02")]  # a typo (or the variant spelling)
    assert cards.find("   ") == [] and cards.find("!!") == [] and cards.find("zzzz") == []


def test_rules_command_explains_each_phase_in_messages_within_telegram_limits():
    world = World()
    world.say(ANA, ANA, "/regras trickerion")
    parts = [m.text for m in world.chat(ANA).oneoffs]
    assert parts[0].startswith("📖 <b>Trickerion: como jogar</b>")
    joined = "\n".join(parts)
    for title in ("Propaganda", "Fase de Atribuição", "Fase de Alocar Personagens", "Fase de Apresentação",
                  "Fase de Fim da Rodada", "Beco Escuro (opcional)"):
        assert f"<b>{title}</b>" in joined
    assert all(render.utf16_len(p) <= render.TEXT_LIMIT for p in parts)
    world.say(BIA, BIA, "/idioma en")
    world.say(BIA, BIA, "/rules spellbook")
    english = "\n".join(m.text for m in world.chat(BIA).oneoffs)
    assert "📖 <b>Spellbook: how to play</b>" in english and "<b>Night</b>" in english


def test_rules_command_uses_the_table_game_or_asks_which():
    world = World()
    _trickerion(world)
    world.say(BIA, GROUP, "/regras")
    assert "Trickerion: como jogar" in world.chat(GROUP).oneoffs[-1].text or any(
        "Trickerion: como jogar" in m.text for m in world.chat(GROUP).oneoffs)
    world.say(ANA, ANA, "/regras")
    assert "Qual jogo? Digite /regras e o nome: spellbook, trickerion." in world.chat(ANA).oneoffs[-1].text
    world.say(ANA, ANA, "/regras xadrez")
    assert "Qual jogo?" in world.chat(ANA).oneoffs[-1].text


def test_help_and_greeting_list_every_game_and_its_newgame_word():
    world = World()
    world.say(ANA, ANA, "/start")
    greeting = world.chat(ANA).oneoffs[-1].text
    assert "/novojogo spellbook" in greeting and "/novojogo trickerion" in greeting
    world.say(ANA, GROUP, "/ajuda")
    help_text = world.chat(GROUP).oneoffs[-1].text
    assert "/novojogo trickerion: abre uma mesa de Trickerion" in help_text
    assert "/regras" in help_text and "/carta &lt;nome&gt;" in help_text


def test_a_prompt_with_one_short_card_answers_with_an_alert_and_redraws_nothing(monkeypatch):
    from rulesets.registry import get_game

    game = get_game("trickerion")
    real = type(game).prompt

    def one_card(self, state, seat):
        return real(self, state, seat).model_copy(update={"cards": ["perf:P01"]})

    world = World()
    _trickerion(world)
    monkeypatch.setattr(type(game), "prompt", one_card)
    user = _waiting(world)
    info = world.button(user, "ℹ️ Cartas").callback_data
    before, sent = world.table(), len(world.chat(user).outbound)
    result = world.click(user, user, info)
    assert result.callback_alert and result.callback_answer.startswith("Teatro Marginal (P01): ")
    assert len(result.callback_answer) <= cards.ALERT_LIMIT
    assert result.table is None and world.table() == before and len(world.chat(user).outbound) == sent
    assert cards.alert_text(game, None, ["perf:P01", "perf:P02"], "pt_BR") is None
    assert cards.alert_text(game, None, ["magician:M01"], "pt_BR") is None  # too long for an alert
