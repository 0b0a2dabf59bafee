# Set-up and everyday commands. Every target creates .venv on first use.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

# On Raspberry Pi OS the venv must see apt's python3-picamera2 (it is not on PyPI).
IS_PI := $(shell grep -qsi 'raspberry pi' /proc/device-tree/model && echo 1)
VENV_FLAGS := $(if $(IS_PI),--system-site-packages,)

.PHONY: run test bench screenshots model detector install-service clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV_FLAGS) $(VENV)

# On the Pi, numpy, OpenCV and gpiozero come from apt (picamera2 is built against apt's numpy: a pip numpy 2 on
# top breaks it), so only the pure-Python rest is installed from PyPI.
PI_PIP := 'pygame-ce>=2.4' 'platformdirs>=3' 'pytest>=7.4' 'hypothesis>=6.80'

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

test: $(STAMP)
	$(BIN)/python -m pytest -q

bench: $(STAMP)
	$(BIN)/python -m tools.bench

screenshots: $(STAMP)
	SDL_VIDEODRIVER=dummy $(BIN)/python -m tools.screenshots

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache

# On the Raspberry Pi: install as a systemd service (see systemd/README.md).
install-service:
	@test -n "$(IS_PI)" || { echo "install-service is for a Raspberry Pi (this is not one)"; exit 2; }
	sudo id -u companion >/dev/null 2>&1 || sudo useradd --system --create-home --home-dir /var/lib/companion \
		--groups gpio,spi,i2c,video,render,input,audio companion
	sudo mkdir -p /opt/companion /etc/companion
	sudo rsync -a --delete --exclude .venv --exclude .git ./ /opt/companion/
	sudo python3 -m venv --system-site-packages /opt/companion/.venv
	sudo /opt/companion/.venv/bin/python -m pip install --quiet --no-deps -e /opt/companion
	sudo /opt/companion/.venv/bin/python -m pip install --quiet 'pygame-ce>=2.4' 'platformdirs>=3'
	sudo test -f /etc/companion/companion.toml || sudo cp companion.example.toml /etc/companion/companion.toml
	sudo install -m 644 systemd/companion.service /etc/systemd/system/companion.service
	sudo systemctl disable --now getty@tty1.service || true
	sudo systemctl daemon-reload
	sudo systemctl enable --now companion.service
	@echo "Installed. Logs: journalctl -u companion -f"

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
