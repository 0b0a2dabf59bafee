"""Benchmark of the whole companion: from the first frame in which a card appears to the LEDs and the screen showing
its score, on a 10 fps replay of the demo table (1920x1080 as the companion advises, or ``--size``), one core.

For every table change that led to a decision: latency = (video time of the frame that completed the tracker's
stability window - video time of the first frame showing the card) + the wall time to process that frame (read,
track, referee, store, LED frame) and draw the screen. Frames are fed as the camera would deliver them, one by one;
the per-frame figures show whether the loop keeps up with 10 frames a second.

    python -m tools.bench_e2e [--seconds 60] [--reader camera|scripted] [--size 1280x720]
"""

from __future__ import annotations

import argparse
import os
import statistics
import tempfile
import time

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")


def _pct(values, q):
    values = sorted(values)
    return values[min(len(values) - 1, int(round(q * (len(values) - 1))))]


def measure(seconds: float, reader: str, size: tuple[int, int] | None = None) -> dict:
    from companion.app import Companion
    from companion.config import load_config
    from companion.demo import DemoGame, demo_table

    demo = DemoGame.build()
    sim = demo_table(demo, size=size)
    source = sim.source()
    with tempfile.TemporaryDirectory() as tmp:
        app = Companion.create(load_config(text='[board]\nanimate = true\n'), demo=demo, db_path=f"{tmp}/b.db",
                               source=source, new_game=True, headless=False,
                               recognize=sim.recognizer() if reader == "scripted" else None)
        latencies, frame_ms = [], []
        while (frame := source.read()) is not None and source.time <= seconds:
            t0 = time.perf_counter()
            decisions = app.process_frame(frame, source.time)
            app.board.tick(app.clock())
            app.render()
            elapsed = time.perf_counter() - t0
            frame_ms.append(elapsed * 1000)
            if decisions:
                for timing in app.timings[-len(decisions):]:
                    latencies.append((source.time - timing.first_seen) + elapsed)
            app.timings.clear()
        app.close()
    return {"latency": latencies, "frame_ms": frame_ms, "frames": len(frame_ms)}


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=45.0, help="how much of the demo video to play")
    parser.add_argument("--reader", choices=("camera", "scripted", "both"), default="both")
    parser.add_argument("--size", default=None, help="frame size WIDTHxHEIGHT (default: the demo's, 1920x1080)")
    args = parser.parse_args(argv if argv is not None else [])
    try:
        import cv2
        cv2.setNumThreads(1)
    except ImportError:
        pass
    out = {}
    from companion.demo import demo_size

    size = tuple(int(v) for v in args.size.split("x")) if args.size else demo_size(2)
    print(f"End to end (demo table, {size[0]}x{size[1]} at 10 fps, first {args.seconds:g} s of video, one core)")
    readers = ("scripted", "camera") if args.reader == "both" else (args.reader,)
    for reader in readers:
        r = measure(args.seconds, reader, size)
        lat = [x * 1000 for x in r["latency"]]
        if not lat:
            print(f"  {reader:>8} reader: no scores seen")
            continue
        print(f"  {reader:>8} reader: card seen -> LEDs and screen: median {statistics.median(lat):4.0f} ms, "
              f"p95 {_pct(lat, 0.95):4.0f} ms over {len(lat)} scores (target: median < 500 ms)")
        print(f"  {'':>8}         per frame (read + track + referee + store + LEDs + screen): median "
              f"{statistics.median(r['frame_ms']):5.1f} ms, p95 {_pct(r['frame_ms'], 0.95):5.1f} ms "
              f"over {r['frames']} frames (a 10 fps camera allows 100 ms)")
        out[reader] = r
    return out


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
