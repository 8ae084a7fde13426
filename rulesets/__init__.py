"""Pure rules: one folder per game on the shared contract in `core/`.

Nothing in here knows about Telegram, Redis, Celery, the clock or the file system at play
time (data files are read once, at import)."""

from rulesets.compiled import use

use()  # the compiled hot modules, if built from the sources as they are (compiled.py)
