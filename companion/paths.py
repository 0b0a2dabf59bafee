"""Where the companion keeps its files: the user's data and config directories, or /var/lib as a service."""

from __future__ import annotations

import os
from pathlib import Path

from platformdirs import user_config_dir, user_data_dir

APP = "companion"


def data_dir() -> Path:
    """``$COMPANION_DATA_DIR``, else ``/var/lib/companion`` when run as the service (``$STATE_DIRECTORY`` set by
    systemd), else the user's data directory."""
    for var in ("COMPANION_DATA_DIR", "STATE_DIRECTORY"):
        if os.environ.get(var):
            return Path(os.environ[var].split(":")[0])
    return Path(user_data_dir(APP))


#: Where the systemd service keeps its games and calibration (``StateDirectory=companion``).
SERVICE_DATA_DIR = Path("/var/lib/companion")


def database_path() -> Path:
    return data_dir() / "games.db"


def calibration_path() -> Path:
    """The manual calibration ``companion calibrate`` saves and ``companion run`` loads (when ``camera.calibration``
    names no other file): beside the games, so the service finds the one made for it."""
    return data_dir() / "calibration.json"


def history_database() -> Path:
    """The database ``companion history`` reads: the user's own, or, for a login user on a Pi whose games the
    service kept (the user has none of their own), the service's in ``/var/lib/companion``."""
    own = database_path()
    if own.exists() or any(os.environ.get(v) for v in ("COMPANION_DATA_DIR", "STATE_DIRECTORY")):
        return own
    service = SERVICE_DATA_DIR / "games.db"
    return service if service.is_file() else own


def config_candidates() -> list[Path]:
    """Where ``companion.toml`` is looked for, in order."""
    return [Path.cwd() / "companion.toml", Path(user_config_dir(APP)) / "companion.toml",
            Path("/etc/companion/companion.toml")]
