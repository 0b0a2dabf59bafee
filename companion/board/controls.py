"""Controls: gpiozero buttons and an optional rotary encoder turned into :class:`Command` values, and the same
commands from the keyboard.

Wiring: each button between its GPIO and GND (gpiozero's internal pull-up is used); the encoder's A and B between
their GPIOs and GND, its common pin to GND, its push switch (if any) wired like a button.

- OK / Go: pressed -> ``Command.OK`` (the referee reads it as "go" during the play)
- Undo: pressed and released -> ``Command.UNDO``; held -> ``Command.REDO`` (and no undo on release)
- Menu: pressed -> ``Command.MENU``
- Encoder: clockwise -> ``Command.NEXT``, counter-clockwise -> ``Command.PREV``; its push switch -> ``Command.OK``

>>> Command("undo")
<Command.UNDO: 'undo'>
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, fields
from typing import Any, Protocol

from ..commands import Command
from ..errors import ConfigError, check_key


MAX_PIN = 27
"""The highest GPIO on the Raspberry Pi's 40-pin header (BCM numbering)."""


class _Queue(Protocol):
    def put(self, item: Command) -> None: ...


Sink = Callable[[Command], Any] | _Queue


def _deliver(sink: Sink) -> Callable[[Command], Any]:
    put = getattr(sink, "put", None)
    return put if callable(put) else sink  # type: ignore[return-value]


@dataclass(frozen=True)
class ControlsConfig:
    """The ``[controls]`` section: BCM pin numbers (0 = not fitted) and timings in seconds. ``bounce_time`` is
    the buttons' debounce (the encoder's A and B pins are not debounced: its state machine handles bounce)."""

    ok: int = 5
    undo: int = 6
    menu: int = 13
    encoder_a: int = 0
    encoder_b: int = 0
    encoder_button: int = 0
    hold_time: float = 1.0
    bounce_time: float = 0.02

    @classmethod
    def from_mapping(cls, data: Mapping[str, Any]) -> ControlsConfig:
        known = {f.name: f for f in fields(cls)}
        for key, value in data.items():
            check_key("controls", key, known)
            if isinstance(known[key].default, int):
                if not isinstance(value, int) or isinstance(value, bool) or not 0 <= value <= MAX_PIN:
                    raise ConfigError(f"controls.{key}: expected a pin number, BCM GPIO 1-{MAX_PIN} (0: not "
                                      f"fitted), got {value!r}")
            elif not isinstance(value, (int, float)) or isinstance(value, bool) or not 0 <= value <= 10:
                raise ConfigError(f"controls.{key}: expected seconds, 0-10, got {value!r}")
        if data.get("hold_time", 1.0) == 0:
            raise ConfigError("controls.hold_time: expected seconds > 0 (how long Undo is held for redo), got 0")
        config = cls(**data)
        if bool(config.encoder_a) != bool(config.encoder_b):
            raise ConfigError("controls.encoder_a / encoder_b: give both encoder pins or neither")
        pins = [p for p in (config.ok, config.undo, config.menu, config.encoder_a, config.encoder_b,
                            config.encoder_button) if p]
        if len(pins) != len(set(pins)):
            raise ConfigError(f"controls: a pin is used twice in {pins}")
        return config


class Controls:
    """The companion's buttons and optional encoder, delivering :class:`Command` values to ``on_command`` (a
    callable, or a queue with ``put``). Pins first; ``None`` for a control that is not fitted.

    >>> from gpiozero import Device
    >>> from gpiozero.pins.mock import MockFactory
    >>> Device.pin_factory = MockFactory()
    >>> got = []
    >>> with Controls(5, 6, 13, on_command=got.append) as controls:
    ...     Device.pin_factory.pin(5).drive_low(); Device.pin_factory.pin(5).drive_high()
    >>> got
    [<Command.OK: 'ok'>]
    >>> Device.pin_factory.reset()
    """

    def __init__(self, ok: int | str | None = 5, undo: int | str | None = 6, menu: int | str | None = 13,
                 encoder: tuple[int | str, int | str] | None = None, encoder_button: int | str | None = None, *,
                 on_command: Sink, hold_time: float = 1.0, bounce_time: float | None = 0.02,
                 pin_factory: object = None) -> None:
        from gpiozero import Button, RotaryEncoder

        from .gpio import prepare_pins

        prepare_pins(pin_factory)  # before gpiozero picks its factory: lgpio needs a writable $LG_WD
        self._send = _deliver(on_command)
        self._devices: list[Any] = []
        self._undo_held = False
        try:
            def button(pin: int | str, **kw: Any) -> Any:
                b = Button(pin, bounce_time=bounce_time, pin_factory=pin_factory, **kw)
                self._devices.append(b)
                return b

            self.ok = self.undo = self.menu = self.encoder = self.encoder_button = None
            if ok is not None:
                self.ok = button(ok)
                self.ok.when_pressed = lambda: self._send(Command.OK)
            if undo is not None:
                self.undo = button(undo, hold_time=hold_time)
                self.undo.when_pressed = self._undo_pressed
                self.undo.when_held = self._undo_held_cb
                self.undo.when_released = self._undo_released
            if menu is not None:
                self.menu = button(menu)
                self.menu.when_pressed = lambda: self._send(Command.MENU)
            if encoder is not None:
                # No bounce_time on the encoder's pins: a debounce there (lgpio's is a filter on each pin) drops
                # the short phases of a fast turn, whole steps lost. RotaryEncoder's state machine absorbs contact
                # bounce itself: a bouncing contact wiggles between neighbouring states and never counts.
                self.encoder = RotaryEncoder(encoder[0], encoder[1], max_steps=0, pin_factory=pin_factory)
                self._devices.append(self.encoder)
                self.encoder.when_rotated_clockwise = lambda: self._send(Command.NEXT)
                self.encoder.when_rotated_counter_clockwise = lambda: self._send(Command.PREV)
            if encoder_button is not None:
                self.encoder_button = button(encoder_button)
                self.encoder_button.when_pressed = lambda: self._send(Command.OK)
        except BaseException:
            self.close()
            raise

    @classmethod
    def from_config(cls, config: ControlsConfig | Mapping[str, Any], *, on_command: Sink,
                    pin_factory: object = None) -> Controls:
        """Controls on the pins of the configuration (0 = not fitted)."""
        if not isinstance(config, ControlsConfig):
            config = ControlsConfig.from_mapping(config)
        return cls(config.ok or None, config.undo or None, config.menu or None,
                   (config.encoder_a, config.encoder_b) if config.encoder_a else None, config.encoder_button or None,
                   on_command=on_command, hold_time=config.hold_time, bounce_time=config.bounce_time or None,
                   pin_factory=pin_factory)

    def _undo_pressed(self) -> None:
        self._undo_held = False

    def _undo_held_cb(self) -> None:
        self._undo_held = True
        self._send(Command.REDO)

    def _undo_released(self) -> None:
        if not self._undo_held:
            self._send(Command.UNDO)
        self._undo_held = False

    @property
    def closed(self) -> bool:
        return not self._devices

    def close(self) -> None:
        """Release every pin; safe to call twice."""
        while self._devices:
            self._devices.pop().close()

    def __enter__(self) -> Controls:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()
