"""The printable play mat: zones to lay cards in and ArUco markers the camera calibrates from.

A mat is as big as its layout needs (a 2-seat mat is 420 x 279 mm, a 3- or 4-seat mat 558 x 410 mm) and is printed
on as many sheets of the chosen paper as that takes, to be taped together edge to edge. Every sheet carries markers
near its corners (except where a zone is), each with its own id, so the camera finds the mat from any sheets it sees
and a sheet taped a few millimetres off only costs a little accuracy. The marker ids also tell which mat is on the
table (seats and paper), so calibration needs no setting.

>>> mat = make_mat(2, "a4")
>>> len(mat.sheets), len(mat.markers) >= 4, mat.zones.names[:2]
(2, True, ('seat1', 'seat2'))
>>> mat_for_marker_ids(mat.markers) == mat
True

Write it with :meth:`Mat.save` (``.pdf``, ``.svg`` or ``.png`` by extension): a PDF has one page per sheet at true
scale; SVG and PNG give one file per sheet (``mat-1.png``, ``mat-2.png``...) when there is more than one.
"""

from __future__ import annotations

import math
import struct
import zlib
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from ..errors import ConfigError
from . import aruco
from .zones import CARD_MM, ZoneMap

__all__ = ["ARUCO_DICT", "PAPERS", "Mat", "Sheet", "make_mat", "mat_for_marker_ids", "marker_dictionary"]

#: Paper sizes (width, height) in mm, portrait.
PAPERS = {"a4": (210.0, 297.0), "a3": (297.0, 420.0), "letter": (215.9, 279.4)}
SEATS = (2, 3, 4)
ARUCO_DICT = aruco.DICT
MARKER_MM = 24.0  #: marker side, black border included
MARGIN_MM = 8.0  #: from the sheet edge to the marker (printers cannot print to the edge)
CLEARANCE_MM = 3.0  #: between a marker and a zone
IDS_PER_MAT = 16  #: marker ids reserved per (seats, paper) mat: up to 4 sheets x 4 corners


def marker_dictionary():
    """The mat's ArUco dictionary (``cv2.aruco.Dictionary``)."""
    return aruco.dictionary()


@dataclass(frozen=True)
class Sheet:
    """One printed sheet: its number (from 1), where its top-left lies in mat mm, and its size (width, height)."""

    number: int
    origin: tuple[float, float]
    size: tuple[float, float]

    @property
    def rect(self) -> tuple[float, float, float, float]:
        return (*self.origin, *self.size)


@dataclass(frozen=True)
class Mat:
    """A play mat: the zone layout, the sheets it is printed on and its markers (id -> TL, TR, BR, BL in mm)."""

    seats: int
    paper: str
    zones: ZoneMap
    sheets: tuple[Sheet, ...]
    markers: dict[int, tuple[tuple[float, float], ...]]

    def __eq__(self, other) -> bool:
        return isinstance(other, Mat) and (self.seats, self.paper) == (other.seats, other.paper)

    def __hash__(self) -> int:
        return hash((self.seats, self.paper))

    def __repr__(self) -> str:
        return f"make_mat({self.seats}, {self.paper!r})"

    @property
    def extent(self) -> tuple[float, float, float, float]:
        """(x0, y0, x1, y1) in mm of all the sheets together."""
        xs = [s.origin[0] for s in self.sheets] + [s.origin[0] + s.size[0] for s in self.sheets]
        ys = [s.origin[1] for s in self.sheets] + [s.origin[1] + s.size[1] for s in self.sheets]
        return (min(xs), min(ys), max(xs), max(ys))

    def render(self, px_per_mm: float = 8.0, *, rect: tuple[float, float, float, float] | None = None) -> np.ndarray:
        """The mat (or the ``rect`` x, y, w, h of it, in mm) as a grayscale image, white paper and black ink."""
        return _render(self, px_per_mm, rect or _rect_of(self.extent))

    def save(self, path: str | Path, *, dpi: float = 200.0) -> list[Path]:
        """Write the mat as PDF, SVG or PNG by the extension of ``path``; return the files written."""
        path = Path(path)
        ext = path.suffix.lower()
        if ext not in (".pdf", ".svg", ".png"):
            raise ConfigError(f"cannot write a mat as {str(path)!r}: expected a .pdf, .svg or .png file name")
        if ext == ".pdf":
            pages = [self.render(dpi / 25.4, rect=s.rect) for s in self.sheets]
            path.write_bytes(pdf_of_images(pages, [s.size for s in self.sheets]))
            return [path]
        names = [path] if len(self.sheets) == 1 else [path.with_name(f"{path.stem}-{s.number}{path.suffix}")
                                                       for s in self.sheets]
        for sheet, name in zip(self.sheets, names):
            if ext == ".png":
                name.write_bytes(png_with_dpi(self.render(dpi / 25.4, rect=sheet.rect), dpi))
            else:
                name.write_text(_svg(self, sheet))
        return names


