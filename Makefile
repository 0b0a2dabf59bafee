# Set-up and everyday commands. Every target creates .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# On Raspberry Pi OS the venv must see apt's python3-picamera2 (it is not on PyPI).
IS_PI := $(shell grep -qsi 'raspberry pi' /proc/device-tree/model && echo 1)
VENV_FLAGS := $(if $(IS_PI),--system-site-packages,)

.PHONY: run test test-fast test-games lint docs bench screenshots model detector namer install-service clean test-pi-libs setup pi-smoke

$(BIN)/python:
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)

# On the Pi, numpy, OpenCV and gpiozero come from apt (picamera2 is built against apt's numpy: a pip numpy 2 on
# top breaks it), so only the pure-Python rest is installed from PyPI.
PI_PIP := 'pygame-ce>=2.4' 'platformdirs>=3' 'threadpoolctl>=3.1' 'pytest>=7.4' 'pytest-xdist>=3' 'hypothesis>=6.80' 'ruff>=0.6' 'mypy>=1.11'

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet --upgrade pip
ifeq ($(IS_PI),1)
	$(BIN)/python -m pip install --quiet --no-deps -e .
	$(BIN)/python -m pip install --quiet $(PI_PIP)
else
	$(BIN)/python -m pip install --quiet -e '.[test]'
endif
	touch $(STAMP)

run: $(STAMP)
	$(BIN)/companion run

# The whole suite, as CI runs it: the gates first, then every test (doctests included, see pyproject.toml), on
# every core (pytest-xdist): the many-games test alone is 180 whole games.
test: lint
	$(BIN)/python -m pytest -q -n auto -m "not games"

# The everyday loop: everything but the tests marked slow (under 30 s).
test-fast: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m "not slow and not games"

# Whole games read by the real card reader through the whole pipeline (issue 15): the demo, two-player games to 121
# and a three-hand game at 1920x1080, several minutes of CPU each; and seeds 11-20 of every variant's many-seed
# games (make test plays 1-10). Kept out of make test to keep it well under 10 minutes; CI runs them after it.
test-games: $(STAMP)
	$(BIN)/python -m pytest -q -n auto -m games

# The gates: ruff over everything, mypy over the package (strict for cards and rules); settings in pyproject.toml.
lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

# API pages from the docstrings, into build/docs (not part of make test). Every module is named: pdoc would hide
# the submodules a package's __all__ does not list.
MODULES = $(shell find companion -name '*.py' ! -name '__main__.py' | sed 's/\.py$$//; s/\/__init__$$//; s/\//./g' | sort)
docs: $(STAMP)
	test -x $(BIN)/pdoc || $(BIN)/python -m pip install --quiet -e '.[docs]'
	SDL_VIDEODRIVER=dummy $(BIN)/pdoc --docformat restructuredtext -o build/docs $(MODULES)
	@echo "API pages: build/docs/index.html"

bench: $(STAMP)
	$(BIN)/python -m tools.bench

screenshots: $(STAMP)
	SDL_VIDEODRIVER=dummy $(BIN)/python -m tools.screenshots

clean:
	rm -rf $(VENV) $(PI_VENV) build *.egg-info .pytest_cache

# The tests on the library versions a Raspberry Pi has (Raspberry Pi OS Bookworm: OpenCV 4.6, numpy 1.24), on any
# Debian machine: a venv on Debian's own python3 that sees apt's python3-opencv and python3-numpy, with the rest
# installed exactly as on a Pi (--no-deps, then PI_PIP). Nothing here may pull pip's OpenCV or numpy over apt's.
PI_VENV := .venv-pi
PI_APT  := python3-opencv python3-numpy python3-venv
# Raspberry Pi OS ships gpiozero 2.0.1 through apt (Debian's own is older): the same version, pure Python, from PyPI.
PI_GPIOZERO := 'gpiozero==2.0.1'
$(PI_VENV)/.installed: pyproject.toml
	@dpkg -s $(PI_APT) >/dev/null 2>&1 || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq $(PI_APT); }
	rm -rf $(PI_VENV)
	/usr/bin/python3 -m venv --system-site-packages $(PI_VENV)
	$(PI_VENV)/bin/python -m pip install --quiet --no-deps -e .
	$(PI_VENV)/bin/python -m pip install --quiet $(PI_PIP) $(PI_GPIOZERO)
	$(PI_VENV)/bin/python -c 'import cv2, numpy; print("Pi libraries: OpenCV", cv2.__version__, "numpy", numpy.__version__)'
	touch $@

# Tests known to fail on OpenCV 4.6 only, deselected by name (none since the ten of diamonds was fixed).
PI_KNOWN_FAILURES :=

