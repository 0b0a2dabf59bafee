"""Synthetic table scenes: card faces laid on a table, photographed by an imaginary camera.

Used by the tests, by the model training in ``tools/`` and by the table simulator. Needs only OpenCV and numpy.

Two decks come with the package: ``"photos"`` (52 photographed faces, MIT, ``companion/assets/card-faces``) and
``"drawn"`` (drawn here with OpenCV, any size). Training adds more designs rendered from SVG decks.

>>> import numpy as np
>>> rng = np.random.default_rng(1)
>>> frame, truth = render_scene(["5H", "JS"], rng=rng, deck="drawn")
>>> frame.shape, [t.card for t in truth]
((720, 1280, 3), ['5H', 'JS'])
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

import cv2
import numpy as np

from ..cards import RANKS, SUITS
ALL_CARDS = tuple(r + s for s in SUITS for r in RANKS)
ASSETS = Path(__file__).resolve().parents[1] / "assets"
CARD_ASPECT = 1.4  # height / width of a poker-size card (88 x 63 mm)


@dataclass(frozen=True)
class Placed:
    """Where a card was drawn in a synthetic frame: its code (or ``"back"``) and its four corners, clockwise
    from the face's top-left, in image coordinates."""

    card: str
    corners: tuple[tuple[float, float], ...]


# ---------------------------------------------------------------------------------------------------- decks
@lru_cache(maxsize=8)
def photo_face(code: str) -> np.ndarray:
    """The photographed face of ``code`` (BGR, 228x352) from the bundled MIT deck."""
    img = cv2.imread(str(ASSETS / "card-faces" / f"{code}.jpg"), cv2.IMREAD_COLOR)
    if img is None:
        raise FileNotFoundError(f"no bundled face for card {code!r}")
    return img


def _suit_poly(suit: str, cx: float, cy: float, size: float) -> list[np.ndarray]:
    """Polygons (int32) that draw one suit symbol of height ``size`` centred at (cx, cy)."""
    s = size / 2
    t = np.linspace(0, 2 * np.pi, 40, endpoint=False)
    polys = []
    if suit == "D":
        polys.append(np.array([[cx, cy - s], [cx + 0.72 * s, cy], [cx, cy + s], [cx - 0.72 * s, cy]]))
    elif suit in "HS":
        sign = 1 if suit == "H" else -1
        r = 0.48 * s
        for dx in (-0.45 * s, 0.45 * s):
            polys.append(np.stack([cx + dx + r * np.cos(t), cy - sign * 0.35 * s + r * np.sin(t)], 1))
        polys.append(np.array([[cx - 0.92 * s, cy - sign * 0.2 * s], [cx + 0.92 * s, cy - sign * 0.2 * s],
                               [cx, cy + sign * 0.95 * s]]))
        if suit == "S":
            polys.append(np.array([[cx, cy + 0.2 * s], [cx + 0.3 * s, cy + s], [cx - 0.3 * s, cy + s]]))
    else:  # clubs
        r = 0.36 * s
        for dx, dy in ((0, -0.5 * s), (-0.45 * s, 0.12 * s), (0.45 * s, 0.12 * s)):
            polys.append(np.stack([cx + dx + r * np.cos(t), cy + dy + r * np.sin(t)], 1))
        polys.append(np.array([[cx, cy - 0.1 * s], [cx + 0.3 * s, cy + s], [cx - 0.3 * s, cy + s]]))
    return [np.round(p).astype(np.int32) for p in polys]


def draw_suit(img: np.ndarray, suit: str, cx: float, cy: float, size: float, color) -> None:
    for p in _suit_poly(suit, cx, cy, size):
        cv2.fillPoly(img, [p], color, cv2.LINE_AA)


_PIPS = {  # pip centres on a unit face, for the drawn deck
    1: [(0.5, 0.5)], 2: [(0.5, 0.2), (0.5, 0.8)], 3: [(0.5, 0.2), (0.5, 0.5), (0.5, 0.8)],
    4: [(0.33, 0.2), (0.67, 0.2), (0.33, 0.8), (0.67, 0.8)],
}
_PIPS[5] = _PIPS[4] + [(0.5, 0.5)]
_PIPS[6] = _PIPS[4] + [(0.33, 0.5), (0.67, 0.5)]
_PIPS[7] = _PIPS[6] + [(0.5, 0.35)]
_PIPS[8] = _PIPS[7] + [(0.5, 0.65)]
_PIPS[9] = _PIPS[4] + [(0.33, 0.4), (0.67, 0.4), (0.33, 0.6), (0.67, 0.6), (0.5, 0.5)]
_PIPS[10] = _PIPS[4] + [(0.33, 0.4), (0.67, 0.4), (0.33, 0.6), (0.67, 0.6), (0.5, 0.3), (0.5, 0.7)]


