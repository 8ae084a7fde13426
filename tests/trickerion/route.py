"""A scripted Trickerion player who heads for the first trick placement: magician to the Theater,
the others to the Workshop, Arquitetar there, then Preparar um Truque backstage. It reads a prompt
as a person would (its text and button labels) and recognises them by patterns built from the
catalogue (pt-BR), so it follows whatever the texts say today.

    press = next_press(text, labels)   # the index to press, or None at the placement prompt

Used by the table-logic tests and by the browser test, which drive the bot through what it shows."""

from __future__ import annotations

import html
import re
from functools import cache

import locales

LANG = "pt_BR"


@cache
def pattern(key: str, **fixed: str) -> re.Pattern[str]:
    """A catalogue template as a regex: its placeholders match anything (or the given text)."""
    template = locales.text(key, LANG)
    out, pos = "", 0
    for m in re.finditer(r"\{(\w+)\}", template):
        out += re.escape(template[pos:m.start()])
        out += re.escape(fixed[m.group(1)]) if m.group(1) in fixed else ".+?"
        pos = m.end()
    return re.compile(out + re.escape(template[pos:]) + "$", re.M)


def say(key: str, **params) -> str:
    from rulesets.core import msg

    return locales.render(msg(key, **params), LANG)


def plain(text: str) -> str:
    return html.unescape(re.sub(r"<[^>]*>", "", text))


def _title(text: str, key: str) -> bool:
    title = locales.text(key, LANG)
    return any(line.strip() == title for line in plain(text).splitlines())


def _find(labels: list[str], key: str, **fixed: str) -> int | None:
    p = pattern(key, **fixed)
    return next((i for i, label in enumerate(labels) if p.match(label)), None)


def is_spot_label(label: str) -> bool:
    """A button that puts the marker on a numbered slot ("Espaço 3 ↓ · 1 conexão")."""
    return any(pattern(f"trickerion.choice.spot[{form}]").match(label) for form in ("one", "other"))


def at_placement(text: str, labels: list[str]) -> bool:
    """The prompt that sets a trick marker up on a performance card."""
    return _title(text, "trickerion.prompt.preparar_e") or any(is_spot_label(label) for label in labels)


def next_press(text: str, labels: list[str]) -> int | None:
    if at_placement(text, labels):
        return None
    back = {say("trickerion.choice.voltar"), locales.text("tables.button.undo", LANG)}
    useful = [i for i, label in enumerate(labels) if label not in back and not label.startswith(("ℹ", "🎩"))]
    choice = _choose(text, labels)
    return choice if choice is not None else (useful[0] if useful else None)


def _choose(text: str, labels: list[str]) -> int | None:
    magician = say("trickerion.char.magician")
    if _title(text, "trickerion.prompt.propaganda"):
        return _find(labels, "trickerion.choice.passar")
    if _title(text, "trickerion.prompt.assign"):  # the magician to the Theater, two others to the Workshop
        given = sum(1 for label in labels if pattern("trickerion.choice.char_r").match(label))
        free = next((i for i, label in enumerate(labels) if pattern("trickerion.choice.char_c").match(label)), None)
        return free if free is not None and given < 3 else _find(labels, "trickerion.choice.pronto")
    if _title(text, "trickerion.prompt.assign_card"):
        place = "theater" if pattern("trickerion.info.pick", char=magician).search(plain(text)) else "workshop"
        return _find(labels, f"trickerion.loc.{place}")
    if _title(text, "trickerion.prompt.alocar"):  # the Workshop first: the trick needs markers
        for i, label in enumerate(labels):
            if pattern("trickerion.choice.char_a").match(label) and magician not in label:
                return i
        return _find(labels, "trickerion.choice.char_a", char=magician)
    if _title(text, "trickerion.prompt.espaco"):
        backstage = _find(labels, "trickerion.space.backstage")
        workshop = next((i for i, label in enumerate(labels) if label.startswith(say("trickerion.loc.workshop"))),
                        None)
        return backstage if backstage is not None else workshop
    if _title(text, "trickerion.prompt.reforcar"):
        return _find(labels, "trickerion.choice.shard0")
    if _title(text, "trickerion.prompt.acoes"):
        for key in ("trickerion.action.preparar", "trickerion.choice.pr", "trickerion.choice.fim"):
            found = _find(labels, key)
            if found is not None:
                return found
    return None


OPTIONS = ("beginner_setup", "dark_alley", "prophecies")  # the table the tests and the browser test play


def option_labels() -> list[str]:
    """The lobby's option buttons to press once each (they start off): their labels' beginnings."""
    cat = locales.catalog(LANG)
    return [say(f"trickerion.option.{name}") if f"trickerion.option.{name}" in cat
            else locales.text(f"tables.option.trickerion.{name}", LANG) for name in OPTIONS]
