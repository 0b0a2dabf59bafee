"""``companion mat --seats 2|3|4 --paper a4|a3|letter -o mat.pdf``: write the printable play mat (PDF, SVG or PNG by
the extension; one page or file per sheet to tape together).

The lead's ``companion/cli.py`` wires it in with ``add_parser(subparsers)`` and calls ``run(args)``.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from .mat import PAPERS, make_mat


def add_parser(subparsers) -> argparse.ArgumentParser:
    p = subparsers.add_parser("mat", help="Write the printable play mat as PDF, SVG or PNG.",
                              description=__doc__.splitlines()[0])
    p.add_argument("--seats", type=int, choices=(2, 3, 4), default=2,
                   help="The number of players at the table (default 2).")
    p.add_argument("--paper", choices=tuple(PAPERS), default="a4", help="The paper size to print on (default a4).")
    p.add_argument("-o", "--output", type=Path, default=Path("mat.pdf"),
                   help="The file to write; its extension picks the format: .pdf, .svg or .png (default mat.pdf).")
    p.add_argument("--dpi", type=float, default=200.0,
                   help="The resolution of PDF and PNG output in dots per inch (default 200).")
    p.add_argument("--zones", action="store_true", help="Also write the zone map beside the mat, as NAME-zones.json.")
    p.set_defaults(func=run)
    return p


def run(args) -> int:
    from ..errors import CompanionError  # refused by name before anything is drawn (the CLI prints one line)
    if not args.dpi > 0:
        raise CompanionError(f"--dpi {args.dpi:g}: give a resolution above 0, e.g. 200")
    if not args.output.parent.is_dir():
        raise CompanionError(f"-o {args.output}: the folder {args.output.parent} does not exist")
    mat = make_mat(args.seats, args.paper)
    written = mat.save(args.output, dpi=args.dpi)
    if args.zones:
        zones = args.output.with_name(args.output.stem + "-zones.json")
        zones.write_text(json.dumps({"seats": mat.seats, "paper": mat.paper, **mat.zones.to_json(),
                                     "markers": {str(i): c for i, c in mat.markers.items()}}, indent=1) + "\n")
        written.append(zones)
    w, h = mat.zones.size_mm
    sheets = len(mat.sheets)
    print(f"play mat for {mat.seats} seats, {w:g} x {h:g} mm, on {sheets} {mat.paper.upper()} sheet"
          f"{'s' if sheets > 1 else ''}: print at 100% (no 'fit to page')" +
          (", then tape the sheets edge to edge in number order, left to right and top to bottom" if sheets > 1
           else ""))
    for path in written:
        print(f"  {path}")
    return 0
