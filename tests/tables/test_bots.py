"""Bots at the table, through `handle` alone: the lobby's "🤖 + Bot", who may use it, the games' player
counts, the bots' turns announced to the AI task and their moves applied like presses (logged, checked
against the table's version, never undone by a person), and the médio AI in a leaver's seat."""

from __future__ import annotations

import html
import re

import pytest

import locales
from rulesets import registry
from rulesets.core import load_match
from rulesets.core.ai import think
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.tables import bots
from workers.tables.model import Table

ADD = "🤖 + Bot"


def add_bots(world: World, *levels: str, user: int = ANA) -> None:
    """Seat bots through the lobby's buttons, then back to the main buttons (Começar)."""
    for level in levels:
        if not any(b.text == f"🤖 + Bot {level}" for b in world.buttons(GROUP)):
            world.press(user, GROUP, ADD)
        world.press(user, GROUP, f"🤖 + Bot {level}")
    if any(b.text == "Voltar" for b in world.buttons(GROUP)):
        world.press(user, GROUP, "Voltar")


@pytest.fixture
def playing(world: World) -> World:
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    return world


def lobby_text(world: World) -> str:
    return world.chat(GROUP).slots["lobby"].text


def seats(world: World) -> list[dict]:
    return world.table()["seats"]


# --------------------------------------------------------------------------- the lobby


def test_the_creator_seats_bots_named_by_level_and_number(world):
    world.open_lobby("toy", [ANA])
    assert "🤖 + Bot: quem criou a mesa" in lobby_text(world)
    world.press(ANA, GROUP, ADD)
    labels = [b.text for row in world.chat(GROUP).slots["lobby"].buttons for b in row]
    assert labels == ["🤖 + Bot Fácil", "🤖 + Bot Médio", "🤖 + Bot Difícil", "Voltar"]
    result = world.press(ANA, GROUP, "🤖 + Bot Médio")
    assert result.callback_answer == "Pronto: Bot Médio 1 sentou à mesa."
    # the toy game seats two: the table is full, the lobby is back to its main buttons, without "+ Bot"
    assert [s["name"] for s in seats(world)] == ["Ana", "Bot Médio 1"]
    assert seats(world)[1]["bot"] == "medio" and seats(world)[1]["user_id"] < 0
    assert "Jogadores (2/2): Ana e Bot Médio 1" in lobby_text(world)
    assert ADD not in [b.text for b in world.buttons(GROUP)]
    # a bot sits in no index and gets no message: nothing went to any chat but the group and Ana's
    assert set(world.chats) == {GROUP, ANA}
    assert all(u > 0 for u in world.dir.user)


def test_several_bots_of_one_level_get_the_next_free_number():
    world = World()
    world.open_lobby("trickerion", [ANA])
    add_bots(world, "Médio", "Médio", "Fácil")
    assert [s["name"] for s in seats(world)] == ["Ana", "Bot Médio 1", "Bot Médio 2", "Bot Fácil 1"]
    assert len({s["user_id"] for s in seats(world)}) == 4
    world.press(ANA, GROUP, "Remover jogador")
    world.press(ANA, GROUP, "Remover Bot Médio 1")
    add_bots(world, "Médio")
    assert [s["name"] for s in seats(world)] == ["Ana", "Bot Médio 2", "Bot Fácil 1", "Bot Médio 1"]


def test_bot_names_follow_the_groups_language(world):
    world.open_lobby("toy", [ANA])
    world.say(ANA, GROUP, "/idioma english")
    world.press(ANA, GROUP, ADD)
    world.press(ANA, GROUP, "🤖 + Medium bot")
    assert seats(world)[1]["name"] == "Medium Bot 1"


def test_only_the_creator_or_an_admin_seats_a_bot(world):
    world.open_lobby("toy", [])
    result = world.press(BIA, GROUP, ADD)
    assert result.table is None
    assert result.callback_answer == "Só quem criou a mesa ou um admin do grupo pode fazer isso."
    world.press(ANA, GROUP, ADD)
    result = world.press(BIA, GROUP, "🤖 + Bot Fácil")
    assert result.table is None and seats(world) == []
    world.admins.add(BIA)
    world.press(BIA, GROUP, "🤖 + Bot Fácil")
    assert [s["name"] for s in seats(world)] == ["Bot Fácil 1"]


