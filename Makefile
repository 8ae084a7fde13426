# The two commands of the README:
#   make local   run the bot on the embedded default (emulator + web chat, no Telegram, no Redis)
#   make test    run the whole test suite
# Both create .venv and install the project on first use, and compile the rules' and the search's
# hot modules (mypyc, rulesets/compiled.py) whenever their sources changed.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PY) -m venv $(VENV)
	$(BIN)/pip install --quiet --upgrade pip
	$(BIN)/pip install --quiet -e '.[dev]'
	touch $(STAMP)

.PHONY: install compiled local test quick lint bench
install: compiled

# a no-op when the last build is current (the manifest's digests match the sources)
compiled: $(STAMP)
	$(BIN)/boardgamesbot compile

local: compiled
	$(BIN)/boardgamesbot local $(ARGS)

test: compiled
	$(BIN)/ruff check .
	$(BIN)/python -m pytest -n 2 $(ARGS)

quick: compiled
	$(BIN)/python -m pytest -n 2 -m "not slow" $(ARGS)

lint: $(STAMP)
	$(BIN)/ruff check .

bench: compiled
	$(BIN)/boardgamesbot bench $(ARGS)
