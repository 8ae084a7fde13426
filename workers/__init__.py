"""Celery workers: ordering, persistence and the outbox (see protocol.py for the seam).

`celery -A workers worker` / `celery -A workers beat` find the application as `workers.app`.
"""

from workers.celery_app import app

__all__ = ["app"]
