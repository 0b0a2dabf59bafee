"""How long one frame of each screen takes to draw, on one core (the budget is 16 ms at 800x480).

Run: ``SDL_VIDEODRIVER=dummy python -m tools.bench_display [--size 800x480] [--frames 200]``.
"warm" redraws a screen whose texts were drawn before (the usual case: a new card changes a few texts); "cold"
empties the text cache before every frame (the worst case: every text rendered anew).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time


def _time_frames(draw, frames: int, before=None) -> tuple[list[float], list[float]]:
    """Wall-clock and CPU milliseconds per frame (CPU time leaves out waiting for other processes)."""
    wall, cpu = [], []
    for _ in range(frames):
        if before:
            before()
        t0, c0 = time.perf_counter(), time.thread_time()
        draw()
        wall.append((time.perf_counter() - t0) * 1000)
        cpu.append((time.thread_time() - c0) * 1000)
    return wall, cpu


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args(argv or [])  # tools.bench calls main() with the command line of its own
    cores = os.sched_getaffinity(0) if hasattr(os, "sched_setaffinity") else None
    if cores:
        os.sched_setaffinity(0, {min(cores)})  # one core
    try:
        return _run(args)
    finally:
        if cores:
            os.sched_setaffinity(0, cores)


def _run(args) -> int:
    import pygame

    from companion.display import draw as draw_module
    from companion.display.samples import sample_views
    from companion.display.screens import draw_screen

    size = tuple(int(v) for v in args.size.split("x"))
    pygame.font.init()
    surface = pygame.Surface(size)
    views = sample_views()
    names = ["scoreboard", "play-run", "show-29", "show-muggins", "history", "game-over-skunk", "messages",
             "menu-new-game", "correction-choose", "camera"]
    warm_all: list[float] = []
    cold_all: list[float] = []
    cpu_all: list[float] = []
    print(f"frame draw time at {size[0]}x{size[1]}, one core, ms: median wall / 95th percentile wall / median CPU")
    for name in names:
        view = views[name]

        def draw(view=view):
            draw_screen(surface, view)

        draw()
        warm, warm_cpu = _time_frames(draw, args.frames)
        cold, cold_cpu = _time_frames(draw, max(20, args.frames // 5), before=draw_module.clear_caches)
        warm_all += warm
        cold_all += cold
        cpu_all += warm_cpu
        print(f"  {name:20} warm {statistics.median(warm):5.2f} / {_p95(warm):5.2f} / "
              f"{statistics.median(warm_cpu):5.2f}"
              f"   cold {statistics.median(cold):5.2f} / {_p95(cold):5.2f} / {statistics.median(cold_cpu):5.2f}")
    print(f"all screens: median {statistics.median(warm_all):.2f} ms (CPU {statistics.median(cpu_all):.2f} ms), "
          f"cold median {statistics.median(cold_all):.2f} ms, worst {max(warm_all + cold_all):.2f} ms; "
          "budget 16 ms")
    return 0


def _p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95) - 1]


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
