"""A fast overhead-camera renderer (numpy + OpenCV).

The static scene (floor, rails, cushions, pockets, diamonds, cloth with its lighting gradient and
vignetting) is drawn once per clip in table millimetres and warped into the image through the
camera model (perspective and lens distortion) with one `cv2.remap`. Each frame then adds, per
ball, a soft shadow and a shaded sphere textured with the ball's colours, stripe and number discs,
turned by the ball's orientation; moving balls are motion-blurred by sub-frame samples; a cue
stick with the player's arms and bridge hand occludes around the strike; sensor noise comes last
and compression from the video encoder.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

import cv2
import numpy as np

from cueref.camera import Camera
from cueref.table import Table

# Standard pool ball colours (BGR).
BALL_COLOURS = {
    "cue": (235, 238, 240), "1": (20, 200, 245), "2": (170, 60, 20), "3": (30, 30, 210), "4": (120, 30, 95),
    "5": (20, 120, 245), "6": (50, 120, 20), "7": (25, 35, 120), "8": (25, 25, 25),
}
for _n in range(9, 16):
    BALL_COLOURS[str(_n)] = BALL_COLOURS[str(_n - 8)]
CLOTHS = {"blue": (150, 95, 25), "green": (60, 125, 25), "red": (35, 30, 140), "grey": (110, 105, 100),
          "tournament-blue": (170, 110, 30), "burgundy": (45, 25, 95)}
RAIL_MM = 130.0  # cushion + rail width outside the nose line
CUSHION_MM = 50.0
TEX_W, TEX_H = 128, 64  # equirectangular ball texture


def ball_texture(ball: str) -> np.ndarray:
    """Equirectangular texture (rows: latitude from +z pole to -z, columns: longitude) of a ball:
    its colour (or a stripe band on white for 9–15) and two white number discs at ±x."""
    col = np.array(BALL_COLOURS[ball], np.uint8)
    white = np.array((236, 240, 242), np.uint8)
    lat = (0.5 - (np.arange(TEX_H) + 0.5) / TEX_H) * math.pi  # +pi/2 .. -pi/2
    lon = ((np.arange(TEX_W) + 0.5) / TEX_W) * 2 * math.pi - math.pi
    LON, LAT = np.meshgrid(lon, lat)
    # Body coordinates of each texel.
    bx, by, bz = np.cos(LAT) * np.cos(LON), np.cos(LAT) * np.sin(LON), np.sin(LAT)
    tex = np.empty((TEX_H, TEX_W, 3), np.uint8)
    if ball == "cue":
        tex[:] = col
        dots = (np.abs(bx) > 0.985) | (np.abs(by) > 0.985)  # the small red dots some cue balls carry
        tex[dots] = (40, 40, 190)
        return tex
    n = int(ball)
    if n >= 9:
        tex[:] = white
        tex[np.abs(bz) < 0.55] = col  # the stripe band
    else:
        tex[:] = col
    disc = np.abs(bx) > 0.80  # number discs around ±x
    tex[disc] = white
    # The number: dark marks inside each disc, drawn in the (by, bz) plane.
    for sign in (1, -1):
        canvas = np.zeros((64, 64), np.uint8)
        txt = ball
        scale = 1.1 if len(txt) == 1 else 0.8
        (tw, th), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_SIMPLEX, scale, 3)
        cv2.putText(canvas, txt, ((64 - tw) // 2, (64 + th) // 2), cv2.FONT_HERSHEY_SIMPLEX, scale, 255, 3, cv2.LINE_AA)
        sel = disc & ((bx > 0) if sign > 0 else (bx < 0))
        u = np.clip(((sign * by[sel]) / 0.6 * 0.5 + 0.5) * 63, 0, 63).astype(int)
        v = np.clip(((-bz[sel]) / 0.6 * 0.5 + 0.5) * 63, 0, 63).astype(int)
        ink = canvas[v, u] > 100
        idx = np.argwhere(sel)[ink]
        tex[idx[:, 0], idx[:, 1]] = (20, 20, 20)
    return tex


@dataclass
class Look:
    """Everything random about a clip's appearance, drawn from its seed."""
    cloth: tuple[int, int, int]
    rail: tuple[int, int, int]
    floor: tuple[int, int, int]
    light_dir: tuple[float, float, float]
    gradient: float  # lighting fall-off across the bed, 0..1
    vignette: float
    noise: float  # sensor noise sigma (grey levels)
    skin: tuple[int, int, int] = (120, 150, 200)
    shirt: tuple[int, int, int] = (60, 60, 60)
    cloth_name: str = "blue"

    @classmethod
    def random(cls, rng: np.random.Generator) -> "Look":
        name = str(rng.choice(list(CLOTHS)))
        base = np.array(CLOTHS[name], float) * rng.uniform(0.85, 1.15)
        # The direction the light travels, in the world frame (x, y, z down): from the lamp down.
        ld = np.array([rng.uniform(-0.4, 0.4), rng.uniform(-0.4, 0.4), 1.0])
        ld /= np.linalg.norm(ld)
        skins = [(120, 150, 200), (90, 120, 170), (60, 85, 125), (140, 170, 215)]
        return cls(cloth=tuple(int(c) for c in np.clip(base, 0, 255)),
                   rail=tuple(int(c) for c in rng.integers(20, 90, 3)),
                   floor=tuple(int(c) for c in rng.integers(15, 70, 3)),
                   light_dir=tuple(float(v) for v in ld), gradient=float(rng.uniform(0.05, 0.3)),
                   vignette=float(rng.uniform(0.1, 0.35)), noise=float(rng.uniform(1.5, 5.0)),
                   skin=skins[int(rng.integers(len(skins)))],
                   shirt=tuple(int(c) for c in rng.integers(20, 200, 3)), cloth_name=name)


