"""Spellbook's cards as a player reads them: the 21 spells (each level's effect and points) and the
Familiar board. References: "spell:<id>" and "familiar". Texts are catalogue keys
(locales/*/spellbook.po); points and spaces come from the data files."""

from __future__ import annotations

from rulesets.core import Card, RulesSection, msg
from rulesets.spellbook.data import FAMILIAR, SPELLS
from rulesets.spellbook.state import State

FAMILIAR_REF = "familiar"
LEVELS = (3, 4, 5)


def refs() -> list[str]:
    return [f"spell:{s}" for s in SPELLS] + [FAMILIAR_REF]


def card(ref: str, state: State | None = None) -> Card | None:
    if ref == FAMILIAR_REF:
        return Card(ref=ref, name=msg("spellbook.card.familiar"), text=[
            msg("spellbook.cardinfo.familiar", count=len(FAMILIAR.spaces), full=FAMILIAR.full)])
    kind, _, sid = ref.partition(":")
    if kind != "spell" or sid not in SPELLS:
        return None
    s = SPELLS[sid]
    head = (msg("spellbook.cardinfo.spell", colour=msg(f"spellbook.colour.{s.colour}"),
                phase=msg(f"spellbook.phase.{s.phase}"), set=s.set) if s.phase != "none" else
            msg("spellbook.cardinfo.spell_nophase", colour=msg(f"spellbook.colour.{s.colour}"), set=s.set))
    return Card(ref=ref, name=msg(f"spellbook.spell.{sid}.name"), text=[head] + [
        msg("spellbook.cardinfo.level", level=n, points=s.points_at(n), text=msg(f"spellbook.spell.{sid}.level{n}"))
        for n in LEVELS])


def prompt_cards(choices: list[str]) -> list[str]:
    """The spells a prompt offers: to learn, upgrade or pick ("flame"), or to use as the phase's action
    ("eruption_5", "c1.sacrifice" when Clone copies another player's)."""
    out: list[str] = []
    for c in choices:
        action = c.split(".", 1)[1] if "." in c else c
        spell = next((s for s in SPELLS if action == s or action.startswith(s + "_")), None)
        if spell is not None and f"spell:{spell}" not in out:
            out.append(f"spell:{spell}")
    return out


RULES = ("goal", "setup", "day", "morning", "midday", "night", "altar", "spells", "end", "solo")


def rules() -> list[RulesSection]:
    return [RulesSection(title=msg(f"spellbook.rules.{s}.title"), text=[msg(f"spellbook.rules.{s}.1")])
            for s in RULES]

