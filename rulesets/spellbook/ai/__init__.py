"""Spellbook's knowledge for the AI players (rulesets.core.ai): see knowledge.py."""

from rulesets.spellbook.ai.knowledge import KNOWLEDGE, SpellbookKnowledge

__all__ = ["KNOWLEDGE", "SpellbookKnowledge"]
