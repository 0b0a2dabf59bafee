# Set-up and everyday commands. Every target creates .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# On Raspberry Pi OS the venv must see apt's python3-picamera2 (it is not on PyPI).
IS_PI := $(shell grep -qsi 'raspberry pi' /proc/device-tree/model && echo 1)
VENV_FLAGS := $(if $(IS_PI),--system-site-packages,)

.PHONY: run test bench screenshots model install-service clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion run

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m tools.bench

screenshots: $(STAMP)
	SDL_VIDEODRIVER=dummy $(BIN)/python -m tools.screenshots

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache
