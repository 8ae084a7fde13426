"""The rules' and the search's hot modules, compiled to C by mypyc, when a build of them is at hand.

A search plays over a million simulated moves in one solo game; compiled, the same Python makes
the same moves about twice as fast (docs/ai.md, "Solo, compiled"). `boardgamesbot compile` (run by
`make install`, `make test` and `make local`) builds the modules it lists into `rulesets/_compiled/`
with a manifest of each source's digest.

`use()` runs when `rulesets` is first imported, before any of those modules: it puts the compiled
files ahead of the sources only if every one was built from its source as it is now. One file
edited since the build, and every module runs from source, because compiled modules call each other
directly and a mix would run the old code of the edited one. `BGB_PURE=1` runs from source always.
"""

from __future__ import annotations

import hashlib
import importlib.abc
import importlib.machinery
import importlib.util
import json
import os
import sys
import warnings
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).parent  # the rulesets package: sources are named relative to it
DIR = ROOT / "_compiled"
MANIFEST = DIR / "manifest.json"
PURE = "BGB_PURE"

# "compiled", or why the sources run (set by use())
STATUS = "not checked"


def digest(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def check(manifest: Path = MANIFEST, root: Path = ROOT) -> tuple[dict[str, Path] | None, str]:
    """The compiled file of each module to load from it, or None and why the sources run."""
    if os.environ.get(PURE):
        return None, f"{PURE} is set"
    if not manifest.exists():
        return None, "not built (boardgamesbot compile)"
    try:
        built = json.loads(manifest.read_text(encoding="utf-8"))
        if built["suffix"] != importlib.machinery.EXTENSION_SUFFIXES[0]:
            return None, f"built for another Python ({built['suffix']})"
        files = {built["group"]: manifest.parent / built["group_file"]}
        for name, entry in built["modules"].items():
            source = root / entry["source"]
            if not source.exists() or digest(source) != entry["sha256"]:
                return None, f"{entry['source']} changed since the build (boardgamesbot compile)"
            files[name] = manifest.parent / entry["file"]
    except (OSError, ValueError, KeyError, TypeError) as exc:
        return None, f"unreadable manifest ({exc})"
    missing = [str(f) for f in files.values() if not f.exists()]
    if missing:
        return None, f"missing {missing[0]}"
    return files, "compiled"


class CompiledFinder(importlib.abc.MetaPathFinder):
    """Finds the listed modules in their compiled files (ahead of the path's sources)."""

    def __init__(self, files: dict[str, Path]) -> None:
        self.files = files

    def find_spec(self, fullname: str, path: Sequence[str] | None = None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        file = self.files.get(fullname)
        if file is None:
            return None
        loader = importlib.machinery.ExtensionFileLoader(fullname, str(file))
        return importlib.util.spec_from_file_location(fullname, file, loader=loader)


def use() -> str:
    """Load the compiled modules from now on, if they are current; returns STATUS."""
    global STATUS
    files, STATUS = check()
    if files is not None:
        if not any(isinstance(f, CompiledFinder) for f in sys.meta_path):
            sys.meta_path.insert(0, CompiledFinder(files))
    elif MANIFEST.exists() and not os.environ.get(PURE):
        # built once but stale or broken: say so, the search is about half as fast from source
        warnings.warn(f"rulesets run from source: {STATUS}", RuntimeWarning, stacklevel=2)
    return STATUS
