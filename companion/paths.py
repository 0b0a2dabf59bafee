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


def database_path() -> Path:
    return data_dir() / "games.db"


def config_candidates() -> list[Path]:
    """Where ``companion.toml`` is looked for, in order."""
    return [Path.cwd() / "companion.toml", Path(user_config_dir(APP)) / "companion.toml",
            Path("/etc/companion/companion.toml")]
