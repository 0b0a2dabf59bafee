"""Issue 11: a fast turn of the encoder counts every step; the buttons stay debounced. On mock pins that honour
``bounce_time`` as a debouncing GPIO library does (gpiozero's own MockPin ignores it)."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.board.controls import Command, Controls, ControlsConfig
from companion.board.emulators import DebouncingMockPin

A, B, OK = 20, 21, 5


@pytest.fixture
def factory():
    f = MockFactory(pin_class=DebouncingMockPin)
    Device.pin_factory = f
    yield f
    f.reset()
    Device.pin_factory = None


def detent(factory, clockwise: bool) -> None:
    """One detent of a quadrature encoder, all four edges within microseconds (a flick of the knob)."""
    first, second = (A, B) if clockwise else (B, A)
    factory.pin(first).drive_low()
    factory.pin(second).drive_low()
    factory.pin(first).drive_high()
    factory.pin(second).drive_high()


def test_the_mock_pins_really_debounce(factory):
    """The premise of the tests below: on these pins a 20 ms debounce drops the edges of a fast sequence."""
    from gpiozero import Button
    with Button(OK, bounce_time=0.02) as button:
        presses = []
        button.when_pressed = lambda: presses.append(1)
        for _ in range(5):
            factory.pin(OK).drive_low()
            factory.pin(OK).drive_high()
        assert len(presses) == 1


def test_a_fast_turn_counts_every_step(factory):
    got: list[Command] = []
    config = ControlsConfig.from_mapping({"ok": OK, "undo": 0, "menu": 0, "encoder_a": A, "encoder_b": B,
                                          "bounce_time": 0.02})
    with Controls.from_config(config, on_command=got.append):
        for _ in range(12):
            detent(factory, clockwise=True)
        for _ in range(5):
            detent(factory, clockwise=False)
    assert got == [Command.NEXT] * 12 + [Command.PREV] * 5


def test_the_encoder_pins_have_no_debounce_and_the_buttons_keep_theirs(factory):
    with Controls(OK, None, None, encoder=(A, B), encoder_button=16, on_command=lambda c: None,
                  bounce_time=0.02) as controls:
        assert controls.encoder.a.pin.bounce is None and controls.encoder.b.pin.bounce is None
        assert controls.ok.pin.bounce == 0.02 and controls.encoder_button.pin.bounce == 0.02


def test_a_bouncing_contact_still_counts_once(factory):
    """Contact bounce on one pin wiggles the state machine between neighbours: one detent is still one step."""
    got: list[Command] = []
    with Controls(None, None, None, encoder=(A, B), on_command=got.append, bounce_time=0.02):
        a, b = factory.pin(A), factory.pin(B)
        for pin, edges in ((a, "LHL"), (b, "LHL"), (a, "HLH"), (b, "H")):  # A closes, B closes, A opens: bouncing
            for edge in edges:
                (pin.drive_low if edge == "L" else pin.drive_high)()
    assert got == [Command.NEXT]


def test_a_bouncing_button_press_is_one_command(factory):
    got: list[Command] = []
    with Controls(OK, None, None, on_command=got.append, bounce_time=0.02):
        pin = factory.pin(OK)
        for _ in range(4):
            pin.drive_low()
            pin.drive_high()
    assert got == [Command.OK]
