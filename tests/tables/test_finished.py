"""After the game, through `handle` alone: the summary picture, /ranking, /estatisticas, /partidas
(both languages), the replay stepping to the saved final position and back, /exportar's file, who may
see a finished game, and that the replay and the summary show only what the group may see."""

import io
import json
import re

import pytest
from PIL import Image

from rulesets.core import load_match, replay, state_hash
from rulesets.registry import get_game
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.tables import picture
from workers.tables import replay as replay_mod
from workers.tables.record import GameRecord

SKIP = "Pular esta fase"
OTHER_GROUP = -2000


@pytest.fixture(scope="module")
def played() -> World:
    """Two finished three-player Spellbook games in the group."""
    world = World()
    for seed in (1, 2):
        world.open_lobby("spellbook", [ANA, BIA, CAIO])
        world.press(ANA, GROUP, "Começar")
        world.play_out([ANA, BIA, CAIO], seed=seed, avoid=SKIP)
    return world


def last_record(world: World) -> GameRecord:
    ids, _ = world.dir.finished(f"g{GROUP}", 0, 1)
    return GameRecord.model_validate(world.dir.records[ids[0]])


def summary_message(world: World):
    return [m for m in world.chat(GROUP).oneoffs if m.photo is not None and "Resumo" in m.text][-1]


def test_the_group_gets_one_summary_picture_with_places_points_and_rating_changes(played):
    summaries = [m for m in played.chat(GROUP).oneoffs if "Resumo da partida" in m.text]
    assert len(summaries) == 2  # one per game
    last = summary_message(played)
    image = Image.open(io.BytesIO(last.photo))
    assert image.format == "PNG" and len(last.photo) < 100_000 and len(last.text) <= 1024
    assert "1º" in last.text and "ranking" in last.text
    labels = [b.text for row in last.buttons for b in row]
    assert labels == ["🎬 Rever a partida", "📄 Exportar"]


def test_ranking_in_the_group_lists_its_top_in_both_languages(played):
    played.say(BIA, GROUP, "/ranking")
    text = played.chat(GROUP).transcript[-1]
    assert "Ranking do grupo: Spellbook" in text and "1. " in text and "2 partidas" in text
    played.say(ANA, GROUP, "/idioma en")
    played.say(BIA, GROUP, "/ranking spell")
    text = played.chat(GROUP).transcript[-1]
    assert "The group's ranking: Spellbook" in text and "2 games" in text
    played.say(ANA, GROUP, "/idioma pt")
    played.say(BIA, GROUP, "/ranking xadrez")
    assert "Qual jogo?" in played.chat(GROUP).transcript[-1]


def test_ranking_in_private_gives_your_place_among_everyone(played):
    played.say(CAIO, CAIO, "/ranking")
    text = played.chat(CAIO).transcript[-1]
    assert "Seu ranking" in text and "de 3" in text and "Trickerion: nenhuma partida no ranking" in text
    played.langs_app[CAIO] = "en"
    played.dir.langs[CAIO] = "en"
    played.say(CAIO, CAIO, "/ranking")
    assert "Your ranking" in played.chat(CAIO).transcript[-1]
    played.dir.langs.pop(CAIO)
    played.langs_app.pop(CAIO)


def test_statistics_give_your_averages_favourites_and_pace(played):
    played.say(ANA, ANA, "/estatisticas")
    text = played.chat(ANA).transcript[-1]
    assert "Estatísticas de Ana" in text and "2 partidas" in text and "média" in text
    assert "Média por partida: Familiar" in text and "Tempo médio por jogada" in text
    played.dir.langs[ANA] = "en"
    played.say(ANA, ANA, "/stats spellbook")
    text = played.chat(ANA).transcript[-1]
    assert "Ana's statistics" in text and "Average per game" in text
    played.dir.langs.pop(ANA)
    played.say(ANA, ANA, "/estatisticas trickerion")
    assert "ainda não terminou" in played.chat(ANA).transcript[-1]