def bots_arg(i: str) -> str:
    from workers.tables.lobby import ADD_BOT

    return f"{ADD_BOT}{i}"


def test_a_full_table_and_forged_levels_are_refused(world):
    world.open_lobby("toy", [ANA, BIA])
    table = world.table()
    v = table["lobby"]["version"]
    assert world.click(ANA, GROUP, f"{table['id']}:{v}:{bots_arg('')}").callback_answer.startswith("A mesa está cheia")
    world.say(BIA, GROUP, "/sair")
    world.press(ANA, GROUP, ADD)
    table = world.table()
    v = table["lobby"]["version"]
    for forged in ("7", "x", "00"):
        result = world.click(ANA, GROUP, f"{table['id']}:{v}:{bots_arg(forged)}")
        assert result.table is None and result.callback_answer == "Esse botão não é válido.", forged


def test_a_bot_is_removed_like_a_seated_player_and_told_nothing(world):
    world.open_lobby("toy", [ANA])
    add_bots(world, "Difícil")
    before = {chat: len(c.transcript) for chat, c in world.chats.items()}
    world.press(ANA, GROUP, "Remover jogador")
    result = world.press(ANA, GROUP, "Remover Bot Difícil 1")
    assert result.callback_answer == "Pronto: Bot Difícil 1 não está mais na mesa."
    assert [s["name"] for s in seats(world)] == ["Ana"]
    assert {o.chat_id for o in result.outbound} == {GROUP}
    assert len(world.chat(ANA).transcript) == before[ANA]


def test_a_game_without_the_ais_knowledge_offers_no_bots(secret_world):
    world = secret_world
    world.open_lobby("secrettoy", [ANA])
    assert ADD not in [b.text for b in world.buttons(GROUP)]
    assert "🤖" not in lobby_text(world)


def test_solo_trickerion_needs_a_bot_and_takes_up_to_three():
    world = World()
    world.open_lobby("trickerion", [ANA])
    result = world.press(ANA, GROUP, "Começar")
    assert result.table is None and result.callback_answer == "Este jogo é para 2 a 4 jogadores."
    add_bots(world, "Fácil", "Médio", "Difícil")
    assert ADD not in [b.text for b in world.buttons(GROUP)]  # 4 seats: full
    world.press(ANA, GROUP, "Começar")
    assert world.table()["status"] == "playing"
    assert "a partida começou com Ana, Bot Fácil 1, Bot Médio 1 e Bot Difícil 1" in world.chat(GROUP).text()


def test_spellbook_solo_keeps_its_difficulty_and_a_bot_makes_it_a_game_of_two():
    world = World()
    world.open_lobby("spellbook", [ANA])
    assert "Dificuldade" in lobby_text(world)  # the solo track's option, with one player
    add_bots(world, "Médio")
    assert "Dificuldade" not in lobby_text(world)  # two players: no solo track
    world.press(ANA, GROUP, "Começar")
    match = load_match(world.table()["match"])
    assert match.players == 2 and len(match.state.players) == 2


# --------------------------------------------------------------------------- bots' turns


def test_a_table_of_bots_alone_plays_to_the_end_for_the_group_to_watch(world):
    """Ruling (docs/telegram.md): the creator may start a table where only bots sit; the group watches."""
    world.open_lobby("toy", [])
    add_bots(world, "Fácil", "Difícil")
    world.press(ANA, GROUP, "Começar")
    table = world.table()
    assert table["status"] == "over" and world.bot_moves >= 2
    assert "Fim de jogo" in world.chat(GROUP).final_scores()
    assert set(world.chats) == {GROUP}  # nobody else was written to
    record = world.dir.records[table["id"]]
    assert record["rated"] and {s["entity"] for s in record["seats"]} == {"bot:facil", "bot:dificil"}
    summary = world.chat(GROUP).transcript[-1]  # the summary's caption names each bot seat apart
    assert "🤖 Bot Fácil 1" in summary and "🤖 Bot Difícil 1" in summary


