"""LED drivers on gpiozero's MockFactory with the chips emulated on its mock pins, the PegBoard composite and
the fallback to the virtual board."""

from __future__ import annotations

import random

import pytest
from gpiozero import Device
from gpiozero.exc import DeviceClosed, GPIOPinInUse

from companion.board.apa102 import APA102
from companion.board.emulators import APA102Chip, MAX7219Chip
from companion.board.layout import load_layout
from companion.board.max7219 import MAX7219Chain
from companion.board.pegboard import BoardConfig, PegBoard, open_board, spi_problem
from companion.board.pegs import PegView, board_frame, peg_views_from_scores
from companion.board.virtual import VirtualChain
from companion.errors import ConfigError, LayoutError

PRESETS = ["four-hand-partners", "seven-card-181", "test-strip-30", "three-player-121", "two-player-121",
           "two-player-61"]


def lit(frame):
    return {i: c for i, c in enumerate(frame) if c != (0, 0, 0)}


# --- one contract for every LED chain ---------------------------------------------------------------------------

class ChainContract:
    """Every LED chain passes these: what it shows is what the chip (or screen) ends up with."""

    count = 40

    def make(self, mock_factory):  # returns (chain, read) where read() gives the set of lit LEDs
        raise NotImplementedError

    def test_shows_a_frame(self, mock_factory):
        chain, read = self.make(mock_factory)
        frame = [(0, 0, 0)] * self.count
        frame[0], frame[7], frame[self.count - 1] = (255, 0, 0), (0, 9, 0), (1, 2, 3)
        chain.show(frame)
        assert read() == {0, 7, self.count - 1}
        chain.show([(0, 0, 0)] * self.count)
        assert read() == set()

    def test_refuses_a_frame_of_the_wrong_size(self, mock_factory):
        chain, _ = self.make(mock_factory)
        with pytest.raises(ValueError):
            chain.show([(0, 0, 0)] * (chain.count + 1))

    def test_close_is_safe_twice(self, mock_factory):
        chain, _ = self.make(mock_factory)
        chain.close()
        chain.close()  # shutting down after a failed start closes twice: no error, and the chain stays closed
        assert chain.closed
        with pytest.raises((RuntimeError, DeviceClosed)):
            chain.show([(0, 0, 0)] * chain.count)


class TestAPA102Contract(ChainContract):
    def make(self, mock_factory):
        chip = mock_factory.keep(APA102Chip(self.count))
        chain = mock_factory.keep(APA102(self.count))
        return chain, lambda: set(chip.lit())


class TestMAX7219Contract(ChainContract):
    count = 64

    def make(self, mock_factory):
        chip = mock_factory.keep(MAX7219Chip(1))
        chain = mock_factory.keep(MAX7219Chain(1))
        return chain, chip.lit


class TestVirtualContract(ChainContract):
    def make(self, mock_factory):
        chain = VirtualChain(self.count)
        return chain, lambda: set(lit(chain.frame))


# --- APA102 on the wire -----------------------------------------------------------------------------------------

def test_apa102_bytes_on_the_wire():
    data = APA102.encode_frame([(1, 2, 3)] * 33, brightness=7)
    assert data[:4] == bytes(4)
    assert data[4:8] == bytes((0xE7, 3, 2, 1))                   # 111 + brightness, then blue, green, red
    assert len(data) == 4 + 33 * 4 + 4 + 3                        # end frame: 32 bits + half a clock per LED
    assert data[-7:] == bytes(7)
    assert APA102.encode_frame([(1, 2, 3)], order="rgb")[4:8] == bytes((0xFF, 1, 2, 3))


def test_apa102_chip_receives_colours_and_global_brightness(mock_factory):
    chip = mock_factory.keep(APA102Chip(50))
    chain = mock_factory.keep(APA102(50, brightness=9))
    rng = random.Random(1)
    frame = [(rng.randrange(256), rng.randrange(256), rng.randrange(256)) for _ in range(50)]
    chain.show(frame)
    assert chip.colours() == frame
    assert {gb for gb, *_ in chip.leds} == {9}
    assert chip.updates == 1 and chip.bad_frames == 0
    assert chain.frame == frame


def test_apa102_long_chains_go_in_several_transfers(mock_factory):
    chip = mock_factory.keep(APA102Chip(60))
    chain = mock_factory.keep(APA102(60, max_transfer=64))
    frame = [(i, 255 - i, 7) for i in range(60)]
    chain.show(frame)
    assert chip.colours() == frame and chip.updates == 1


def test_apa102_refuses_bad_options(mock_factory):
    with pytest.raises(ValueError, match="0-31"):
        APA102(10, brightness=40)
    with pytest.raises(ValueError, match="order"):
        APA102(10, order="xyz")
    with pytest.raises(ValueError, match="positive"):
        APA102(0)


