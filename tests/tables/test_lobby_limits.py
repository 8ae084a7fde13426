"""What keeps lobbies bounded and seats honest: only group members join, the creator or an
admin removes a seated player, names are capped and stripped of direction overrides, a user
has at most 3 lobbies waiting, a group opens at most 10 tables an hour, a lobby nobody
touches for 48 h is cancelled, and a closed table leaves every index."""

from __future__ import annotations

from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.protocol import Command

HOUR = 3600.0


def tick(world: World, key: str):
    world.update += 1
    cmd = Command(update_id=-world.update, kind="message", route=world.last_table, chat_id=0, chat_type="group",
                  user_id=0, user_name="", text=f"/_tick {key}", received_at=world.now)
    return world.run(cmd)


def lobby_buttons(world: World, chat: int = GROUP) -> list[str]:
    slot = world.table()["lobby"]["slot"]
    return [b.text for row in world.chat(chat).slots[slot].buttons for b in row]


def test_only_members_of_the_group_take_a_seat(world):
    world.say(ANA, GROUP, "/novojogo toy")
    world.outsiders.add(CAIO)
    before = world.table()
    result = world.say(CAIO, CAIO, f"/start j{world.last_table}")
    assert result.table is None and world.table() == before
    assert "Só quem está no grupo da mesa pode entrar" in result.outbound[0].text
    world.outsiders.discard(CAIO)
    assert world.say(CAIO, CAIO, f"/start j{world.last_table}").table is not None


def test_a_join_whose_membership_is_unknown_is_refused_with_a_retry_hint(world):
    world.say(ANA, GROUP, "/novojogo toy")
    cmd = world.command(BIA, BIA, text=f"/start j{world.last_table}").model_copy(update={"is_chat_member": None})
    result = world.run(cmd)
    assert result.table is None and "Tente de novo em instantes" in result.outbound[0].text


def test_the_creator_removes_a_seated_player_who_is_told_privately(world):
    world.open_lobby("toy", [ANA, BIA])
    assert "Remover jogador" in lobby_buttons(world)
    refused = world.press(BIA, GROUP, "Remover jogador")  # not the creator, not an admin
    assert refused.table is None and "Só quem criou a mesa" in refused.callback_answer
    world.press(ANA, GROUP, "Remover jogador")
    assert lobby_buttons(world) == ["Remover Ana", "Remover Bia", "Voltar"]
    result = world.press(ANA, GROUP, "Remover Bia")
    assert result.callback_answer == "Pronto: Bia não está mais na mesa."
    table = world.table()
    assert [s["user_id"] for s in table["seats"]] == [ANA] and table["lobby_view"] == "main"
    assert result.user_tables_remove == {BIA: [world.last_table]}
    assert "Ana tirou você da mesa de <b>Toy</b>." in world.chat(BIA).transcript[-1]
    assert "Jogadores (1/2): Ana" in world.chat(GROUP).slots[table["lobby"]["slot"]].text


def test_an_admin_removes_and_back_returns_to_the_lobby(world):
    world.open_lobby("toy", [ANA])
    world.admins.add(CAIO)
    world.press(CAIO, GROUP, "Remover jogador")
    world.press(CAIO, GROUP, "Voltar")
    assert world.table()["lobby_view"] == "main" and "Entrar" in lobby_buttons(world)


def test_a_removal_from_an_older_drawing_is_stale(world):
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Remover jogador")
    old = world.button(GROUP, "Remover Bia").callback_data
    world.say(BIA, GROUP, "/sair")  # the list changed: seat 1 is nobody now
    result = world.click(ANA, GROUP, old)
    assert result.table is None and "não vale mais" in result.callback_answer


def test_names_are_capped_and_lose_direction_overrides(world):
    world.say(ANA, GROUP, "/novojogo toy")
    long = "\u202eBia\u2066" + "x" * 5000 + "\u202c"
    world.run(world.command(BIA, BIA, text=f"/start j{world.last_table}", name=long))
    stored = world.table()["seats"][0]["name"]
    assert stored == "Bia" + "x" * 28 + "…" and len(stored) == 32
    text = world.chat(GROUP).slots["lobby"].text
    assert "\u202e" not in text and "\u2066" not in text and "x" * 29 not in text


