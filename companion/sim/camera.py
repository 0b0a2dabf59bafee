"""The simulated camera above the table: where the mat lands in the picture, and what a bump does to that.

>>> cam = TableCamera.looking_at((0, 0, 420, 279), (1280, 720), tilt=0.1)
>>> bumped = cam.bumped(dx_mm=4, dy_mm=-3, angle_deg=0.8)
>>> 3 < float(abs(cam.to_image([(210, 140)]) - bumped.to_image([(210, 140)])).max()) < 20
True
"""

from __future__ import annotations

from dataclasses import dataclass

import cv2
import numpy as np

__all__ = ["TableCamera", "render_mat_layer"]


@dataclass(frozen=True)
class TableCamera:
    """A camera pose as the homography from mat millimetres to image pixels, with the picture's size."""

    homography: np.ndarray
    size: tuple[int, int]

    @classmethod
    def looking_at(cls, rect_mm, size=(1280, 720), *, tilt: float = 0.0, angle_deg: float = 0.0,
                   fill: float = 0.92, shift_px=(0.0, 0.0), lean: float = 1.0) -> "TableCamera":
        """A camera that frames ``rect_mm`` (x, y, w, h) filling ``fill`` of the picture; ``tilt`` (0..0.4) makes the
        far edge (top) narrower as a camera set off to one side sees it; ``lean`` (0.1..1) squeezes the mat's depth
        to that share of its width's scale, as a camera leaning away from straight down sees it (about the cosine of
        its angle from vertical); ``angle_deg`` turns the picture."""
        if not 0.1 <= lean <= 1.0:
            raise ValueError(f"lean {lean!r} out of range: expected 0.1 to 1 (1: straight down)")
        x, y, w, h = rect_mm
        iw, ih = size
        scale = fill * min(iw / w, ih / h)  # the same pixels per mm across the table, leaning or not
        cx, cy = iw / 2 + shift_px[0], ih / 2 + shift_px[1]
        hw, hh = w * scale / 2, h * lean * scale / 2
        top = hw * (1 - tilt)
        dst = np.array([[cx - top, cy - hh], [cx + top, cy - hh], [cx + hw, cy + hh], [cx - hw, cy + hh]], np.float32)
        a = np.deg2rad(angle_deg)
        rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]], np.float32)
        dst = (dst - [cx, cy]) @ rot.T + [cx, cy]
        src = np.array([[x, y], [x + w, y], [x + w, y + h], [x, y + h]], np.float32)
        return cls(cv2.getPerspectiveTransform(src, dst.astype(np.float32)), tuple(size))

    def bumped(self, *, dx_mm: float = 0.0, dy_mm: float = 0.0, angle_deg: float = 0.0,
               about=(0.0, 0.0)) -> "TableCamera":
        """The camera after a knock: the table seems to move by (dx, dy) mm and turn by ``angle_deg`` about ``about``."""
        a = np.deg2rad(angle_deg)
        c, s = np.cos(a), np.sin(a)
        ax, ay = about
        move = np.array([[c, -s, ax - c * ax + s * ay + dx_mm], [s, c, ay - s * ax - c * ay + dy_mm], [0, 0, 1]])
        return TableCamera(self.homography @ move, self.size)

    def to_image(self, points_mm) -> np.ndarray:
        pts = np.asarray(points_mm, np.float64).reshape(-1, 1, 2)
        return cv2.perspectiveTransform(pts, self.homography).reshape(-1, 2)


def render_mat_layer(frame: np.ndarray, mat, camera: TableCamera, *, px_per_mm: float = 4.0,
                     paper=(236, 240, 242)) -> np.ndarray:
    """Draw the printed ``mat`` (a :class:`companion.vision.mat.Mat`) onto ``frame`` in place, as ``camera`` sees it."""
    x0, y0, x1, y1 = mat.extent
    gray = mat.render(px_per_mm)
    tint = np.array(paper, np.float32) / 255
    img = (gray[..., None].astype(np.float32) * tint).astype(np.uint8)
    to_mm = np.array([[1 / px_per_mm, 0, x0], [0, 1 / px_per_mm, y0], [0, 0, 1]])
    m = camera.homography @ to_mm
    size = (frame.shape[1], frame.shape[0])
    warped = cv2.warpPerspective(img, m, size, flags=cv2.INTER_AREA)
    mask = cv2.warpPerspective(np.full(gray.shape, 255, np.uint8), m, size, flags=cv2.INTER_LINEAR)
    a = mask.astype(np.float32)[..., None] / 255
    frame[:] = (frame * (1 - a) + warped * a).astype(np.uint8)
    return frame
