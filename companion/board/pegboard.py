"""The peg board: a composite that maps holes to LEDs, owns the LED chain, and falls back to the virtual board.

>>> from gpiozero import Device
>>> from gpiozero.pins.mock import MockFactory
>>> Device.pin_factory = MockFactory()     # on a Pi: leave it to gpiozero
>>> with PegBoard("test-strip-30") as board:
...     frame = board.show_view(PegView(((3, 1), (0, 0)), target=25))
...     board.chain.frame[2]
(232, 32, 42)
>>> Device.pin_factory.reset()
"""

from __future__ import annotations

import os
import warnings
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any, Protocol

from ..errors import ConfigError, check_key
from .animation import BoardAnimator
from .layout import RGB, Hole, Layout, load_layout
from .pegs import Frame, PegView, PowerBudget, board_frame, cap_frame
from .virtual import VirtualChain

DRIVERS = ("apa102", "sk9822", "max7219", "virtual")


class LedChain(Protocol):
    """What the board needs of a chain: :class:`~.apa102.APA102`, :class:`~.max7219.MAX7219Chain`,
    :class:`~.virtual.VirtualChain`."""

    @property
    def count(self) -> int: ...
    def show(self, frame: Sequence[RGB]) -> None: ...
    def close(self) -> None: ...


@dataclass(frozen=True)
class BoardConfig:
    """The ``[board]`` section of the configuration. Unknown keys are refused by name (:meth:`from_mapping`)."""

    layout: str = "two-player-121"
    driver: str = "apa102"
    port: int = 0
    device: int = 0
    rate: int = 8_000_000
    brightness: int = 31
    order: str = "bgr"
    chips: int = 0
    supply_a: float = 4.0
    ma_per_channel: float = 20.0
    idle_ma: float = 1.0
    animate: bool = True

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> BoardConfig:
        """Defaults merged with ``data``; :class:`ConfigError` names an unknown key or a bad value."""
        known = {f.name: f for f in fields(cls)}
        for key, value in data.items():
            check_key("board", key, known)
            default = known[key].default
            if not isinstance(value, type(default)) and not (isinstance(default, float) and isinstance(value, int)):
                raise ConfigError(f"board.{key}: expected {type(default).__name__}, got {value!r}")
        config = cls(**data)
        config.check()
        return config

    def check(self) -> None:
        """Refuse a value out of range, naming the key; done at start, before any pin is touched."""
        if self.driver not in DRIVERS:
            raise ConfigError(f"board.driver: expected one of {', '.join(DRIVERS)}, got {self.driver!r}")
        if not self.layout.strip():
            raise ConfigError("board.layout: expected a preset name or a layout .toml file, got an empty string")
        if self.port != 0:
            # gpiozero drives hardware SPI through spidev on port 0 only (SPI0: MOSI GPIO10, SCLK GPIO11); any
            # other port is refused by gpiozero when the chain opens, which would fall back to the virtual board
            raise ConfigError(f"board.port: only port 0 works (gpiozero's hardware SPI is SPI0: MOSI GPIO10, SCLK "
                              f"GPIO11); got {self.port}: wire the chain to SPI0 and set port = 0")
        if self.device not in (0, 1):
            raise ConfigError(f"board.device: expected 0 (CE0, GPIO8) or 1 (CE1, GPIO7), got {self.device}")
        if not 10_000 <= self.rate <= 32_000_000:
            raise ConfigError(f"board.rate: expected an SPI clock of 10000 to 32000000 Hz, got {self.rate}")
        if not 0 <= self.brightness <= 31:
            raise ConfigError(f"board.brightness: expected 0-31 (the APA102's 5-bit global brightness; a MAX7219 "
                              f"gets half of it, 0-15), got {self.brightness}")
        if sorted(self.order) != ["b", "g", "r"]:
            raise ConfigError(f"board.order: expected the colour order on the wire, one of bgr, brg, gbr, grb, rbg, "
                              f"rgb, got {self.order!r}")
        if not 0 <= self.chips <= 256:
            raise ConfigError(f"board.chips: expected the number of MAX7219 chips, 1-256 (0: as many as the "
                              f"layout needs), got {self.chips}")
        for key in ("supply_a", "ma_per_channel"):
            if not getattr(self, key) > 0:
                raise ConfigError(f"board.{key}: expected a number > 0, got {getattr(self, key)}")
        if not self.idle_ma >= 0:
            raise ConfigError(f"board.idle_ma: expected a number >= 0, got {self.idle_ma}")

    @property
    def budget(self) -> PowerBudget:
        return PowerBudget(ma_per_channel=self.ma_per_channel, supply_a=self.supply_a, idle_ma=self.idle_ma)