def test_statistics_name_the_favourite_cards_and_each_kind_of_points():
    from workers.tables import standings

    stats = {"games": 4, "wins": 1, "score": 100, "best": 31, "moves": 80, "think": 4000,
             "l:spellbook.score.spell": 40, "l:spellbook.score.familiar": 60, "c:spell:flame": 3,
             "c:spell:levitation": 1}
    text = "\n".join(standings._game_stats("spellbook", stats, "pt_BR"))
    assert "1 vitória (25%)" in text and "média 25,0 · melhor 31" in text
    assert "Familiar 15,0 · Feitiços 10,0" in text and "Tempo médio por jogada: 50 s" in text
    assert "Feitiços mais aprendidos:" in text and "(3 partidas)" in text


def test_partidas_lists_your_games_newest_first_with_their_buttons(played):
    played.say(BIA, BIA, "/partidas")
    games = [m for m in played.chat(BIA).slots.values() if m.slot and m.slot.startswith("games.")][-1]
    assert "Suas partidas" in games.text and "página 1 de 1" in games.text
    assert games.text.index("<b>1.</b>") < games.text.index("<b>2.</b>")
    labels = [b.text for row in games.buttons for b in row]
    assert labels == ["🎬 Rever 1", "📄 Exportar 1", "🎬 Rever 2", "📄 Exportar 2"]
    played.dir.langs[BIA] = "en"
    played.say(BIA, BIA, "/matches")
    assert "Your games" in played.chat(BIA).transcript[-1]
    played.dir.langs.pop(BIA)


def test_partidas_pages_turn_in_one_message(toy_registered):
    world = World()
    for seed in range(7):
        world.open_lobby("toy", [ANA, BIA])
        world.press(ANA, GROUP, "Começar")
        world.play_out([ANA, BIA], seed=seed)
    world.say(ANA, GROUP, "/partidas")
    slot = [s for s in world.chat(GROUP).slots if s.startswith("games.")][-1]
    first = world.chat(GROUP).slots[slot]
    assert "Partidas do grupo" in first.text and "página 1 de 2" in first.text
    world.press(BIA, GROUP, "Mais antigas ▶")
    second = world.chat(GROUP).slots[slot]
    assert "página 2 de 2" in second.text and "<b>6.</b>" in second.text and "<b>7.</b>" in second.text
    world.press(BIA, GROUP, "◀ Mais recentes")
    assert "página 1 de 2" in world.chat(GROUP).slots[slot].text


def _replay_slot(world: World, chat: int) -> str:
    return [s for s in world.chat(chat).slots if s.startswith("replay.")][-1]


def test_the_replay_steps_to_the_saved_final_position_and_back(played):
    data = summary_message(played).buttons[0][0].callback_data
    record = GameRecord.model_validate(played.dir.records[data.removeprefix("~P")])
    match = load_match(record.match)
    game = get_game("spellbook")
    played.click(BIA, GROUP, data)
    slot = _replay_slot(played, GROUP)
    first = played.chat(GROUP).slots[slot]
    assert "passo 1 de" in first.text and first.photo is not None
    played.press(BIA, GROUP, "⏭")
    final = played.chat(GROUP).slots[slot]
    assert "Posição final" in final.text
    stops = replay_mod.steps(match)
    assert state_hash(match.model_copy(update={"state": replay_mod.position(match, stops[-1])})) == state_hash(match)
    names = [s.name for s in record.seats]
    assert final.photo == picture.table(game, game.view(match.state, None), names, "pt_BR")
    played.press(CAIO, GROUP, "◀")
    assert f"passo {len(stops) - 1} de {len(stops)}" in played.chat(GROUP).slots[slot].text
    played.press(CAIO, GROUP, "▶")
    assert played.chat(GROUP).slots[slot].photo == final.photo
    played.press(ANA, GROUP, "⏮")
    assert played.chat(GROUP).slots[slot].photo == first.photo
    played.press(ANA, GROUP, "Rodada 2 ⏩")
    assert "rodada 2" in played.chat(GROUP).slots[slot].text


