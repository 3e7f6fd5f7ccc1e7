"""The seam between vision and tracking: one ball seen in one frame.

`cueref detect` writes these as JSON Lines and `cueref track` reads them back, so a detector run
can be saved once and tracked many times.
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

from cueref.records import RecordError


@dataclass
class Observation:
    frame: int
    t: float  # media time of the frame (s)
    ball: str  # "cue", "1".."15" or "unknown"
    probs: dict[str, float]
    px: tuple[float, float]
    mm: tuple[float, float]  # centre on the plane of ball centres, table frame
    sigma_mm: float  # 1-sigma centre uncertainty per axis
    extra: dict = field(default_factory=dict)

    def to_dict(self) -> dict:
        top = sorted(self.probs.items(), key=lambda kv: -kv[1])[:3]
        return {"frame": self.frame, "t": round(self.t, 4), "ball": self.ball,
                "probs": {k: round(v, 4) for k, v in top},
                "px": [round(self.px[0], 2), round(self.px[1], 2)],
                "mm": [round(self.mm[0], 1), round(self.mm[1], 1)], "sigma_mm": round(self.sigma_mm, 2)}

    @classmethod
    def from_dict(cls, d: dict, where: str = "observation") -> "Observation":
        try:
            probs = {str(k): float(v) for k, v in (d.get("probs") or {}).items()}
            px = d.get("px") or [float("nan"), float("nan")]
            o = cls(frame=int(d["frame"]), t=float(d["t"]), ball=str(d.get("ball", "unknown")), probs=probs,
                    px=(float(px[0]), float(px[1])), mm=(float(d["mm"][0]), float(d["mm"][1])),
                    sigma_mm=float(d.get("sigma_mm", 1.0)))
            bad = [k for k, v in (("t", o.t), ("mm", o.mm[0]), ("mm", o.mm[1]), ("sigma_mm", o.sigma_mm))
                   if not math.isfinite(v)]
            if bad or o.sigma_mm <= 0:
                raise ValueError(f"{bad[0] if bad else 'sigma_mm'} must be a finite (positive) number")
            return o
        except (KeyError, TypeError, ValueError, IndexError) as e:
            raise RecordError(where, f"an observation needs frame, t, mm [x, y] (and may have ball, probs, "
                                     f"px, sigma_mm): {e!r}") from None
