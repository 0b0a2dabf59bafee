"""Drilling templates: an SVG at true scale (1 unit = 1 mm) of every hole of a board layout.

    python -m tools.drill_template                      # every preset -> hardware/drilling/<name>.svg
    python -m tools.drill_template my-board.toml --out /tmp

Each hole is a circle of the layout's drill size with a centre cross for the punch, numbered every five holes in
its side's colour, with its LED index in grey beneath. The board outline is the cut line; ticks every 10 mm along
it (numbered every 50 mm) line up the sheets when a long board is printed in tiles. A 100 mm bar checks the print
scale: print at 100 % ("actual size"), never "fit to page".
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path
from xml.sax.saxutils import escape

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "hardware" / "drilling"
FOOTER_MM = 22.0


def _hex(colour: tuple[int, int, int]) -> str:
    r, g, b = colour
    return f"#{r:02x}{g:02x}{b:02x}"


def svg_for(layout) -> str:  # layout: companion.board.layout.Layout
    """The SVG text of ``layout``'s drilling template."""
    if not layout.has_positions:
        raise ValueError(f"layout {layout.name!r} has no hole positions: add [[run]] tables to place its LEDs")
    width, height = layout.size_mm()
    total_h = height + FOOTER_MM
    r = layout.hole_mm / 2
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.2f}mm" height="{total_h:.2f}mm" '
        f'viewBox="0 0 {width:.2f} {total_h:.2f}" font-family="Helvetica, Arial, sans-serif">',
        f'<title>Drilling template: {escape(layout.title)}</title>',
        f'<rect x="0" y="0" width="{width:.2f}" height="{height:.2f}" fill="none" stroke="#000" '
        f'stroke-width="0.3"/>',
    ]
    for x in range(0, int(width) + 1, 10):
        tick = 3 if x % 50 == 0 else 1.5
        out.append(f'<line x1="{x}" y1="0" x2="{x}" y2="{tick}" stroke="#000" stroke-width="0.15"/>')
        out.append(f'<line x1="{x}" y1="{height:.2f}" x2="{x}" y2="{height - tick:.2f}" stroke="#000" '
                   f'stroke-width="0.15"/>')
        if x % 50 == 0 and 0 < x < width - 5:
            out.append(f'<text x="{x + 0.6}" y="4.2" font-size="2" fill="#666">{x}</text>')
    for hole, led in layout.holes():
        x, y = layout.positions[led]
        colour = "#000" if hole.side is None else _hex(layout.sides[hole.side].colour)
        out.append(f'<circle cx="{x:.3f}" cy="{y:.3f}" r="{r:.3f}" fill="none" stroke="#000" stroke-width="0.2"/>')
        out.append(f'<path d="M{x - r * 0.6:.3f} {y:.3f}H{x + r * 0.6:.3f}M{x:.3f} {y - r * 0.6:.3f}'
                   f'V{y + r * 0.6:.3f}" stroke="{colour}" stroke-width="0.15"/>')
        label = None
        if hole.kind == "track" and (hole.number % 5 == 0 or hole.number == 1):
            label = str(hole.number)
        elif hole.kind == "start":
            label = f"S{hole.number}"
        elif hole.kind == "lap":
            label = f"L{hole.number}"
        elif hole.kind == "game":
            label = "GAME"
        if label:
            out.append(f'<text x="{x:.3f}" y="{y - r - 0.8:.3f}" font-size="2.2" text-anchor="middle" '
                       f'fill="{colour}">{label}</text>')
        out.append(f'<text x="{x:.3f}" y="{y + r + 1.9:.3f}" font-size="1.3" text-anchor="middle" '
                   f'fill="#999">{led}</text>')
    y0 = height + 6
    out += [
        f'<text x="2" y="{y0:.2f}" font-size="3.5">{escape(layout.title)} — {layout.name} — '
        f'{sum(1 for _ in layout.holes())} holes, drill {layout.hole_mm:g} mm, {layout.leds} LEDs</text>',
        f'<text x="2" y="{y0 + 5:.2f}" font-size="2.5" fill="#444">Print at 100 % (actual size). Small numbers: '
        f'LED index in the chain. S = start hole, L = lap indicator. Sides: '
        + ", ".join(escape(s.name) for s in layout.sides) + '.</text>',
        f'<line x1="2" y1="{y0 + 10:.2f}" x2="102" y2="{y0 + 10:.2f}" stroke="#000" stroke-width="0.5"/>',
        f'<line x1="2" y1="{y0 + 8.5:.2f}" x2="2" y2="{y0 + 11.5:.2f}" stroke="#000" stroke-width="0.3"/>',
        f'<line x1="102" y1="{y0 + 8.5:.2f}" x2="102" y2="{y0 + 11.5:.2f}" stroke="#000" stroke-width="0.3"/>',
        f'<text x="105" y="{y0 + 11:.2f}" font-size="2.5">this bar must measure 100 mm</text>',
        '</svg>',
    ]
    return "\n".join(out) + "\n"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("layouts", nargs="*", help="preset names or .toml files (default: every preset)")
    parser.add_argument("--out", type=Path, default=OUT, help="folder for the SVGs (default: hardware/drilling)")
    args = parser.parse_args(argv)

    from companion.board.layout import list_layouts, load_layout
    from companion.errors import LayoutError

    args.out.mkdir(parents=True, exist_ok=True)
    for name in args.layouts or list_layouts():
        try:
            layout = load_layout(name)
            svg = svg_for(layout)
        except (LayoutError, ValueError) as exc:
            print(f"drill_template: {exc}", file=sys.stderr)
            return 2
        path = args.out / f"{layout.name}.svg"
        path.write_text(svg, encoding="utf-8")
        w, h = layout.size_mm()
        print(f"{path}  ({w:.0f} x {h:.0f} mm)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
