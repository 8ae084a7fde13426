"""Building pydantic models without validation, for the search's state copies.

A search copies the root state once per iteration (thousands of times per decision); pydantic's
`model_copy(deep=True)` costs about 100 µs for a Spellbook state and `model_construct` still
walks the fields. `construct` fills a model's `__dict__` directly (about 1 µs): the caller
guarantees the values are already valid — they come from a validated state.
"""

from __future__ import annotations

from typing import Any, TypeVar

from pydantic import BaseModel

M = TypeVar("M", bound=BaseModel)

_new = object.__new__
_set = object.__setattr__


def construct(cls: type[M], values: dict[str, Any]) -> M:
    """An instance of `cls` holding `values` (every field, already valid) with no checks."""
    obj = _new(cls)
    _set(obj, "__dict__", values)
    _set(obj, "__pydantic_fields_set__", set(values))
    _set(obj, "__pydantic_extra__", None)
    _set(obj, "__pydantic_private__", None)
    return obj
