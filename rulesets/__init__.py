"""Pure rules: one folder per game on the shared contract in `core/`.

Nothing in here knows about Telegram, Redis, Celery, the clock or the file system at play
time (data files are read once, at import)."""
