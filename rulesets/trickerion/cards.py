"""Every card of Trickerion as a player reads it, and which cards a prompt offers or shows.

A card is named by a reference "<kind>:<id>":
    magician:M01..M08     the Magician cards (favourite category; the Dark Alley power)
    char:<kind>           the characters: magician, apprentice and the three specialists
    trick:T01..T48        the Trick cards (level 3: the Dark Alley's, with their end-game bonus)
    perf:P01..P28         the Performance cards (Magnus Pantheon: the Dark Alley's)
    special:A06..A45      the Dark Alley's special assignment cards
    prophecy:P01..P27     the prophecy tokens
Names and texts are catalogue keys (locales/*/trickerion*.po); the figures (costs, yields, bonuses)
come from the data files, so a text can never disagree with the rules that run.
"""

from __future__ import annotations

from rulesets.core import Card, RulesSection, msg
from rulesets.core.messages import Msg

from .dark_alley.facts import SPECIALS
from .data import BOARD, CARDS, MAGICIANS, TRICKS, Yields
from .prophecies import PROPHECIES
from .state import State

KINDS = ("magician", "char", "trick", "perf", "special", "prophecy")
CHARACTERS = ("magician", "apprentice", "assistant", "engineer", "manager")


def refs() -> list[str]:
    return ([f"magician:{m}" for m in MAGICIANS] + [f"char:{c}" for c in CHARACTERS]
            + [f"trick:{t}" for t in TRICKS] + [f"perf:{c}" for c in CARDS]
            + [f"special:{a}" for a in SPECIALS] + [f"prophecy:{p}" for p in PROPHECIES])


def card(ref: str, state: State | None = None) -> Card | None:
    kind, _, cid = ref.partition(":")
    make = _MAKERS.get(kind)
    if make is None or cid not in _IDS[kind]():
        return None
    name, text = make(cid, state)
    return Card(ref=ref, name=name, text=text)


# ---------------------------------------------------------------------------------------------- quantities


def qty(what: str, n: int) -> Msg:
    """"2 de Fama", "1 Moeda", "3 Fragmentos": a number with its noun, through the plural forms."""
    return msg(f"trickerion.qty.{what}", count=n)


def yields_msg(y: Yields) -> Msg:
    parts = [qty(k, v) for k, v in (("fame", y.fame), ("coins", y.coins), ("shards", y.shards)) if v]
    return msg("trickerion.cardinfo.gains", gains=parts) if parts else msg("trickerion.cardinfo.nothing")


# ---------------------------------------------------------------------------------------------- the cards


def _magician(cid: str, state: State | None) -> tuple[Msg, list[Msg]]:
    m = MAGICIANS[cid]
    text = [msg("trickerion.cardinfo.magician", cat=msg(f"trickerion.cat.{m.category}"))]
    if state is None or state.alley is not None:  # the power exists only with the Dark Alley
        key = "trickerion.cardinfo.power" if state is not None else "trickerion.cardinfo.power_alley"
        text.append(msg(key, power=msg(f"trickerion.power.{cid}"), text=msg(f"trickerion.powertext.{cid}")))
    return msg(f"trickerion.magician.{cid}"), text


def _character(cid: str, state: State | None) -> tuple[Msg, list[Msg]]:
    c = BOARD.characters["apprentice" if cid == "apprentice" else "magician" if cid == "magician" else "specialist"]
    text = [msg("trickerion.cardinfo.character", ap=c.ap, wage=qty("coins", c.wage))]
    if cid in BOARD.backstage_bonus:
        text.append(msg(f"trickerion.cardtext.char.{cid}", bonus=yields_msg(BOARD.backstage_bonus[cid])))
    else:
        text.append(msg(f"trickerion.cardtext.char.{cid}"))
    return msg(f"trickerion.char.{cid}"), text


def _trick(cid: str, state: State | None) -> tuple[Msg, list[Msg]]:
    t = TRICKS[cid]
    comps = [msg("trickerion.table.comp", comp=msg(f"trickerion.comp.{c}"), n=n) for c, n in t.components.items()]
    text = [msg("trickerion.cardinfo.trick", cat=msg(f"trickerion.cat.{t.category}"), level=t.level,
                threshold=t.threshold),
            msg("trickerion.cardinfo.components", comps=comps),
            msg("trickerion.cardinfo.prepare", ap=t.prepare_ap, count=t.markers),
            msg("trickerion.cardinfo.yields", gains=yields_msg(t.yields))]
    if t.end_game_bonus is not None:
        text.append(msg("trickerion.cardinfo.end_bonus", text=msg(f"trickerion.cardtext.trick.{cid}")))
    return msg(f"trickerion.trick.{cid}"), text


