"""The plumbing's fixtures (a real Redis with a key prefix per test, the store), shared."""

from tests.plumbing.conftest import prefix, settings, store  # noqa: F401