def test_a_user_has_at_most_three_lobbies_waiting_to_start(world):
    for i in range(3):
        world.say(ANA, GROUP - i, "/novojogo toy")
    result = world.say(ANA, GROUP - 3, "/novojogo toy")
    assert result.table is None and "Você já tem 3 mesas abertas esperando para começar" in result.outbound[0].text
    assert world.say(BIA, GROUP - 3, "/novojogo toy").table is not None  # somebody else may
    # starting one frees a place
    first = world.dir.active_table(GROUP)
    world.say(BIA, BIA, f"/start j{first}")
    world.say(CAIO, CAIO, f"/start j{first}")
    world.last_table = first
    world.press(ANA, GROUP, "Começar")
    assert world.table(first)["status"] == "playing" and first not in world.dir.user_lobbies(ANA)
    assert world.say(ANA, GROUP - 4, "/novojogo toy").table is not None


def test_a_group_opens_at_most_ten_tables_an_hour(world):
    for _ in range(10):
        world.say(ANA, GROUP, "/novojogo toy")
        world.say(ANA, GROUP, "/cancelar")
        world.press(ANA, GROUP, "Sim, cancelar")
        world.now += 60
    result = world.say(BIA, GROUP, "/novojogo toy")
    assert result.table is None and "Este grupo já abriu 10 mesas na última hora" in result.outbound[0].text
    world.now += HOUR
    assert world.say(BIA, GROUP, "/novojogo toy").table is not None


def test_a_lobby_nobody_touches_for_48_hours_is_cancelled_in_one_line(world):
    world.open_lobby("toy", [BIA])
    table_id = world.last_table
    assert world.reminders[(table_id, "idle")] == world.now + 48 * HOUR
    world.now += 30 * HOUR
    world.say(CAIO, CAIO, f"/start j{table_id}")  # a change: the clock starts again
    assert world.reminders[(table_id, "idle")] == world.now + 48 * HOUR
    due = world.now + 48 * HOUR
    world.now += 47 * HOUR
    early = tick(world, "idle")  # the first schedule's tick, come late: not idle long enough yet
    assert early.table is None and world.reminders[(table_id, "idle")] == due
    world.now += 1 * HOUR
    result = tick(world, "idle")
    assert result.table["status"] == "cancelled"
    group = [o for o in result.outbound if o.chat_id == GROUP]
    assert len(group) == 1 and group[0].text == "⌛ A mesa de <b>Toy</b> foi cancelada: ninguém a começou em 48 horas."
    assert group[0].buttons == []
    assert world.dir.active_table(GROUP) is None
    assert world.dir.user_lobbies(ANA) == [] and world.dir.user_tables(BIA) == world.dir.user_tables(CAIO) == []
    assert (table_id, "idle") not in world.reminders


def test_a_started_game_is_not_cancelled_by_a_late_idle_tick(world):
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    assert (world.last_table, "idle") not in world.reminders
    world.now += 100 * HOUR
    result = tick(world, "idle")
    assert world.table()["status"] == "playing" and result.table is None


def test_a_person_typing_the_idle_tick_is_ignored(world):
    world.open_lobby("toy", [ANA])
    world.now += 100 * HOUR
    result = world.say(ANA, GROUP, "/_tick idle")
    assert result.table is None and world.table()["status"] == "lobby"


def test_closing_a_game_cleans_every_index(world):
    world.open_lobby("toy", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    world.say(BIA, GROUP, "/sair")  # the stand-in takes Bia's seat
    world.say(ANA, GROUP, "/cancelar")
    world.press(ANA, GROUP, "Sim, cancelar")
    assert world.dir.user_tables(ANA) == world.dir.user_tables(BIA) == []
    assert world.dir.active_table(GROUP) is None and world.dir.user_lobbies(ANA) == []

