# One image for the three roles: `boardgamesbot serve` (webhook), `celery -A workers worker`
# and `celery -A workers beat` (see compose.yaml).
FROM python:3.11-slim
ENV PYTHONUNBUFFERED=1 PIP_NO_CACHE_DIR=1 PIP_DISABLE_PIP_VERSION_CHECK=1
WORKDIR /app
COPY pyproject.toml ./
COPY bot ./bot
COPY workers ./workers
COPY rulesets ./rulesets
COPY locales ./locales
COPY emulator ./emulator
COPY bench ./bench
COPY boardgamesbot ./boardgamesbot
RUN pip install . && useradd --system --home /app bgb && chown bgb /app
USER bgb
EXPOSE 8080 9808
CMD ["boardgamesbot", "serve", "--port", "8080"]
