"""The compiled hot modules (rulesets/compiled.py): loaded only when current, and the same game as
the sources, move for move."""

from __future__ import annotations

import importlib.machinery
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from rulesets import compiled

# Plays what the compiled modules decide, in a fresh process: random games of every Spellbook mode
# (their final states), and difícil's searches in a solo game and a two-player one (their moves).
GAMES = r"""
import hashlib, json
from rulesets import compiled
from rulesets.core.ai import tournament
from rulesets.core.playout import random_playout
from rulesets.registry import get_knowledge

out = {"status": compiled.STATUS}
for seed, (players, mode) in enumerate([(1, "first"), (2, "classic"), (3, "set2"), (4, "set3"), (2, "first")]):
    played = random_playout("spellbook", players, 500 + seed, {"mode": mode})
    out[f"random {players} {mode}"] = played.summary()["state_hash"]
moves = []
act = tournament.act
def noted(match, seat, choice, inplace=False):
    moves.append(f"{seat}:{choice}")
    return act(match, seat, choice, inplace=inplace)
tournament.act = noted
k = get_knowledge("spellbook")
for name, options, kinds in [("solo", {"difficulty": 3}, ["dificil"]), ("duel", {}, ["medio", "dificil"])]:
    moves.clear()
    budgets = {kind: k.budgets[kind].scaled(0.05) for kind in kinds}
    stats = {kind: tournament.KindStats() for kind in kinds}
    tournament.play_game("spellbook", options, kinds, 7, stats, budgets=budgets)
    out[name] = hashlib.sha1("\n".join(moves).encode()).hexdigest()
print(json.dumps(out))
"""


def _played(pure: bool) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != compiled.PURE}
    if pure:
        env[compiled.PURE] = "1"
    done = subprocess.run([sys.executable, "-c", GAMES], env=env, capture_output=True, text=True, timeout=600,
                          cwd=Path(compiled.ROOT).parent)
    assert done.returncode == 0, done.stderr[-2000:]
    return json.loads(done.stdout)


needs_build = pytest.mark.skipif(bool(os.environ.get(compiled.PURE)), reason="BGB_PURE is set: the sources run")


@needs_build
def test_the_compiled_modules_are_in_use():
    # `make test` builds them first (boardgamesbot compile); a test run from source says so above
    from boardgamesbot.commands.compile import MODULES, module_name
    from rulesets.spellbook import steps

    assert compiled.STATUS == "compiled", compiled.STATUS
    assert steps.__file__.endswith(importlib.machinery.EXTENSION_SUFFIXES[0])
    for source in MODULES:
        assert sys.modules.get(module_name(source)) is None or \
            sys.modules[module_name(source)].__file__.endswith(importlib.machinery.EXTENSION_SUFFIXES[0])


@needs_build
def test_compiled_and_source_play_the_same_games():
    fast, plain = _played(pure=False), _played(pure=True)
    assert fast.pop("status") == "compiled" and plain.pop("status") == f"{compiled.PURE} is set"
    assert fast == plain


def test_a_source_edited_since_the_build_runs_from_source(tmp_path, monkeypatch):
    monkeypatch.delenv(compiled.PURE, raising=False)
    root = tmp_path / "rulesets"
    (root / "spellbook").mkdir(parents=True)
    source = root / "spellbook" / "steps.py"
    source.write_text("X = 1\n")
    built = tmp_path / "_compiled"
    (built / "lib").mkdir(parents=True)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    for name in ("group", "steps"):
        (built / "lib" / f"{name}{suffix}").write_bytes(b"")
    manifest = built / "manifest.json"
    manifest.write_text(json.dumps({
        "suffix": suffix, "group": "g__mypyc", "group_file": f"lib/group{suffix}",
        "modules": {"rulesets.spellbook.steps": {"source": "spellbook/steps.py", "sha256": compiled.digest(source),
                                                 "file": f"lib/steps{suffix}"}}}))
    files, why = compiled.check(manifest, root)
    assert why == "compiled" and files == {"g__mypyc": built / "lib" / f"group{suffix}",
                                           "rulesets.spellbook.steps": built / "lib" / f"steps{suffix}"}
    source.write_text("X = 2\n")
    changed = "spellbook/steps.py changed since the build (boardgamesbot compile)"
    assert compiled.check(manifest, root) == (None, changed)
    source.write_text("X = 1\n")
    monkeypatch.setenv(compiled.PURE, "1")
    assert compiled.check(manifest, root) == (None, "BGB_PURE is set")
    monkeypatch.delenv(compiled.PURE)
    (built / "lib" / f"steps{suffix}").unlink()
    assert compiled.check(manifest, root)[0] is None
    manifest.write_text("{")
    assert compiled.check(manifest, root)[1].startswith("unreadable manifest")
    assert compiled.check(tmp_path / "none.json", root) == (None, "not built (boardgamesbot compile)")
