"""Structured logs: one JSON object per line, with the table (route) being worked on.

`table_context(route)` sets the table id for everything logged inside it (contextvars, so it
follows threads' and asyncio tasks' own contexts); every line carries "table" (null outside).
"""

from __future__ import annotations

import contextlib
import contextvars
import json
import logging
import sys

current_table: contextvars.ContextVar[str | None] = contextvars.ContextVar("current_table", default=None)


class JsonFormatter(logging.Formatter):
    def format(self, record: logging.LogRecord) -> str:
        entry = {
            "ts": round(record.created, 3),
            "level": record.levelname.lower(),
            "logger": record.name,
            "table": getattr(record, "table", None) or current_table.get(),
            "msg": record.getMessage(),
        }
        for key in ("chat", "update_id", "method", "error"):
            if hasattr(record, key):
                entry[key] = getattr(record, key)
        if record.exc_info:
            entry["exc"] = self.formatException(record.exc_info)
        return json.dumps(entry, ensure_ascii=False, default=str)


def setup(level: int = logging.INFO, stream=None) -> None:
    """Route the root logger through the JSON formatter (idempotent)."""
    root = logging.getLogger()
    for handler in root.handlers:
        if isinstance(handler.formatter, JsonFormatter):
            return
    handler = logging.StreamHandler(stream or sys.stderr)
    handler.setFormatter(JsonFormatter())
    root.handlers = [handler]
    root.setLevel(level)
    for noisy in ("httpx", "httpcore"):
        logging.getLogger(noisy).setLevel(logging.WARNING)


@contextlib.contextmanager
def table_context(route: str | None):
    token = current_table.set(route)
    try:
        yield
    finally:
        current_table.reset(token)
