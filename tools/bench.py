"""``make bench``: every benchmark of the project, pinned to one core, printed as tables.

Each part lives beside what it measures (tools/bench_*.py) and is skipped with a note when it is not there yet.
"""

from __future__ import annotations

import importlib
import os
import sys

os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")  # before numpy: one core means one BLAS thread too

PARTS = ("tools.bench_rules", "tools.bench_vision", "tools.bench_tracker", "tools.bench_board",
         "tools.bench_display", "tools.bench_e2e")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})  # one core, as the targets say
    try:
        import cv2
        cv2.setNumThreads(1)
    except ImportError:
        pass
    wanted = [p for p in PARTS if not argv or any(a in p for a in argv)]
    for name in wanted:
        try:
            module = importlib.import_module(name)
        except ImportError as exc:
            print(f"{name}: not available ({exc})")
            continue
        module.main()
        print()
    return 0


if __name__ == "__main__":
    sys.exit(main())