class PegBoard:
    """A lit peg board: ``layout`` (a :class:`Layout` or preset name) on ``chain`` (built from ``driver`` if None).

    The board owns the chain: :meth:`close` closes it (safe twice). Every frame is capped to ``budget`` before it
    reaches the chain. ``pin_factory`` is passed through to gpiozero.
    """

    def __init__(self, layout: Layout | str, chain: LedChain | None = None, *, driver: str = "apa102",
                 port: int = 0, device: int = 0, rate: int = 8_000_000, brightness: int = 31, order: str = "bgr",
                 chips: int = 0, budget: PowerBudget | None = None, animate: bool = True,
                 pin_factory: object = None) -> None:
        self.layout = layout if isinstance(layout, Layout) else load_layout(layout)
        self.budget = budget or PowerBudget()
        self._global_level = brightness / 31 if driver in ("apa102", "sk9822") and chain is None else 1.0
        mono = driver == "max7219" and chain is None
        self.animator = BoardAnimator(self.layout, back_wink=(2.0, 0.4) if mono else None) if animate else None
        self.chain: LedChain | None = None
        self.view: PegView | None = None
        self._frame: Frame = []
        try:
            self.chain = chain if chain is not None else _build_chain(
                self.layout, driver, port=port, device=device, rate=rate, brightness=brightness, order=order,
                chips=chips, pin_factory=pin_factory)
            if self.chain.count < self.layout.leds:
                raise ConfigError(f"layout {self.layout.name!r} needs {self.layout.leds} LEDs but the chain has "
                                  f"{self.chain.count}")
            self.show([(0, 0, 0)] * self.layout.leds)
        except BaseException:
            self.close()
            raise

    @property
    def closed(self) -> bool:
        return self.chain is None

    @property
    def virtual(self) -> bool:
        """True if the chain is the on-screen one."""
        return isinstance(self.chain, VirtualChain)

    @property
    def frame(self) -> Frame:
        """The last frame sent (after the power cap), one colour per layout LED."""
        return list(self._frame)

    def show(self, frame: Sequence[RGB]) -> Frame:
        """Send ``frame`` (one colour per layout LED) to the chain, capped to the budget; returns what was sent."""
        if self.chain is None:
            raise RuntimeError("the peg board is closed")
        capped = cap_frame(frame, self.budget, global_level=self._global_level)
        full = capped + [(0, 0, 0)] * (self.chain.count - len(capped))
        self.chain.show(full)
        self._frame = capped
        return capped

    def show_view(self, view: PegView, now: float | None = None) -> Frame:
        """Show the pegs of ``view``. With animation on, ``now`` (seconds) starts the walks, blinks and sweeps;
        keep calling :meth:`tick` to play them. Without ``now`` the true positions are shown at once."""
        self.view = view
        if self.animator is None or now is None:
            if self.animator is not None:
                self.animator.view = view
            return self.show(board_frame(self.layout, view))
        self.animator.update(view, now)
        return self.show(self.animator.frame(now))

    def tick(self, now: float) -> Frame:
        """Redraw the animations at time ``now``, and let the chain re-send its settings when it is time (a
        MAX7219 chain that browned out lights again within its ``refresh_every``)."""
        refresh = getattr(self.chain, "refresh", None)
        if callable(refresh):
            refresh()
        if self.animator is None or self.animator.view is None:
            return self.frame
        return self.show(self.animator.frame(now))

    def light_hole(self, hole: Hole, colour: RGB = (255, 255, 255)) -> Frame:
        """Light one hole alone (the board-test)."""
        frame: Frame = [(0, 0, 0)] * self.layout.leds
        frame[self.layout.led_of(hole)] = colour
        return self.show(frame)

    def off(self) -> None:
        if self.chain is not None:
            self.show([(0, 0, 0)] * self.layout.leds)

    def close(self) -> None:
        """Darken and release the chain; safe to call twice. Call it on every way out (the app's ``finally``,
        SIGTERM included): APA102 and MAX7219 chains have their own supply and keep the last frame lit."""
        chain, self.chain = self.chain, None
        if chain is not None:
            try:
                chain.show([(0, 0, 0)] * chain.count)
            except Exception:
                pass
            chain.close()

    def __enter__(self) -> PegBoard:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"<PegBoard {self.layout.name!r} on {self.chain!r}>"


