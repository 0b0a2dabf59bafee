"""Getting gpiozero a pin factory where the companion runs: as a service, from a checkout, on a Pi 4 or a Pi 5.

gpiozero picks its pin factory the first time a device is made, trying lgpio first (the only one that works on a
Pi 5; rpi-lgpio, the RPi.GPIO of Bookworm, is built on it too). lgpio, when imported, makes a notification FIFO
(``.lgd-nfy0``) in ``$LG_WD``, or in the working directory when that is unset, and changes the process's working
directory to it. Under the service the working directory (``/opt/companion``) is not writable by the
``companion`` user, so the import fails and no pin factory is left; from a checkout (``make run``) the FIFO is
left in the checkout. :func:`prepare_pins` gives lgpio a writable runtime directory and imports it once, putting
the working directory back.

>>> env = {"XDG_RUNTIME_DIR": "/run/user/1000"}
>>> runtime_dir(env, writable=lambda path: True)
'/run/user/1000/companion'
"""

from __future__ import annotations

import os
import tempfile
import warnings
from collections.abc import Callable, Iterable, MutableMapping
from importlib.util import find_spec

LGPIO_FACTORIES = ("", "lgpio", "rpigpio")
"""``$GPIOZERO_PIN_FACTORY`` values under which gpiozero may import lgpio ("": its default order)."""


def _writable(path: str) -> bool:
    return os.path.isdir(path) and os.access(path, os.W_OK | os.X_OK)


def runtime_dir(environ: MutableMapping[str, str] | None = None, *,
                writable: Callable[[str], bool] = _writable) -> str:
    """A directory for lgpio's FIFO: the service's ``$RUNTIME_DIRECTORY`` (systemd's ``RuntimeDirectory=``), else
    ``companion`` in the login's ``$XDG_RUNTIME_DIR``, else ``companion-UID`` in the temporary directory."""
    env = os.environ if environ is None else environ
    service = env.get("RUNTIME_DIRECTORY", "").split(":")[0]
    if service and writable(service):
        return service
    login = env.get("XDG_RUNTIME_DIR", "")
    if login and writable(login):
        return os.path.join(login, "companion")
    uid = os.getuid() if hasattr(os, "getuid") else 0
    return os.path.join(tempfile.gettempdir(), f"companion-{uid}")


def _own_dir(path: str) -> str:
    """``path`` made (mode 700) if need be, if it is ours and writable; else a fresh private temporary one."""
    try:
        os.makedirs(path, mode=0o700, exist_ok=True)
        if (not hasattr(os, "getuid") or os.stat(path).st_uid == os.getuid()) and _writable(path):
            return path
    except OSError:
        pass
    return tempfile.mkdtemp(prefix="companion-lgpio-")


def prepare_pins(pin_factory: object = None, *, environ: MutableMapping[str, str] | None = None) -> str | None:
    """Call before the first gpiozero device is made. When gpiozero is about to choose a factory that may use
    lgpio, sets ``$LG_WD`` to a writable runtime directory if it is unset and imports lgpio now, restoring the
    working directory it changes. Returns the lgpio import error (a sentence) or None; gpiozero reports the
    same error again when it tries lgpio, so the caller need not.

    Nothing is imported when a factory is given or already chosen (tests, MockFactory)."""
    env = os.environ if environ is None else environ
    from gpiozero import Device

    if pin_factory is not None or Device.pin_factory is not None:
        return None
    if env.get("GPIOZERO_PIN_FACTORY", "").lower() not in LGPIO_FACTORIES:
        return None
    if not env.get("LG_WD"):
        env["LG_WD"] = _own_dir(runtime_dir(env))
    if environ is not None and environ is not os.environ:
        return None  # lgpio reads the process's environment: only a real one is worth importing it for
    if find_spec("lgpio") is None:
        return "lgpio is not installed"
    cwd = os.getcwd()
    try:
        import lgpio  # noqa: F401 - for its side effects: the FIFO in $LG_WD, and a chdir there
    except Exception as exc:  # noqa: BLE001 - whatever it is, gpiozero meets it again and falls back
        return f"lgpio failed to start: {exc}"
    finally:
        if os.getcwd() != cwd:
            os.chdir(cwd)
    return None


def fallback_reasons(caught: Iterable[warnings.WarningMessage]) -> list[str]:
    """What each pin factory gpiozero tried said, from its ``PinFactoryFallback`` warnings: ``"lgpio: ..."``."""
    from gpiozero.exc import PinFactoryFallback

    reasons = []
    for w in caught:
        if isinstance(w.message, PinFactoryFallback):
            reasons.append(str(w.message).removeprefix("Falling back from "))
    return reasons


def no_factory_message(exc: BaseException, reasons: list[str]) -> str:
    """The sentence for the screen and the log when no pin factory could be loaded: every factory's own error,
    and "install lgpio" only when it is in fact missing."""
    detail = "; ".join(reasons) if reasons else str(exc)
    if find_spec("lgpio") is None:
        hint = ("install lgpio (`sudo apt install python3-lgpio`, or `pip install lgpio` in the venv); "
                "showing the virtual board meanwhile")
    else:
        hint = f"lgpio is installed (LG_WD={os.environ.get('LG_WD', 'unset')}); showing the virtual board meanwhile"
    return f"no usable gpiozero pin factory ({detail}): {hint}"
