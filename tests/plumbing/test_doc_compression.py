"""The table document is saved zlib-compressed (issue 5: a whole finished game under 64 KB),
and docs saved as plain JSON before the change still load, so games in progress survive the
deploy."""

from __future__ import annotations

import json

import pytest

from tests.plumbing.test_drain import drainer, open_table, press  # noqa: F401  (drainer is a fixture)
from tests.tables.harness import ANA, BIA, CAIO, GROUP, World
from workers.store import DOC_MARKER, Plan, decode_doc, encode_doc

DAVI = 104
GOAL = 64 * 1024  # issue 5


def plain(doc: dict) -> str:
    """A doc as the store wrote it before compression."""
    return json.dumps(doc, ensure_ascii=False, separators=(",", ":"))


def test_round_trip_keeps_every_value_and_accents():
    doc = {"id": "abc", "version": 7, "names": ["Ana", "Joaquim Brandão", "Zoë"], "x": None,
           "f": 1.5, "nested": {"log": [{"seat": 0, "move": "ação"}] * 50}}
    saved = encode_doc(doc)
    assert saved.startswith(DOC_MARKER) and saved.isascii()
    assert len(saved) < len(plain(doc)) / 4  # the repeated log is what compression is for
    assert decode_doc(saved) == doc


def test_old_plain_json_docs_and_absent_docs_still_decode():
    doc = {"id": "abc", "seats": [{"name": "Joaquim Brandão"}]}
    assert decode_doc(plain(doc)) == doc
    assert decode_doc(plain(doc).encode()) == doc
    assert decode_doc(None) is None and decode_doc("") is None


def test_a_damaged_compressed_doc_is_an_error_not_an_empty_table():
    saved = encode_doc({"id": "abc", "log": list(range(100))})
    with pytest.raises(ValueError):
        decode_doc(saved[:-8])
    with pytest.raises(ValueError):
        decode_doc(DOC_MARKER + "not base64!")


@pytest.mark.redis
def test_a_game_saved_as_plain_json_before_the_deploy_goes_on_and_is_then_saved_compressed(store, drainer):  # noqa: F811
    table_id = open_table(store, drainer)
    key = store.k.table(table_id)
    assert store.r.hget(key, "doc").startswith(DOC_MARKER)
    # Rewrite it as the previous release saved it.
    before, rev = store.load_table(table_id)
    store.r.hset(key, "doc", plain(before))
    assert store.load_table(table_id) == (before, rev)
    press(store, table_id, before["version"], 30)
    assert drainer.drain(table_id) == 1
    after, _ = store.load_table(table_id)
    assert after["count"] == before["count"] + 1 and after["applied"] == before["applied"] + [30]
    assert store.r.hget(key, "doc").startswith(DOC_MARKER)


@pytest.mark.redis
def test_a_finished_four_player_spellbook_game_is_far_under_64_kb_in_redis(store):
    users = [ANA, BIA, CAIO, DAVI]
    world = World()
    world.open_lobby("spellbook", users)
    world.press(ANA, GROUP, "Começar")
    world.play_out(users, seed=1, avoid="Pular esta fase")
    doc = world.table()
    assert doc["status"] == "over" and len(doc["seats"]) == 4

    # Saved the way the drainer saves (the commit's SAVE op), then the old way for comparison.
    new, old = store.k.table("new4p"), store.k.table("old4p")
    for key, value in ((new, encode_doc(doc)), (old, plain(doc))):
        plan = Plan()
        plan.add("SAVE", key, value, doc["version"])
        assert store.commit(plan) == 1
    assert store.load_table("new4p")[0] == doc and store.load_table("old4p")[0] == doc

    new_bytes = int(store.r.memory_usage(new, samples=0))
    old_bytes = int(store.r.memory_usage(old, samples=0))
    new_len, old_len = store.r.hstrlen(new, "doc"), store.r.hstrlen(old, "doc")
    print(f"\nfinished 4-player Spellbook game, {len(doc['match']['log'])} log entries: "
          f"doc {old_len} -> {new_len} bytes, MEMORY USAGE {old_bytes} -> {new_bytes} bytes")
    assert new_bytes < GOAL / 4
    assert new_len < old_len / 5