def test_a_bots_turn_is_announced_with_the_status_time_and_nothing_runs_meanwhile(world):
    world.auto_bots = False
    world.open_lobby("toy", [ANA])
    add_bots(world, "Médio")
    result = world.press(ANA, GROUP, "Começar")
    table = world.table()
    # the toy game's bids are simultaneous: Ana has her prompt, the bot's bid is announced to the AI task
    assert result.bot_turn is not None and result.bot_turn.table_id == table["id"]
    assert result.bot_turn.since == table["status_at"] == world.now
    assert table["acting"] == [0, 1] and world.prompt_buttons(ANA)
    assert load_match(table["match"]).version == 1  # the table logic itself made no move
    # a command that changes nothing of the table announces nothing again
    assert world.say(CAIO, GROUP, "oi").bot_turn is None
    world.now += 5
    assert world.run_bots() == 1
    match = load_match(world.table()["match"])
    assert [entry.seat for entry in match.log[1:]] == [1]  # the bot's bid, in the log like any move


def test_a_bot_move_is_applied_once_and_only_at_its_version(world):
    world.auto_bots = False
    world.open_lobby("toy", [ANA])
    add_bots(world, "Médio")
    world.press(ANA, GROUP, "Começar")
    doc = world.table()
    move = bots.next_move(doc)
    assert move is not None and move.seat == 1 and move == bots.next_move(doc)  # same table: same move
    # the table changes before the move arrives (Ana bids): the move is refused and the turn announced again
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    stale = world.run(world.bot_command(move))
    assert stale.table is None and stale.metrics == {"rejected:bot_stale": 1} and stale.bot_turn is not None
    fresh = bots.next_move(world.table())
    applied = world.run(world.bot_command(fresh))
    assert applied.table is not None and applied.metrics["bot_moves"] == 1
    # delivered twice: the second is a no-op (its update id was applied)
    again = world.run(world.commands[-1])
    assert again.table is None and again.metrics == {"duplicate": 1}


def test_nobody_but_the_ai_task_moves_a_bot(world):
    world.auto_bots = False
    world.open_lobby("toy", [ANA])
    add_bots(world, "Médio")
    world.press(ANA, GROUP, "Começar")
    table = world.table()
    move = bots.next_move(table)
    # a person typing the command (in the group or in private) is ignored
    for chat in (GROUP, ANA):
        result = world.say(ANA, chat, move.text())
        assert result.table is None and result.outbound == [] and result.metrics == {"rejected:forged": 1}
    # from user 0 but for Ana's seat, a seat out of range, or garbage: refused, nothing changes
    for text in (f"/_bot 0 {table['version']} {move.choice}", f"/_bot 9 {table['version']} {move.choice}",
                 "/_bot 1", f"/_bot 1 {table['version']} ", "/_bot x 1 y"):
        result = world.run(world.bot_command(bots.BotMove(table["id"], 0, 0, "", "medio")).model_copy(
            update={"text": text}))
        assert result.table is None and result.outbound == [], text
    assert world.table()["version"] == table["version"]


def test_an_illegal_choice_falls_back_to_the_games_stand_in(world):
    world.auto_bots = False
    world.open_lobby("toy", [ANA])
    add_bots(world, "Médio")
    world.press(ANA, GROUP, "Começar")
    table = world.table()
    result = world.run(world.bot_command(bots.BotMove(table["id"], 1, table["version"], "no-such-choice", "medio")))
    assert result.table is not None and result.metrics["bot_fallback"] == 1
    assert load_match(world.table()["match"]).log[-1].seat == 1


def test_a_persons_undo_never_takes_back_a_bots_move(world):
    world.auto_bots = False
    world.open_lobby("toy", [ANA])
    add_bots(world, "Médio")
    world.press(ANA, GROUP, "Começar")
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)  # Ana bids first: hers to take back
    assert "↩ Desfazer" in [b.text for row in world.chat(ANA).slots["prompt.1"].buttons for b in row]
    world.run_bots()  # the bot bids: the last action is the bot's now
    assert load_match(world.table()["match"]).log[-1].seat == 1
    before = world.table()["version"]
    result = world.say(ANA, GROUP, "/desfazer")
    assert result.table is None and "Não dá para desfazer agora" in world.chat(GROUP).transcript[-1]
    assert world.table()["version"] == before


