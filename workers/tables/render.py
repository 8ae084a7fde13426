"""Turning texts and choices into what Telegram accepts, in one place.

- Every sentence comes from `locales/<lang>/tables.po` (or the game's own domain) and is
  HTML-escaped: our templates may hold <b>/<i> tags, every parameter and every game text is
  escaped, so a player called "<Ana>" cannot break a message.
- Telegram's limits: a text ≤ 4096 characters, a photo caption ≤ 1024 (counted in UTF-16
  code units after entity parsing; counting the raw HTML in UTF-16 is a safe upper bound),
  ≤ 8 buttons per row, ≤ 100 buttons per keyboard, callback_data ≤ 64 bytes.
"""

from __future__ import annotations

import hashlib
import html
import json
import re
from collections.abc import Iterable, Sequence

from babel.numbers import format_decimal

import locales
from rulesets.core import Msg
from workers.names import clean_name
from workers.protocol import Button

TEXT_LIMIT = 4096
CAPTION_LIMIT = 1024
ROW_LIMIT = 8
BUTTON_LIMIT = 100
ROW_WIDTH = 30  # characters of labels that sit comfortably on one row of a phone screen
ELLIPSIS = "…"

_TAG = re.compile(r"<[^>]*>")


class Safe(str):
    """Text that is already HTML (escaped where needed): not escaped again when it becomes
    a parameter of another text."""


def t(key: str, lang: str, **params: object) -> Safe:
    """One of our own texts, with its parameters HTML-escaped (the template may hold tags)."""
    safe: dict = {}
    for k, v in params.items():
        if isinstance(v, Safe):
            safe[k] = str(v)
        elif isinstance(v, str):
            safe[k] = html.escape(v, quote=False)
        elif isinstance(v, float):
            safe[k] = f"{v:g}"
        else:
            safe[k] = v
    return Safe(locales.render(Msg(key=key, params=safe), lang))


def plain(key: str, lang: str, **params: object) -> str:
    """One of our texts for a place that takes no HTML (toasts, button labels)."""
    return html.unescape(_TAG.sub("", t(key, lang, **params)))


def game_text(m: Msg, lang: str, names: Sequence[str]) -> Safe:
    """A rules Msg (a log line, a label) rendered and escaped: game texts are plain text."""
    return Safe(html.escape(locales.render(m, lang, names), quote=False))


def game_plain(m: Msg, lang: str, names: Sequence[str]) -> str:
    return locales.render(m, lang, names)


def has_text(key: str, lang: str) -> bool:
    return key in locales.catalog(lang)


def game_title(game: str, lang: str) -> str:
    key = f"tables.game.{game}"
    return plain(key, lang) if has_text(key, lang) else game.capitalize()


def lang_or_default(lang: str | None) -> str:
    return lang if lang in locales.LANGUAGES else locales.normalize(lang)


def utf16_len(text: str) -> int:
    return len(text.encode("utf-16-le")) // 2


def _cut(line: str, room: int) -> str:
    """Shorten one HTML line to at most `room` UTF-16 units: its tags are dropped and the
    plain text is cut and escaped again, so no tag or entity is ever left half-open."""
    if utf16_len(line) <= room:
        return line
    if room < 1:
        return ""
    text = html.unescape(_TAG.sub("", line))
    keep = len(text)
    while keep > 0:
        candidate = html.escape(text[:keep], quote=False) + ELLIPSIS
        over = utf16_len(candidate) - room
        if over <= 0:
            return candidate
        keep -= max(1, over // 2)
    return ELLIPSIS


def fit(lines: Iterable[str], limit: int = TEXT_LIMIT) -> str:
    """Join lines with newlines within `limit`; whole lines are kept while they fit, then
    the first line that does not fit is cut and the rest dropped (each line is balanced
    HTML on its own, so cutting between lines never breaks markup)."""
    out: list[str] = []
    used = 0
    for line in lines:
        need = utf16_len(line) + (1 if out else 0)
        if used + need <= limit:
            out.append(line)
            used += need
            continue
        room = limit - used - (1 if out else 0)
        if room > 1:
            out.append(_cut(line, room))
        break
    return "\n".join(out)


def label(text: str, limit: int = 60) -> str:
    """A button label: plain text, one line, not absurdly long."""
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + ELLIPSIS


def keyboard(buttons: Sequence[Button], width: int = ROW_WIDTH) -> list[list[Button]]:
    """Lay buttons out in rows: short labels share a row (≤ 8 per row), long ones get their
    own; at most 100 buttons (a prompt has far fewer: the rules contract keeps each decision
    small enough for one keyboard)."""
    rows: list[list[Button]] = []
    row: list[Button] = []
    used = 0
    for b in list(buttons)[:BUTTON_LIMIT]:
        size = max(4, len(b.text)) + 2
        if row and (used + size > width or len(row) >= ROW_LIMIT):
            rows.append(row)
            row, used = [], 0
        row.append(b)
        used += size
    if row:
        rows.append(row)
    return rows


def fingerprint(*parts: object) -> str:
    """A short stable hash of what a message shows (to skip unchanged edits)."""
    data = json.dumps(parts, sort_keys=True, ensure_ascii=False, default=str)
    return hashlib.sha256(data.encode()).hexdigest()[:16]


def buttons_fingerprint(rows: list[list[Button]]) -> list[list[str]]:
    """Buttons without their callback data (which carries the version): what the user sees."""
    return [[b.text + ("→" + b.url if b.url else "") for b in row] for row in rows]


def decimal(value: float, lang: str, places: int = 1) -> str:
    """A number as the language writes it: 12,3 / 12.3."""
    return format_decimal(round(value, places), format="0." + "0" * places if places else "0",
                          locale=lang_or_default(lang))


def signed(value: float, lang: str) -> str:
    """A change: +2,1 / −1,4 (a true minus sign), ±0,0."""
    if round(value, 1) == 0:
        return "±" + decimal(0.0, lang)
    return ("+" if value > 0 else "−") + decimal(abs(value), lang)


def join(parts: Sequence[str], lang: str) -> Safe:
    """'Ana, Bia e Caio' / 'Ana, Bia and Caio' (parts not yet HTML are escaped)."""
    return Safe(locales.join_list([p if isinstance(p, Safe) else html.escape(p, quote=False) for p in parts], lang))


def mention(user_id: int, name: str) -> Safe:
    """An HTML mention that notifies the user in a group."""
    return Safe(f'<a href="tg://user?id={int(user_id)}">{html.escape(clean_name(name), quote=False)}</a>')


def name(text: str) -> Safe:
    """A player's name as shown: capped, no direction overrides (workers/names.py), escaped."""
    return Safe(html.escape(clean_name(text), quote=False))
