"""Every sentence a player reads, in pt-BR (default) and English.

Catalogues are gettext `.po` files, one per domain (`core`, `bot`, `spellbook`,
`trickerion`, ...) under `locales/<lang>/<domain>.po`, read with Babel. Message ids are
symbolic keys (`spellbook.spell.flame.name`) and the text uses `{name}` placeholders.
Plurals: a key may instead exist as `key[one]` / `key[other]`; the `count` parameter picks
the form with the language's CLDR plural rule.

    render(msg("spellbook.log.took", player=seat(0), count=2), "pt_BR", names=["Ana"])
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from pathlib import Path

from babel import Locale
from babel.messages.pofile import read_po

from rulesets.core.messages import Msg, Seat

HERE = Path(__file__).parent
DEFAULT = "pt_BR"
LANGUAGES = ("pt_BR", "en")


def normalize(lang: str | None) -> str:
    """Map a Telegram language_code ("pt-br", "en-US", None) to a catalogue we have."""
    if not lang:
        return DEFAULT
    lang = lang.replace("-", "_").lower()
    if lang.startswith("en"):
        return "en"
    return DEFAULT


@cache
def catalog(lang: str) -> dict[str, str]:
    entries: dict[str, str] = {}
    for path in sorted((HERE / lang).glob("*.po")):
        with path.open("rb") as fh:
            for m in read_po(fh, locale=lang):
                if m.id and m.string:
                    entries[str(m.id)] = str(m.string)
    return entries


@cache
def _plural(lang: str):
    return Locale.parse(lang).plural_form


class MissingText(KeyError):
    pass


def text(key: str, lang: str = DEFAULT) -> str:
    """The raw template for a key (no formatting)."""
    cat = catalog(lang)
    if key in cat:
        return cat[key]
    raise MissingText(f"{lang}: no text for {key!r}")


def render(m: Msg, lang: str = DEFAULT, names: Sequence[str] | None = None) -> str:
    """Turn a Msg into text. `names[i]` is the display name of seat i."""
    lang = lang if lang in LANGUAGES else normalize(lang)
    cat = catalog(lang)
    template = cat.get(m.key)
    if template is None:
        count = m.params.get("count")
        form = _plural(lang)(abs(count)) if isinstance(count, int) else "other"  # a log saved before
        template = cat.get(f"{m.key}[{form}]") or cat.get(f"{m.key}[other]")     # the key had plurals
    if template is None:
        raise MissingText(f"{lang}: no text for {m.key!r}")
    if not m.params:
        return template
    values = {k: _param(v, lang, names) for k, v in m.params.items()}
    return template.format(**values)


def _param(value, lang: str, names: Sequence[str] | None) -> str:
    if isinstance(value, Msg):
        return render(value, lang, names)
    if isinstance(value, Seat):
        if names and 0 <= value.seat < len(names):
            return names[value.seat]
        return render(Msg(key="core.seat", params={"n": value.seat + 1}), lang)
    if isinstance(value, list):
        parts = [render(v, lang, names) if isinstance(v, Msg) else str(v) for v in value]
        return join_list(parts, lang)
    if isinstance(value, bool):
        return render(Msg(key="core.yes" if value else "core.no"), lang)
    return str(value)


def join_list(parts: Sequence[str], lang: str = DEFAULT) -> str:
    """'a, b e c' / 'a, b and c'; empty -> the catalogue's word for nothing."""
    if not parts:
        return render(Msg(key="core.none"), lang)
    if len(parts) == 1:
        return parts[0]
    return f"{', '.join(parts[:-1])} {render(Msg(key='core.and'), lang)} {parts[-1]}"