def test_the_ais_move_in_a_handed_over_seat_is_not_its_persons_to_undo(playing):
    world = playing  # Ana and Bia, toy game: Ana bids 1, Bia 3, so Bia rolls (and may mark first)
    world.auto_bots = False
    world.click(ANA, ANA, world.prompt_buttons(ANA)[0].callback_data)
    world.click(BIA, BIA, world.prompt_buttons(BIA)[2].callback_data)
    table = world.dir.tables[world.last_table]
    assert load_match(table["match"]).state.roller == 1
    # the others handed her turn to the AI (as the vote does: tests/tables/test_commands.py), which marks
    table["seats"][1]["covered"] = True
    table["acting"] = [1]
    marked = world.run(world.bot_command(bots.BotMove(table["id"], 1, table["version"], "mark", "medio")))
    assert marked.table is not None and load_match(world.table()["match"]).log[-1].seat == 1
    # back in her hands, the mark is still the last action of her seat, and undoable by the rules, but
    # it was the AI's: not hers to take back
    world.dir.tables[world.last_table]["seats"][1]["covered"] = False
    result = world.say(BIA, GROUP, "/desfazer")
    assert result.table is None and "Não dá para desfazer agora" in world.chat(GROUP).transcript[-1]


def test_a_leaver_is_played_by_the_medio_ai_and_the_group_is_told(playing):
    world = playing
    world.auto_bots = False
    result = world.say(BIA, GROUP, "/sair")
    seat = world.table()["seats"][1]
    assert seat["left"] and seat["bot"] is None  # still rated as herself, placed last
    assert result.bot_turn is not None
    assert "Bia saiu da partida; o bot médio joga no lugar até o fim" in world.chat(GROUP).text()
    assert "Bia (saiu: bot médio)" in world.chat(GROUP).slots["status"].text
    # the AI task plays her with médio, seeded by the table and the match's version
    table = world.table()
    move = bots.next_move(table)
    assert move is not None and move.seat == 1 and move.level == "medio"


def test_when_the_last_person_leaves_a_table_with_bots_it_closes(world):
    world.open_lobby("toy", [ANA])
    add_bots(world, "Fácil")
    world.press(ANA, GROUP, "Começar")
    assert world.table()["status"] == "playing"  # the bot bid; Ana has not
    world.say(ANA, GROUP, "/sair")
    assert world.table()["status"] == "cancelled"
    assert "Todos os jogadores saíram" in world.chat(GROUP).transcript[-1]


# --------------------------------------------------------------------------- hidden information


@pytest.fixture
def secret_bots(secret_world, monkeypatch):
    """The leak-revealing toy with the toy's AI knowledge, so bots can sit at it."""
    monkeypatch.setitem(registry.KNOWLEDGE, "secrettoy", "tests.core.toy_ai:KNOWLEDGE")
    registry.get_knowledge.cache_clear()
    yield secret_world
    registry.get_knowledge.cache_clear()


def test_a_bots_secrets_reach_nobody(secret_bots):
    world = secret_bots
    world.open_lobby("secrettoy", [ANA])
    add_bots(world, "Difícil")
    world.press(ANA, GROUP, "Começar")
    world.play_out([ANA], seed=5)
    assert world.table()["status"] == "over" and world.bot_moves >= 1
    assert set(world.chats) == {GROUP, ANA}
    assert not re.search(r"SEGREDO|PRIVADO|MESA-PRIVADA", world.chat(GROUP).text())
    assert not re.search(r"(SEGREDO|PRIVADO|MESA-PRIVADA)-1", world.chat(ANA).text())
    assert "SEGREDO-0" in world.chat(ANA).text()