def _performance(cid: str, state: State | None) -> tuple[Msg, list[Msg]]:
    c = CARDS[cid]
    text = [msg("trickerion.cardinfo.perf", slots=len(c.slots), count=len(c.links)),
            msg("trickerion.cardinfo.perf_bonus", gains=yields_msg(c.bonus))]
    if c.theater == "magnus_pantheon":
        text.append(msg("trickerion.cardinfo.alley_only"))
    return msg(f"trickerion.theater.{c.theater}", id=cid), text


def _special(cid: str, state: State | None) -> tuple[Msg, list[Msg]]:
    a = SPECIALS[cid]
    return msg(f"trickerion.card.{cid}"), [
        msg("trickerion.cardinfo.special", loc=msg(f"trickerion.loc.{a.location}"),
            action=msg(f"trickerion.cardinfo.frame.{a.frame}")),
        msg(f"trickerion.cardtext.{cid}"),
        msg("trickerion.cardinfo.special_ap")]


def _prophecy(cid: str, state: State | None) -> tuple[Msg, list[Msg]]:
    return msg(f"trickerion.prophecy.{cid}"), [msg("trickerion.cardinfo.prophecy"),
                                               msg(f"trickerion.prophecy.{cid}.text")]


_MAKERS = {"magician": _magician, "char": _character, "trick": _trick, "perf": _performance,
           "special": _special, "prophecy": _prophecy}
_IDS = {"magician": lambda: MAGICIANS, "char": lambda: CHARACTERS, "trick": lambda: TRICKS, "perf": lambda: CARDS,
        "special": lambda: SPECIALS, "prophecy": lambda: PROPHECIES}


# ---------------------------------------------------------------------------------------------- prompts

TRICK_HEADS = ("t", "dt", "mt", "pt", "at", "aq", "ro", "rp", "du", "ig", "el", "gp", "nt")
ROW_HEADS = ("pp", "pc", "rc", "ap", "pl", "gc", "tw", "dd", "cc", "yo")
SPECIAL_HEADS = ("l", "kp", "mi", "hy")


def prompt_cards(state: State, seat: int, choices: list[str]) -> list[str]:
    """The cards a prompt offers (its choices) or shows (its context lines), in the order shown."""
    out: list[str] = []

    def add(ref: str | None) -> None:
        if ref is not None and ref not in out:
            out.append(ref)

    for c in choices:
        add(_choice_card(state, c))
    p = state.p[seat]
    if state.cur is not None and state.turn == seat and state.cur.loc in ("workshop", "theater"):
        for o in p.tricks:  # the prompt lists the player's tricks there
            add(f"trick:{o.t}")
    if state.step == "assign":
        for c in p.hand:
            add(f"special:{c}" if c in SPECIALS else None)
    a = state.alley
    if a is not None and a.card and state.turn == seat and state.cur is not None:
        add(f"special:{a.card}")  # the special card under the character being played
    if state.step == "da_manter" and state.turn == seat:
        for c in state.ctx.get("drawn", []):
            add(f"special:{c}")
    t = state.proph
    if t is not None and state.cur is not None and state.turn == seat and state.cur.loc == "alley":
        for pid in t.pending:
            add(f"prophecy:{pid}")
    return out


def _choice_card(state: State, cid: str) -> str | None:
    head, _, arg = cid.partition(":")
    if not arg or arg == "-":
        return None
    if head == "m" and arg in MAGICIANS:
        return f"magician:{arg}"
    if head in TRICK_HEADS:
        tid = arg.split(":")[0]
        return f"trick:{tid}" if tid in TRICKS else None
    if head in ROW_HEADS and arg.split(":")[0].isdigit():
        i = int(arg.split(":")[0])
        row = state.row[i] if i < len(state.row) else None
        return f"perf:{row.id}" if row is not None else None
    if head in SPECIAL_HEADS:
        return f"special:{arg}" if arg in SPECIALS else None
    if head in ("e", "ht") and arg in CHARACTERS:
        return f"char:{arg}"
    if head == "hh":
        kind = arg.split(":")[-1]
        return f"char:{kind}" if kind in CHARACTERS else None
    if head == "ct":
        face = state.dice.get(arg)
        return f"char:{face}" if face in CHARACTERS else None
    if head == "td" and state.proph is not None and arg.isdigit() and int(arg) < len(state.proph.pending):
        return f"prophecy:{state.proph.pending[int(arg)]}"
    return None


# ---------------------------------------------------------------------------------------------- how to play

RULES = ("goal", "setup", "round", "advertise", "assign", "place", "downtown", "market", "workshop", "theater",
         "perform", "end_round", "end_game", "dark_alley", "prophecies")


PARAGRAPHS = {"place": 2, "perform": 2, "dark_alley": 2}


def rules() -> list[RulesSection]:
    return [RulesSection(title=msg(f"trickerion.rules.{s}.title"),
                         text=[msg(f"trickerion.rules.{s}.{i}") for i in range(1, PARAGRAPHS.get(s, 1) + 1)])
            for s in RULES]
