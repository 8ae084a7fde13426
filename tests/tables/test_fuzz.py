"""Random people doing random things: nothing raises, every message fits Telegram, a refused
command never changes the table, and the game still ends when they finally play."""

import random

import pytest

from tests.tables.harness import ANA, BIA, CAIO, GROUP

TEXTS = ["/status", "/ajuda", "/historico", "/jogos", "/lembrar", "/desfazer", "/idioma", "/lembretes 3",
         "/cancelar", "/novojogo toy", "/start", "/xyz", "oi", "", "/sair@OtherBot", "/_tick w0"]


@pytest.mark.parametrize("seed", range(4))
def test_random_commands_and_presses(world, seed):
    rng = random.Random(seed)
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    table_id = world.last_table
    users, chats = [ANA, BIA, CAIO], [GROUP, ANA, BIA, CAIO]
    seen_data: list[str] = []
    for _ in range(250):
        if world.table(table_id)["status"] != "playing":
            break
        world.now += rng.choice([1, 60, 3600])
        user, chat = rng.choice(users), rng.choice(chats)
        before = world.table(table_id)
        kind = rng.random()
        if kind < 0.45:
            buttons = world.buttons(chat)
            seen_data += [b.callback_data for b in buttons if b.callback_data]
            if not seen_data:
                continue
            data = rng.choice(seen_data)
            if "Cy" in data and rng.random() < 0.9:
                continue  # cancelling ends the fuzz early; let it happen rarely
            result = world.click(user, chat, data)
            assert result.callback_answer is not None
        elif kind < 0.5:
            result = world.click(user, chat, rng.choice(["", "x:1:2", f"{before['id']}:{before['version']}:9.9"]))
        else:
            text = rng.choice(TEXTS)
            if text == "/sair" or (text == "/cancelar" and rng.random() < 0.9):
                continue
            result = world.say(user, chat, text)
        if result.table is None:
            assert world.table(table_id) == before
        if any(k.startswith("rejected:") for k in result.metrics):
            assert result.table is None
    if world.table(table_id)["status"] == "playing":
        world.last_table = table_id
        world.play_out([ANA, BIA], seed=seed)
    assert world.table(table_id)["status"] in ("over", "cancelled")
