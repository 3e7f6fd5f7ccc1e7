"""Key frames: the cue ball's crops kept for a review's contact strips."""
from types import SimpleNamespace

import numpy as np

from cueref.keyframes import CueCrops, crop


def _picture(seed: int, h: int = 60, w: int = 80) -> np.ndarray:
    return np.random.default_rng(seed).integers(1, 256, (h, w, 3), dtype=np.uint8)  # no black pixel


def test_a_crop_is_the_window_padded_black_past_the_edges_whether_or_not_an_array_is_reused():
    img = _picture(0)
    for centre in [(40, 30), (3, 4), (78, 58), (-20, 30), (200, 200)]:
        # The window pixel by pixel: img where it lies inside the picture, black elsewhere.
        cx, cy, half = centre[0], centre[1], 8
        want = np.zeros((16, 16, 3), np.uint8)
        for i in range(16):
            for j in range(16):
                y, x = cy - half + i, cx - half + j
                if 0 <= y < img.shape[0] and 0 <= x < img.shape[1]:
                    want[i, j] = img[y, x]
        assert np.array_equal(crop(img, centre, half), want)
        used = np.full((16, 16, 3), 7, np.uint8)  # an old crop's pixels must not show through
        got = crop(img, centre, half, used)
        assert got is used and np.array_equal(got, want)


def test_the_crops_kept_are_the_last_seconds_each_its_own_frames_window():
    fps, keep_s = 10.0, 0.5  # five frames kept
    cc = CueCrops(ball_radius_px=2.0, fps=fps, keep_s=keep_s)  # half = 10 px
    pictures = {k: _picture(k) for k in range(12)}
    for k, img in pictures.items():
        where = (30 + k, 25)
        cc.add(k, img, [SimpleNamespace(ball="cue", probs={"cue": 0.99}, px=where)])
    assert list(cc.crops) == [7, 8, 9, 10, 11] and cc.seen == {7, 8, 9, 10, 11}
    for k, c in cc.crops.items():
        assert np.array_equal(c, pictures[k][15:35, 20 + k:40 + k])
    # Arrays are reused once the five are held: still five distinct arrays.
    assert len({id(c) for c in cc.crops.values()}) == 5
