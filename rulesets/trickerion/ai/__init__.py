"""Trickerion's knowledge for the AI players (rulesets.core.ai): see knowledge.py."""

from rulesets.trickerion.ai.knowledge import KNOWLEDGE, TrickerionKnowledge

__all__ = ["KNOWLEDGE", "TrickerionKnowledge"]
