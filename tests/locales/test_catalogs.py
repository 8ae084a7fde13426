"""Both languages say everything, with the same placeholders."""

import re
import string

import pytest

import locales
from rulesets.core import msg, seat


def _fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def _base(key: str) -> str:
    return re.sub(r"\[\w+\]$", "", key)


def test_both_languages_have_the_same_keys():
    pt, en = locales.catalog("pt_BR"), locales.catalog("en")
    assert {_base(k) for k in pt} == {_base(k) for k in en}


@pytest.mark.parametrize("key", sorted(locales.catalog("pt_BR")))
def test_placeholders_match(key):
    en = locales.catalog("en")
    en_key = key if key in en else next(k for k in en if _base(k) == _base(key))
    assert _fields(locales.catalog("pt_BR")[key]) <= _fields(en[en_key]) | {"count"}
    assert _fields(en[en_key]) <= _fields(locales.catalog("pt_BR")[key]) | {"count"}


def test_render_nested_and_names():
    text = locales.render(msg("core.log.undone", player=seat(1), choice="x"), "pt_BR", names=["Ana", "Bia"])
    assert text == "Bia desfez a última jogada."
    english = locales.render(msg("core.log.undone", player=seat(0), choice="x"), "en")
    assert english == "Player 1 took back their last move."


def test_normalize_language_codes():
    assert locales.normalize("en-US") == "en"
    assert locales.normalize("pt-br") == "pt_BR"
    assert locales.normalize(None) == "pt_BR"
    assert locales.normalize("de") == "pt_BR"


def test_lists_join_naturally():
    assert locales.join_list(["a", "b", "c"], "pt_BR") == "a, b e c"
    assert locales.join_list(["a", "b"], "en") == "a and b"
