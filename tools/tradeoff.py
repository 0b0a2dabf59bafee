"""The found/misread trade-off of a reader, from the named cards ``tools.eval_real --dump FILE`` wrote.

    python -m tools.tradeoff FILE [--at 0.8,0.85,0.9,0.93,0.95,0.97] [--by how|set]

For each confidence a read must reach (raised above what the reader asked already), per group (how the card was
found: whole card, corner, detector; or per set): cards named right and wrong, and wrong as a share of named.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict
from pathlib import Path


def load(path: Path) -> list[tuple[str, str, str, float, str, bool]]:
    rows = []
    for line in path.read_text().splitlines():
        name, photo, card, conf, how, right = line.split("\t")
        rows.append((name, photo, card, float(conf), how, right == "1"))
    return rows


def table(rows, at: list[float], by: str) -> list[str]:
    groups: dict[str, list] = defaultdict(list)
    for r in rows:
        groups[r[4] if by == "how" else r[0]].append(r)
        groups["all"].append(r)
    out = ["| group | " + " | ".join(f">= {t:.2f}" for t in at) + " |", "|---|" + "---|" * len(at)]
    for g, rs in sorted(groups.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        cells = []
        for t in at:
            right = sum(1 for r in rs if r[3] >= t and r[5])
            wrong = sum(1 for r in rs if r[3] >= t and not r[5])
            cells.append(f"{right} / {wrong}" + (f" ({100 * wrong / (right + wrong):.1f}%)" if right + wrong else ""))
        out.append(f"| {g} (right / wrong) | " + " | ".join(cells) + " |")
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("dump", type=Path)
    ap.add_argument("--at", default="0,0.85,0.9,0.93,0.95,0.97,0.98,0.99")
    ap.add_argument("--by", default="how", choices=("how", "set"))
    a = ap.parse_args(argv)
    if not a.dump.exists():
        print(f"tradeoff: no such file {a.dump}", file=sys.stderr)
        return 2
    try:
        at = [float(t) for t in a.at.split(",")]
        rows = load(a.dump)
    except ValueError as e:
        print(f"tradeoff: {e}", file=sys.stderr)
        return 2
    print("\n".join(table(rows, at, a.by)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
