"""A small progress bar on stderr for long commands (no dependency): redrawn in place on a
terminal, a line every 10 % otherwise (logs, CI)."""
from __future__ import annotations

import sys
import time


class Progress:
    def __init__(self, stream=None, width: int = 30):
        self.stream = stream or sys.stderr
        self.width = width
        self.tty = hasattr(self.stream, "isatty") and self.stream.isatty()
        self._last = 0.0
        self._decile: dict[str, int] = {}
        self._t0 = time.monotonic()

    def __call__(self, stage: str, done: int, total: int) -> None:
        total = max(total, 1)
        frac = min(done / total, 1.0)
        now = time.monotonic()
        if self.tty:
            if done < total and now - self._last < 0.1:
                return
            self._last = now
            bar = "#" * int(frac * self.width)
            self.stream.write(f"\r{stage:>9} [{bar:<{self.width}}] {done}/{total} {now - self._t0:6.1f}s")
            if done >= total:
                self.stream.write("\n")
        else:
            d = int(frac * 10)
            if d > self._decile.get(stage, -1):
                self._decile[stage] = d
                self.stream.write(f"{stage}: {done}/{total} ({frac:.0%}) {now - self._t0:.1f}s\n")
        self.stream.flush()
