"""parse_mode=HTML -> text + entities in UTF-16 units, and user commands -> bot_command entities."""

import pytest

from emulator.errors import ApiError
from emulator.formatting import command_entities, parse_html, utf16_len


def test_entities_use_utf16_offsets():
    text, entities = parse_html("<b>🎲 dado</b> e <i>ação</i> &lt;3")
    assert text == "🎲 dado e ação <3"
    assert entities == [{"type": "bold", "offset": 0, "length": 7}, {"type": "italic", "offset": 10, "length": 4}]
    assert utf16_len("🎲") == 2


def test_nested_links_code_and_spoilers():
    text, entities = parse_html('<b>a<i>b</i></b><a href="https://t.me/x">c</a><pre><code class="language-py">d'
                                '</code></pre><span class="tg-spoiler">e</span>')
    assert text == "abcde"
    assert {"type": "text_link", "offset": 2, "length": 1, "url": "https://t.me/x"} in entities
    assert {"type": "pre", "offset": 3, "length": 1, "language": "py"} in entities
    assert {"type": "spoiler", "offset": 4, "length": 1} in entities
    assert entities[0] == {"type": "bold", "offset": 0, "length": 2}


@pytest.mark.parametrize("source, detail", [
    ("oi <blink>x</blink>", 'Unsupported start tag "blink" at byte offset 3'),
    ("<b>x</i>", 'Unmatched end tag at byte offset 4, expected "</b>", found "</i>"'),
    ("<b>x", 'Can\'t find end tag corresponding to start tag "b"'),
    ("linha<br>", 'Unsupported start tag "br" at byte offset 5'),
])
def test_bad_html_is_refused_like_telegram(source, detail):
    with pytest.raises(ApiError) as caught:
        parse_html(source)
    assert caught.value.code == 400
    assert caught.value.description == f"Bad Request: can't parse entities: {detail}"


def test_command_entities():
    assert command_entities("/start join_7") == [{"type": "bot_command", "offset": 0, "length": 6}]
    assert command_entities("/status@BoardGamesLocalBot agora") == [
        {"type": "bot_command", "offset": 0, "length": 26}]
    assert command_entities("vamos: /jogar e/nao") == [{"type": "bot_command", "offset": 7, "length": 6}]
    assert command_entities("sem comando") == []
