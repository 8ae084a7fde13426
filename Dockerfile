# One image for the three roles: `boardgamesbot serve` (webhook), `celery -A workers worker`
# and `celery -A workers beat` (see compose.yaml).

# The project's files, once, for the two stages below.
FROM scratch AS sources
COPY pyproject.toml /app/
COPY bot /app/bot
COPY workers /app/workers
COPY rulesets /app/rulesets
COPY locales /app/locales
COPY emulator /app/emulator
COPY bench /app/bench
COPY boardgamesbot /app/boardgamesbot

# The rules' and the search's hot modules compiled (rulesets/compiled.py), in an image with a C
# compiler; the image below keeps only what the build made (the same install, so the same sources).
FROM python:3.11 AS compiled
ENV PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY --from=sources /app /app
RUN pip install . mypy types-PyYAML setuptools && boardgamesbot compile \
    && rm -rf /usr/local/lib/python3.11/site-packages/rulesets/_compiled/work

FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY --from=sources /app /app
RUN pip install . && useradd --system --home /app bgb && chown bgb /app
COPY --from=compiled /usr/local/lib/python3.11/site-packages/rulesets/_compiled \
     /usr/local/lib/python3.11/site-packages/rulesets/_compiled
# fails the build if the compiled modules are not the ones the sources make (a stale or missing build)
RUN boardgamesbot compile --check
USER bgb
EXPOSE 8080 9808
CMD ["boardgamesbot", "serve", "--port", "8080"]
