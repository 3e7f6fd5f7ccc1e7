"""Frames → ball observations in table millimetres: locate candidates, classify their crops.

An observation is the seam to tracking: frame index, media time, ball id (or "unknown" when the
classifier is not sure), class probabilities, the centre in pixels and on the plane of ball
centres in table mm, and its uncertainty.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from cueref.observation import Observation
from vision import rimfit, rimvotes
from vision.calibrate import Calibration
from vision.crops import cut
from vision.identify import Identifier, blurred_identifier
from vision.locate import Locator

SURE = 0.5  # below this probability a ball is reported as "unknown"
PIXEL_SIGMA = 0.7  # measured centre error (px, 1-sigma) of the locator on rendered 1080p frames


@dataclass
class _Entry:
    """A ball as last seen: where (pixels, table mm), what (class probabilities), its step since
    the frame before (pixels), the frames since the classifier last looked at it, and its step
    the frame before."""
    px: tuple[float, float]
    mm: tuple[float, float]
    probs: np.ndarray
    step: tuple[float, float] = (0.0, 0.0)
    age: int = 0
    before: tuple[float, float] = (0.0, 0.0)  # the step before that

    def steady(self, within: float) -> bool:
        """Its last two steps within `within` pixels of each other: rolling at a steady speed
        (not just struck, stopping dead or turned); and, for a step under 0.6 `within`, within
        a third of the step: not the jitter of new looks at a ball at rest (steps of half a
        pixel, every way). (A fast ball's centre wavers by its blur, a pixel or two a frame.)"""
        d2 = (self.step[0] - self.before[0]) ** 2 + (self.step[1] - self.before[1]) ** 2
        s2 = self.step[0] ** 2 + self.step[1] ** 2
        return d2 < within * within and (d2 < s2 / 9.0 or s2 >= 0.36 * within * within)

    def predicted(self) -> tuple[float, float]:
        return self.px[0] + self.step[0], self.px[1] + self.step[1]

    def still(self) -> _Entry:
        """Not searched again this frame: the picture there did not change, so it did not move."""
        return self if self.step == self.before == (0.0, 0.0) else _Entry(self.px, self.mm, self.probs, age=self.age)


def _nearest(before: list[_Entry], px: tuple[float, float], k: int, within: float) -> _Entry | None:
    """The ball of `before` nearest `px` whose likeliest class is `k`, if within `within` pixels."""
    best, bd = None, within
    for e in before:
        d = float(np.hypot(e.px[0] - px[0], e.px[1] - px[1]))
        if d < bd and int(e.probs.argmax()) == k:
            best, bd = e, d
    return best


class BallDetector:
    """Frames → observations. Successive frames of one camera share work: only where the picture
    changed since the observations there were made (`CHANGE` on `Locator.grid`, grown by a ball's
    radius) are balls searched for again; the observations elsewhere are reported again as they
    were. Everything is compared with the picture the observations came from, not the previous
    frame, so a ball creeping a fraction of a pixel a frame is re-found once it has moved enough
    to change a pixel. `temporal=False` (or `reset()` before a frame) treats each frame alone."""

    # Grey levels (0..255) on the change grid, one full-resolution pixel each: above its noise
    # (the benchmark's 1080p60 H.264 at rest: 99.9 % of pixels within 11; one in ~10^5 above 16),
    # below what a ball's rim moving half a pixel changes.
    CHANGE = 24
    REFRESH = 300  # frames: a whole search at least this often (the cloth's colour, slow light drift)
    # Frames after a search of what changed left a wide plateau away from every ball alone (a
    # hand or an arm, as a rule: see `Locator._search`) within which a whole search is
    # made: the balls a hand racked are such a plateau too, and would be unseen until
    # `REFRESH` (seed 9002 through the real detector: a ten-ball rack set after the lag, unseen
    # for the 2.4 s to the break, and the break without a first contact or its pocketed 3).
    SETTLE = 30
    NAMED = 0.9  # the classifier's probability for a ball's name to be carried between frames
    RECHECK = 8  # frames: a ball's name carried from frame to frame is asked again at least this often
    LOST = 60  # frames after a ball is lost during which every wide plateau is searched (`_find`)
    FOLLOW = 0.6  # of a ball's rim's rays that must agree for it to be followed without a search
    # Followed (`_follow`): balls rolling between these (radii a frame). Slower may be at rest, its
    # step the jitter of a new look, about to be struck (the cue tip near makes it looked at
    # again); faster is blurred (its rim fit strays from the blur's centre).
    ROLLING, FAST = 0.03, 1.0
    SHARP = 6.0  # the least colour change at a followed ball's rim (`Locator.rim_fit`: not cloth, nor a blur)
    CARRY = 0.25  # radii: how far from where its motion puts it a ball may be found and keep its name

    def __init__(self, cal: Calibration, identifier: Identifier | None = None, game: str | None = None,
                 temporal: bool = True, blurred: Identifier | bool = True):
        """`game` restricts the names to that game's balls (nine-ball has no 10). `blurred`: the
        classifier asked again about a ball whose rim is blurred (`SHARP`), instead of
        `identifier`'s answer; True: the shipped one (`identify.BLURRED_MODEL`) if there is one,
        False: none."""
        import cv2  # noqa: PLC0415

        from vision.crops import HALF, SIZE  # noqa: PLC0415

        self.cal = cal
        self.locator = Locator(cal)
        self.ident = identifier or Identifier()
        self.blurred = blurred_identifier() if blurred is True else (blurred or None)
        self.temporal = temporal
        allowed = None
        if game is not None:
            from cueref.records import OBJECT_BALLS  # noqa: PLC0415

            allowed = {"cue", "none"} | {str(n) for n in range(1, OBJECT_BALLS[game] + 1)}
        self.mask = np.array([1.0 if allowed is None or c in allowed else 0.0 for c in self.ident.classes],
                             np.float32)
        # Millimetres per pixel near the table's centre, for the uncertainty.
        c = cal.to_pixel([[cal.table.L / 2, cal.table.W / 2], [cal.table.L / 2 + 100.0, cal.table.W / 2]])
        self.mm_per_px = 100.0 / float(np.hypot(*(c[1] - c[0])))
        # The pockets' mouths: a dark hole the locator takes for a ball (and the classifier, too,
        # for the 8). A candidate there must show a lit part (a highlight, the number's disc).
        L, W = cal.table.L, cal.table.W
        pockets = np.array([[0, 0], [L / 2, 0], [L, 0], [0, W], [L / 2, W], [L, W]], float)
        self.pockets_px = cal.to_pixel(pockets)
        self.pocket_zone_px = 3.0 * self.locator.r_full
        yy, xx = np.mgrid[0:SIZE, 0:SIZE] - (SIZE - 1) / 2
        self._disc = np.hypot(xx, yy) <= 0.8 / HALF * SIZE / 2
        rg = int(np.ceil(1.3 * self.locator.r / 2)) + 1  # grid pixels: two locating pixels each
        # A square, not a disc: OpenCV dilates by a rectangle in two cheap 1-D passes (a tenth of
        # the time), and a slightly larger region costs little.
        self._grow = cv2.getStructuringElement(cv2.MORPH_RECT, (2 * rg + 1, 2 * rg + 1))
        rimfit.warm()  # now, not at the first ball followed
        rimvotes.warm()  # (and the first cluster)
        self.reset()

    def reset(self) -> None:
        """Forget the previous frames: the next one is searched whole."""
        self._ref: np.ndarray | None = None  # the locating image the entries were found in
        self._entries: list[_Entry] = []
        self._since = 0  # frames since the last whole search
        self._said = None  # (the entries' probability arrays, their names and probabilities) last reported
        self._lost = 0  # frames left searching every wide plateau (a ball was lost)
        self._unchanged = None  # the change grid's mask when a whole search was due (`_in_place`)
        self._prev: list[_Entry] = []  # the entries reported the frame before
        self._dropped = False  # a new entry was left out of the last naming (`_assign`)

    def _classify(self, crops: list[np.ndarray], model: Identifier | None = None) -> np.ndarray:
        """The classifier's (`model`'s: by default the detector's own) probabilities for the
        crops, over this game's balls only (in the order of the detector's own classes)."""
        model = model or self.ident
        asked = model.probabilities(crops)
        if model is not self.ident:
            asked = model.reordered(asked, self.ident.classes)
        asked = asked * self.mask
        return asked / np.maximum(asked.sum(axis=1, keepdims=True), 1e-9)

    def _at_pocket(self, pts: np.ndarray) -> np.ndarray:
        """Which of the points (pixels) are at a pocket's mouth (see `pocket_zone_px`)."""
        d = np.hypot(*(pts[:, None, :] - self.pockets_px[None]).transpose(2, 0, 1))
        return np.min(d, axis=1) < self.pocket_zone_px

    def _lit(self, crop: np.ndarray) -> bool:
        import cv2  # noqa: PLC0415

        L = cv2.cvtColor(crop, cv2.COLOR_BGR2LAB)[..., 0][self._disc]
        return np.count_nonzero(L > self.locator.cloth_L + 40.0) > 0.02 * L.size  # its 98th percentile

    def _changes(self, grid: np.ndarray) -> tuple[np.ndarray, np.ndarray] | None:
        """The pixels of the change grid (`Locator.grid` of a frame) that differ from the one the
        current observations came from, and those grown by a ball's radius (uint8 masks of the
        grid); None when a whole search is due (the first frame, most of the table changed,
        `REFRESH`, `temporal=False`)."""
        import cv2  # noqa: PLC0415

        self._unchanged = None
        if not (self.temporal and self._ref is not None and self._ref.shape == grid.shape):
            return None
        d0, d1, d2 = cv2.split(cv2.absdiff(grid, self._ref))
        _, changed = cv2.threshold(cv2.max(cv2.max(d0, d1), d2), self.CHANGE, 1, cv2.THRESH_BINARY)
        if self._since >= self.REFRESH:
            self._unchanged = changed  # (a whole search is due: see `_in_place`)
            return None
        if cv2.countNonZero(changed) == 0:
            return changed, changed
        grown = cv2.dilate(changed, self._grow)
        return None if cv2.countNonZero(grown) > 0.4 * grown.size else (changed, grown)  # most of the table: whole

    def changed(self, grid: np.ndarray) -> np.ndarray | None:
        """Where the change grid differs from the one the current observations came from, grown
        by a ball's radius (see `_changes`): a uint8 mask of the locating image (`Locator.size`);
        None when a whole search is due."""
        import cv2  # noqa: PLC0415

        ch = self._changes(grid)
        return None if ch is None else cv2.resize(ch[1], self.locator.size, interpolation=cv2.INTER_NEAREST)

    def observe(self, img: np.ndarray, frame: int = 0, t: float = 0.0) -> list[Observation]:
        import cv2  # noqa: PLC0415

        loc = self.locator
        grid = loc.grid(img)
        self._since += 1
        ch = self._changes(grid)
        if ch is None:
            before = self._entries
            self._entries = self._find(img, loc._small(img), None)
            if self._unchanged is not None:
                self._entries = self._in_place(before, self._entries, self._unchanged, grid)
            self._ref = grid
            self._since = 0
        elif cv2.countNonZero(ch[0]):
            raw, searched = ch
            # A ball whose own pixels did not change has not moved, whatever changed near it (the
            # cue's tip, a hand): it stays as it was, is not searched for (a new look's jitter is
            # not a step) and its part of the reference is kept (a creeping ball is seen once it
            # has moved enough, as everywhere else).
            boxes = self._boxes([e.px for e in self._entries], raw.shape)
            unmoved = {id(e) for e, (x0, y0, x1, y1) in zip(self._entries, boxes) if not raw[y0:y1, x0:x1].any()}
            followed = self._follow(img, raw, unmoved)
            keep = [e for e in self._entries if id(e) not in followed]
            entries = list(followed.values())
            if followed and cv2.countNonZero(raw):  # what is left once they have been taken out
                ch = (raw, cv2.dilate(raw, self._grow))
            if cv2.countNonZero(raw):
                region = cv2.resize(ch[1], loc.size, interpolation=cv2.INTER_NEAREST)
                if unmoved:  # not found again there (the region is this frame's own array)
                    for e in keep:
                        if id(e) in unmoved:
                            cx, cy = np.rint(loc._to_small(np.array(e.px))).astype(int)
                            q = max(1, int(loc.r))  # (no other ball's centre is within a radius)
                            region[max(0, cy - q):cy + q + 1, max(0, cx - q):cx + q + 1] = 0
                sx, sy = np.rint(loc._to_small(np.array([e.px for e in keep]).reshape(-1, 2))).astype(int).T
                h, w = region.shape
                inside = region[np.clip(sy, 0, h - 1), np.clip(sx, 0, w - 1)]
                found = self._find(img, None, region, [e for e, gone in zip(keep, inside) if gone])
                keep = [e for e, gone in zip(keep, inside) if not gone]
                # A ball astride the region's edge, one followed, or something overlapping a ball
                # at rest (the cue's tip against it: no two balls' centres are 1.5 radii apart):
                # keep the one seen already.
                seen = np.array([e.px for e in keep + entries]).reshape(-1, 2)
                if len(seen) and found:
                    found = [e for e in found if np.min(np.hypot(*(seen - e.px).T)) > 1.5 * loc.r_full]
                entries += found
            for e, (x0, y0, x1, y1) in zip(self._entries, boxes):
                if id(e) in unmoved:
                    searched[y0:y1, x0:x1] = 0
            self._entries = [e.still() for e in keep] + entries
            # In place (no one else holds the reference), where the grid's pixels were searched.
            cv2.copyTo(grid, searched, self._ref)
            if loc.skipped:
                self._since = max(self._since, self.REFRESH - self.SETTLE)
                loc.skipped = 0
        return self._report(frame, t)

    def _in_place(self, before: list[_Entry], found: list[_Entry], raw: np.ndarray, grid: np.ndarray) -> list[_Entry]:
        """The balls `found` by a whole search made because one was due (`REFRESH`, `SETTLE`),
        each within a radius of a ball seen `before` whose pixels have not changed since (`raw`,
        the change grid's mask), at that ball's centre: it has not moved. (A whole search found seed
        11003's 15, 4, 6 and 7, at rest after the break, dark red balls on red cloth, 7-12 mm
        from where they had been found and were: moves for the tracker, and five contacts among
        balls at rest.) Where such a ball lies, `grid` (the next reference) keeps the reference
        it was found in: a ball creeping below the change threshold is looked at again once it
        has moved enough since it was found, as everywhere else."""
        boxes = self._boxes([e.px for e in before], raw.shape)
        old = [(e, b) for e, b in zip(before, boxes) if not raw[b[1]:b[3], b[0]:b[2]].any()]
        if not old or not found:
            return found
        po = np.array([e.px for e, _ in old], float)
        r = self.locator.r_full
        out, used = [], set()
        for f in found:
            d = np.hypot(*(po - np.array(f.px)).T)
            j = int(np.argmin(d))
            if d[j] < r and j not in used:
                used.add(j)
                (e, (x0, y0, x1, y1)) = old[j]
                f = _Entry(e.px, e.mm, f.probs, age=f.age)
                grid[y0:y1, x0:x1] = self._ref[y0:y1, x0:x1]
            out.append(f)
        return out

    def _boxes(self, pxs: list[tuple[float, float]], shape: tuple[int, int]) -> list[tuple[int, int, int, int]]:
        """The change grid's pixels (x0, y0, x1, y1) over each ball centred at `pxs` (full
        pixels), out to its rim (a creeping ball changes the pixels there first)."""
        if not pxs:
            return []
        loc = self.locator
        g = loc._to_small(np.array(pxs, float)) / 2
        q = loc.r / 2
        lo = np.maximum(np.floor(g - q), 0).astype(int)
        hi = np.minimum(np.ceil(g + q), (shape[1], shape[0])).astype(int)
        return list(zip(lo[:, 0].tolist(), lo[:, 1].tolist(), hi[:, 0].tolist(), hi[:, 1].tolist()))

    def _free(self, idx: list[int]) -> list[int]:
        """Of the balls `idx` (indices into the last frame's), those no other ball could have met
        in this frame: from where each is heading to where every other is, or is heading, more
        than 2.5 radii and both their steps."""
        if not idx:
            return []
        r = self.locator.r_full
        every = self._entries
        at = np.array([e.px for e in every])
        pred = np.array([e.predicted() for e in every])
        moved = np.hypot(*np.array([e.step for e in every]).reshape(-1, 2).T)
        pc = pred[idx]
        gap = np.minimum(np.hypot(*(pc[:, None] - at[None]).transpose(2, 0, 1)),
                         np.hypot(*(pc[:, None] - pred[None]).transpose(2, 0, 1)))
        gap[np.arange(len(idx)), idx] = np.inf
        free = (gap > 2.5 * r + moved[idx][:, None] + moved[None]).all(axis=1)
        return [k for k, f in zip(idx, free) if f]

    def _follow(self, img: np.ndarray, raw: np.ndarray, unmoved: set[int] = frozenset()) -> dict[int, _Entry]:
        """The balls rolling free and steady (`ROLLING`, `FAST`, `_Entry.steady`), found again
        without a search: the rim fitted where each one's step puts it, kept when most of its rim
        agrees (`FOLLOW`) and is sharp (`SHARP`: the cloth where a ball was heading is not taken
        for it, nor is a blurred ball followed), and the centre is within `CARRY` radii of where
        it was heading; the name is carried (see `_carried` for when not), and every `RECHECK`
        frames asked again of its crop alone (not followed if the answer changed). A rolling ball costs
        one rim fit instead of a search (locating image, score, plateaus, mean-shift, rim fit).
        Each one's part of the change (where it was, where it is, between) is taken out of
        `raw`, in place: what is left is searched as usual. Keyed by id() of the ball before.
        Not `unmoved` ones (ids)."""
        loc = self.locator
        r = loc.r_full
        slow, fast = (self.ROLLING * r) ** 2, (self.FAST * r) ** 2
        idx = self._free([k for k, e in enumerate(self._entries) if id(e) not in unmoved
                          and slow <= e.step[0] ** 2 + e.step[1] ** 2 < fast
                          and e.steady(self.CARRY * r) and e.probs.max() >= self.NAMED])
        if not idx:
            return {}
        before = [self._entries[k] for k in idx]
        pred = np.array([e.predicted() for e in before])
        at_pocket = self._at_pocket(pred)
        h, w = img.shape[:2]
        inside = (pred[:, 0] > 2 * r) & (pred[:, 0] < w - 2 * r) & (pred[:, 1] > 2 * r) & (pred[:, 1] < h - 2 * r)
        ok = ~at_pocket & inside
        if not ok.any():
            return {}
        before = [e for e, k in zip(before, ok) if k]
        pred = pred[ok]
        fit, share, edge = loc.rim_fit(img, pred, agreeing=True)
        good = (share >= self.FOLLOW) & (edge >= self.SHARP) & (np.hypot(*(fit - pred).T) < self.CARRY * r)
        # Those due to be looked at again (`RECHECK`): their crops, where they are now; followed
        # on if the classifier still surely names them the same.
        probs = [e.probs for e in before]
        due = [i for i in np.nonzero(good)[0] if before[i].age >= self.RECHECK]
        if due:
            crops = [cut(img, fit[i, 0], fit[i, 1], r) for i in due]
            looked = [(i, c) for i, c in zip(due, crops) if c is not None]
            asked = self._classify([c for _, c in looked]) if looked else []
            for (i, _), q in zip(looked, asked):
                if int(q.argmax()) == int(before[i].probs.argmax()) and q.max() >= self.NAMED:
                    probs[i] = q
            good &= np.array([before[i].age < self.RECHECK or probs[i] is not before[i].probs for i in range(len(before))])
        if not good.any():
            return {}
        mms = self.cal.to_table(fit[good])
        out: dict[int, _Entry] = {}
        gh, gw = raw.shape
        half = 1.5 * r
        for i, mm in zip(np.nonzero(good)[0], mms):
            e, p = before[i], fit[i]
            fresh = probs[i] is not e.probs
            out[id(e)] = _Entry((float(p[0]), float(p[1])), (float(mm[0]), float(mm[1])), probs[i],
                                (float(p[0] - e.px[0]), float(p[1] - e.px[1])), 0 if fresh else e.age + 1, e.step)
            lo = loc._to_small(np.minimum(e.px, p) - half) / 2
            hi = loc._to_small(np.maximum(e.px, p) + half) / 2
            x0, y0 = max(0, int(np.floor(lo[0]))), max(0, int(np.floor(lo[1])))
            x1, y1 = min(gw, int(np.ceil(hi[0])) + 1), min(gh, int(np.ceil(hi[1])) + 1)
            raw[y0:y1, x0:x1] = 0
        return out

    def _carried(self, pts: np.ndarray, near: np.ndarray, before: list[_Entry]) -> list[_Entry | None]:
        """For each candidate, the ball it surely is without asking the classifier, or None.
        A ball found where its own motion puts it (its position plus its last frame's step, within
        `CARRY` radii), with no other candidate near and no other ball it could have met on the
        way, keeps its name: the classifier costs a twentieth of a millisecond a crop, and the
        balls rolling free are most of the candidates in most frames. Asked again: every
        `RECHECK` frames, near another ball (in a collision both change their motion; which is
        where is for the classifier to say, not a prediction), at a cushion (the motion
        changes), at a pocket, and whenever the classifier was not sure."""
        out: list[_Entry | None] = [None] * len(pts)
        r = self.locator.r_full
        every = self._entries
        sure = [every[k] for k in self._free([k for k, e in enumerate(every) if e.age < self.RECHECK
                                              and e.probs.max() >= self.NAMED and any(e is b for b in before)])]
        if not sure or not len(pts):
            return out
        pred = np.array([e.predicted() for e in sure])
        d = np.hypot(pts[:, None, 0] - pred[None, :, 0], pts[:, None, 1] - pred[None, :, 1])
        for i in range(len(pts)):
            j = int(np.argmin(d[i]))
            # The only candidate near the prediction: balls are two radii apart, so anything else
            # within 1.5 is not a ball (a hand, the cue) or this one is not where it seems.
            if d[i, j] < self.CARRY * r and not near[i] and np.count_nonzero(d[:, j] < 1.5 * r) == 1:
                out[i] = sure[j]
        return out

    def _find(self, img: np.ndarray, small: np.ndarray | None, region: np.ndarray | None,
              before: list[_Entry] = ()) -> list[_Entry]:
        """Locate, refine (vectorised) and classify (one batch) the balls whose centres lie in
        `region` (None: anywhere). `small`: the whole locating image, if made. `before`: the
        balls seen in `region` last frame (see `_carried`). Wide plateaus (frozen balls, or a
        hand) are searched only near where the balls were and their steps take them; should that
        lose a ball (one struck hard), the search is done again everywhere in `region`, and for
        `LOST` frames after a ball is not found at all."""
        if region is None or self._lost > 0:
            self._lost = max(0, self._lost - 1)
            return self._find_in(img, small, region, before, None)
        balls = np.array([p for e in self._entries for p in (e.px, e.predicted())]).reshape(-1, 2)
        found = self._find_in(img, small, region, before, balls)
        if len(found) < len(before):
            found = self._find_in(img, small, region, before, None)
            if len(found) < len(before):
                # Lost (a blur too long to see, a pocket): it may turn up anywhere, not near a
                # ball seen before.
                self._lost = self.LOST
        return found

    def _find_in(self, img: np.ndarray, small: np.ndarray | None, region: np.ndarray | None,
                 before: list[_Entry], balls: np.ndarray | None) -> list[_Entry]:
        loc = self.locator
        cands = loc.candidates(img, refine=False, small=small, region=region, balls=balls)
        if not cands:
            return []
        # Classify at the mean-shift centres (about a pixel); fit the rims of the balls only.
        clustered = np.array([c.clustered for c in cands])
        pts = loc.shift_points(img, np.array([c.px for c in cands]), clustered)
        near = self._at_pocket(pts)
        # At a pocket the hole is "not cloth" too and pulls the mean-shift off the ball: fit the
        # rim before looking.
        early = near & ~clustered
        if early.any():
            pts[early] = loc.rim_fit(img, pts[early])
        carried = self._carried(pts, near, list(before)) if self.temporal else [None] * len(pts)
        idx, crops = [], []
        for i, (p, at_pocket) in enumerate(zip(pts, near)):
            if carried[i] is not None:
                continue
            crop = cut(img, p[0], p[1], loc.r_full)
            if crop is None or (at_pocket and not self._lit(crop)):
                continue
            idx.append(i)
            crops.append(crop)
        probs = np.zeros((len(pts), len(self.mask)), np.float32)
        if idx:
            probs[idx] = self._classify(crops)
        for i, e in enumerate(carried):
            if e is not None:
                probs[i] = e.probs
        names = self.ident.classes
        none = names.index("none") if "none" in names else -1
        looked = set(idx) | {i for i, e in enumerate(carried) if e is not None}
        sel = np.array([i for i in sorted(looked) if int(probs[i].argmax()) != none], int)
        if not len(sel):
            return []
        fit = sel[~clustered[sel] & ~early[sel]]
        if len(fit):
            pts[fit], share, edge = loc.rim_fit(img, pts[fit], agreeing=True)
            # A ball whose rim is soft (`SHARP`) is a streak, which the default classifier never
            # saw in training (at 30 fps it read the sample clip's fast yellow 1 as the cue ball):
            # asked again of the classifier trained on streaks, whose answer stands. (Only the
            # balls: of a long streak the locator finds two or three parts, which the default
            # classifier turns down and the streaks' one would name, each a ball.)
            soft = [] if self.blurred is None else \
                [i for i, sh, ed in zip(fit, share, edge) if sh > 0 and ed < self.SHARP]
            asked = dict(zip(idx, crops)) if soft else {}
            soft = [i for i in soft if i in asked]  # (not a carried name)
            if soft:
                probs[soft] = self._classify([asked[i] for i in soft], self.blurred)
                sel = sel[probs[sel].argmax(axis=1) != none]
                if not len(sel):
                    return []
        kept = [(float(pts[i, 0]), float(pts[i, 1])) for i in sel]
        mms = self.cal.to_table(kept)
        out = []
        for k, i in enumerate(sel):
            e = carried[i]
            if e is None:  # asked: its step from the nearest ball before that it may be
                e = _nearest(before, kept[k], int(probs[i].argmax()), 6.0 * loc.r_full)
            step = (kept[k][0] - e.px[0], kept[k][1] - e.px[1]) if e is not None else (0.0, 0.0)
            age = e.age + 1 if carried[i] is not None else 0
            # A name carried keeps its very probabilities (`_report` names again only new ones).
            p = carried[i].probs if carried[i] is not None else probs[i]
            out.append(_Entry(kept[k], (float(mms[k][0]), float(mms[k][1])), p, step, age,
                              e.step if e is not None else (0.0, 0.0)))
        return out

    def _report(self, frame: int, t: float) -> list[Observation]:
        names = self.ident.classes
        ents = self._entries
        # The names depend on the probabilities only: the same arrays (balls unchanged, or moved
        # and followed, or not looked at again) are named as the frame before.
        key = [e.probs for e in ents]  # (held, so that an id is not reused)
        # (Named again, too, the frame after a new entry was left out: it may be kept once seen
        # at rest, `_apart`.)
        if self._said is None or self._dropped or len(key) != len(self._said[0]) \
                or any(a is not b for a, b in zip(key, self._said[0])):
            prev = {id(p) for p in self._prev}  # (the entries are held there: no id is reused)
            held = np.array([self._resting(e, prev) and float(e.probs.max()) >= self.NAMED for e in ents], bool)
            labels = self._assign(np.array([e.probs for e in ents]).reshape(len(ents), len(names)), names,
                                  lambda i: self._apart(ents, i, prev), held)
            self._said = (key, [(lab, {n: float(v) for n, v in zip(names, e.probs) if n != "none"})
                                for e, lab in zip(ents, labels)])
            self._dropped = any(lab is None and id(e) not in prev for e, lab in zip(ents, labels))
        self._prev = ents
        sigma = PIXEL_SIGMA * self.mm_per_px
        return [Observation(frame, t, lab, probs, e.px, e.mm, sigma)
                for e, (lab, probs) in zip(ents, self._said[1]) if lab is not None]

    @staticmethod
    def _resting(e: _Entry, prev: set[int]) -> bool:
        """At rest, as it was the frame before (`prev`: the ids of that frame's entries), not a
        ball found anew this frame."""
        return e.step == (0.0, 0.0) and e.before == (0.0, 0.0) and id(e) in prev

    def _apart(self, ents: list[_Entry], i: int, prev: set[int]) -> bool:
        """Entry `i` is a ball at rest (as it was the frame before) apart from every other (its
        centre 1.5 radii or more from theirs), off the pockets' mouths, more likely a ball than
        not: a second look at a ball is within a radius of it, the parts of a streak move, and
        a rack's neighbours are a diameter apart."""
        e = ents[i]
        if not self._resting(e, prev):
            return False
        names = self.ident.classes
        if "none" in names and e.probs[names.index("none")] >= 0.5:
            return False
        px = np.array(e.px, float)
        others = np.array([o.px for o in ents if o is not e], float).reshape(-1, 2)
        if len(others) and float(np.min(np.hypot(*(others - px).T))) < 1.5 * self.locator.r_full:
            return False
        return not bool(self._at_pocket(px[None])[0])

    @staticmethod
    def _assign(probs: np.ndarray, names: list[str], apart=None, held: np.ndarray | None = None) -> list[str | None]:
        """One ball of each number. The surest claim is settled first; each later candidate's
        probabilities are then renormalised over the numbers still free (a stripe seen edge-on
        that looks 45 % like the 9 and 51 % like the 1, beside a sure 1, is the 9). A candidate
        whose belief lies almost all (95 %) on numbers already taken is not reported: a second
        look at a ball, or a look-alike (a pocket's mouth, the cue's ferrule) — unless what it
        looks like is the cue ball (a lag has two), or `apart(i)` says it is a ball at rest apart
        from every other: a racked ball that looks like its neighbour is still a ball (seed
        11003's 12, left out, had its track taken to the 10's spot, and back during the break's
        shot: a move, and five contacts before the cue ball reached the rack). Below SURE a
        candidate is "unknown", and keeps its probabilities. `held`: the balls at rest as they were,
        surely named (`NAMED`), which are settled first: a ball's name stays with it while it
        lies there unchanged, whatever a blur elsewhere looks like (seed 12001's break: the
        7, fast, read as the 11 at 99.9 %, took the name from the 11 at rest beside the rack,
        99.8 %; that 11 reported as unknown, the 7's track lost its way and the 7 was called
        disturbed)."""
        n = len(probs)
        out: list[str | None] = ["unknown"] * n
        if n == 0:
            return out
        cols = [j for j, c in enumerate(names) if c != "none"]
        P = probs[:, cols].astype(float)
        mass = np.maximum(P.sum(axis=1), 1e-9)
        free = np.ones(len(cols), bool)
        todo = list(range(n))
        first = np.zeros(n) if held is None else np.asarray(held, float)
        while todo:
            q = P[todo] * free
            i_rel = int(np.argmax(q.max(axis=1) + first[todo]))
            i = todo.pop(i_rel)
            qi = q[i_rel]
            left = qi.sum()
            if left < 0.05 * mass[i]:
                # Two white balls are a lag (or a ball in hand beside the cue ball): keep the
                # second as "unknown". Of a number there is only one.
                out[i] = "unknown" if names[cols[int(np.argmax(P[i]))]] == "cue" or (apart and apart(i)) else None
                continue
            j = int(np.argmax(qi))
            if qi[j] / left >= SURE:
                out[i] = names[cols[j]]
                free[j] = False
        return out
