"""The rules half of cueref: game logs in, rulings out (pure; see `adjudicate.engine`)."""
from adjudicate.engine import decide, new_game, run, step

__all__ = ["decide", "new_game", "run", "step"]