def make_mat(seats: int = 2, paper: str = "a4") -> Mat:
    """The play mat for ``seats`` players (2, 3 or 4) printed on ``paper`` (``"a4"``, ``"a3"`` or ``"letter"``)."""
    return _make_mat(int(seats), str(paper).lower())


@cache
def _make_mat(seats: int, paper: str) -> Mat:
    if seats not in SEATS:
        raise ConfigError(f"no mat for {seats!r} seats: expected 2, 3 or 4")
    if paper not in PAPERS:
        raise ConfigError(f"unknown paper {paper!r}: expected one of {', '.join(PAPERS)}")
    zones = ZoneMap.for_seats(seats)
    lw, lh = zones.size_mm
    pw, ph = PAPERS[paper]
    grids = []
    for sw, sh in ((pw, ph), (ph, pw)):  # portrait or landscape sheets, whichever needs fewer
        cols, rows = math.ceil(lw / sw - 1e-9), math.ceil(lh / sh - 1e-9)
        grids.append((cols * rows, cols, rows, sw, sh))
    _, cols, rows, sw, sh = min(grids)
    ox, oy = (cols * sw - lw) / 2, (rows * sh - lh) / 2
    sheets = tuple(Sheet(r * cols + c + 1, (c * sw - ox, r * sh - oy), (sw, sh)) for r in range(rows)
                   for c in range(cols))
    base = (SEATS.index(seats) * len(PAPERS) + list(PAPERS).index(paper)) * IDS_PER_MAT
    markers: dict[int, tuple[tuple[float, float], ...]] = {}
    for sheet in sheets:
        x0, y0 = sheet.origin
        near, far_x, far_y = MARGIN_MM, sw - MARGIN_MM - MARKER_MM, sh - MARGIN_MM - MARKER_MM
        for corner, (mx, my) in enumerate(((near, near), (far_x, near), (far_x, far_y), (near, far_y))):
            x, y = x0 + mx, y0 + my
            if any(_overlap((x, y, MARKER_MM, MARKER_MM), z.rect, CLEARANCE_MM) for z in zones.zones):
                continue
            s = MARKER_MM
            markers[base + (sheet.number - 1) * 4 + corner] = ((x, y), (x + s, y), (x + s, y + s), (x, y + s))
    return Mat(seats, paper, zones, sheets, markers)


