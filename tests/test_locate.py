"""The ball locator (vision/locate.py): it finds resting balls on rendered frames, frozen rack balls
included, and puts their centres where the camera truth says."""
import numpy as np
import pytest

pytest.importorskip("pooltool", reason="the synth extra is not installed (scripts/install-synth.sh)")

from adjudicate.racks import rack  # noqa: E402
from cueref.table import Table  # noqa: E402
from synth.clip import Scene, play, random_camera  # noqa: E402
from synth.render import BallDraw, Look, Renderer  # noqa: E402
from vision.calibrate import auto  # noqa: E402
from vision.locate import Locator  # noqa: E402

T = Table()


def test_locator_finds_resting_balls_and_their_centres():
    tl = play("nine-ball", 4, seed=21)
    # Moments when every ball rests: just before each strike (the cue and hands are there), and the end.
    moments = [s.t0 - 0.3 for s in tl.segments] + [tl.segments[-1].end + 0.5]
    found, total, errs = 0, 0, []
    for seed in (100, 103):
        scene = Scene(tl, 1920, 1080, seed)
        cal = auto(scene.frame(moments[0])[0], T)
        loc = Locator(cal)
        for t in moments:
            img, _, truth = scene.frame(float(t))
            px = np.array([c.px for c in loc.candidates(img)])
            for b, (u, v, x, y, h, vis) in truth.items():
                if vis < 0.5:
                    continue
                total += 1
                r = scene.renderer.ball_pixel((x, y), h)[1]
                d = np.hypot(*(px - (u, v)).T)
                j = int(np.argmin(d))
                if d[j] < 0.6 * r:
                    found += 1
                    errs.append(float(np.hypot(*(cal.to_table(px[j:j + 1])[0] - (x, y)))))
    assert total > 50
    assert found / total >= 0.97  # measured 100 % (the bench's held-out frames: 99.8 % at 1080p)
    assert np.median(errs) <= 2.0


def rotation(rng):
    q, r = np.linalg.qr(rng.normal(size=(3, 3)))
    q = q * np.sign(np.diag(r))
    return q if np.linalg.det(q) > 0 else -q


def racked_frame(game, seed, size=(1920, 1080), extra=None):
    """A rendered frame of a full rack (frozen balls) and the cue ball, each ball turned at random;
    returns the image, its renderer and {ball: (x, y)} in table mm."""
    rng = np.random.default_rng(seed)
    cam = random_camera(rng, T, *size)
    rend = Renderer(T, cam, Look.random(rng), seed=seed)
    pos = dict(rack(game, T))
    pos["cue"] = (float(rng.uniform(300, 600)), float(rng.uniform(200, 1000)))
    pos.update(extra or {})
    img = rend.render([BallDraw(b, p, T.R, rotation(rng)) for b, p in pos.items()])[0]
    return img, rend, pos


@pytest.mark.parametrize("game,seed,size", [("eight-ball", 3, (1920, 1080)), ("rotation-61", 8, (1920, 1080)),
                                            ("nine-ball", 5, (1280, 720))])
def test_locator_separates_frozen_balls_in_a_rack(game, seed, size):
    # A rack's balls touch: their cloth differences merge into one blob, so each ball must be found
    # by its own rim. Every ball, to a fraction of a pixel (measured: median 0.4-0.6 px, max 1.5).
    img, rend, pos = racked_frame(game, seed, size)
    cal = auto(img, T)
    cands = Locator(cal).candidates(img)
    px = np.array([c.px for c in cands])
    errs, errs_mm = [], []
    for b, (x, y) in pos.items():
        (u, v), r = rend.ball_pixel((x, y), T.R)
        d = np.hypot(*(px - (u, v)).T)
        j = int(np.argmin(d))
        assert d[j] < 0.5 * r, f"{game}: the {b} was not found"
        errs.append(float(d[j]))
        errs_mm.append(float(np.hypot(*(cal.to_table(px[j:j + 1])[0] - (x, y)))))
    assert np.median(errs) <= 1.0 and max(errs) <= 2.0, errs
    assert max(errs_mm) <= 4.0, errs_mm  # with the automatic calibration's own error (~1 mm)
