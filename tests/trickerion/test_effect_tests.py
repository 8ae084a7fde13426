"""Every special assignment card (40), Dark Alley magician power (8) and prophecy (27) has an effect test
of its own (issue 15): a test named after its id (`test_a06_...`, `test_m05_...`, `test_p27_...`) that
plays the effect from a built position, its docstring quoting the text (the rulebook's, or the
reference's card text) and, for a card or a prophecy, naming its id."""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from rulesets.trickerion.dark_alley.facts import SPECIALS
from rulesets.trickerion.data import MAGICIANS
from rulesets.trickerion.prophecies import PROPHECIES

HERE = Path(__file__).parent


def _tests() -> dict[str, str]:
    found: dict[str, str] = {}
    for path in sorted(HERE.rglob("test_*.py")):
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.FunctionDef) and node.name.startswith("test_"):
                found[node.name] = ast.get_docstring(node) or ""
    return found


TESTS = _tests()


@pytest.mark.parametrize("ident", [*sorted(SPECIALS), *sorted(MAGICIANS), *sorted(PROPHECIES)])
def test_each_card_power_and_prophecy_has_a_quoting_effect_test(ident):
    token = re.compile(rf"(^|_){ident.lower()}(_|$)")
    docs = [doc for name, doc in TESTS.items() if token.search(name[len("test_"):])]
    assert docs, f"no test named after {ident}"
    quoting = [d for d in docs if re.search(r'"[^"]{12,}"', d) and (ident.startswith("M") or ident in d)]
    assert quoting, f"no test of {ident} quotes its text"
