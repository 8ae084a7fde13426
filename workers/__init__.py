"""Celery workers: ordering, persistence and the outbox (see protocol.py for the seam)."""
