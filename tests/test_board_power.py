"""Issue 11: a MAX7219 chain that browned out lights again on its own; closing (SIGTERM, shutdown, the app's
``finally``) leaves every APA102 and MAX7219 chain dark. Chips emulated on gpiozero's MockFactory pins."""

from __future__ import annotations

import pytest
from gpiozero import Device
from gpiozero.pins.mock import MockFactory

from companion.board.apa102 import APA102
from companion.board.emulators import APA102Chip, MAX7219Chip
from companion.board.layout import load_layout
from companion.board.max7219 import MAX7219Chain
from companion.board.pegboard import PegBoard
from companion.board.pegs import PegView, board_frame

SETTINGS = {0x09: 0, 0x0A: 5, 0x0B: 7, 0x0C: 1, 0x0F: 0}  # no decode, intensity, scan limit, on, no test


@pytest.fixture
def factory():
    opened = []
    f = MockFactory()
    Device.pin_factory = f
    f.opened = opened
    yield f
    for thing in reversed(opened):
        thing.close()
    f.reset()
    Device.pin_factory = None


def keep(factory, thing):
    factory.opened.append(thing)
    return thing


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def lit(frame):
    return {i for i, c in enumerate(frame) if c != (0, 0, 0)}


def test_a_max7219_chain_lights_again_after_a_supply_dip(factory):
    clock = Clock()
    chip = keep(factory, MAX7219Chip(2))
    chain = keep(factory, MAX7219Chain(2, intensity=5, refresh_every=5.0, clock=clock))
    frame = [(0, 0, 0)] * 128
    for i in (0, 17, 70, 127):
        frame[i] = (200, 0, 0)
    chain.show(frame)
    assert chip.lit() == {0, 17, 70, 127}
    chip.power_cycle()                                  # the LED supply dips: settings lost, chips dark
    assert chip.lit() == set()
    clock.now += 4.0
    chain.show(frame)                                   # the same frame, not yet time: still dark
    assert chip.lit() == set()
    clock.now += 1.5
    chain.show(frame)
    for regs in chip.registers:
        assert {reg: regs[reg] for reg in SETTINGS} == SETTINGS
    assert chip.lit() == {0, 17, 70, 127}               # the garbage rows the dip left are overwritten


def test_an_idle_max7219_board_is_refreshed_by_its_tick(factory):
    """Nothing moves on the board for minutes between hands: the app's tick is what brings the chips back."""
    clock = Clock()
    layout = load_layout("two-player-61")
    chip = keep(factory, MAX7219Chip(3))
    board = keep(factory, PegBoard(layout, MAX7219Chain(3, intensity=5, clock=clock), animate=False))
    view = PegView(((17, 9), (30, 24)), target=61)
    board.show_view(view)
    shown = lit(board_frame(layout, view))
    assert chip.lit() == shown
    chip.power_cycle()
    board.tick(clock.now)
    assert chip.lit() == set()
    clock.now += board.chain.refresh_every
    board.tick(clock.now)
    assert chip.lit() == shown and all(regs[0x0C] == 1 and regs[0x0B] == 7 for regs in chip.registers)


def test_refresh_can_be_turned_off(factory):
    clock = Clock()
    chip = keep(factory, MAX7219Chip(1))
    chain = keep(factory, MAX7219Chain(1, refresh_every=None, clock=clock))
    latches = chip.latches
    clock.now += 3600
    chain.show([(0, 0, 0)] * 64)
    assert chip.latches == latches


def test_closing_an_apa102_chain_darkens_it(factory):
    chip = keep(factory, APA102Chip(30))
    chain = APA102(30)
    chain.show([(255, 40, 0)] * 30)
    assert len(chip.lit()) == 30
    chain.close()
    chain.close()
    assert chip.lit() == {} and chain.closed


def test_closing_a_max7219_chain_clears_its_rows_and_shuts_it_down(factory):
    chip = keep(factory, MAX7219Chip(2))
    chain = MAX7219Chain(2)
    chain.show([(9, 9, 9)] * 128)
    assert len(chip.lit()) == 128
    chain.close()
    assert chip.lit() == set()
    for regs in chip.registers:
        assert regs[0x0C] == 0 and all(regs[digit] == 0 for digit in range(1, 9))
    for regs in chip.registers:                         # woken by a glitch later: still nothing lit
        regs[0x0C] = 1
    assert chip.lit() == set()


@pytest.mark.parametrize("driver", ["apa102", "max7219"])
def test_closing_the_peg_board_leaves_every_chip_dark(factory, driver):
    layout = load_layout("two-player-61")
    chip = keep(factory, APA102Chip(layout.leds) if driver == "apa102" else MAX7219Chip(3))
    board = PegBoard(layout, driver=driver)
    board.show_view(PegView(((44, 40), (13, 0)), target=61), now=0.0)
    board.tick(0.5)
    assert chip.lit()
    board.close()
    assert not chip.lit() and board.closed
