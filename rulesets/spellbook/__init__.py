"""Spellbook (Phil Walker-Harding, Space Cowboys 2023): the complete pt-BR rulebook as a pure
rules engine. Start reading at game.py; rulings on unclear points are in docs/rulings/spellbook.md."""