def test_a_replay_from_partidas_opens_in_the_players_private_chat(played):
    played.say(CAIO, CAIO, "/partidas")
    played.press(CAIO, CAIO, "🎬 Rever 1")
    slot = _replay_slot(played, CAIO)
    assert "Reprise: Spellbook" in played.chat(CAIO).slots[slot].text


def test_only_the_group_and_its_players_see_a_finished_game(played):
    record = last_record(played)
    data = summary_message(played).buttons[0][0].callback_data
    outsider = 999
    before = len(played.chat(OTHER_GROUP).transcript)
    result = played.click(outsider, OTHER_GROUP, data)  # a forwarded copy pressed in another group
    assert result.callback_answer == "Essa partida é de outro grupo." and result.outbound == []
    result = played.click(outsider, outsider, data)  # in the private chat of someone who did not play
    assert result.callback_answer == "Essa partida é de outro grupo." and result.outbound == []
    assert len(played.chat(OTHER_GROUP).transcript) == before
    assert played.click(ANA, GROUP, "~Szz.0.1").callback_answer == "Essa partida não está mais guardada."
    assert played.click(ANA, GROUP, "~Q").callback_answer == "Esse botão não é válido."
    assert played.click(ANA, GROUP, f"~S{record.id}.x.1").callback_answer == "Esse botão não é válido."


def test_exportar_sends_a_file_that_replays_to_the_same_final_state(played):
    played.say(ANA, GROUP, "/exportar")
    sent = played.chat(GROUP).outbound[-1]
    assert sent.document is not None and sent.document_name.endswith(".json") and "engine replay" in sent.text
    data = json.loads(sent.document)
    match = load_match(data)
    assert state_hash(replay(match)) == state_hash(match) == state_hash(load_match(last_record(played).match))
    assert data["table"]["names"] == ["Ana", "Bia", "Caio"]
    played.say(CAIO, CAIO, "/partidas")
    played.press(CAIO, CAIO, "📄 Exportar 2")
    assert played.chat(CAIO).outbound[-1].document is not None


def test_the_replay_and_the_summary_show_only_what_the_group_may_see(played, monkeypatch):
    """Change what is private (the bag's contents: the group sees only its count) in every replayed
    position and in the final one: the frames and the summary picture come out the same."""
    record = last_record(played)
    game = get_game("spellbook")
    match = load_match(record.match)
    stops = replay_mod.steps(match)
    picks = (0, len(stops) // 2, len(stops) - 1)
    plain = [replay_mod.frame(game, record, match, k, "pt_BR", 1)[:2] for k in picks]
    real = replay_mod.position

    def shuffled(m, index):
        state = real(m, index).model_copy(deep=True)
        state.bag = list(reversed(state.bag))
        return state

    monkeypatch.setattr(replay_mod, "position", shuffled)
    assert [replay_mod.frame(game, record, match, k, "pt_BR", 1)[:2] for k in picks] == plain
    secret = match.state.model_copy(deep=True)
    secret.bag = list(reversed(secret.bag))
    names = [s.name for s in record.seats]
    say = picture.say("pt_BR", names)
    assert game.summary_picture(record.summary(game.view(match.state, None)), names, say) == \
        game.summary_picture(record.summary(game.view(secret, None)), names, say)


def test_a_replay_in_the_group_never_shows_a_private_line(secret_world):
    world = secret_world
    world.open_lobby("secrettoy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    world.play_out([ANA, BIA], seed=5)
    summary = [m for m in world.chat(GROUP).oneoffs if "Resumo" in m.text][-1]
    world.click(ANA, GROUP, summary.buttons[0][0].callback_data)
    slot = _replay_slot(world, GROUP)
    seen = [world.chat(GROUP).slots[slot].text]
    while any(b.text == "▶" for row in world.chat(GROUP).slots[slot].buttons for b in row):
        world.press(BIA, GROUP, "▶")
        seen.append(world.chat(GROUP).slots[slot].text)
    assert len(seen) > 2 and "Posição final" in seen[-1]
    assert not re.search(r"SEGREDO|PRIVADO|MESA-PRIVADA", "\n".join(seen))
