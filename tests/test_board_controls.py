"""Controls: buttons and the encoder driven on mock pins, and the keyboard, give the right commands."""

from __future__ import annotations

import queue
import time

import pytest
from gpiozero.exc import GPIOPinInUse

from companion.board.controls import Command, Controls, ControlsConfig
from companion.errors import ConfigError

HOLD = 0.05


@pytest.fixture
def controls(mock_factory):
    got: list[Command] = []
    c = Controls(5, 6, 13, encoder=(20, 21), encoder_button=16, on_command=got.append, hold_time=HOLD,
                 bounce_time=None)
    c.got = got
    yield c
    c.close()


def press(mock_factory, pin, seconds=0.0):
    mock_factory.pin(pin).drive_low()
    if seconds:
        time.sleep(seconds)
    mock_factory.pin(pin).drive_high()


def wait_for(got, n, timeout=1.0):
    end = time.monotonic() + timeout
    while len(got) < n and time.monotonic() < end:
        time.sleep(0.005)


def test_ok_and_menu(mock_factory, controls):
    press(mock_factory, 5)
    press(mock_factory, 13)
    press(mock_factory, 16)
    assert controls.got == [Command.OK, Command.MENU, Command.OK]


def test_undo_tapped_is_undo(mock_factory, controls):
    press(mock_factory, 6)
    assert controls.got == [Command.UNDO]


def test_undo_held_is_redo_and_not_undo(mock_factory, controls):
    mock_factory.pin(6).drive_low()
    wait_for(controls.got, 1)
    time.sleep(HOLD)
    mock_factory.pin(6).drive_high()
    assert controls.got == [Command.REDO]
    press(mock_factory, 6)
    assert controls.got == [Command.REDO, Command.UNDO]


def turn(mock_factory, a, b, clockwise):
    first, second = (a, b) if clockwise else (b, a)
    mock_factory.pin(first).drive_low()
    mock_factory.pin(second).drive_low()
    mock_factory.pin(first).drive_high()
    mock_factory.pin(second).drive_high()


def test_the_encoder_gives_next_and_prev(mock_factory, controls):
    turn(mock_factory, 20, 21, True)
    turn(mock_factory, 20, 21, True)
    turn(mock_factory, 20, 21, False)
    assert controls.got == [Command.NEXT, Command.NEXT, Command.PREV]


def test_commands_go_to_a_queue(mock_factory):
    q: queue.Queue = queue.Queue()
    with Controls(5, None, None, on_command=q, bounce_time=None):
        press(mock_factory, 5)
    assert q.get_nowait() is Command.OK


def test_from_config_and_close_frees_the_pins(mock_factory):
    got = []
    c = Controls.from_config({"ok": 17, "undo": 27, "menu": 22, "hold_time": HOLD, "bounce_time": 0},
                             on_command=got.append)
    press(mock_factory, 22)
    assert got == [Command.MENU]
    c.close()
    c.close()
    assert c.closed
    Controls.from_config({"ok": 17, "undo": 27, "menu": 22}, on_command=got.append).close()


def test_a_failing_constructor_frees_what_it_took(mock_factory):
    from gpiozero import Button
    blocker = Button(13)
    with pytest.raises(GPIOPinInUse):
        Controls(5, 6, 13, on_command=print)
    blocker.close()
    Controls(5, 6, 13, on_command=print).close()   # 5 and 6 were released


@pytest.mark.parametrize("data, message", [
    ({"okay": 5}, "controls.okay: unknown key"),
    ({"encoder_a": 20}, "give both encoder pins"),
    ({"ok": 5, "undo": 5}, "used twice"),
    ({"ok": "five"}, "expected a pin number"),
])
def test_bad_control_config(data, message):
    with pytest.raises(ConfigError, match=message):
        ControlsConfig.from_mapping(data)