def test_trickerion_against_a_bot_to_the_final_scores_keeps_its_secrets():
    world = World()
    world.open_lobby("trickerion", [ANA])
    add_bots(world, "Fácil")
    world.press(ANA, GROUP, "Começar")
    world.play_out([ANA], seed=1, max_presses=20_000)
    table = world.table()
    assert table["status"] == "over" and world.bot_moves > 50
    final = world.chat(GROUP).final_scores()
    assert "Fim de jogo: Trickerion" in final and "Bot Fácil 1" in final
    assert set(world.chats) == {GROUP, ANA}
    match = load_match(table["match"])
    names = [s["name"] for s in table["seats"]]
    events = [e for entry in match.log for e in entry.events]
    text = {id(e): html.escape(locales.render(e.text, "pt_BR", names), quote=False) for e in events}
    chats = {None: world.chat(GROUP).text(), 0: world.chat(ANA).text()}
    for reader, transcript in chats.items():
        visible = {text[id(e)] for e in events if e.visible_to(reader)}
        for e in events:
            if e.audience is not None and not e.visible_to(reader) and text[id(e)] not in visible:
                assert text[id(e)] not in transcript, (reader, text[id(e)])


def test_a_person_alone_with_bots_is_reminded_without_a_vote_button():
    from tests.tables.test_commands import tick

    world = World()
    world.open_lobby("spellbook", [ANA])
    add_bots(world, "Fácil")
    world.press(ANA, GROUP, "Começar")
    assert world.prompt_buttons(ANA)  # (if the bot began, its Day was played at once)
    for _ in range(2):
        world.now += 24 * 3600
        tick(world, "w0")
    reminder = world.chat(GROUP).oneoffs[-1]
    assert "Ana" in reminder.text and reminder.buttons == []  # nobody could vote: no button


# --------------------------------------------------------------------------- a bot's memory of its last search


def test_a_solo_bot_keeps_its_memory_between_its_moves_and_plays_as_the_tournament_would(world):
    """Spellbook solo reuses a search's tree in the next (rulesets/core/ai/memory.py): the AI task keeps it
    as bytes beside the table (`ai:mem`), and the bot makes the moves the engine's own loop would make,
    where the memory never leaves the process."""
    world.auto_bots = False
    world.open_lobby("spellbook", [])
    add_bots(world, "Fácil")
    world.press(ANA, GROUP, "Começar")
    table_id = world.last_table
    direct = None  # the memory as the tournament carries it (rulesets/core/ai/tournament.py)
    recalled = 0
    for _ in range(30):
        doc = world.table(table_id)
        table, match = Table.model_validate(doc), load_match(doc["match"])
        blob = world.bot_memory.get(table_id)
        recalled += bots.recall(blob, match, 0) is not None
        move = bots.next_move(doc, memory=blob)
        expected = think(match, 0, "facil", bots.seed(table, match.version, 0), direct)
        assert move.choice == expected.choice
        assert move.memory == bots.keep(expected.memory, 0, match.version + 1, expected.choice)
        direct = expected.memory
        world.bot_memory[table_id] = move.memory
        assert world.run(world.bot_command(move)).table is not None
    assert recalled >= 10


def test_a_memory_is_recalled_only_by_its_seat_at_its_version_after_its_own_move(world):
    world.auto_bots = False
    world.open_lobby("spellbook", [])
    add_bots(world, "Fácil")
    world.press(ANA, GROUP, "Começar")
    move = bots.next_move(world.table())
    assert move.memory  # a phase's choice: the search left a tree
    world.run(world.bot_command(move))
    match = load_match(world.table()["match"])
    assert bots.recall(move.memory, match, 0) is not None
    assert bots.recall(move.memory, match, 1) is None  # another seat's
    assert bots.recall(move.memory, match.model_copy(update={"version": match.version + 1}), 0) is None  # moved on
    other = match.model_copy(update={"log": [*match.log[:-1], match.log[-1].model_copy(update={"choice": "x"})]})
    assert bots.recall(move.memory, other, 0) is None  # a stand-in played another move in its place
    assert bots.recall(move.memory[:-9] + b"damaged!!", match, 0) is None
    assert bots.recall(b"", match, 0) is None and bots.recall(None, match, 0) is None


def test_a_game_whose_knowledge_keeps_no_memory_stores_none(world):
    world.auto_bots = False
    world.open_lobby("toy", [ANA])
    add_bots(world, "Médio")
    world.press(ANA, GROUP, "Começar")
    move = bots.next_move(world.table())
    assert move is not None and move.memory == b""  # the push deletes ai:mem: nothing stale is left behind
