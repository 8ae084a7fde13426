"""Players' names as the bot stores and shows them.

A Telegram name is whatever the user typed (up to 64 characters per part, any Unicode). Two
things in it would let one player disturb what everybody reads: length (a long name fills the
lobby and status texts) and direction controls (a right-to-left override flips the rest of
the line it is shown in). So a name is stripped of bidi controls and other control
characters, its whitespace collapsed, and capped at NAME_MAX characters with "…".
"""

from __future__ import annotations

import unicodedata

NAME_MAX = 32

# LRE RLE PDF LRO RLO, LRI RLI FSI PDI, LRM RLM, ALM: the explicit direction controls.
BIDI_CONTROLS = frozenset([*map(chr, range(0x202A, 0x202F)), *map(chr, range(0x2066, 0x206A)),
                           "\u200e", "\u200f", "\u061c"])


def clean_name(raw: str | None, fallback: str = "?") -> str:
    """`raw` without bidi and control characters, whitespace collapsed, at most NAME_MAX
    characters (the last one "…" when cut); `fallback` if nothing is left."""
    kept = []
    for ch in raw or "":
        if ch in BIDI_CONTROLS:
            continue
        cat = unicodedata.category(ch)
        if cat in ("Cc", "Zl", "Zp"):  # \n, \t, NUL... and the line/paragraph separators
            kept.append(" ")
        elif cat != "Cs":  # a lone surrogate cannot be encoded
            kept.append(ch)
    name = " ".join("".join(kept).split())
    if not name:
        return fallback
    if len(name) > NAME_MAX:
        name = name[:NAME_MAX - 1].rstrip() + "…"
    return name


def display_name(first: str | None, last: str | None, username: str | None, user_id: int) -> str:
    """First (+ last) name, else the @username, else the id — cleaned."""
    full = " ".join(p for p in (first, last) if p)
    return clean_name(full, clean_name(username, str(user_id)))
