"""parse_mode=HTML -> plain text + MessageEntity list, as Telegram does before storing a message.

Offsets and lengths are in UTF-16 code units, like Telegram's (and like JavaScript strings, so
the web chat can slice text with them directly). Limits (4096 / 1024) are checked on the parsed
text, also in UTF-16 units.
"""

from __future__ import annotations

from html.parser import HTMLParser

from emulator.errors import ApiError

_TYPES = {
    "b": "bold", "strong": "bold", "i": "italic", "em": "italic", "u": "underline", "ins": "underline",
    "s": "strikethrough", "strike": "strikethrough", "del": "strikethrough", "code": "code", "pre": "pre",
    "a": "text_link", "tg-spoiler": "spoiler", "blockquote": "blockquote", "span": "spoiler",
}


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _parse_error(detail: str) -> ApiError:
    return ApiError(400, f"Bad Request: can't parse entities: {detail}")


class _Parser(HTMLParser):
    def __init__(self, source: str):
        super().__init__(convert_charrefs=True)
        self.source = source
        self.lines = source.splitlines(keepends=True)
        self.parts: list[str] = []
        self.length = 0
        self.stack: list[tuple[str, dict, int]] = []
        self.entities: list[dict] = []

    def _byte_offset(self) -> int:
        line, col = self.getpos()
        before = "".join(self.lines[: line - 1]) + (self.lines[line - 1][:col] if self.lines else "")
        return len(before.encode())

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if tag not in _TYPES or (tag == "span" and attrs.get("class") != "tg-spoiler"):
            raise _parse_error(f'Unsupported start tag "{tag}" at byte offset {self._byte_offset()}')
        self.stack.append((tag, attrs, self.length))

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1][0] != tag:
            expected = f'"</{self.stack[-1][0]}>"' if self.stack else "nothing"
            raise _parse_error(
                f'Unmatched end tag at byte offset {self._byte_offset()}, expected {expected}, found "</{tag}>"'
            )
        name, attrs, start = self.stack.pop()
        if self.length == start:
            return
        entity = {"type": _TYPES[name], "offset": start, "length": self.length - start}
        if name == "a":
            entity["url"] = attrs.get("href") or ""
        if name == "pre" and self.entities and self.entities[-1]["type"] == "code":
            language = (self.entities[-1].get("_class") or "").removeprefix("language-")
            if language:
                entity["language"] = language
        if name == "code":
            entity["_class"] = attrs.get("class")
        self.entities.append(entity)

    def handle_data(self, data):
        self.parts.append(data)
        self.length += utf16_len(data)


def parse_html(source: str) -> tuple[str, list[dict]]:
    parser = _Parser(source)
    parser.feed(source)
    parser.close()
    if parser.stack:
        raise _parse_error(f'Can\'t find end tag corresponding to start tag "{parser.stack[-1][0]}"')
    entities = [{k: v for k, v in e.items() if not k.startswith("_")} for e in parser.entities]
    entities.sort(key=lambda e: (e["offset"], -e["length"]))
    return "".join(parser.parts), entities


def command_entities(text: str) -> list[dict]:
    """bot_command entities for every /command in a user's text (Telegram marks them all;
    python-telegram-bot's CommandHandler needs the one at offset 0)."""
    entities = []
    i = 0
    while i < len(text):
        starts_word = i == 0 or text[i - 1].isspace()
        if text[i] == "/" and starts_word:
            j = i + 1
            while j < len(text) and (text[j].isalnum() or text[j] in "_@"):
                j += 1
            if j > i + 1:
                entities.append({"type": "bot_command", "offset": utf16_len(text[:i]), "length": utf16_len(text[i:j])})
            i = j
        else:
            i += 1
    return entities
