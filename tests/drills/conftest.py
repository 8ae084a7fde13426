"""Fixtures of the drills: the plumbing's (a real Redis with a key prefix per test, the
store), and `drill_report`, which prints a drill's summary line and keeps it so the session
ends with "what was tried and what was lost" whether or not output is captured."""

import pytest

from tests.plumbing.conftest import prefix, settings, store  # noqa: F401


@pytest.fixture
def drill_report(record_property):
    def say(line: str) -> None:
        print(f"\n{line}")
        record_property("drill", line)

    return say


def pytest_terminal_summary(terminalreporter):
    lines = [value for key in ("passed", "failed") for rep in terminalreporter.stats.get(key, [])
             for name, value in getattr(rep, "user_properties", []) if name == "drill"]
    if lines:
        terminalreporter.section("drills: what was tried and what was lost")
        for line in lines:
            terminalreporter.write_line(line)
