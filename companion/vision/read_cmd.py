"""``companion read IMAGE... [--json] [--annotate OUT.png] [--detector | --no-detector]``: read the cards in photos
from the command line.

The lead's ``companion/cli.py`` wires it in with ``read_cmd.add_parser(subparsers)`` and calls ``run(args)``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import cv2
import numpy as np

from .detection import BACK, UNKNOWN, Detection
from .reader import recognize


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("read", help="Read the cards in photos and name each one.",
                              description=__doc__.splitlines()[0])
    p.add_argument("images", nargs="+", metavar="IMAGE", help="The photos to read, as PNG, JPEG or any image OpenCV "
                                                             "reads.")
    p.add_argument("--json", action="store_true", help="Print one JSON object per image.")
    p.add_argument("--annotate", metavar="OUT.png", type=Path,
                   help="Write each image with its cards outlined and named (with several images: OUT-1.png, "
                        "OUT-2.png and so on).")
    p.add_argument("--detector", action=argparse.BooleanOptionalAction, default=None,
                   help="Also find index corners with the learned detector, or not (default: on, as "
                        "reader.USE_DETECTOR says).")
    p.set_defaults(func=run)
    return p


def annotate(frame: np.ndarray, detections: list[Detection]) -> np.ndarray:
    """A copy of ``frame`` with each card outlined (green: named, orange: back, red: unknown) and labelled."""
    out = frame.copy()
    thick = max(2, round(max(out.shape[:2]) / 500))
    for d in detections:
        color = (0, 200, 0) if d.card not in (BACK, UNKNOWN) else (0, 140, 255) if d.card == BACK else (0, 0, 255)
        pts = np.round(np.array(d.corners)).astype(np.int32)
        cv2.polylines(out, [pts], True, color, thick, cv2.LINE_AA)
        x, y = (int(v) for v in d.center)
        text = f"{d.card} {d.confidence:.2f}"
        scale = thick * 0.45
        (tw, th), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        cv2.rectangle(out, (x - tw // 2 - 3, y - th - 5), (x + tw // 2 + 3, y + 5), (255, 255, 255), -1)
        cv2.putText(out, text, (x - tw // 2, y), cv2.FONT_HERSHEY_SIMPLEX, scale, color, thick, cv2.LINE_AA)
    return out


def _annotate_path(base: Path, index: int, count: int) -> Path:
    return base if count == 1 else base.with_name(f"{base.stem}-{index + 1}{base.suffix or '.png'}")


EXIT_BAD_INPUT = 2


def _why_unreadable(name: str) -> str:
    path = Path(name)
    if not path.exists():
        return "no such file"
    if path.is_dir():
        return "a folder, not an image"
    return "not an image OpenCV can read (PNG, JPEG, BMP, TIFF, WebP ...)"


def run(args) -> int:
    """Read each image; a missing or unreadable one is one line on stderr and makes the exit code 2."""
    if args.annotate and not args.annotate.parent.is_dir():
        print(f"companion read: --annotate {args.annotate}: the folder {args.annotate.parent} does not exist",
              file=sys.stderr)
        return EXIT_BAD_INPUT
    status = 0
    for i, name in enumerate(args.images):
        frame = cv2.imread(str(name), cv2.IMREAD_COLOR) if Path(name).is_file() else None
        if frame is None:
            print(f"companion read: {name}: {_why_unreadable(name)}", file=sys.stderr)
            status = EXIT_BAD_INPUT
            continue
        t = time.perf_counter()
        found = recognize(frame, detector=getattr(args, "detector", None))
        ms = (time.perf_counter() - t) * 1000
        if args.json:
            print(json.dumps({"image": str(name), "cards": [d.to_json() for d in found], "ms": round(ms, 1)}))
        else:
            cards = " ".join(d.card for d in found) or "(no cards)"
            print(f"{name}: {cards}  [{ms:.0f} ms]")
        if args.annotate:
            out = _annotate_path(args.annotate, i, len(args.images))
            if not cv2.imwrite(str(out), annotate(frame, found)):
                print(f"companion read: cannot write {out}", file=sys.stderr)
                status = 1
    return status


def main(argv: list[str] | None = None) -> int:
    """Run the command on its own: ``python -m companion.vision.read_cmd IMAGE...``."""
    parser = argparse.ArgumentParser(prog="companion")
    sub = parser.add_subparsers(dest="command", required=True)
    add_parser(sub)
    args = parser.parse_args(["read", *(sys.argv[1:] if argv is None else argv)])
    return run(args)


if __name__ == "__main__":
    raise SystemExit(main())