test-pi-libs: $(PI_VENV)/.installed
	$(PI_VENV)/bin/python -c 'import cv2, numpy, sys; sys.exit(0 if cv2.__file__.startswith("/usr/") and numpy.__file__.startswith("/usr/") else "test-pi-libs: OpenCV or numpy is not apt'"'"'s")'
	$(PI_VENV)/bin/python -m pytest -q -p no:cacheprovider -n auto -m "not games" $(PI_KNOWN_FAILURES)

# On the Raspberry Pi: install as a systemd service (see systemd/README.md). Only the program is copied: a
# developer's ./companion.toml (or games) would otherwise override /etc/companion without a word. The configuration
# is asked for (companion setup) the first time, and never defaults to the demo.
install-service:
	@test -n "$(IS_PI)" || { echo "install-service is for a Raspberry Pi (this is not one)"; exit 2; }
	sudo id -u companion >/dev/null 2>&1 || sudo useradd --system --create-home --home-dir /var/lib/companion \
		--groups gpio,spi,i2c,video,render,input,audio companion
	sudo mkdir -p /opt/companion /etc/companion
	sudo rsync -a --delete --exclude .venv --exclude .venv-pi --exclude .git --exclude /companion.toml \
		--exclude '*.db' --exclude '*.db-*' --exclude build ./ /opt/companion/
	sudo rm -f /opt/companion/companion.toml
	sudo python3 -m venv --system-site-packages /opt/companion/.venv
	sudo /opt/companion/.venv/bin/python -m pip install --quiet --no-deps -e /opt/companion
	sudo /opt/companion/.venv/bin/python -m pip install --quiet 'pygame-ce>=2.4' 'platformdirs>=3'
	sudo test -f /etc/companion/companion.toml || sudo /opt/companion/.venv/bin/companion setup \
		-o /etc/companion/companion.toml
	sudo install -m 644 systemd/companion.service /etc/systemd/system/companion.service
	sudo systemctl disable --now getty@tty1.service || true
	sudo systemctl daemon-reload
	sudo systemctl enable --now companion.service
	@echo "Installed. Logs: journalctl -u companion -f"

# Optional, not in CI: the companion in a Debian bookworm arm64 root under qemu-user, installed as on a Pi, running
# companion score, companion read on one photo and the headless demo game (tools/pi_smoke.sh; about 7 minutes for
# the root the first time, then the emulated runs). The root stays in build/pi-root.
pi-smoke: $(STAMP)
	bash tools/pi_smoke.sh

# Ask again which camera, LED board and game this Pi has; rewrites /etc/companion/companion.toml (asks first).
setup:
	@test -x /opt/companion/.venv/bin/companion || { echo "setup: run make install-service first"; exit 2; }
	sudo /opt/companion/.venv/bin/companion setup -o /etc/companion/companion.toml
	sudo systemctl restart companion.service

# The card reader's glyph model (issue 3): render the SVG decks Debian ships, then train on synthetic scenes
# (numpy + OpenCV only). How it is made: companion/vision/models/README.md.
SUDO := $(shell test "$$(id -u)" = 0 || echo sudo)
model: $(STAMP)
	@command -v rsvg-convert >/dev/null && test -d /usr/share/carddecks && test -d /usr/share/aisleriot/cards || \
		{ $(SUDO) apt-get update -qq && $(SUDO) apt-get install -y -qq kdegames-card-data-kf5 gnome-cards-data librsvg2-bin; }
	$(BIN)/python -m tools.render_decks build/decks
	$(BIN)/python -m tools.train_vision --decks build/decks

# The learned index-corner detector (issue 14): torch (CPU) from the `train` extra, seeded, resumable from
# build/detector/checkpoint.pt; writes companion/vision/models/corners.onnx. How: companion/vision/models/README.md.
detector: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[train]'
	nice -n 19 $(BIN)/python -m tools.train_detector

# The index namer (issue 14, stop 47): the glyph search's boxes cut from synthetic scenes of the training decks and
# cardcounter's fit part, then torch (the `train` extra), seeded, resumable from build/namer/checkpoint.pt; writes
# companion/vision/models/namer.onnx. How: companion/vision/models/README.md.
namer: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[train]'
	test -d build/decks || $(MAKE) model
	mkdir -p build/namer
	test -f build/namer/synth1.npz || nice -n 19 $(BIN)/python -m tools.index_samples synthetic build/namer/synth1.npz --seed 1 --scenes 1500
	test -f build/namer/synth2.npz || nice -n 19 $(BIN)/python -m tools.index_samples synthetic build/namer/synth2.npz --seed 2 --scenes 1500
	test -f build/namer/cc-fit.npz || nice -n 19 $(BIN)/python -m tools.index_samples cardcounter build/namer/cc-fit.npz
	nice -n 19 $(BIN)/python -m tools.train_namer build/namer/synth1.npz build/namer/synth2.npz build/namer/cc-fit.npz
