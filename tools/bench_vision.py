"""Measure the card reader on the real photos in ../shared/data/real-photos and its speed on synthetic frames.

    python -m tools.bench_vision [--data ../shared/data] [--sample N]
    python -m tools.bench_vision --speed-only --compare build/detector-decks/corners.onnx   # two corner models

Prints one table: for single-card photos the share read correctly, wrongly and as unknown; for the table photos
the share of labelled cards found and the cards reported that are not labelled; the median and 95th percentile
milliseconds per 1280x720 frame with 8 cards on one core.
"""

from __future__ import annotations

import argparse
import statistics
import time
from pathlib import Path

import cv2
import numpy as np

from companion.vision import recognize, synth
from companion.vision.detection import BACK, UNKNOWN

DATA = Path(__file__).resolve().parents[1].parent / "shared" / "data"


def labels(folder: Path) -> list[tuple[Path, list[str]]]:
    rows = []
    for line in (folder / "LABELS.tsv").read_text().splitlines():
        if "\t" in line:
            name, codes = line.split("\t", 1)
            rows.append((folder / name, [c for c in codes.split(",") if c]))
    return rows


def single_card(folder: Path, sample: int = 0, verbose: bool = False, border: int = 0) -> dict:
    """Photos of one card each: correct / wrong / unknown (no card found counts as unknown). ``border`` lays a
    flattened face (which fills its photo) on a plain dark table that many pixels wide."""
    rows = labels(folder)
    if sample and sample < len(rows):
        rows = rows[:: max(1, len(rows) // sample)][:sample]
    right = wrong = unknown = 0
    for path, codes in rows:
        img = cv2.imread(str(path))
        if border and img is not None:
            img = cv2.copyMakeBorder(img, border, border, border, border, cv2.BORDER_CONSTANT, value=(60, 70, 80))
        dets = [d for d in recognize(img) if d.card != BACK]
        named = [d.card for d in dets if d.card != UNKNOWN]
        if named and all(c == codes[0] for c in named):
            right += 1
        elif any(c != codes[0] for c in named):
            wrong += 1
            if verbose:
                print(f"  wrong: {path.name} {codes[0]} read as {named}")
        else:
            unknown += 1
            if verbose:
                print(f"  unknown: {path.name} {codes[0]} ({len(dets)} shapes)")
    n = max(len(rows), 1)
    return {"n": len(rows), "correct": right / n, "wrong": wrong / n, "unknown": unknown / n}


def table(folder: Path, verbose: bool = False) -> dict:
    """Table photos: labelled cards found, and cards reported that are not labelled."""
    found = total = extra = 0
    for path, codes in labels(folder):
        read = {d.card for d in recognize(cv2.imread(str(path))) if d.card not in (BACK, UNKNOWN)}
        found += len(read & set(codes))
        total += len(codes)
        extra += len(read - set(codes))
        if verbose:
            print(f"  {path.name}: {len(read & set(codes))}/{len(codes)} found, extra {sorted(read - set(codes))}")
    return {"n": total, "found": found / max(total, 1), "extra": extra}


def _reference(frame: np.ndarray) -> None:
    """A fixed amount of ordinary OpenCV work on one frame (grey, blur, edges): the yardstick that the reader's
    time is divided by, so that a figure measured on a busy or a slower machine can still be compared."""
    cv2.Canny(cv2.GaussianBlur(cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY), (5, 5), 0), 50, 150)


def speed_scenes(seed: int = 5, layouts=("spread", "row")) -> dict:
    """The frames :func:`speed` reads: for each layout in turn, 10 scenes of 8 cards at 1280x720 drawn from one
    random stream, as {layout: [(frame, placed), ...]} (see synth.render_scene), so that a test can ask what the
    benchmark reads."""
    rng = np.random.default_rng(seed)
    return {lay: [synth.render_scene(list(rng.choice(synth.ALL_CARDS, 8, replace=False)), rng=rng, layout=lay)
                  for _ in range(10)] for lay in layouts}


def speed(rounds: int = 8, seed: int = 5, layouts=("spread", "row"), reads=None) -> dict:
    """Milliseconds per 1280x720 frame with 8 cards on one core, for each reader of ``reads`` (name -> function;
    default ``{"reader": recognize}``) and each layout (as in synth.render_scene): 10 scenes each, read ``rounds``
    times, the readers (in turn first), the layouts and the reference work interleaved frame by frame so that a
    noisy neighbour on a shared machine slows all of them alike. Returns {reader: {layout: figures}}."""
    cv2.setNumThreads(1)
    scenes = {lay: [frame for frame, _ in drawn] for lay, drawn in speed_scenes(seed, layouts).items()}
    reads = reads or {"reader": recognize}
    for read in reads.values():
        read(scenes[layouts[0]][0])  # load the model
    ms = {(name, lay): [] for name in reads for lay in layouts}
    cpu = {(name, lay): [] for name in reads for lay in layouts}
    ref = []
    order = list(reads)
    for r in range(rounds):
        for k in range(10):
            for name in order if r % 2 == 0 else order[::-1]:
                for lay in layouts:
                    t, c = time.perf_counter(), time.process_time()
                    reads[name](scenes[lay][k])
                    ms[name, lay].append((time.perf_counter() - t) * 1000)
                    cpu[name, lay].append((time.process_time() - c) * 1000)
            t = time.perf_counter()
            _reference(scenes[layouts[0]][k])
            ref.append((time.perf_counter() - t) * 1000)
    base = statistics.median(ref)
    out: dict = {name: {} for name in reads}
    for (name, lay), times in ms.items():
        w, c = sorted(times), sorted(cpu[name, lay])
        p95 = min(len(w) - 1, int(0.95 * len(w)))
        out[name][lay] = {"median": statistics.median(w), "p95": w[p95], "cpu_median": statistics.median(c),
                          "cpu_p95": c[p95], "reference": base, "ratio": statistics.median(w) / base}
    return out


def compare_speed(onnx: Path, rounds: int = 8) -> int:
    """Time the reader with the committed corner model and with ``onnx``, each frame read with both in turn (see
    :func:`speed`); prints each one's median and their ratio."""
    from companion.vision import detector

    committed = detector.MODEL

    def with_model(path):
        def read(frame):
            detector.MODEL = path
            try:
                return recognize(frame, detector=True)
            finally:
                detector.MODEL = committed
        return read

    results = speed(rounds, reads={"committed": with_model(committed), str(onnx): with_model(onnx)})
    print("| corner model | 8 cards apart, median ms | 8 overlapping in a row, median ms |")
    print("|---|---|---|")
    for name, r in results.items():
        print(f"| {name} | {r['spread']['median']:.1f} | {r['row']['median']:.1f} |")
    ratio = {lay: results[str(onnx)][lay]["median"] / results["committed"][lay]["median"] for lay in ("spread", "row")}
    print(f"(ratio {onnx} / committed: apart {ratio['spread']:.3f}, row {ratio['row']:.3f}; medians over {rounds}"
          f" rounds of 10 frames a layout)")
    return 0


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--sample", type=int, default=0, help="read only about N single-card photos per folder")
    ap.add_argument("--speed-only", action="store_true", help="only the speed table")
    ap.add_argument("--detector", action=argparse.BooleanOptionalAction, default=None,
                    help="time the reader with / without the learned corner finder (default: reader.USE_DETECTOR)")
    ap.add_argument("--compare", type=Path, default=None, metavar="ONNX",
                    help="also time the reader with this corner model, frame by frame beside the committed one")
    ap.add_argument("-v", "--verbose", action="store_true")
    a = ap.parse_args([] if argv is None else argv)  # called as a function (make bench): the defaults
    photos = a.data / "real-photos"
    if a.compare:
        return compare_speed(a.compare)
    print("| set | images/cards | correct / found | wrong / extra | unknown |")
    print("|---|---|---|---|---|")
    if a.speed_only:
        pass
    elif photos.is_dir():
        for name, border in (("webcam-single", 0), ("card-faces", 160)):
            if (photos / name / "LABELS.tsv").exists():
                r = single_card(photos / name, a.sample, a.verbose, border)
                print(f"| {name} | {r['n']} | {r['correct']:.1%} | {r['wrong']:.1%} | {r['unknown']:.1%} |")
        if (photos / "table-overlap" / "LABELS.tsv").exists():
            r = table(photos / "table-overlap", a.verbose)
            print(f"| table-overlap | {r['n']} | {r['found']:.1%} | {r['extra']} cards | - |")
    else:
        print(f"| (no real photos: {photos} is absent) | | | | |")
    print("\n| speed, 1280x720 frame, 8 cards, one core | median ms | p95 ms | CPU median ms | CPU p95 ms |"
          " x reference |")
    print("|---|---|---|---|---|---|")
    results = speed(reads={"reader": lambda frame: recognize(frame, detector=a.detector)})["reader"]
    for layout, what in (("spread", "8 cards apart"), ("row", "8 cards overlapping in a row")):
        s = results[layout]
        print(f"| {what} | {s['median']:.1f} | {s['p95']:.1f} | {s['cpu_median']:.1f} | {s['cpu_p95']:.1f} |"
              f" {s['ratio']:.1f} |")
    print(f"(x reference: the median divided by that of a fixed OpenCV pass on the same frames, measured in the same"
          f" run: grey, 5x5 blur, Canny = {results['row']['reference']:.2f} ms here)")
    print("(wall time grows when the machine is busy; CPU time is this process's own)")
    return 0


if __name__ == "__main__":
    import sys

    raise SystemExit(main(sys.argv[1:]))
