"""Benchmark the LED board: computing the frame for a 400-LED board and writing it through the APA102 driver.

    python -m tools.bench_board            # or: make bench

Reports the median time to compute a frame (pegs -> frame -> current cap; and with the animations running),
its ratio to a baseline measured in the same run (allocating a dark frame and setting the peg LEDs by hand: the
least any frame computation can cost), the bytes of one update and their time on the wire at 8 MHz, and the time
to push them through gpiozero on the MockFactory (a Python bit-bang into an emulated chip: a check that the bytes
decode, not a figure for real hardware, where spidev sends them in one DMA transfer).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from collections.abc import Callable, Sequence

TARGET_MS = 2.0
WIRE_HZ = 8_000_000


def board_400() -> dict:
    """A 400-LED layout: three tracks of 120 holes, start holes, a game hole and 33 spare LEDs."""
    sides = []
    for i, (name, colour) in enumerate((("Red", "#e8202a"), ("Blue", "#1f6fe8"), ("Green", "#18b048"))):
        base = i * 122
        sides.append({"name": name, "colour": colour, "start": f"{base}-{base + 1}",
                      "track": [{"holes": "1-120", "leds": f"{base + 2}-{base + 121}"}]})
    return {"name": "bench-400", "leds": 400, "holes_per_track": 120, "target": 121, "game": 366, "side": sides}


def median_ms(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter_ns()
        fn()
        times.append(time.perf_counter_ns() - t0)
    return statistics.median(times) / 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=2000, help="frame computations timed (default %(default)s)")
    parser.add_argument("--writes", type=int, default=3, help="writes through the mock driver (default %(default)s)")
    args = parser.parse_args([] if argv is None else argv)  # called by tools.bench: its command line is not ours

    from gpiozero import Device
    from gpiozero.pins.mock import MockFactory

    from companion.board.animation import BoardAnimator
    from companion.board.apa102 import APA102
    from companion.board.emulators import APA102Chip
    from companion.board.layout import parse_layout
    from companion.board.pegs import PegView, PowerBudget, board_frame, cap_frame, peg_views_from_scores

    layout = parse_layout(board_400())
    budget = PowerBudget(supply_a=4.0)
    rng = random.Random(400)
    views = peg_views_from_scores(3, [(k % 3, rng.choice([2, 4, 6, 8, 12])) for k in range(40)])
    view = views[-5]
    pegs = [(led, layout.sides[i].colour) for i in range(3)
            for led in (layout.sides[i].track[view.sides[i][0] - 1], layout.sides[i].track[view.sides[i][1] - 1])]

    def baseline() -> list:
        frame = [(0, 0, 0)] * layout.leds
        for led, colour in pegs:
            frame[led] = colour
        return frame

    def compute() -> list:
        return cap_frame(board_frame(layout, view), budget)

    anim = BoardAnimator(layout)
    anim.update(PegView(view.sides, active_side=1), 0.0)
    anim.update(PegView(views[-4].sides, active_side=2, winner=None), 1.0)
    clock = iter(1.0 + k * 0.0003 for k in range(10 * args.repeat))

    def animated() -> list:
        return cap_frame(anim.frame(next(clock)), budget)

    def encode() -> bytes:
        return APA102.encode_frame(compute())

    for fn in (baseline, compute, animated, encode):  # warm up
        median_ms(fn, 50)
    base_ms = median_ms(baseline, args.repeat)
    frame_ms = median_ms(compute, args.repeat)
    anim_ms = median_ms(animated, args.repeat)
    encode_ms = median_ms(encode, args.repeat)
    data = APA102.encode_frame(compute())

    factory = MockFactory()
    Device.pin_factory = factory
    chip = APA102Chip(layout.leds)
    chain = APA102(layout.leds)
    try:
        frame = compute()
        write_ms = median_ms(lambda: chain.show(frame), args.writes)
        decoded = chip.colours() == frame and chip.bad_frames == 0
    finally:
        chain.close()
        chip.close()
        factory.reset()
        Device.pin_factory = None

    wire_ms = len(data) * 8 / WIRE_HZ * 1000
    print(f"LED board benchmark: {layout.leds} LEDs, 3 sides, median of {args.repeat} runs")
    print(f"  baseline (dark frame + pegs by hand)   {base_ms:8.4f} ms")
    print(f"  frame: pegs -> frame -> current cap    {frame_ms:8.4f} ms   x{frame_ms / base_ms:.1f} baseline   "
          f"target < {TARGET_MS} ms: {'PASS' if frame_ms < TARGET_MS else 'FAIL'}")
    print(f"  frame with animations running          {anim_ms:8.4f} ms   x{anim_ms / base_ms:.1f} baseline   "
          f"target < {TARGET_MS} ms: {'PASS' if anim_ms < TARGET_MS else 'FAIL'}")
    print(f"  frame + APA102 encoding                {encode_ms:8.4f} ms")
    print(f"  bytes per update                       {len(data):8d}      (4 start + {layout.leds}x4 LED + "
          f"{len(data) - 4 - 4 * layout.leds} end)")
    print(f"  time on the wire at 8 MHz              {wire_ms:8.3f} ms   (max {1000 / wire_ms:.0f} updates/s)")
    print(f"  write through gpiozero MockFactory     {write_ms:8.1f} ms   (software bit-bang into an emulated "
          f"chip, median of {args.writes}; decoded {'OK' if decoded else 'WRONG'})")
    return 0 if frame_ms < TARGET_MS and anim_ms < TARGET_MS and decoded else 1


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