def drawn_face(code: str, *, width: int = 250, font: int = cv2.FONT_HERSHEY_DUPLEX) -> np.ndarray:
    """A simple card face drawn with OpenCV (BGR), for tests and scenes on machines with no deck assets."""
    h = int(round(width * CARD_ASPECT))
    img = np.full((h, width, 3), 250, np.uint8)
    rank, suit = code[0], code[1]
    color = (30, 30, 200) if suit in "DH" else (25, 25, 25)
    text = "10" if rank == "T" else rank
    half = np.full((h // 2, width, 3), 250, np.uint8)
    scale = width / 250 * (0.95 if rank == "T" else 1.1)
    thick = max(1, int(round(width / 100)))
    (tw, th), _ = cv2.getTextSize(text, font, scale, thick)
    ix = int(width * 0.11)
    cv2.putText(half, text, (ix - tw // 2, int(width * 0.05) + th), font, scale, color, thick, cv2.LINE_AA)
    draw_suit(half, suit, ix, int(width * 0.05) + th + width * 0.11, width * 0.11, color)
    img[: h // 2] = half
    img[h - h // 2:] = np.minimum(img[h - h // 2:], half[::-1, ::-1])
    if rank in "JQK":
        x0, y0, x1, y1 = int(width * 0.25), int(h * 0.2), int(width * 0.75), int(h * 0.8)
        cv2.rectangle(img, (x0, y0), (x1, y1), (40, 160, 220), -1)
        cv2.rectangle(img, (x0, y0), (x1, y1), color, thick)
        cv2.putText(img, text, (int(width * 0.38), int(h * 0.55)), cv2.FONT_HERSHEY_TRIPLEX, scale * 2, color,
                    thick * 2, cv2.LINE_AA)
    else:
        n = 1 if rank == "A" else (10 if rank == "T" else int(rank))
        size = width * (0.35 if n == 1 else 0.16)
        for px, py in _PIPS[n]:
            draw_suit(img, suit, 0.2 * width + px * 0.6 * width, 0.12 * h + py * 0.76 * h, size, color)
    cv2.rectangle(img, (0, 0), (width - 1, h - 1), (200, 200, 200), 1)
    return img


def drawn_back(*, width: int = 250, color=(150, 60, 30)) -> np.ndarray:
    """A card back: a white margin round a cross-hatched coloured field."""
    h = int(round(width * CARD_ASPECT))
    img = np.full((h, width, 3), 245, np.uint8)
    m = width // 14
    cv2.rectangle(img, (m, m), (width - m, h - m), color, -1)
    light = tuple(min(255, c + 90) for c in color)
    for k in range(-h, width + h, max(4, width // 20)):
        cv2.line(img, (k, m), (k + h, m + h), light, max(1, width // 80))
        cv2.line(img, (k, m), (k - h, m + h), light, max(1, width // 80))
    img[:m] = 245
    img[h - m:] = 245
    img[:, :m] = 245
    img[:, width - m:] = 245
    return img


def face(code: str, deck: str = "photos") -> np.ndarray:
    """The face image of ``code`` in one of the bundled decks (``"photos"`` or ``"drawn"``); ``"back"`` gives a
    card back."""
    if code == "back":
        return drawn_back()
    if deck == "photos":
        return photo_face(code)
    if deck == "drawn":
        return drawn_face(code)
    raise ValueError(f"unknown deck {deck!r}: expected 'photos' or 'drawn'")


# ---------------------------------------------------------------------------------------------------- tables
def background(size: tuple[int, int] = (1280, 720), kind: str = "wood", rng=None) -> np.ndarray:
    """A table top of ``size`` (width, height): ``wood``, ``cloth``, ``cork``, ``laminate``, ``grey`` or ``dark``."""
    rng = np.random.default_rng(rng)
    w, h = size
    base = {"wood": (40, 90, 150), "cloth": (40, 110, 30), "cork": (70, 120, 170), "laminate": (225, 228, 230),
            "grey": (150, 160, 160), "dark": (35, 30, 30)}[kind]
    jitter = rng.integers(-20, 21, 3)
    img = np.empty((h, w, 3), np.float32)
    img[:] = np.clip(np.array(base) + jitter, 0, 255)
    if kind == "wood":
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        f = rng.uniform(0.02, 0.06)
        stripes = np.sin(y * f + 3 * np.sin(x * 0.004 + rng.uniform(0, 6)))
        img *= (1 + 0.12 * stripes)[..., None]
    noise_amp = {"cloth": 18, "cork": 30, "wood": 6, "laminate": 3, "grey": 6, "dark": 6}[kind]
    small = rng.normal(0, noise_amp, (h // 2 + 1, w // 2 + 1, 3)).astype(np.float32)
    img += cv2.resize(small, (w, h))[:h, :w]
    return np.clip(img, 0, 255).astype(np.uint8)


def _card_corners(cx, cy, height, angle_deg, aspect=CARD_ASPECT) -> np.ndarray:
    hw, hh = height / aspect / 2, height / 2
    pts = np.array([[-hw, -hh], [hw, -hh], [hw, hh], [-hw, hh]], np.float32)
    a = np.deg2rad(angle_deg)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
    return pts @ rot.T + np.array([cx, cy], np.float32)


def paste(frame: np.ndarray, face_img: np.ndarray, corners: np.ndarray, *, radius: float = 0.05) -> None:
    """Warp ``face_img`` (BGR, or BGRA with alpha) onto ``frame`` in place at ``corners`` (TL, TR, BR, BL)."""
    h, w = face_img.shape[:2]
    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    m = cv2.getPerspectiveTransform(src, corners.astype(np.float32))
    if face_img.shape[2] == 4:
        alpha = face_img[:, :, 3]
        rgb = face_img[:, :, :3]
    else:
        alpha = np.zeros((h, w), np.uint8)
        r = int(radius * w)
        cv2.rectangle(alpha, (r, 0), (w - 1 - r, h - 1), 255, -1)
        cv2.rectangle(alpha, (0, r), (w - 1, h - 1 - r), 255, -1)
        for x, y in ((r, r), (w - 1 - r, r), (r, h - 1 - r), (w - 1 - r, h - 1 - r)):
            cv2.circle(alpha, (x, y), r, 255, -1, cv2.LINE_AA)
        rgb = face_img
    fh, fw = frame.shape[:2]
    x0, y0 = np.floor(corners.min(0)).astype(int)
    x1, y1 = np.ceil(corners.max(0)).astype(int) + 1
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, fw), min(y1, fh)
    if x1 <= x0 or y1 <= y0:
        return
    shift = np.array([[1, 0, -x0], [0, 1, -y0], [0, 0, 1]], np.float64)
    m2 = shift @ m
    size = (x1 - x0, y1 - y0)
    warped = cv2.warpPerspective(rgb, m2, size, flags=cv2.INTER_AREA if w > 2 * size[0] else cv2.INTER_LINEAR)
    a = cv2.warpPerspective(alpha, m2, size).astype(np.float32)[..., None] / 255
    roi = frame[y0:y1, x0:x1].astype(np.float32)
    frame[y0:y1, x0:x1] = np.clip(roi * (1 - a) + warped.astype(np.float32) * a, 0, 255).astype(np.uint8)


def camera_effects(frame: np.ndarray, rng, *, blur: float = 1.0, noise: float = 4.0, light: float = 1.0,
                   warm: float = 0.0, glare: bool = False, jpeg: int = 0) -> np.ndarray:
    """Blur, sensor noise, exposure, warm light, a glare spot and JPEG artefacts."""
    out = frame.astype(np.float32)
    h, w = out.shape[:2]
    if glare:
        gx, gy, gr = rng.uniform(0, w), rng.uniform(0, h), rng.uniform(0.05, 0.2) * max(w, h)
        yy, xx = np.ogrid[:h, :w]
        out += (90 * np.exp(-((xx - gx) ** 2 + (yy - gy) ** 2) / (2 * gr * gr)))[..., None]
    # a soft illumination gradient
    gy, gx = rng.uniform(-0.25, 0.25, 2)
    yy = np.linspace(-1, 1, h, dtype=np.float32)[:, None]
    xx = np.linspace(-1, 1, w, dtype=np.float32)[None, :]
    out *= (light * (1 + gx * xx + gy * yy))[..., None]
    if warm:
        out *= np.array([1 - 0.25 * warm, 1 - 0.05 * warm, 1 + 0.05 * warm], np.float32)
    if blur > 0.3:
        out = cv2.GaussianBlur(out, (0, 0), blur)
    if noise > 0:
        out += rng.normal(0, noise, out.shape).astype(np.float32)
    out = np.clip(out, 0, 255).astype(np.uint8)
    if jpeg:
        ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, int(jpeg)])
        out = cv2.imdecode(buf, cv2.IMREAD_COLOR)
    return out


def render_scene(cards, *, rng=None, size: tuple[int, int] = (1280, 720), deck="photos", table: str | None = None,
                 card_height: float | None = None, layout: str = "spread", tilt: float = 0.0,
                 effects: bool = True, faces: dict | None = None,
                 fan_step: float | None = None) -> tuple[np.ndarray, list[Placed]]:
    """Lay ``cards`` (codes, or ``"back"``) on a table and return the frame (BGR) and where each card went.

    ``layout`` is ``"spread"`` (apart, any rotation), ``"row"`` (overlapping left to right, as laid in the play;
    later cards on top) or ``"fan"`` (a fanned hand). ``tilt`` (0..1) adds camera perspective. ``faces`` maps a
    code to a face image and overrides ``deck``.
    """
    rng = np.random.default_rng(rng)
    w, h = size
    table = table or rng.choice(["wood", "cloth", "cork", "laminate", "grey", "dark"])
    frame = background(size, table, rng)
    ch = card_height or rng.uniform(0.28, 0.4) * h
    n = len(cards)
    placed_corners = []
    if layout == "spread":  # apart: each card inside its own cell of a grid, whatever its rotation
        cols = int(np.ceil(np.sqrt(n * w / h)))
        rows = int(np.ceil(n / cols))
        diagonal = np.hypot(1, 1 / CARD_ASPECT)
        ch = min(ch, 0.8 * min(w / cols, h / rows) / diagonal)
        cells = rng.permutation(rows * cols)[:n]
        for cell in cells:
            r, c = divmod(int(cell), cols)
            cx = (c + 0.5) * w / cols + rng.uniform(-0.08, 0.08) * w / cols
            cy = (r + 0.5) * h / rows + rng.uniform(-0.08, 0.08) * h / rows
            placed_corners.append(_card_corners(cx, cy, ch, rng.uniform(0, 360)))
    elif layout == "row":
        angle = rng.uniform(-20, 20) + rng.choice([0, 180])
        step = ch / CARD_ASPECT * rng.uniform(0.3, 0.5)
        x0 = w / 2 - step * (n - 1) / 2
        cy = h / 2 + rng.uniform(-0.1, 0.1) * h
        a = np.deg2rad(angle)
        for i in range(n):
            cx = w / 2 + (x0 + i * step - w / 2) * np.cos(a)
            placed_corners.append(_card_corners(cx, cy + (x0 + i * step - w / 2) * np.sin(a), ch, angle))
    elif layout == "fan":
        base = rng.uniform(0, 360)
        px, py = w / 2, h / 2 + ch * 0.6
        for i in range(n):
            ang = base + (i - (n - 1) / 2) * (fan_step or rng.uniform(8, 12))
            a = np.deg2rad(ang)
            cx, cy = px + np.sin(a) * ch * 0.55, py - np.cos(a) * ch * 0.55
            placed_corners.append(_card_corners(cx, cy, ch, ang))
    else:
        raise ValueError(f"unknown layout {layout!r}: expected 'spread', 'row' or 'fan'")
    if tilt:
        t = tilt * 0.25
        src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
        centre = np.array([w / 2, h / 2], np.float32)
        dst = centre + (src - centre) * (1 - t) + rng.uniform(-t, t, (4, 2)).astype(np.float32) * centre
        persp = cv2.getPerspectiveTransform(src, dst)
        placed_corners = [cv2.perspectiveTransform(c[None], persp)[0] for c in placed_corners]
    truth = []
    for code, corners in zip(cards, placed_corners):
        img = faces[code] if faces and code in faces else face(code, deck)
        paste(frame, img, corners)
        truth.append(Placed(code, tuple((float(x), float(y)) for x, y in corners)))
    if effects:
        frame = camera_effects(frame, rng, blur=rng.uniform(0.3, 1.5), noise=rng.uniform(1, 6),
                               light=rng.uniform(0.75, 1.15), warm=rng.uniform(0, 1), glare=rng.random() < 0.2,
                               jpeg=int(rng.integers(60, 95)))
    return frame, truth
