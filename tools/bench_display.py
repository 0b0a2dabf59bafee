"""How long one frame of each screen takes to draw, on one core (the budget is 16 ms at 800x480).

Run: ``SDL_VIDEODRIVER=dummy python -m tools.bench_display [--size 800x480] [--frames 200]``.
"warm" redraws a screen whose texts were drawn before (the usual case: a new card changes a few texts); "cold"
empties the text cache before every frame (the worst case: every text rendered anew).
"""

from __future__ import annotations

import argparse
import os
import statistics
import time


def _time_frames(draw, frames: int, before=None) -> list[float]:
    out = []
    for _ in range(frames):
        if before:
            before()
        t0 = time.perf_counter()
        draw()
        out.append((time.perf_counter() - t0) * 1000)
    return out


def main(argv: list[str] | None = None) -> int:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    import pygame

    from companion.display import draw as draw_module
    from companion.display.samples import sample_views
    from companion.display.screens import draw_screen

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--size", default="800x480")
    parser.add_argument("--frames", type=int, default=200)
    args = parser.parse_args(argv)
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core
    size = tuple(int(v) for v in args.size.split("x"))
    pygame.font.init()
    surface = pygame.Surface(size)
    views = sample_views()
    names = ["scoreboard", "play-run", "show-29", "show-muggins", "history", "game-over-skunk", "messages",
             "menu-new-game", "correction-choose", "camera"]
    warm_all: list[float] = []
    cold_all: list[float] = []
    print(f"frame draw time at {size[0]}x{size[1]}, one core, ms (median / 95th percentile)")
    for name in names:
        view = views[name]

        def draw(view=view):
            draw_screen(surface, view)

        draw()
        warm = _time_frames(draw, args.frames)
        cold = _time_frames(draw, max(20, args.frames // 5), before=draw_module.clear_caches)
        warm_all += warm
        cold_all += cold
        print(f"  {name:22} warm {statistics.median(warm):6.2f} / {_p95(warm):6.2f}"
              f"   cold {statistics.median(cold):6.2f} / {_p95(cold):6.2f}")
    print(f"all screens: warm median {statistics.median(warm_all):.2f} ms, cold median "
          f"{statistics.median(cold_all):.2f} ms, worst cold {max(cold_all):.2f} ms (budget 16 ms)")
    return 0


def _p95(values: list[float]) -> float:
    return sorted(values)[int(len(values) * 0.95) - 1]


if __name__ == "__main__":
    raise SystemExit(main())
