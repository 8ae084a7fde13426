"""Spellbook end to end through `handle` alone: scripted users press the buttons they see."""

import io
import re

import pytest
from PIL import Image

from rulesets.core import FinalScore, SeatScore
from rulesets.registry import get_game
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.tables import picture
from workers.tables import play as table_play
from workers.tables.context import Ctx
from workers.tables.model import Table

SKIP = "Pular esta fase"  # a keen player skips a phase only when nothing else is possible


def play(users: list[int], seed: int) -> tuple[World, int, int]:
    world = World()
    world.open_lobby("spellbook", users)
    world.press(ANA, GROUP, "Começar")
    before = len(world.results)
    presses = world.play_out(users, seed=seed, avoid=SKIP)
    calls = sum(len(r.outbound) for r in world.results[before:])
    return world, presses, calls


def test_a_solo_game_to_the_final_scores():
    world, presses, calls = play([ANA], seed=4)
    assert world.table()["status"] == "over"
    final = world.chat(GROUP).final_scores()
    assert "Fim de jogo: Spellbook" in final and "Oponente" in final and "Familiar" in final
    # the opponent beat Ana: it is named the winner, not "nobody won" (and the record puts Ana second)
    assert "2. <b>Ana</b>: 20 pontos" in final and "🤖 <b>Oponente</b>: 34 pontos" in final
    assert "🏆 Vencedor: <b>Oponente</b>" in final and "Ninguém venceu" not in final
    assert world.dir.records[world.table()["id"]]["seats"][0]["place"] == 2
    # in solo the prompt is edited in place all game long, the status once a Day
    assert calls / presses <= 1.5, (calls, presses)


@pytest.mark.parametrize("seed", [1, 2])
def test_a_three_player_game_to_the_final_scores(seed):
    world, presses, calls = play([ANA, BIA, CAIO], seed=seed)
    assert world.table()["status"] == "over"
    final = world.chat(GROUP).final_scores()
    assert final.count("pontos") + final.count("ponto\n") >= 3
    assert "Vencedor" in final or "Vitória compartilhada" in final
    # each seat's number is its place as the record keeps it
    record = world.dir.records[world.table()["id"]]
    shown = dict((name, int(place)) for place, name in re.findall(r"^(\d+)\. <b>(.+?)</b>", final, re.M))
    assert shown == {s["name"]: s["place"] for s in record["seats"]}
    # per Day: one edit per move, a new prompt for the next player, one status edit
    assert calls / presses <= 2.2, (calls, presses)
    status = world.chat(GROUP).slots["status"]
    assert status.photo is not None and len(status.photo) < 100_000


def test_the_status_message_carries_a_picture_of_the_public_table(monkeypatch):
    seen = []
    game = get_game("spellbook")
    real = game.picture

    def spy(view, names, say):
        seen.append(view)
        return real(view, names, say)

    monkeypatch.setattr(game, "picture", spy)
    world = World()
    world.open_lobby("spellbook", [ANA, BIA])
    result = world.press(ANA, GROUP, "Começar")
    status = [o for o in result.outbound if o.slot == "status"][0]
    drawn = picture.draw(status.picture)  # as the outbox draws it when it sends the status
    image = Image.open(io.BytesIO(drawn))
    assert image.format == "PNG" and image.width >= 600 and len(drawn) < 100_000
    assert len(status.text) <= 1024 and "Spellbook" in status.text
    assert seen and all(v["you"] is None for v in seen)  # drawn from the group's view only


def test_prompts_show_the_players_pool_and_the_altar():
    world = World()
    world.open_lobby("spellbook", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    prompts = [m for u in (ANA, BIA) for m in world.chat(u).slots.values() if m.buttons]
    assert len(prompts) == 1  # one player's Day at a time
    assert "Sua reserva" in prompts[0].text and "Altar" in prompts[0].text


def test_a_player_leaves_spellbook_and_the_stand_in_plays_their_days_to_the_end():
    world = World()
    world.open_lobby("spellbook", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    world.say(BIA, GROUP, "/sair")
    world.play_out([ANA], seed=3, avoid=SKIP)
    assert world.table()["status"] == "over"
    assert "(saiu: bot médio)" in world.chat(GROUP).transcript[-1]
    assert world.prompt_buttons(BIA) == []


def test_english_group_and_player():
    world = World()
    world.langs_app[ANA] = "en"
    world.say(ANA, GROUP, "/language en")
    world.open_lobby("spellbook", [ANA])
    world.press(ANA, GROUP, "Start")
    assert "Waiting for" in world.chat(GROUP).slots["status"].text
    prompt = [m for m in world.chat(ANA).slots.values() if m.buttons][0]
    assert "(solo)" in prompt.text and "Morning" in prompt.text


def test_a_new_turn_message_recaps_what_the_others_did():
    world = World()
    world.open_lobby("spellbook", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    first = ANA if world.prompt_buttons(ANA) else BIA
    second = BIA if first == ANA else ANA
    name = "Ana" if first == ANA else "Bia"
    while world.prompt_buttons(first):
        keen = [b for b in world.prompt_buttons(first) if b.text != SKIP] or world.prompt_buttons(first)
        result = world.click(first, first, keen[0].callback_data)
    new = [o for o in result.outbound if o.chat_id == second]
    assert len(new) == 1 and not new[0].silent
    assert f"• {name} " in new[0].text and "Começa o Dia 1" in new[0].text


def test_a_shared_victory_shares_the_first_place_in_the_final_scores(monkeypatch):
    """Three players tied on points, spells and Materia share the victory: each is "1.", not 1, 2 and 3."""
    world = World()
    world.open_lobby("spellbook", [ANA, BIA, CAIO])
    world.press(ANA, GROUP, "Começar")
    game = get_game("spellbook")
    tied = FinalScore(seats=[SeatScore(seat=i, total=18, lines=[]) for i in range(3)], winners=[0, 1, 2],
                      end_reason="familiar")
    monkeypatch.setattr(game, "score", lambda state: tied)
    table = Table.model_validate(world.table())
    ctx = Ctx(table, world.command(ANA, GROUP, text="/status"), world.dir, world.now)
    lines = table_play.score_lines(ctx, game, table.load(), "pt_BR")
    assert [line.split(".")[0] for line in lines if re.match(r"^\d+\. ", line)] == ["1", "1", "1"]
    assert "Vitória compartilhada" in lines[1]