# --- MAX7219 --------------------------------------------------------------------------------------------------

def test_max7219_registers(mock_factory):
    chip = mock_factory.keep(MAX7219Chip(3))
    chain = mock_factory.keep(MAX7219Chain(3, intensity=5))
    for regs in chip.registers:
        assert regs[0x0C] == 1 and regs[0x09] == 0 and regs[0x0B] == 7 and regs[0x0A] == 5 and regs[0x0F] == 0
    frame = [(0, 0, 0)] * 192
    for i in (0, 9, 63, 64, 130, 191):
        frame[i] = (40, 0, 0)
    chain.show(frame)
    assert chip.lit() == {0, 9, 63, 64, 130, 191}
    assert chip.registers[0][1] == 0x80 and chip.registers[0][2] == 0x40 and chip.registers[2][8] == 0x01
    latches = chip.latches
    chain.show(frame)                                # nothing changed: nothing written
    assert chip.latches == latches
    chain.close()
    assert all(regs[0x0C] == 0 for regs in chip.registers)


# --- the peg board ----------------------------------------------------------------------------------------------

def apa_board(mock_factory, name, **kw):
    layout = load_layout(name)
    chip = mock_factory.keep(APA102Chip(layout.leds))
    board = mock_factory.keep(PegBoard(layout, **kw))
    return layout, chip, board


