"""Pydantic models built without validation, for the rules' hot paths.

A random Trickerion game logs about six hundred lines; validating each `Msg`/`Event` (or building it
with `model_construct`, whose per-field bookkeeping costs about as much) was a sixth of the game's
time. `unchecked` sets the instance's dict directly, as `model_construct` does in the end. Use it only
for values the rules build themselves, with every field given and of its declared type: nothing
checks them here (tests round-trip such events through JSON instead).
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
# BaseModel's own slots, set through their descriptors: a quarter cheaper than object.__setattr__ by name
_set_dict, _set_fields_set, _set_extra, _set_private = (
    BaseModel.__dict__[slot].__set__
    for slot in ("__dict__", "__pydantic_fields_set__", "__pydantic_extra__", "__pydantic_private__"))


# The set of fields given, one per class, shared by its unchecked instances: every field is given, so it is
# the same set for all of them, and nothing changes it in place (an assignment adds a name already there;
# model_copy copies it first). Building one per instance was a tenth of the construction.
_FIELDS_SET: dict[type, set[str]] = {}


def fields_set(cls: type[BaseModel]) -> set[str]:
    """The shared set of `cls`'s fields, for `__pydantic_fields_set__` of an instance given all of them."""
    names = _FIELDS_SET.get(cls)
    if names is None:
        names = _FIELDS_SET[cls] = set(cls.model_fields)
    return names


def unchecked(cls: type[M], **fields: Any) -> M:
    """An instance of `cls` with exactly these fields (all of them), unvalidated."""
    obj = _new(cls)
    _set_dict(obj, fields)
    _set_fields_set(obj, _FIELDS_SET.get(cls) or fields_set(cls))
    _set_extra(obj, None)
    _set_private(obj, None)
    return obj
