"""`boardgamesbot compile [--force] [--check]`: build the rules' and the search's hot modules with mypyc.

The modules are plain, typed Python; mypyc turns each into a C extension that makes the same moves
about twice as fast (docs/ai.md, "Solo, compiled"). They go into `rulesets/_compiled/` (not into the
source folders, so an edited source is never shadowed by an old build): a fresh `lib-<n>/` per build
and a manifest of every source's digest, written last. `rulesets.compiled` loads them only while
every digest matches, so the build is skipped when nothing changed (`make test` and `make local`
run this command every time). Needs mypy (a dev dependency) and a C compiler with Python's headers.
"""

from __future__ import annotations

import argparse
import importlib.machinery
import json
import os
import shutil
import sys
import time

from rulesets import compiled

NAME = "compile"
HELP = "Compile the rules' and the search's hot modules (mypyc) into rulesets/_compiled/."

# What a search runs at every simulated move: Spellbook's rules and judgement and the search itself
# (relative to rulesets/). Modules that define pydantic models, the game class or the data files'
# loaders stay Python: mypyc's native classes cannot be pydantic models, and they are not hot.
MODULES = (
    "core/ai/search.py",
    "core/ai/shuffle.py",
    "spellbook/steps.py",
    "spellbook/day.py",
    "spellbook/altar.py",
    "spellbook/pool.py",
    "spellbook/learning.py",
    "spellbook/materia.py",
    "spellbook/scoring.py",
    "spellbook/solo.py",
    "spellbook/spells/black.py",
    "spellbook/spells/blue.py",
    "spellbook/spells/green.py",
    "spellbook/spells/purple.py",
    "spellbook/spells/red.py",
    "spellbook/spells/white.py",
    "spellbook/spells/yellow.py",
    "spellbook/ai/values.py",
    "spellbook/ai/estimate.py",
    "spellbook/ai/sight.py",
    "spellbook/ai/simstate.py",
    "spellbook/ai/rollout.py",
    "spellbook/ai/distilled.py",
    "spellbook/ai/solo_value.py",
)
GROUP = "rulesets_compiled"  # mypyc's shared library: rulesets_compiled__mypyc


def module_name(source: str) -> str:
    return "rulesets." + source.removesuffix(".py").replace("/", ".")


def register(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--force", action="store_true", help="build even if the last build is current")
    parser.add_argument("--check", action="store_true", help="only say whether the build is current (exit 1 if not)")
    parser.set_defaults(run=run)


def run(args: argparse.Namespace) -> int:
    files, why = compiled.check()
    if args.check:
        print(f"rulesets: {why}")
        return 0 if files is not None else 1
    if files is not None and not args.force and set(files) >= {module_name(m) for m in MODULES}:
        print("rulesets: compiled build is current")
        return 0
    started = time.monotonic()
    build()
    files, why = compiled.check()
    print(f"rulesets: {why} ({len(MODULES)} modules, {time.monotonic() - started:.0f} s)")
    return 0 if files is not None else 1


def _not_python(folder: str, names: list[str]) -> set[str]:
    """copytree's filter: the package's Python files and folders, not its data nor earlier builds."""
    return {n for n in names if n in ("_compiled", "__pycache__")
            or (not n.endswith(".py") and not os.path.isdir(os.path.join(folder, n)))}


def build() -> None:
    """Compile MODULES into a fresh lib folder, then write the manifest that points at it."""
    try:
        from mypyc.build import mypycify
        from setuptools import Distribution
    except ImportError as exc:  # a production image without the dev dependencies
        raise SystemExit(f"compile needs mypy and setuptools ({exc}): pip install -e '.[dev]'") from exc
    work = compiled.DIR / "work"  # C sources, objects and mypy's cache, kept for the next build
    work.mkdir(parents=True, exist_ok=True)
    lib = compiled.DIR / f"lib-{time.time_ns()}"
    sources = {m: compiled.digest(compiled.ROOT / m) for m in MODULES}  # read before the build: what it compiles
    compiled.MANIFEST.unlink(missing_ok=True)  # no manifest while the build is under way
    # mypyc names modules by their path from the folder it runs in, and mypy takes that folder's other
    # modules for the project's own: the package's Python files are copied to a folder of their own
    # (an installed package's folder is site-packages, where mypy would meet every library)
    root = work / "src"
    shutil.rmtree(root, ignore_errors=True)
    shutil.copytree(compiled.ROOT, root / "rulesets", ignore=_not_python)
    cwd = os.getcwd()
    os.chdir(root)
    try:
        extensions = mypycify(
            ["--cache-dir", str(work / "mypy"), "--follow-imports=silent", "--explicit-package-bases",
             *[f"rulesets/{m}" for m in MODULES]],
            opt_level="3", group_name=GROUP, target_dir=str(work / "c"))
        dist = Distribution({"name": "rulesets-compiled", "ext_modules": extensions})
        command = dist.get_command_obj("build_ext")
        command.build_lib = str(lib)  # type: ignore[attr-defined]
        command.build_temp = str(work / "obj")  # type: ignore[attr-defined]
        dist.run_command("build_ext")
    finally:
        os.chdir(cwd)
    suffix = importlib.machinery.EXTENSION_SUFFIXES[0]
    manifest = {
        "suffix": suffix,
        "python": sys.version,
        "group": f"{GROUP}__mypyc",
        "group_file": str((lib / f"{GROUP}__mypyc{suffix}").relative_to(compiled.DIR)),
        "modules": {
            module_name(m): {
                "source": m,
                "sha256": sha,
                "file": str((lib / (module_name(m).replace(".", "/") + suffix)).relative_to(compiled.DIR)),
            }
            for m, sha in sources.items()
        },
    }
    compiled.MANIFEST.write_text(json.dumps(manifest, indent=1), encoding="utf-8")
    for old in compiled.DIR.glob("lib-*"):  # a running process keeps the files it loaded (Linux)
        if old != lib:
            shutil.rmtree(old, ignore_errors=True)
