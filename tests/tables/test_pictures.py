"""The table logic's side of the pictures: drawn from the right view, only when they changed, and
delivered at the cost the brief allows (a placement prompt becomes a photo: one message more)."""

import io

from PIL import Image

from rulesets.registry import get_game
from rulesets.trickerion.rules import slot_number
from rulesets.trickerion.views import is_spot
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from tests.trickerion import route
from workers.tables import picture, play, render
from workers.tables.context import Ctx
from workers.tables.model import Table


def _status_again(world: World) -> Ctx:
    """Redraw the group's status of the current table as the table logic would after a move."""
    table = Table.model_validate(world.table())
    ctx = Ctx(table, world.command(ANA, GROUP, text="/status"), world.dir, world.now)
    match = table.load()
    play.show_status(ctx, get_game(table.game), match)
    return ctx


def test_an_unchanged_view_sends_no_edit_and_draws_nothing(monkeypatch):
    world = World()
    world.open_lobby("spellbook", [ANA, BIA])
    world.press(ANA, GROUP, "Começar")
    game = get_game("spellbook")
    drawn = []
    picture._recent.clear()
    real = game.picture
    monkeypatch.setattr(game, "picture", lambda view, names, say: drawn.append(view) or real(view, names, say))
    ctx = _status_again(world)
    assert ctx.result.outbound == [] and drawn == []
    # a change the group can see (the language of its labels) is sent again, its picture to be drawn
    # from the new public view when the outbox sends it (a status the view lane replaces first is
    # never drawn)
    world.dir.langs[GROUP] = "en"
    ctx = _status_again(world)
    status = [o for o in ctx.result.outbound if o.slot == "status"]
    assert len(status) == 1 and status[0].picture and status[0].background and drawn == []
    assert status[0].picture["lang"] == "en" and status[0].picture["view"] == game.view(
        Table.model_validate(world.table()).load().state, None)
    assert picture.draw(status[0].picture).startswith(b"\x89PNG") and len(drawn) == 1


# --------------------------------------------------------------------------- Trickerion


def trickerion_table(users=(ANA, BIA, CAIO)) -> World:
    """A 3-player Trickerion table with the beginner setup, the Dark Alley and the prophecies, started."""
    world = World()
    world.open_lobby("trickerion", list(users))
    world.press(ANA, GROUP, "Opções")
    for start in route.option_labels():
        world.click(ANA, GROUP, next(b for b in world.buttons(GROUP) if b.text.startswith(start)).callback_data)
    world.press(ANA, GROUP, "Voltar")
    world.press(ANA, GROUP, "Começar")
    return world


def live_prompt(world: World, user: int):
    seat = next(s for s in world.table()["seats"] if s["user_id"] == user)
    if not seat["shown"] or seat["shown"]["kind"] != "prompt":
        return None
    return world.chat(user).slots[seat["shown"]["slot"]]


def to_placement(world: World, users=(ANA, BIA, CAIO), limit: int = 300):
    """Press what the route says until someone's prompt sets a trick marker up."""
    for _ in range(limit):
        for user in users:
            message = live_prompt(world, user)
            if message is None:
                continue
            buttons = [b for row in message.buttons for b in row]
            index = route.next_press(message.text, [b.text for b in buttons])
            if index is None:
                return user, message
            world.click(user, user, buttons[index].callback_data)
            break
    raise AssertionError("no trick placement reached")


def test_the_trickerion_status_is_a_picture_from_the_first_status_on():
    world = trickerion_table()
    status = world.chat(GROUP).slots["status"]
    image = Image.open(io.BytesIO(status.photo))
    assert image.format == "PNG" and image.width == 1280 and len(status.photo) <= 250_000
    assert render.utf16_len(status.text) <= 1024 and "Trickerion" in status.text


def test_the_placement_prompt_is_a_photo_of_its_card_at_one_extra_message(monkeypatch):
    world = trickerion_table()
    game = get_game("trickerion")
    drawn = []
    real = game.seat_picture
    monkeypatch.setattr(game, "seat_picture", lambda view, seat, names, say, subject: drawn.append(
        (view, seat, subject)) or real(view, seat, names, say, subject))
    user, message = to_placement(world)
    table = world.table()
    seat = next(i for i, s in enumerate(table["seats"]) if s["user_id"] == user)
    match = Table.model_validate(table).load()
    prompt = game.prompt(match.state, seat)
    assert prompt.picture and prompt.picture.startswith("card:")
    assert message.photo is not None and Image.open(io.BytesIO(message.photo)).width <= 1280
    # drawn from that seat's own view, the buttons numbered like the picture
    assert drawn[-1] == (game.view(match.state, seat), seat, prompt.picture)
    buttons = [b.text for row in message.buttons for b in row]
    card = match.state.row[int(prompt.picture.split(":")[1])].id
    spots = [(i, c.id.split(":")[1]) for i, c in enumerate(prompt.choices) if is_spot(c.id)]
    assert spots and all(buttons[i].startswith(f"Espaço {slot_number(card, slot)} ") for i, slot in spots)
    # one update of the player's message, as for a text step: the same slot, now with its photo (the
    # outbox turns a text message into a photo with a delete and a send: one Bot API call more)
    slot = table["seats"][seat]["shown"]["slot"]
    last = [o for o in world.results[-1].outbound if o.chat_id == user]
    assert len(last) == 1 and last[0].slot == slot and last[0].photo_png is not None
    # the next step edits the same photo message in place (its card now shows the marker)
    spot = next(b for row in message.buttons for b in row if b.text.startswith("Espaço "))
    result = world.click(user, user, spot.callback_data)
    mine = [o for o in result.outbound if o.chat_id == user]
    assert len(mine) == 1 and mine[0].slot == slot and mine[0].photo_png


def test_the_board_button_sends_one_picture_of_the_players_own_board(monkeypatch):
    world = trickerion_table()
    game = get_game("trickerion")
    views = []
    real = game.seat_picture
    monkeypatch.setattr(game, "seat_picture", lambda view, seat, names, say, subject: views.append(
        (view, seat, subject)) or real(view, seat, names, say, subject))
    user = next(u for u in (ANA, BIA, CAIO) if live_prompt(world, u) is not None)
    board = next(b for row in live_prompt(world, user).buttons for b in row if b.text == "🎩 Meu tabuleiro")
    command = world.command(user, user, data=board.callback_data)
    result = world.run(command)
    assert result.callback_answer == ""
    sent = [o for o in result.outbound if o.chat_id == user]
    assert len(sent) == 1 and sent[0].slot is None and sent[0].photo_png and "tabuleiro" in sent[0].text
    table = world.table()
    seat = next(i for i, s in enumerate(table["seats"]) if s["user_id"] == user)
    match = Table.model_validate(table).load()
    assert views[-1] == (game.view(match.state, seat), seat, "board")
    # the same update again changes nothing; the prompt's buttons stay valid
    assert world.run(command).outbound == []
    assert live_prompt(world, user) is not None
    # someone else's chat, or an older drawing, is refused
    forged = world.click(BIA if user != BIA else ANA, user, board.callback_data)
    assert forged.outbound == [] and forged.callback_answer
    first = next(b for row in live_prompt(world, user).buttons for b in row)
    world.click(user, user, first.callback_data)
    stale = world.click(user, user, board.callback_data)
    assert stale.outbound == [] and stale.callback_answer == "Essa opção não vale mais."


def test_spellbook_offers_no_board_button():
    world = World()
    world.open_lobby("spellbook", [ANA])
    world.press(ANA, GROUP, "Começar")
    assert "🎩 Meu tabuleiro" not in [b.text for b in world.buttons(ANA)]