def _build_chain(layout: Layout, driver: str, *, port: int, device: int, rate: int, brightness: int, order: str,
                 chips: int, pin_factory: object) -> LedChain:
    if driver in ("apa102", "sk9822", "max7219"):
        from .gpio import prepare_pins
        prepare_pins(pin_factory)  # before gpiozero picks its factory: lgpio needs a writable $LG_WD
    if driver in ("apa102", "sk9822"):
        from .apa102 import APA102
        return APA102(layout.leds, brightness=brightness, order=order, rate=rate, port=port, device=device,
                      pin_factory=pin_factory)
    if driver == "max7219":
        from .max7219 import MAX7219Chain
        return MAX7219Chain(chips or -(-layout.leds // 64), intensity=min(15, brightness // 2), rate=rate,
                            port=port, device=device, pin_factory=pin_factory)
    if driver == "virtual":
        return VirtualChain(layout.leds)
    raise ConfigError(f"board.driver: expected one of {', '.join(DRIVERS)}, got {driver!r}")


def _is_mock(pin_factory: object) -> bool:
    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory
    factory = pin_factory if pin_factory is not None else Device.pin_factory
    return isinstance(factory, MockFactory) or os.environ.get("GPIOZERO_PIN_FACTORY", "").lower() == "mock"


def spi_problem(port: int = 0, device: int = 0, *, dev_dir: str | os.PathLike[str] = "/dev",
                model_file: str | os.PathLike[str] = "/proc/device-tree/model") -> str | None:
    """Why the SPI bus cannot be used, as a sentence naming the fix; None if ``/dev/spidevP.D`` is usable."""
    node = Path(dev_dir) / f"spidev{port}.{device}"
    try:
        model = Path(model_file).read_text(errors="replace").strip("\x00\n ")
    except OSError:
        model = ""
    if not node.exists():
        if "raspberry pi" not in model.lower():
            return (f"no {node}: this does not look like a Raspberry Pi ({model or 'no device-tree model'}); "
                    f"showing the virtual board (on a Pi, enable SPI with `sudo raspi-config nonint do_spi 0`; "
                    f"elsewhere set board.driver = \"virtual\" to silence this)")
        return (f"SPI is not enabled (no {node}): enable it with `sudo raspi-config nonint do_spi 0` "
                f"(or raspi-config > Interface Options > SPI) and reboot; showing the virtual board meanwhile")
    if not os.access(node, os.R_OK | os.W_OK):
        return (f"no permission on {node}: add the user to the spi group with `sudo usermod -aG spi $USER`, "
                f"then log out and in again; showing the virtual board meanwhile")
    return None


def open_board(config: BoardConfig | Mapping[str, Any] | None = None, *, pin_factory: object = None,
               dev_dir: str | os.PathLike[str] = "/dev",
               model_file: str | os.PathLike[str] = "/proc/device-tree/model") -> tuple[PegBoard, str | None]:
    """The board the configuration asks for, or the virtual board and a message naming the fix.

    Layout errors are not hidden: a :class:`~companion.errors.LayoutError` is raised for the builder to fix.
    """
    if not isinstance(config, BoardConfig):
        config = BoardConfig.from_mapping(config or {})
    layout = load_layout(config.layout)
    options: dict[str, Any] = dict(port=config.port, device=config.device, rate=config.rate,
                                   brightness=config.brightness, order=config.order, chips=config.chips,
                                   budget=config.budget, animate=config.animate)

    def virtual(message: str | None) -> tuple[PegBoard, str | None]:
        return PegBoard(layout, VirtualChain(layout.leds), driver="virtual", **options), message

    if config.driver == "virtual":
        return virtual(None)
    if not _is_mock(pin_factory):
        problem = spi_problem(config.port, config.device, dev_dir=dev_dir, model_file=model_file)
        if problem:
            return virtual(problem)
    from gpiozero.exc import BadPinFactory

    from .gpio import fallback_reasons, no_factory_message

    caught: list[warnings.WarningMessage] = []
    try:
        with warnings.catch_warnings(record=True) as recorded:
            warnings.simplefilter("always")
            caught = recorded
            board = PegBoard(layout, driver=config.driver, pin_factory=pin_factory, **options)
    except BadPinFactory as exc:  # every factory failed: say what each one said (gpiozero's warnings)
        return virtual(no_factory_message(exc, fallback_reasons(caught)))
    except (ImportError, OSError, RuntimeError) as exc:  # GPIOZeroError is a RuntimeError
        reasons = fallback_reasons(caught)
        return virtual(f"the LED chain could not be opened ({type(exc).__name__}: {exc})"
                       + (f" after {'; '.join(reasons)}" if reasons else "") + "; showing the virtual board meanwhile")
    except Exception as exc:  # noqa: BLE001 - any gpiozero error: carry on with the virtual board
        if isinstance(exc, ConfigError):
            raise
        return virtual(f"the LED chain could not be opened ({type(exc).__name__}: {exc}); "
                       f"showing the virtual board meanwhile")
    slow = [w for w in caught if "software" in str(w.message).lower()]
    if slow and not _is_mock(pin_factory):
        return board, (f"hardware SPI could not be used ({slow[0].message}); the LEDs run on slow software SPI: "
                       f"`pip install spidev` in the venv")
    return board, None
