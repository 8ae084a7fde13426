"""Cards and rules that explain themselves: the texts under a prompt's ℹ️ button, `/carta <nome>`
and `/regras [jogo]`.

The games say which cards exist and what they say (`Game.cards`, `Game.card`, `Game.rules`); this
module only finds, lays out and splits those texts, so it stays game-agnostic.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from functools import cache

import locales
from rulesets.core import Card, Game, load_match
from rulesets.registry import available, get_game
from workers.tables import render
from workers.tables.context import Ctx

ALERT_LIMIT = 200  # Telegram's limit for a callback answer shown as an alert
LIST_LIMIT = 10  # names listed when /carta matches several cards


# --------------------------------------------------------------------------- a card as text


def card_lines(card: Card, lang: str, names: list[str] | None = None) -> list[str]:
    """The card as HTML lines: its name in bold, then its paragraphs."""
    names = names or []
    return (["<b>" + render.game_text(card.name, lang, names) + "</b>"]
            + [render.game_text(m, lang, names) for m in card.text])


def card_plain(card: Card, lang: str) -> str:
    return locales.render(card.name, lang) + ": " + " ".join(locales.render(m, lang) for m in card.text)


def explanation(game: Game, state, refs: list[str], lang: str, names: list[str]) -> list[str]:
    """What the ℹ️ button opens above a prompt's buttons: every card the prompt offers or shows."""
    lines: list[str] = []
    for ref in refs:
        card = game.card(ref, state)
        if card is None:
            continue
        lines.append("")
        lines.append("ℹ️ <b>" + render.game_text(card.name, lang, names) + "</b> — "
                     + " ".join(render.game_text(m, lang, names) for m in card.text))
    return lines


def alert_text(game: Game, state, refs: list[str], lang: str) -> str | None:
    """A prompt that shows one card whose text fits an alert is answered without redrawing anything."""
    if len(refs) != 1:
        return None
    card = game.card(refs[0], state)
    if card is None:
        return None
    text = card_plain(card, lang)
    return text if len(text) <= ALERT_LIMIT else None


# --------------------------------------------------------------------------- /carta


def fold(text: str) -> str:
    """Accent-, case- and punctuation-insensitive form used to compare card names."""
    decomposed = unicodedata.normalize("NFKD", text)
    bare = "".join(ch for ch in decomposed if not unicodedata.combining(ch))
    return " ".join(re.sub(r"[^\w]+", " ", bare.casefold()).split())


@cache
def _index(game: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(ref, folded names in every language) for every card of the game."""
    g = get_game(game)
    out = []
    for ref in g.cards():
        card = g.card(ref)
        if card is not None:
            out.append((ref, tuple(sorted({fold(locales.render(card.name, lang)) for lang in locales.LANGUAGES}))))
    return tuple(out)


def find(query: str, first: str | None = None) -> list[tuple[str, str]]:
    """(game, ref) of the cards whose name matches `query`: exact names first, else names starting with
    it, else names holding each word of the query, else names with a word close to each word of it (a
    typo, "otico" for "Óptico"). `first`: the game to list first."""
    q = fold(query)
    if not q:
        return []
    games = sorted(available(), key=lambda g: g != first)
    words = q.split()
    tiers: list[list[tuple[str, str]]] = [[], [], [], []]
    for game in games:
        for ref, names in _index(game):
            if q in names:
                tiers[0].append((game, ref))
            elif any(n.startswith(q) for n in names):
                tiers[1].append((game, ref))
            elif any(all(w in n for w in words) for n in names):
                tiers[2].append((game, ref))
            elif any(all(_close(w, n.split()) for w in words) for n in names):
                tiers[3].append((game, ref))
    return next((tier for tier in tiers if tier), [])


def _close(word: str, name_words: list[str]) -> bool:
    return len(word) >= 4 and bool(difflib.get_close_matches(word, name_words, n=1, cutoff=0.8))


def _table_state(ctx: Ctx, game: str):
    """The state of the game being played here, so a card reads as this game plays it."""
    table = ctx.table
    if table is None or table.game != game or table.status != "playing" or table.match is None:
        return None
    return load_match(table.match).state


def cmd_card(ctx: Ctx, args: list[str]) -> None:
    lang = ctx.here_lang
    table_game = ctx.table.game if ctx.table is not None and ctx.table.open else None
    if not args:
        ctx.refuse("tables.cards.usage", "bad_args")
        return
    found = find(" ".join(args), table_game)
    if not found:
        ctx.refuse("tables.cards.none", "no_card", query=" ".join(args))
        return
    if len(found) == 1:
        game, ref = found[0]
        card = get_game(game).card(ref, _table_state(ctx, game))
        assert card is not None
        lines = card_lines(card, lang) + [render.t("tables.cards.game", lang, game=render.game_title(game, lang))]
        ctx.send(ctx.cmd.chat_id, render.fit(lines))
        return
    lines = [render.t("tables.cards.several", lang, count=len(found))]
    for game, ref in found[:LIST_LIMIT]:
        card = get_game(game).card(ref)
        assert card is not None
        lines.append(render.t("tables.cards.item", lang, name=locales.render(card.name, lang),
                              game=render.game_title(game, lang)))
    if len(found) > LIST_LIMIT:
        lines.append(render.t("tables.cards.more", lang, count=len(found) - LIST_LIMIT))
    lines.append(render.t("tables.cards.refine", lang))
    ctx.send(ctx.cmd.chat_id, render.fit(lines))


# --------------------------------------------------------------------------- /regras


def rules_messages(game: str, lang: str) -> list[str]:
    """How to play `game`, section by section, in as few messages of ≤ 4096 characters as it takes."""
    sections = [["<b>" + render.game_text(s.title, lang, []) + "</b>"]
                + [render.game_text(m, lang, []) for m in s.text] for s in get_game(game).rules()]
    head = render.t("tables.rules.title", lang, game=render.game_title(game, lang))
    messages: list[list[str]] = [[head]]
    for section in sections:
        block = "\n".join(section)
        current = "\n\n".join(messages[-1])
        if render.utf16_len(current) + 2 + render.utf16_len(block) > render.TEXT_LIMIT:
            messages.append([])
        messages[-1].append(block)
    return [render.fit("\n\n".join(m).split("\n")) for m in messages if m]


def cmd_rules(ctx: Ctx, args: list[str]) -> None:
    lang = ctx.here_lang
    games = available()
    wanted = args[0].lower() if args else None
    if wanted is None and ctx.table is not None and ctx.table.open:
        wanted = ctx.table.game
    if wanted is None and len(games) == 1:
        wanted = games[0]
    if wanted not in games or not get_game(wanted).rules():
        ctx.refuse("tables.rules.which", "bad_args", games=", ".join(games))
        return
    for text in rules_messages(wanted, lang):
        ctx.send(ctx.cmd.chat_id, text)
