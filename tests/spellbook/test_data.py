"""The project's data files against the shared reference (../shared/reference/spellbook)."""

from pathlib import Path

import pytest
import yaml

import locales
from rulesets.spellbook import data, scoring

REFERENCE = Path(__file__).resolve().parents[3] / "shared" / "reference" / "spellbook"


def _ref(name: str) -> dict:
    if not (REFERENCE / name).exists():
        pytest.skip(f"reference data {REFERENCE / name} is absent (it lives outside the project)")
    return yaml.safe_load((REFERENCE / name).read_text(encoding="utf-8"))


def test_spells_match_the_reference():
    ref = {s["id"]: s for s in _ref("spells.yaml")["spells"]}
    assert set(ref) == set(data.SPELLS)
    for sid, spell in data.SPELLS.items():
        r = ref[sid]
        assert (spell.colour, spell.set) == (r["colour"], r["set"]), sid
        assert spell.phase == r["phase"], sid
        levels = r["levels"]
        assert [levels[lv]["kind"] for lv in (3, 4, 5)] == list(spell.kinds), sid
        ref_points = [levels[lv]["points"] for lv in (3, 4, 5)]
        assert ref_points == list(spell.points), sid
        runes = [next((s.get("rune") for s in levels[lv].get("steps", []) if "rune" in s), None) for lv in (3, 4, 5)]
        if sid in ("sacrifice", "levitation", "time_travel"):
            assert list(spell.runes) == runes, sid
        assert locales.text(f"spellbook.spell.{sid}.name", "pt_BR") == r["name_pt"]
        assert locales.text(f"spellbook.spell.{sid}.name", "en") == r["name_en"]


def test_boards_match_the_reference():
    ref = _ref("familiar.yaml")
    fam, track = ref["familiar_board"], ref["solo_opponent_track"]
    assert list(data.FAMILIAR.spaces) == fam["space_values"]
    assert data.FAMILIAR.full == fam["full_board_points"]
    assert [scoring.familiar_points(n) for n in range(15)] == [fam["points_by_stored_count"][n] for n in range(15)]
    assert list(data.TRACK.spaces) == track["space_values"]
    assert data.TRACK.full == track["full_track_points"]
    assert list(data.TRACK.altar_reset) == track["altar_reset_symbol_spaces"]


def test_materia_match_the_reference():
    ref = _ref("materia.yaml")
    assert data.TOTAL_MATERIA == ref["materia"]["total"] == 105
    assert list(data.COLOURS) == [c["id"] for c in ref["materia"]["colours"]]
    assert list(data.RUNES) == [r["id"] for r in ref["materia"]["runes"]]
    assert data.PER_KIND == ref["materia"]["per_colour_per_rune"]
    assert data.POOL_LIMIT == ref["pool"]["limit"]
    assert data.ALTAR_SPACES == ref["altar"]["spaces"]


def test_every_colour_has_one_spell_per_set():
    for colour in data.COLOURS:
        assert sorted(s.set for s in data.SPELLS.values() if s.colour == colour) == [1, 2, 3]
    assert data.SET_SPELLS[1] == ["sacrifice", "levitation", "purification", "offering", "time_travel",
                                  "transmutation", "abundance"]


def test_bad_data_is_refused():
    from pydantic import ValidationError

    good = data.GAME_DATA.model_dump()
    good["spells"][0]["set"] = 2  # two red set-2 spells, no red set-1 spell
    with pytest.raises(ValidationError):
        data.GameData.model_validate(good)