@pytest.mark.parametrize("name", PRESETS)
def test_after_a_scripted_game_the_chip_shows_exactly_the_pegs(mock_factory, name):
    layout, chip, board = apa_board(mock_factory, name, animate=False)
    n = len(layout.sides)
    rng = random.Random(name)
    views = peg_views_from_scores(n, [(k % n, rng.choice([2, 4, 6, 12])) for k in range(60)], target=layout.target)
    for view in (views[len(views) // 2], views[-1]):
        board.show_view(view)
        want = board_frame(layout, view)
        assert chip.colours() == want
        assert {gb for gb, r, g, b in chip.leds if r or g or b} == {31}
        # and every side's front peg is lit bright in its colour, on its hole
        for i, (front, _) in enumerate(view.sides):
            hole = layout.game if front >= view.target else layout.sides[i].track[(front - 1) % layout.holes_per_track]
            assert chip.colours()[hole] == layout.sides[i].colour


def test_max7219_board_lights_the_same_holes(mock_factory):
    layout = load_layout("two-player-61")
    chip = mock_factory.keep(MAX7219Chip(3))
    board = mock_factory.keep(PegBoard(layout, driver="max7219", animate=False))
    view = PegView(((44, 40), (13, 0)), target=61)
    board.show_view(view)
    assert chip.lit() == set(lit(board_frame(layout, view)))


def test_the_board_animates_on_the_chip(mock_factory):
    layout, chip, board = apa_board(mock_factory, "test-strip-30")
    board.show_view(PegView(((0, 0), (0, 0)), target=25), now=0.0)
    board.show_view(PegView(((10, 0), (0, 0)), target=25), now=1.0)
    board.tick(1.2)
    red = layout.sides[0]
    mid = [n for n in range(1, 13) if chip.colours()[red.track[n - 1]] == red.colour]
    assert mid and 1 < mid[0] < 10
    board.tick(3.0)
    assert chip.colours() == board_frame(layout, PegView(((10, 0), (0, 0)), target=25))


def test_the_board_caps_the_current(mock_factory):
    layout, chip, board = apa_board(mock_factory, "three-player-121", budget=None)
    board.show([(255, 255, 255)] * layout.leds)
    assert board.budget.frame_ma(chip.colours()) <= board.budget.limit_ma
    assert chip.colours()[0] != (0, 0, 0)


def test_light_one_hole(mock_factory):
    layout, chip, board = apa_board(mock_factory, "test-strip-30")
    from companion.board.layout import Hole
    board.light_hole(Hole(1, "track", 3), (0, 0, 200))
    assert chip.lit() == {22: (0, 0, 200)}


def test_close_is_safe_twice_darkens_and_frees_the_pins(mock_factory):
    layout, chip, board = apa_board(mock_factory, "test-strip-30")
    board.show_view(PegView(((5, 2), (3, 0)), target=25))
    board.close()
    board.close()
    assert board.closed and chip.lit() == {}
    again = mock_factory.keep(PegBoard(layout))    # the pins were released
    assert not again.closed


def test_a_failing_constructor_closes_what_it_opened(mock_factory):
    chain = VirtualChain(10)
    with pytest.raises(ConfigError, match="needs 30 LEDs but the chain has 10"):
        PegBoard("test-strip-30", chain)
    assert chain.closed
    blocker = mock_factory.keep(Device.pin_factory.pin(10))
    from gpiozero import OutputDevice
    mock_factory.keep(OutputDevice(10))
    with pytest.raises(GPIOPinInUse):
        PegBoard("test-strip-30")
    # the clock pin it had claimed before failing is free again
    mock_factory.keep(OutputDevice(11))
    assert blocker is not None


def test_a_context_manager(mock_factory):
    chip = mock_factory.keep(APA102Chip(30))
    with PegBoard("test-strip-30", animate=False) as board:
        board.show_view(PegView(((1, 0), (0, 0)), target=25))
        assert chip.lit()
    assert board.closed and not chip.lit()


# --- configuration and the fallback to the virtual board ----------------------------------------------------

def test_config_refuses_unknown_keys_and_bad_values():
    with pytest.raises(ConfigError, match="board.colour: unknown key"):
        BoardConfig.from_mapping({"colour": 1})
    with pytest.raises(ConfigError, match="board.driver: expected one of"):
        BoardConfig.from_mapping({"driver": "ws2812"})
    with pytest.raises(ConfigError, match="board.rate: expected int"):
        BoardConfig.from_mapping({"rate": "fast"})
    assert BoardConfig.from_mapping({"supply_a": 10}).budget.supply_a == 10


def test_open_board_virtual():
    board, message = open_board({"driver": "virtual", "layout": "test-strip-30"})
    assert board.virtual and message is None
    board.close()


def test_open_board_on_the_mock_factory_uses_the_chain(mock_factory):
    chip = mock_factory.keep(APA102Chip(30))
    board, message = open_board({"layout": "test-strip-30"})
    mock_factory.keep(board)
    assert message is None and not board.virtual
    board.show_view(PegView(((2, 1), (0, 0)), target=25))
    assert chip.lit()


def test_open_board_without_spi_names_the_fix(tmp_path, monkeypatch):
    model = tmp_path / "model"
    model.write_text("Raspberry Pi 5 Model B Rev 1.0\x00")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    board, message = open_board({"layout": "test-strip-30"}, dev_dir=tmp_path, model_file=model)
    assert board.virtual
    assert "SPI is not enabled" in message and "raspi-config" in message
    board.close()


def test_open_board_without_permission_names_the_spi_group(tmp_path, monkeypatch):
    (tmp_path / "spidev0.0").write_text("")
    monkeypatch.setattr("os.access", lambda *a, **k: False)
    message = spi_problem(0, 0, dev_dir=tmp_path, model_file=tmp_path / "none")
    assert "no permission" in message and "usermod -aG spi" in message


def test_open_board_on_a_pc_says_so(tmp_path):
    model = tmp_path / "model"
    model.write_text("Some PC board")
    assert "does not look like a Raspberry Pi (Some PC board)" in spi_problem(dev_dir=tmp_path, model_file=model)


def test_open_board_with_no_pin_factory_carries_on_virtual(tmp_path, monkeypatch):
    (tmp_path / "spidev0.0").write_text("")
    monkeypatch.delenv("GPIOZERO_PIN_FACTORY", raising=False)
    Device.pin_factory = None

    class NoFactory:  # what gpiozero does on a PC without lgpio: BadPinFactory, an ImportError
        def spi(self, **kw):
            from gpiozero.exc import BadPinFactory
            raise BadPinFactory("Unable to load any default pin factory!")

        def reserve_pins(self, *a):
            pass

        def release_all(self, *a):
            pass

    board, message = open_board({"layout": "test-strip-30"}, pin_factory=NoFactory(), dev_dir=tmp_path,
                                model_file=tmp_path / "none")
    assert board.virtual and "no usable gpiozero pin factory" in message and "lgpio" in message
    board.close()


def test_open_board_lets_layout_errors_through():
    with pytest.raises(LayoutError):
        open_board({"layout": "no-such-board", "driver": "virtual"})


def test_on_a_max7219_board_the_back_peg_winks(mock_factory):
    layout = load_layout("two-player-61")
    chip = mock_factory.keep(MAX7219Chip(3))
    board = mock_factory.keep(PegBoard(layout, driver="max7219"))
    view = PegView(((44, 40), (13, 0)), target=61)
    board.show_view(view, now=0.0)
    board.tick(10.0)
    everything = set(lit(board_frame(layout, view)))
    assert chip.lit() == everything
    board.tick(11.8)                                   # the last 0.4 s of every 2 s: back pegs dark
    back = {layout.sides[0].track[39], layout.sides[1].start[1]}
    assert chip.lit() == everything - back