@dataclass
class BallDraw:
    name: str
    xy: tuple[float, float]  # table mm
    h: float  # centre height above the cloth, mm
    rot: np.ndarray  # 3x3 body → world rotation
    blur: list[tuple[float, float]] = field(default_factory=list)  # sub-frame positions, mm


@dataclass
class CueDraw:
    """The cue stick: its tip position (mm, table frame) and direction of the shot (degrees)."""
    tip: tuple[float, float]
    direction_deg: float
    height: float = 40.0


class Renderer:
    def __init__(self, table: Table, camera: Camera, look: Look, seed: int = 0):
        self.table, self.cam, self.look = table, camera, look
        self.rng = np.random.default_rng(seed)
        self.textures = {b: ball_texture(b) for b in BALL_COLOURS}
        # Lags are played with two cue balls (or any two balls alike): draw them white.
        self.textures["left"] = self.textures["right"] = self.textures["cue"]
        self.background = self._static_scene()
        self._noise = []
        for _ in range(4):
            n = self.rng.normal(0, look.noise, (camera.height, camera.width, 3))
            self._noise.append((np.clip(n, 0, 255).astype(np.uint8), np.clip(-n, 0, 255).astype(np.uint8)))
        self._frame = 0
        self.shadows = True
        self.mm_per_px = (table.length_mm + 2 * RAIL_MM) / max(camera.width, 1)

    # --- the static scene --------------------------------------------------------------------
    def _static_scene(self) -> np.ndarray:
        t, look, cam = self.table, self.look, self.cam
        L, W = t.length_mm, t.width_mm
        margin = 900.0
        s = 1.0 if cam.width <= 2000 else 2.0  # px per mm of the table-space canvas
        cw, ch = int((L + 2 * margin) * s / 2), int((W + 2 * margin) * s / 2)
        s2 = s / 2  # canvas resolution: 2 mm per px at 1080p (the warp interpolates)

        def P(x, y):
            return (int(round((x + margin) * s2)), int(round((y + margin) * s2)))

        canvas = np.empty((ch, cw, 3), np.uint8)
        canvas[:] = look.floor
        fl = self.rng.normal(0, 6, (ch // 8 + 1, cw // 8 + 1, 1))
        canvas[:] = np.clip(canvas + cv2.resize(fl, (cw, ch))[..., None], 0, 255).astype(np.uint8)
        # Rails (wood), then the cushions, then the bed.
        cv2.rectangle(canvas, P(-RAIL_MM, -RAIL_MM), P(L + RAIL_MM, W + RAIL_MM), look.rail, -1)
        # Cloth — the bed and the cushions, which slope away from the lamp and look darker — with
        # the lamp's lighting gradient over both.
        gx = np.linspace(-1, 1, cw)[None, :] * self.look.light_dir[0]
        gy = np.linspace(-1, 1, ch)[:, None] * self.look.light_dir[1]
        shade = 1.0 - look.gradient * (gx + gy + 1) / 2
        cx0, cy0 = P(-CUSHION_MM, -CUSHION_MM)
        cx1, cy1 = P(L + CUSHION_MM, W + CUSHION_MM)
        x0, y0 = P(0, 0)
        x1, y1 = P(L, W)
        cloth = np.empty((cy1 - cy0, cx1 - cx0, 3), np.float32)
        cloth[:] = look.cloth
        cloth *= 0.8  # the cushions
        cloth[y0 - cy0:y1 - cy0, x0 - cx0:x1 - cx0] /= 0.8  # the bed
        cloth *= shade[cy0:cy1, cx0:cx1, None]
        cloth += self.rng.normal(0, 2.0, cloth.shape[:2])[..., None]  # cloth texture
        canvas[cy0:cy1, cx0:cx1] = np.clip(cloth, 0, 255).astype(np.uint8)
        # Pockets: dark discs at the corners and side rails.
        for name in ("head-left", "head-right", "side-left", "side-right", "foot-left", "foot-right"):
            px, py = t.pocket_centre(name)
            side = name.startswith("side")
            r = (129.0 if side else 116.0) / 2 + 8
            cx = px
            cy = py + (-r * 0.45 if py == 0 else r * 0.45) if side else py
            if not side:
                cx = px + (-r * 0.35 if px == 0 else r * 0.35)
                cy = py + (-r * 0.35 if py == 0 else r * 0.35)
            cv2.circle(canvas, P(cx, cy), int(r * s2), (12, 12, 12), -1, cv2.LINE_AA)
        # Diamonds on the rails: eighths of the length, quarters of the width (WPA 2.1).
        for i in range(1, 8):
            if i == 4:
                continue
            for y in (-RAIL_MM * 0.55, W + RAIL_MM * 0.55):
                cv2.circle(canvas, P(L * i / 8, y), max(2, int(9 * s2)), (215, 225, 230), -1, cv2.LINE_AA)
        for i in (1, 2, 3):
            for x in (-RAIL_MM * 0.55, L + RAIL_MM * 0.55):
                cv2.circle(canvas, P(x, W * i / 4), max(2, int(9 * s2)), (215, 225, 230), -1, cv2.LINE_AA)
        # Head string and foot spot marks (small, as on tournament cloth).
        cv2.circle(canvas, P(*t.foot_spot), max(1, int(6 * s2)), tuple(min(255, c + 60) for c in look.cloth), -1, cv2.LINE_AA)
        # Warp into the image: for every pixel, the point of the cloth plane it sees.
        u, v = np.meshgrid(np.arange(cam.width, dtype=np.float64), np.arange(cam.height, dtype=np.float64))
        tab = cam.to_table(np.stack([u.ravel(), v.ravel()], axis=1), height=0.0)
        # Canvas pixel i covers [i, i+1) / s2 mm: its centre, where remap samples it, is at i + 0.5.
        mapx = ((tab[:, 0] + margin) * s2 - 0.5).reshape(cam.height, cam.width).astype(np.float32)
        mapy = ((tab[:, 1] + margin) * s2 - 0.5).reshape(cam.height, cam.width).astype(np.float32)
        img = cv2.remap(canvas, mapx, mapy, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
        # Vignetting.
        yy, xx = np.mgrid[0:cam.height, 0:cam.width]
        r2 = ((xx - cam.cx) / cam.width) ** 2 + ((yy - cam.cy) / cam.height) ** 2
        vig = (1.0 - self.look.vignette * r2 * 2).clip(0.4, 1.0).astype(np.float32)
        return (img * vig[..., None]).astype(np.uint8)

    # --- per frame ---------------------------------------------------------------------------
    def ball_pixel(self, xy, h) -> tuple[np.ndarray, float]:
        """Pixel centre and apparent radius (px) of a ball whose centre is at (x, y, h)."""
        p = np.array([[xy[0], xy[1], h]])
        c = self.cam.project(p)[0]
        depth = self.cam.depth(p)[0]
        return c, self.cam.fx * self.table.R / depth

    @staticmethod
    def _grid(r: float, frac: tuple[float, float]):
        """Sphere normals and coverage for a ball of radius r (px) whose centre sits `frac`
        pixels from the grid's middle pixel (sub-pixel placement)."""
        n = int(math.ceil(r)) + 1
        ys, xs = np.mgrid[-n:n + 1, -n:n + 1].astype(np.float32)
        xs -= frac[0]
        ys -= frac[1]
        d = np.sqrt(xs * xs + ys * ys)
        inside = d <= r
        z = np.sqrt(np.clip(1 - (d / r) ** 2, 0, 1))
        alpha = np.clip(r - d + 0.5, 0, 1).astype(np.float32)
        normals = np.stack([xs / r, ys / r, -z], axis=-1)  # image x, image y, toward the camera
        return n, inside, normals, alpha

    def render(self, balls: list[BallDraw], cue: CueDraw | None = None,
               arm: bool = True) -> tuple[np.ndarray, np.ndarray]:
        """One frame. Returns (BGR image, occluder mask) — the mask marks cue, arm and hand pixels."""
        img = self.background.copy()
        occ = np.zeros(img.shape[:2], np.uint8)
        R_cam = self.cam.R
        light = np.array(self.look.light_dir)
        lc = R_cam @ light  # light direction in the camera frame
        if self.shadows:
            for b in balls:
                self._shadow(img, b, light)
        for b in sorted(balls, key=lambda b: b.h):
            self._draw_ball(img, b, lc, R_cam)
        if cue is not None:
            self._cue(img, occ, cue, arm)
        plus, minus = self._noise[self._frame % len(self._noise)]
        self._frame += 1
        return cv2.subtract(cv2.add(img, plus), minus), occ

    def _shadow(self, img, b: BallDraw, light):
        # The shadow falls on the cloth displaced along the light's slant, further for a ball in the air.
        off = np.array(light[:2]) / light[2] * (b.h + 5.0)
        c, r = self.ball_pixel((b.xy[0] + off[0], b.xy[1] + off[1]), 0.0)
        rr = r * (1.05 + b.h / 400.0)
        x0, y0 = int(c[0] - 2 * rr), int(c[1] - 2 * rr)
        x1, y1 = int(c[0] + 2 * rr) + 1, int(c[1] + 2 * rr) + 1
        H, W = img.shape[:2]
        if x1 <= 0 or y1 <= 0 or x0 >= W or y0 >= H:
            return
        ys, xs = np.mgrid[max(y0, 0):min(y1, H), max(x0, 0):min(x1, W)]
        d = np.sqrt((xs - c[0]) ** 2 + (ys - c[1]) ** 2) / rr
        dark = (0.55 * np.clip(1.3 - d, 0, 1) / (1 + b.h / 60.0)).astype(np.float32)
        patch = img[max(y0, 0):min(y1, H), max(x0, 0):min(x1, W)].astype(np.float32)
        img[max(y0, 0):min(y1, H), max(x0, 0):min(x1, W)] = (patch * (1 - dark[..., None])).astype(np.uint8)

    def _sprite(self, b: BallDraw, xy, lc, R_cam):
        """The shaded, textured ball as (sprite, alpha, top-left pixel)."""
        c, r = self.ball_pixel(xy, b.h)
        ix, iy = int(round(c[0])), int(round(c[1]))
        n, inside, normals, alpha = self._grid(r, (c[0] - ix, c[1] - iy))
        # Sphere normals (camera frame) → world → body coordinates → texture.
        ncam = normals[inside]
        body = (ncam @ R_cam) @ b.rot
        lat = np.arcsin(np.clip(body[:, 2], -1, 1))
        lon = np.arctan2(body[:, 1], body[:, 0])
        tv = ((0.5 - lat / math.pi) * TEX_H).astype(np.int32).clip(0, TEX_H - 1)
        tu = ((lon + math.pi) / (2 * math.pi) * TEX_W).astype(np.int32).clip(0, TEX_W - 1)
        colour = self.textures[b.name][tv, tu].astype(np.float32)
        lambert = np.clip(-(ncam @ lc), 0, 1)
        refl = 2 * ncam[:, 2:3] * ncam - np.array([0, 0, 1.0])  # the view ray reflected
        spec = np.clip(refl @ lc, 0, 1) ** 40 * 230
        sprite = np.zeros((2 * n + 1, 2 * n + 1, 3), np.float32)
        sprite[inside] = colour * (0.35 + 0.75 * lambert)[:, None] + spec[:, None]
        return sprite, alpha, (ix - n, iy - n)

    def _draw_ball(self, img, b: BallDraw, lc, R_cam):
        """Composite the ball; with sub-frame samples, the average of each sample over the
        background (motion blur)."""
        samples = b.blur or [b.xy]
        sprites = [self._sprite(b, xy, lc, R_cam) for xy in samples]
        H, W = img.shape[:2]
        x0 = max(min(o[0] for _, _, o in sprites), 0)
        y0 = max(min(o[1] for _, _, o in sprites), 0)
        x1 = min(max(o[0] + sp.shape[1] for sp, _, o in sprites), W)
        y1 = min(max(o[1] + sp.shape[0] for sp, _, o in sprites), H)
        if x1 <= x0 or y1 <= y0:
            return
        bg = img[y0:y1, x0:x1].astype(np.float32)
        acc = np.zeros_like(bg)
        for sp, al, (ox, oy) in sprites:
            layer, a = bg.copy(), np.zeros(bg.shape[:2], np.float32)
            sx0, sy0 = max(x0 - ox, 0), max(y0 - oy, 0)
            sx1, sy1 = min(x1 - ox, sp.shape[1]), min(y1 - oy, sp.shape[0])
            if sx1 <= sx0 or sy1 <= sy0:
                acc += bg
                continue
            dx, dy = ox + sx0 - x0, oy + sy0 - y0
            a[dy:dy + sy1 - sy0, dx:dx + sx1 - sx0] = al[sy0:sy1, sx0:sx1]
            layer[dy:dy + sy1 - sy0, dx:dx + sx1 - sx0] = sp[sy0:sy1, sx0:sx1]
            acc += bg * (1 - a[..., None]) + layer * a[..., None]
        img[y0:y1, x0:x1] = np.clip(acc / len(sprites), 0, 255).astype(np.uint8)

    def _cue(self, img, occ, cue: CueDraw, arm: bool):
        d = math.radians(cue.direction_deg)
        ux, uy = math.cos(d), math.sin(d)
        tip = np.array(cue.tip)
        butt = tip - 1450.0 * np.array([ux, uy])
        pts = []
        for (p, width, h) in ((tip, 6.5, cue.height), (butt, 15.0, cue.height + 250.0)):
            nx, ny = -uy * width, ux * width
            pts.append((p[0] + nx, p[1] + ny, h))
            pts.append((p[0] - nx, p[1] - ny, h))
        quad = self.cam.project(np.array([pts[0], pts[2], pts[3], pts[1]]))
        poly = np.round(quad).astype(np.int32)
        cv2.fillConvexPoly(img, poly, (60, 120, 170), cv2.LINE_AA)
        cv2.fillConvexPoly(occ, poly, 255)
        ferrule = tip - 25.0 * np.array([ux, uy])
        fq = self.cam.project(np.array([(tip[0], tip[1], cue.height), (ferrule[0], ferrule[1], cue.height)]))
        cv2.line(img, tuple(np.round(fq[0]).astype(int)), tuple(np.round(fq[1]).astype(int)), (235, 235, 235),
                 max(1, int(6.5 / self.mm_per_px)), cv2.LINE_AA)
        if not arm:
            return
        # The bridge hand ~200 mm behind the tip, the grip hand and forearm at the butt.
        hand = tip - 220.0 * np.array([ux, uy])
        grip = butt + 250.0 * np.array([ux, uy])
        elbow = grip + np.array([-uy, ux]) * 120.0 - np.array([ux, uy]) * 250.0
        for centre, axes in ((hand, (70, 45)), (grip, (55, 40))):
            c = self.cam.project(np.array([[centre[0], centre[1], 60.0]]))[0]
            ax = (int(axes[0] / self.mm_per_px), int(axes[1] / self.mm_per_px))
            cv2.ellipse(img, tuple(np.round(c).astype(int)), ax, math.degrees(math.atan2(uy, ux)), 0, 360,
                        self.look.skin, -1, cv2.LINE_AA)
            cv2.ellipse(occ, tuple(np.round(c).astype(int)), ax, math.degrees(math.atan2(uy, ux)), 0, 360, 255, -1)
        seg = self.cam.project(np.array([[grip[0], grip[1], 300.0], [elbow[0], elbow[1], 500.0]]))
        thick = max(2, int(90 / self.mm_per_px))
        p0, p1 = tuple(np.round(seg[0]).astype(int)), tuple(np.round(seg[1]).astype(int))
        cv2.line(img, p0, p1, self.look.shirt, thick, cv2.LINE_AA)
        cv2.line(occ, p0, p1, 255, thick)