def mat_for_marker_ids(ids) -> Mat | None:
    """The mat whose markers these are (the most common one among ``ids``), or ``None`` for unknown ids."""
    votes: dict[tuple[int, str], int] = {}
    for marker_id in ids:
        combo = int(marker_id) // IDS_PER_MAT
        if combo < len(SEATS) * len(PAPERS):
            key = (SEATS[combo // len(PAPERS)], list(PAPERS)[combo % len(PAPERS)])
            votes[key] = votes.get(key, 0) + 1
    if not votes:
        return None
    seats, paper = max(votes, key=votes.__getitem__)
    mat = make_mat(seats, paper)
    return mat if any(int(i) in mat.markers for i in ids) else None


def _overlap(a, b, gap: float) -> bool:
    ax, ay, aw, ah = a
    bx, by, bw, bh = b
    return ax < bx + bw + gap and bx < ax + aw + gap and ay < by + bh + gap and by < ay + ah + gap


def _rect_of(extent):
    x0, y0, x1, y1 = extent
    return (x0, y0, x1 - x0, y1 - y0)


# -- drawing --------------------------------------------------------------------------------------------------------
INK, GREY, PAPER = 0, 150, 255
FONT = cv2.FONT_HERSHEY_SIMPLEX


def _texts(mat: Mat) -> list[tuple[str, float, float, float]]:
    """Labels as (text, x, y, height) in mm: zone names, the title, the scale check and sheet notes."""
    out = []
    for z in mat.zones.zones:
        x, y, w, h = z.rect
        out.append((z.label or z.name.upper(), x + 3, y + 7, 4.5))
    x, y = _title_spot(mat)
    out += [("CRIBBAGE COMPANION", x, y, 3.2),
            (f"{mat.seats} SEATS, {mat.paper.upper()} x{len(mat.sheets)}", x, y + 6, 3.2),
            ("50 MM (CHECK THE PRINT)", x, y + 20, 2.4)]
    for s in mat.sheets:
        note = f"SHEET {s.number}/{len(mat.sheets)} - PRINT AT 100% - TAPE EDGE TO EDGE" if len(mat.sheets) > 1 \
            else "PRINT AT 100%, NO FIT TO PAGE"
        (x0, y0), (w, h) = s.origin, s.size
        for x, y in ((x0 + 36, y0 + h - 4), (x0 + w - 120, y0 + h - 4), (x0 + 36, y0 + 12), (x0 + w - 120, y0 + 12)):
            if not any(_overlap((x, y - 3, 84, 3), z.rect, 1) for z in mat.zones.zones):
                out.append((note, x, y, 2.6))
                break
    return out


def _title_spot(mat: Mat) -> tuple[float, float]:
    """Where the title and the scale bar go: top left, clear of the zones and the markers, where no card is laid
    (printed text inside a zone could be read as a card)."""
    return (8.0, 45.0) if mat.seats == 2 else (40.0, 50.0)


def _render(mat: Mat, ppm: float, rect) -> np.ndarray:
    rx, ry, rw, rh = rect
    img = np.full((int(round(rh * ppm)), int(round(rw * ppm))), PAPER, np.uint8)
    shift = 4  # fixed-point drawing for sub-pixel accuracy

    def pt(x, y):
        return (int(round((x - rx) * ppm * 16)), int(round((y - ry) * ppm * 16)))

    line = max(1, int(round(0.6 * ppm)))
    for z in mat.zones.zones:
        x, y, w, h = z.rect
        cv2.rectangle(img, pt(x, y), pt(x + w, y + h), INK, line, cv2.LINE_AA, shift)
        # a ghost card outline where the first card goes
        cw, ch = CARD_MM[::-1] if z.facing % 180 == 90 else CARD_MM
        if h >= ch and w >= cw:
            cx, cy = (x + w / 2 - cw / 2, y + (h - ch) / 2) if w < 150 and h < 150 else \
                ((x + 4, y + (h - ch) / 2) if w > h else (x + (w - cw) / 2, y + 4))
            cv2.rectangle(img, pt(cx, cy), pt(cx + cw, cy + ch), 215, max(1, line // 2), cv2.LINE_AA, shift)
    for text, x, y, height in _texts(mat):
        scale = height * ppm / 22.0
        cv2.putText(img, text, (int(round((x - rx) * ppm)), int(round((y - ry) * ppm))), FONT, scale, INK,
                    max(1, int(round(scale * 1.6))), cv2.LINE_AA)
    # a 50 mm scale bar to check the print
    bx, by = _title_spot(mat)
    cv2.rectangle(img, pt(bx, by + 11), pt(bx + 50, by + 12.5), INK, -1, cv2.LINE_AA, shift)
    dictionary = marker_dictionary()
    for marker_id, corners in mat.markers.items():
        (x0, y0), (x1, y1) = corners[0], corners[2]
        a, b = pt(x0, y0), pt(x1, y1)
        px0, py0 = a[0] // 16, a[1] // 16
        size = (b[0] - a[0]) // 16
        if size <= 0:
            continue
        marker = aruco.marker_image(dictionary, marker_id, 6)
        marker = cv2.resize(marker, (size, size), interpolation=cv2.INTER_NEAREST)
        _blit(img, marker, px0, py0)
        cv2.putText(img, str(marker_id), (px0, py0 + size + int(3.5 * ppm)), FONT, 2.2 * ppm / 22, GREY,
                    1, cv2.LINE_AA)
    for s in mat.sheets:  # cut / tape guides on inner edges
        x, y = s.origin
        w, h = s.size
        cv2.rectangle(img, pt(x, y), pt(x + w, y + h), 200, 1, cv2.LINE_8, shift)
    return img


def _blit(img: np.ndarray, patch: np.ndarray, x: int, y: int) -> None:
    h, w = patch.shape[:2]
    ix0, iy0, ix1, iy1 = max(x, 0), max(y, 0), min(x + w, img.shape[1]), min(y + h, img.shape[0])
    if ix1 > ix0 and iy1 > iy0:
        img[iy0:iy1, ix0:ix1] = patch[iy0 - y:iy1 - y, ix0 - x:ix1 - x]


def _svg(mat: Mat, sheet: Sheet) -> str:
    x0, y0 = sheet.origin
    w, h = sheet.size
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{w:g}mm" height="{h:g}mm" '
           f'viewBox="{x0:g} {y0:g} {w:g} {h:g}">',
           f'<rect x="{x0:g}" y="{y0:g}" width="{w:g}" height="{h:g}" fill="white"/>']
    for z in mat.zones.zones:
        zx, zy, zw, zh = z.rect
        out.append(f'<rect x="{zx:g}" y="{zy:g}" width="{zw:g}" height="{zh:g}" fill="none" stroke="black" '
                   'stroke-width="0.6"/>')
    for text, tx, ty, th in _texts(mat):
        out.append(f'<text x="{tx:g}" y="{ty:g}" font-family="Helvetica, Arial, sans-serif" font-size="{th * 1.35:g}"'
                   f'>{text}</text>')
    dictionary = marker_dictionary()
    for marker_id, corners in mat.markers.items():
        (mx, my), (mx1, _) = corners[0], corners[1]
        cell = (mx1 - mx) / 6
        bits = aruco.marker_image(dictionary, marker_id, 6)
        path = "".join(f"M{mx + c * cell:g} {my + r * cell:g}h{cell:g}v{cell:g}h{-cell:g}z"
                       for r in range(6) for c in range(6) if bits[r, c] < 128)
        out.append(f'<path d="{path}" fill="black"/>')
        out.append(f'<text x="{mx:g}" y="{my + 6 * cell + 3:g}" font-size="2.5" fill="grey">{marker_id}</text>')
    out.append("</svg>\n")
    return "\n".join(out)


# -- file formats with nothing but zlib ----------------------------------------------------------------------------
def png_with_dpi(gray: np.ndarray, dpi: float) -> bytes:
    """PNG bytes of ``gray`` with a pHYs chunk, so that viewers and printers know its true size."""
    ok, buf = cv2.imencode(".png", gray)
    if not ok:  # pragma: no cover
        raise RuntimeError("OpenCV could not encode a PNG")
    data = buf.tobytes()
    ppm = int(round(dpi / 0.0254))
    body = b"pHYs" + struct.pack(">IIB", ppm, ppm, 1)
    chunk = struct.pack(">I", 9) + body + struct.pack(">I", zlib.crc32(body) & 0xFFFFFFFF)
    at = 8 + 25  # signature, then the IHDR chunk (4 + 4 + 13 + 4)
    return data[:at] + chunk + data[at:]


def pdf_of_images(pages: list[np.ndarray], sizes_mm: list[tuple[float, float]]) -> bytes:
    """A minimal PDF, one page per grayscale image, each page exactly ``sizes_mm`` big (true scale when printed at
    100%)."""
    objects: list[bytes] = []

    def add(body: bytes) -> int:
        objects.append(body)
        return len(objects)

    catalog = add(b"")  # filled in below
    pages_obj = add(b"")
    kids = []
    for img, (w_mm, h_mm) in zip(pages, sizes_mm):
        w_pt, h_pt = w_mm * 72 / 25.4, h_mm * 72 / 25.4
        data = zlib.compress(np.ascontiguousarray(img).tobytes(), 6)
        image = add(b"<< /Type /XObject /Subtype /Image /Width %d /Height %d /ColorSpace /DeviceGray "
                    b"/BitsPerComponent 8 /Filter /FlateDecode /Length %d >>\nstream\n" % (img.shape[1], img.shape[0],
                                                                                        len(data))
                    + data + b"\nendstream")
        content = b"q %.3f 0 0 %.3f 0 0 cm /Im0 Do Q" % (w_pt, h_pt)
        stream = add(b"<< /Length %d >>\nstream\n" % len(content) + content + b"\nendstream")
        kids.append(add(b"<< /Type /Page /Parent %d 0 R /MediaBox [0 0 %.3f %.3f] /Resources << /XObject "
                        b"<< /Im0 %d 0 R >> >> /Contents %d 0 R >>" % (pages_obj, w_pt, h_pt, image, stream)))
    objects[catalog - 1] = b"<< /Type /Catalog /Pages %d 0 R >>" % pages_obj
    objects[pages_obj - 1] = b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
        b" ".join(b"%d 0 R" % k for k in kids), len(kids))
    out = bytearray(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n")
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % off for off in offsets)
    out += b"trailer\n<< /Size %d /Root %d 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, catalog, xref)
    return bytes(out)
