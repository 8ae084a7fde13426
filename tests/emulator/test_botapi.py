"""Bot API methods, result shapes and Telegram's errors, driven by python-telegram-bot's real Bot."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from telegram import (
    Bot,
    BotCommand,
    ChatFullInfo,
    InlineKeyboardButton,
    InlineKeyboardMarkup,
    InputMediaPhoto,
    Message,
)
from telegram.constants import ChatAction, ChatMemberStatus
from telegram.error import BadRequest, Forbidden, InvalidToken

from emulator import errors as E
from tests.emulator.conftest import png, raw, run_bot


def keyboard(*rows):
    return InlineKeyboardMarkup([[InlineKeyboardButton(t, callback_data=d) for t, d in row] for row in rows])


def test_get_me_and_wrong_token(emu):
    me = run_bot(emu, lambda bot: bot.get_me())
    assert me.is_bot and me.username == emu.config.bot_username and me.id == 123456789
    status, body = raw(emu, "getMe", token="987654321:not-the-token")
    assert (status, body) == (401, {"ok": False, "error_code": 401, "description": "Unauthorized"})

    async def initialize_with_wrong_token():
        async with Bot("987654321:not-the-token", base_url=emu.bot_api_url):
            pass

    with pytest.raises(InvalidToken):
        asyncio.run(initialize_with_wrong_token())


def test_unknown_method_is_404(emu):
    assert raw(emu, "sendTelepathy") == (404, {"ok": False, "error_code": 404, "description": "Not Found"})


def test_method_names_are_case_insensitive_and_query_strings_work(emu):
    response = httpx.get(f"{emu.bot_api_url}{emu.token}/GETME")
    assert response.json()["result"]["username"] == emu.config.bot_username


def test_send_message_shape_with_html_entities_and_keyboard(emu, people):
    async def go(bot):
        return await bot.send_message(people["group"], "<b>Vez</b> da <i>Ana</i> &amp; cia",
                                      parse_mode="HTML", reply_markup=keyboard([("Sim", "y"), ("Não", "n")]))

    msg: Message = run_bot(emu, go)
    assert msg.text == "Vez da Ana & cia"
    assert [(e.type, e.offset, e.length) for e in msg.entities] == [("bold", 0, 3), ("italic", 7, 3)]
    assert msg.from_user.is_bot and msg.chat.id == people["group"] and msg.chat.type == "group"
    assert msg.reply_markup.inline_keyboard[0][1].callback_data == "n"
    [stored] = emu.control.messages(people["group"])
    assert stored["text"] == "Vez da Ana & cia"
    assert stored["reply_markup"] == [[{"text": "Sim", "callback_data": "y"}, {"text": "Não", "callback_data": "n"}]]


def test_text_limits(emu, people):
    chat = people["ana"]
    assert raw(emu, "sendMessage", chat_id=chat, text="")[1]["description"] == E.TEXT_EMPTY
    too_long = raw(emu, "sendMessage", chat_id=chat, text="x" * 4097)
    assert too_long == (400, {"ok": False, "error_code": 400, "description": "Bad Request: message is too long"})
    assert raw(emu, "sendMessage", chat_id=chat, text="x" * 4096)[1]["ok"] is True
    # The limit applies to the text after HTML parsing.
    assert raw(emu, "sendMessage", chat_id=chat, text="<b>" + "x" * 4096 + "</b>", parse_mode="HTML")[1]["ok"]
    status, body = raw(emu, "sendMessage", chat_id=chat, text="<blink>x</blink>", parse_mode="HTML")
    assert status == 400 and body["description"].startswith("Bad Request: can't parse entities: Unsupported start tag")
    with pytest.raises(BadRequest, match="Message text is empty"):
        run_bot(emu, lambda bot: bot.send_message(chat, " "))
    with pytest.raises(BadRequest, match="Message is too long"):
        run_bot(emu, lambda bot: bot.send_message(chat, "ã" * 4097))


def test_caption_limit(emu, people):
    async def go(bot):
        await bot.send_photo(people["ana"], png(), caption="x" * 1024)
        await bot.send_photo(people["ana"], png(), caption="x" * 1025)

    with pytest.raises(BadRequest, match="Message caption is too long"):
        run_bot(emu, go)
    assert len(emu.control.messages(people["ana"])) == 2  # /start and the first photo


def test_callback_data_and_keyboard_limits(emu, people):
    chat = people["ana"]

    def markup(rows):
        return {"inline_keyboard": rows}

    ok = raw(emu, "sendMessage", chat_id=chat, text="a",
             reply_markup=markup([[{"text": "x", "callback_data": "é" * 32}]]))
    assert ok[1]["ok"]  # 64 bytes
    for data in ("é" * 33, "x" * 65, ""):
        status, body = raw(emu, "sendMessage", chat_id=chat, text="a",
                           reply_markup=markup([[{"text": "x", "callback_data": data}]]))
        assert (status, body["description"]) == (400, "Bad Request: BUTTON_DATA_INVALID")
    nine = [[{"text": str(i), "callback_data": str(i)} for i in range(9)]]
    assert raw(emu, "sendMessage", chat_id=chat, text="a", reply_markup=markup(nine))[1]["description"] == \
        "Bad Request: reply markup is too long"
    many = [[{"text": str(i), "callback_data": f"{r}.{i}"} for i in range(8)] for r in range(13)]
    assert raw(emu, "sendMessage", chat_id=chat, text="a", reply_markup=markup(many))[1]["description"] == \
        "Bad Request: reply markup is too long"
    bare = raw(emu, "sendMessage", chat_id=chat, text="a", reply_markup=markup([[{"text": "x"}]]))
    assert bare[1]["description"] == E.TEXT_BUTTONS
    with pytest.raises(BadRequest, match="Button_data_invalid"):
        run_bot(emu, lambda bot: bot.send_message(chat, "a", reply_markup=keyboard([("x", "y" * 65)])))
    nine_in_a_row = keyboard([(str(i), str(i)) for i in range(9)])
    with pytest.raises(BadRequest, match="Reply markup is too long"):
        run_bot(emu, lambda bot: bot.send_message(chat, "a", reply_markup=nine_in_a_row))


def test_cant_initiate_conversation_until_start(emu):
    c = emu.control
    carla = c.create_user("Carla")
    with pytest.raises(Forbidden, match="bot can't initiate conversation with a user"):
        run_bot(emu, lambda bot: bot.send_message(carla, "oi"))
    assert raw(emu, "sendMessage", chat_id=carla, text="oi") == \
        (403, {"ok": False, "error_code": 403, "description": "Forbidden: bot can't initiate conversation with a user"})
    c.send(carla, carla, "/start")
    assert run_bot(emu, lambda bot: bot.send_message(carla, "oi")).text == "oi"
    httpx.post(f"{emu.base_url}/_emulator/users/{carla}/blocked", json={"blocked": True})
    with pytest.raises(Forbidden, match="bot was blocked by the user"):
        run_bot(emu, lambda bot: bot.send_message(carla, "oi"))


def test_chat_not_found(emu):
    assert raw(emu, "sendMessage", chat_id=-999, text="x")[1]["description"] == "Bad Request: chat not found"
    stranger = emu.control.create_user("Estranha")
    assert raw(emu, "getChat", chat_id=stranger)[1]["description"] == "Bad Request: chat not found"


def test_replies(emu, people):
    chat = people["group"]
    asked = emu.control.send(chat, people["ana"], "/placar")

    async def go(bot):
        reply = await bot.send_message(chat, "Ana 12 × Bia 9", reply_to_message_id=asked)
        assert reply.reply_to_message.message_id == asked and reply.reply_to_message.text == "/placar"
        with pytest.raises(BadRequest, match="Message to be replied not found"):
            await bot.send_message(chat, "x", reply_to_message_id=999)
        lenient = await bot.send_message(chat, "y", reply_to_message_id=999, allow_sending_without_reply=True)
        assert lenient.reply_to_message is None

    run_bot(emu, go)


def test_edits_in_place(emu, people):
    chat = people["group"]

    async def go(bot):
        msg = await bot.send_message(chat, "Rodada 1", reply_markup=keyboard([("A", "a")]))
        edited = await bot.edit_message_text("Rodada 2", chat_id=chat, message_id=msg.message_id,
                                             reply_markup=keyboard([("B", "b")]))
        assert edited.edit_date is not None and edited.text == "Rodada 2"
        with pytest.raises(BadRequest, match="Message is not modified"):
            await bot.edit_message_text("Rodada 2", chat_id=chat, message_id=msg.message_id,
                                        reply_markup=keyboard([("B", "b")]))
        await bot.edit_message_reply_markup(chat_id=chat, message_id=msg.message_id,
                                            reply_markup=keyboard([("C", "c")]))
        with pytest.raises(BadRequest, match="Message is not modified"):
            await bot.edit_message_reply_markup(chat_id=chat, message_id=msg.message_id,
                                                reply_markup=keyboard([("C", "c")]))
        # Telegram drops the keyboard when an edit does not repeat it.
        await bot.edit_message_text("Fim", chat_id=chat, message_id=msg.message_id)
        with pytest.raises(BadRequest, match="Message to edit not found"):
            await bot.edit_message_text("x", chat_id=chat, message_id=999)
        with pytest.raises(BadRequest, match="There is no caption in the message to edit"):
            await bot.edit_message_caption(chat_id=chat, message_id=msg.message_id, caption="x")
        return msg.message_id

    message_id = run_bot(emu, go)
    [msg] = emu.control.messages(chat)
    assert (msg["message_id"], msg["text"], msg["reply_markup"], msg["edit_count"]) == (message_id, "Fim", None, 3)
    status, body = raw(emu, "editMessageText", chat_id=chat, message_id=message_id, text="Fim")
    assert body["description"] == E.NOT_MODIFIED
    assert raw(emu, "editMessageText", chat_id=chat, message_id=999, text="x")[1]["description"] == \
        "Bad Request: message to edit not found"


def test_cannot_edit_a_users_message(emu, people):
    mid = emu.control.send(people["group"], people["ana"], "/jogar")
    assert raw(emu, "editMessageText", chat_id=people["group"], message_id=mid, text="x")[1]["description"] == \
        "Bad Request: message can't be edited"


def test_documents_upload_by_file_id_with_a_caption_and_download_under_their_name(emu, people):
    chat = people["group"]
    content = b'{"game": "spellbook", "log": []}'

    async def go(bot):
        sent = await bot.send_document(chat, content, filename="spellbook-abc.json", caption="<b>Registro</b>",
                                       parse_mode="HTML")
        assert sent.document.file_name == "spellbook-abc.json" and sent.document.file_size == len(content)
        assert sent.caption == "Registro" and sent.caption_entities[0].type == "bold"
        again = await bot.send_document(chat, sent.document.file_id)  # by file_id
        assert again.document.file_id == sent.document.file_id
        with pytest.raises(BadRequest, match="Wrong file identifier/http url specified"):
            await bot.send_document(chat, "no-such-file-id")
        with pytest.raises(BadRequest, match="Message caption is too long"):
            await bot.send_document(chat, content, filename="x.json", caption="x" * 1025)
        return sent

    run_bot(emu, go)
    first, second = emu.control.messages(chat)
    assert first["document"]["file_name"] == "spellbook-abc.json" and first["caption"] == "Registro"
    assert not first["has_photo"] and second["document"]["url"] == first["document"]["url"]
    served = httpx.get(emu.base_url + first["document"]["url"])
    assert served.content == content and 'filename="spellbook-abc.json"' in served.headers["content-disposition"]
    assert emu.control.stats()["calls"]["sendDocument"] == 4


def test_photos_upload_file_id_caption_and_media_edit(emu, people):
    chat = people["group"]

    async def go(bot):
        first = await bot.send_photo(chat, png("red", (60, 40)), caption="<b>Tabuleiro</b>", parse_mode="HTML",
                                     reply_markup=keyboard([("Ver", "v")]))
        assert (first.photo[-1].width, first.photo[-1].height) == (60, 40)
        assert first.caption == "Tabuleiro" and first.caption_entities[0].type == "bold"
        again = await bot.send_photo(chat, first.photo[-1].file_id)  # by file_id
        assert again.photo[-1].file_id == first.photo[-1].file_id
        with pytest.raises(BadRequest, match="There is no text in the message to edit"):
            await bot.edit_message_text("x", chat_id=chat, message_id=first.message_id)
        capt = await bot.edit_message_caption(chat_id=chat, message_id=first.message_id, caption="Rodada 2",
                                              reply_markup=keyboard([("Ver", "v")]))
        assert capt.caption == "Rodada 2"
        media = await bot.edit_message_media(InputMediaPhoto(png("blue", (80, 50)), caption="Rodada 3"),
                                             chat_id=chat, message_id=first.message_id)
        assert (media.photo[-1].width, media.caption, media.reply_markup) == (80, "Rodada 3", None)
        by_id = await bot.edit_message_media(InputMediaPhoto(first.photo[-1].file_id), chat_id=chat,
                                             message_id=again.message_id, reply_markup=keyboard([("Z", "z")]))
        assert by_id.reply_markup.inline_keyboard[0][0].text == "Z"
        with pytest.raises(BadRequest, match="Wrong file identifier/http url specified"):
            await bot.send_photo(chat, "no-such-file-id")
        with pytest.raises(BadRequest, match="Image_process_failed"):
            await bot.send_photo(chat, b"not an image")
        return media

    media = run_bot(emu, go)
    first, second = emu.control.messages(chat)
    assert first["has_photo"] and first["caption"] == "Rodada 3" and first["edit_count"] == 2
    served = httpx.get(emu.base_url + first["photo_url"])
    assert served.status_code == 200 and served.headers["content-type"] == "image/png"
    assert served.content == png("blue", (80, 50))
    assert second["reply_markup"] == [[{"text": "Z", "callback_data": "z"}]]
    assert media.message_id == first["message_id"]


def test_photo_from_url(emu, people):
    async def go(bot):
        sent = await bot.send_photo(people["ana"], png("green"))
        url = f"{emu.base_url}/_emulator/files/{sent.photo[-1].file_id}"
        from_url = await bot.send_photo(people["ana"], url)
        assert from_url.photo[-1].width == 40
        with pytest.raises(BadRequest, match="Failed to get http url content"):
            await bot.send_photo(people["ana"], f"{emu.base_url}/_emulator/files/nothing-here")

    run_bot(emu, go)


def test_delete_pin_unpin_and_get_chat(emu, people):
    chat = people["group"]

    async def go(bot):
        a = await bot.send_message(chat, "placar")
        b = await bot.send_message(chat, "temporário")
        assert await bot.pin_chat_message(chat, a.message_id) is True
        info = await bot.get_chat(chat)
        assert isinstance(info, ChatFullInfo) and info.title == "Mesa"
        assert info.pinned_message.message_id == a.message_id
        assert await bot.unpin_chat_message(chat, a.message_id) is True
        assert (await bot.get_chat(chat)).pinned_message is None
        assert await bot.delete_message(chat, b.message_id) is True
        with pytest.raises(BadRequest, match="Message to delete not found"):
            await bot.delete_message(chat, b.message_id)
        private = await bot.get_chat(people["ana"])
        assert (private.type, private.first_name, private.username) == ("private", "Ana", "ana")

    run_bot(emu, go)
    msgs = emu.control.messages(chat)
    assert [m["deleted"] for m in msgs] == [False, True]


def test_pinning_needs_the_right_to_pin(emu, people):
    """An admin can take the bot's right to pin away: pinChatMessage then fails like Telegram's, and
    getChatMember says so; private chats are always pinnable."""
    chat = people["group"]
    status, sent = raw(emu, "sendMessage", chat_id=chat, text="placar")
    mid = sent["result"]["message_id"]
    assert emu.control.bot_rights(chat, False) == {"chat_id": chat, "can_pin_messages": False}
    status, body = raw(emu, "pinChatMessage", chat_id=chat, message_id=mid, disable_notification=True)
    assert (status, body["description"]) == (400, E.PIN_RIGHTS)
    assert raw(emu, "unpinChatMessage", chat_id=chat)[1]["description"] == E.PIN_RIGHTS
    member = raw(emu, "getChatMember", chat_id=chat, user_id=emu.config.bot_id)[1]["result"]
    assert member["can_pin_messages"] is False
    assert next(m for m in emu.control.messages(chat) if m["message_id"] == mid)["pinned"] is False
    emu.control.bot_rights(chat, True)
    assert raw(emu, "pinChatMessage", chat_id=chat, message_id=mid, disable_notification=True)[1]["result"] is True
    assert next(m for m in emu.control.messages(chat) if m["message_id"] == mid)["pinned"] is True
    private = raw(emu, "sendMessage", chat_id=people["ana"], text="oi")[1]["result"]["message_id"]
    assert raw(emu, "pinChatMessage", chat_id=people["ana"], message_id=private)[1]["ok"] is True


def test_get_chat_member(emu, people):
    carla = emu.control.create_user("Carla")

    async def go(bot):
        owner = await bot.get_chat_member(people["group"], people["ana"])
        member = await bot.get_chat_member(people["group"], people["bia"])
        outsider = await bot.get_chat_member(people["group"], carla)
        me = await bot.get_chat_member(people["group"], bot.id)
        with pytest.raises(BadRequest, match="User not found"):
            await bot.get_chat_member(people["group"], 424242)
        return owner.status, member.status, outsider.status, me.status

    assert run_bot(emu, go) == (ChatMemberStatus.OWNER, ChatMemberStatus.MEMBER, ChatMemberStatus.LEFT,
                                ChatMemberStatus.ADMINISTRATOR)


def test_chat_action_shows_typing(emu, people):
    assert run_bot(emu, lambda bot: bot.send_chat_action(people["ana"], ChatAction.TYPING)) is True
    chats = httpx.get(f"{emu.base_url}/_emulator/chats", params={"user_id": people["ana"]}).json()["chats"]
    assert next(c for c in chats if c["chat_id"] == people["ana"])["action"] == "typing"
    assert raw(emu, "sendChatAction", chat_id=people["ana"], action="dancing")[1]["description"] == E.WRONG_ACTION


def test_set_my_commands(emu):
    async def go(bot):
        await bot.set_my_commands([BotCommand("novo", "Começar uma partida"), BotCommand("ajuda", "Ajuda")])
        commands = await bot.get_my_commands()
        with pytest.raises(BadRequest, match="Bot_command_invalid"):
            await bot.set_my_commands([BotCommand("Novo Jogo", "x")])
        return [c.command for c in commands]

    assert run_bot(emu, go) == ["novo", "ajuda"]
    info = httpx.get(f"{emu.base_url}/_emulator/info").json()
    assert info["commands"][0] == {"command": "novo", "description": "Começar uma partida"}


def test_form_json_and_multipart_bodies_agree(emu, people):
    chat = people["ana"]
    url = f"{emu.bot_api_url}{emu.token}/sendMessage"
    markup = '{"inline_keyboard": [[{"text": "x", "callback_data": "y"}]]}'
    as_form = httpx.post(url, data={"chat_id": str(chat), "text": "form", "reply_markup": markup}).json()
    keyboard_json = {"inline_keyboard": [[{"text": "x", "callback_data": "y"}]]}
    as_json = httpx.post(url, json={"chat_id": chat, "text": "json", "reply_markup": keyboard_json}).json()
    as_multipart = httpx.post(url, data={"chat_id": str(chat), "text": "multi", "reply_markup": markup},
                              files={"unused": ("a.txt", b"x")}).json()
    for body, text in ((as_form, "form"), (as_json, "json"), (as_multipart, "multi")):
        assert body["ok"] and body["result"]["text"] == text
        assert body["result"]["reply_markup"]["inline_keyboard"][0][0]["callback_data"] == "y"
