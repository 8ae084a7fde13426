"""A scripted Trickerion player who heads for the first trick placement: magician to the Theater,
two others to the Workshop (the rest idle), Arquitetar there, then Preparar um Truque backstage. It reads a prompt
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
    """A button that puts the marker on a numbered slot ("Espaço 3 ↓ · 1 conexão", with the link bonus
    when it links: "… → Fama +1, Moedas +0")."""
    return any(pattern(key).match(label) for key in ("trickerion.choice.spot[one]", "trickerion.choice.spot[other]",
                                                       "trickerion.choice.spot_bonus"))


def spot_links(label: str) -> int:
    """The links a spot button says its marker would form."""
    for form in ("one", "other"):
        found = re.search(pattern(f"trickerion.choice.spot[{form}]").pattern.replace(".+?", "(.+?)").rstrip("$"),
                          label)
        if found:
            return int(found.groups()[-1])
    raise ValueError(label)


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


def _placing(labels: list[str], char: str | None, where: str) -> int | None:
    """The placement button of a character (any but the magician when `char` is None) on a space whose
    label starts with `where`."""
    place = pattern("trickerion.choice.place")
    magician = say("trickerion.char.magician")
    for i, label in enumerate(labels):
        if place.match(label):
            who, _, space = label.partition(" → ")
            if (who == char if char else who != magician) and space.startswith(where):
                return i
    return None


def _choose(text: str, labels: list[str]) -> int | None:
    magician = say("trickerion.char.magician")
    if _title(text, "trickerion.prompt.propaganda"):
        return _find(labels, "trickerion.choice.passar")
    if any(pattern("trickerion.prompt.assign_char").match(line.strip()) for line in plain(text).splitlines()):
        # the magician to the Theater, two others to the Workshop, the rest idle
        if any(pattern("trickerion.prompt.assign_char", char=magician).match(line.strip())
               for line in plain(text).splitlines()):
            return _find(labels, "trickerion.loc.theater")
        given = sum(1 for label in labels if pattern("trickerion.choice.char_r").match(label))
        workshop = _find(labels, "trickerion.loc.workshop")
        return workshop if workshop is not None and given < 3 else _find(labels, "trickerion.choice.pronto")
    if _title(text, "trickerion.prompt.alocar"):  # the Workshop first: the trick needs markers
        found = _placing(labels, None, say("trickerion.loc.workshop"))
        if found is None:
            found = _placing(labels, magician, say("trickerion.space.backstage", day="", ap="").split(" ")[0])
        return found
    if _title(text, "trickerion.prompt.espaco"):
        backstage = _find(labels, "trickerion.space.backstage")
        workshop = next((i for i, label in enumerate(labels) if label.startswith(say("trickerion.loc.workshop"))),
                        None)
        return backstage if backstage is not None else workshop
    if _title(text, "trickerion.prompt.acoes"):
        for key in ("trickerion.action.pp", "trickerion.choice.pr", "trickerion.choice.fim"):
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
