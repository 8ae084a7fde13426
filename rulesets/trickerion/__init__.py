"""Trickerion: Lendas da Ilusão — the base game (2–4 players, five rounds, without the Dark Alley)."""
