# The two commands of the README:
#   make local   run the bot on the embedded default (emulator + web chat, no Telegram, no Redis)
#   make test    run the whole test suite
# Both create .venv and install the project on first use.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

.PHONY: install local test quick lint bench
install: $(STAMP)

local: $(STAMP)
	$(BIN)/boardgamesbot local $(ARGS)

test: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 $(ARGS)

quick: $(STAMP)
	$(BIN)/python -m pytest -n 2 -m "not slow" $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

bench: $(STAMP)
	$(BIN)/boardgamesbot bench $(ARGS)
