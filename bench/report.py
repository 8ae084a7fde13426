"""Writes the benchmark tables to docs/performance.md with the date and the machine."""

from __future__ import annotations

import datetime as dt
import os
import platform
from pathlib import Path

DOC = Path(__file__).resolve().parent.parent / "docs" / "performance.md"


def machine() -> str:
    mem_gib = "?"
    try:
        with open("/proc/meminfo") as fh:
            kib = int(fh.readline().split()[1])
            mem_gib = f"{kib / 1024 / 1024:.1f} GiB"
    except OSError:
        pass
    cpu = platform.processor() or platform.machine()
    return f"{cpu}, {os.cpu_count()} cores, {mem_gib}, Python {platform.python_version()}"


def load() -> str:
    """The machine's 1-minute load average now: latencies measured on a busy machine are longer."""
    try:
        return f"{os.getloadavg()[0]:.1f}"
    except OSError:
        return "?"


def write(sections: list[tuple[str, list[str]]], quick: bool, load_at_start: str = "?") -> Path:
    now = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    out = ["# Performance", "",
           f"Measured {now} on {machine()} by `boardgamesbot bench{' --quick' if quick else ''}`, "
           f"the machine's load average {load_at_start} at the start and {load()} at the end.",
           "Re-run it after a change; the tables below are replaced each time.", ""]
    for title, lines in sections:
        out += [f"## {title}", "", *lines, ""]
    DOC.parent.mkdir(parents=True, exist_ok=True)
    DOC.write_text("\n".join(out))
    return DOC
