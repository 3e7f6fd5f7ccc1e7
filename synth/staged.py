"""Staged scenarios: one short game per situation a camera referee must get right, set up so that
the physics produces it for sure (a random game only produces most of them now and then).

Each stage names what must show in its record or ruling (`expect`), which the tests check and the
truth file records. Mid-rack stages start their log from a position (`start` in the header).
"""
from __future__ import annotations

import random
from dataclasses import dataclass, field

from adjudicate.racks import rack
from cueref.records import GAMES
from cueref.table import Table
from synth.physics import Strike, aim_direction
from synth.scenario import Plan, plan_break

LAG_VARIANTS = ("clean", "late", "cross", "side", "strong", "close", "pocketed", "off", "foul", "both")


@dataclass
class Stage:
    name: str
    game: str
    expect: str  # "break", "event:<type>", "foul:<code>", "legal", "push_out", "lag:<code or reason>"
    start: dict | None = None
    lag: str | None = None
    shots: list[tuple[dict, Plan]] = field(default_factory=list)


def _shot(kind, positions, target, speed, *, side=0.0, vertical=0.0, declared=None, blocker=None, aim=None,
          cue_at=None):
    direction = aim if aim is not None else aim_direction(positions["cue"], positions[target])
    return (positions, Plan(kind, Strike(speed, direction, side=side, vertical=vertical), target=target,
                            declared=declared or {}, blocker=blocker, cue_at=cue_at))


def stages(table: Table) -> list[Stage]:
    L, W, R = table.length_mm, table.width_mm, table.R
    y = W / 2
    out: list[Stage] = []
    rng = random.Random(7)
    for g in GAMES:
        balls = rack(g, table, rng)
        plan = plan_break(_RNG(), _BreakState(g), balls)
        out.append(Stage(f"break-{g}", g, "break", shots=[({**balls, "cue": plan.cue_at}, plan)]))
    a = {"shooter": "A"}
    # 3.2 / VN 83: a ball other than the lowest first.
    pos = {"cue": (800.0, y), "5": (1400.0, y), "3": (1650.0, 250.0), "9": (2200.0, 1000.0)}
    out.append(Stage("wrong-ball-first", "nine-ball", "foul:wrong_ball_first", start=a,
                     shots=[_shot("wrong_ball_first", pos, "5", 3.0)]))
    # 3.2 benefit of the doubt: the legal 3 and the illegal 5, frozen side by side, hit together.
    pos = {"cue": (800.0, y), "3": (1500.0, y - R), "5": (1500.0, y + R), "9": (2200.0, 1000.0)}
    out.append(Stage("simultaneous-first-contact", "nine-ball", "legal", start=a,
                     shots=[_shot("simultaneous", pos, "3", 1.2, aim=0.0)]))
    # 3.3: no contact, and no rail after contact.
    pos = {"cue": (800.0, 400.0), "3": (1700.0, 900.0), "9": (2200.0, 1000.0)}
    out.append(Stage("no-contact", "nine-ball", "foul:no_contact", start=a,
                     shots=[_shot("no_contact", pos, "3", 1.0, aim=180.0)]))
    pos = {"cue": (900.0, y), "3": (1150.0, y), "9": (2200.0, 1000.0)}
    out.append(Stage("no-rail", "nine-ball", "foul:no_rail", start=a, shots=[_shot("soft", pos, "3", 0.42)]))
    # 3.1: the cue ball rolled into a corner pocket.
    pos = {"cue": (2150.0, 950.0), "3": (1200.0, 300.0), "9": (1600.0, 500.0)}
    out.append(Stage("scratch", "nine-ball", "foul:cue_ball_pocketed", start=a,
                     shots=[_shot("scratch", pos, "3", 1.6, aim=aim_direction(pos["cue"], (L, W)))]))
    # 3.5: an object ball driven hard into the side rail jumps it.
    pos = {"cue": (1500.0, 450.0), "3": (1500.0, 900.0), "9": (2200.0, 300.0)}
    out.append(Stage("off-table", "nine-ball", "event:off_table", start=a,
                     shots=[_shot("off_table", pos, "3", 5.0, aim=94.0)]))
    # 2.9 / 3.6: jumps over a blocking ball, clean and clipped.
    pos = {"cue": (800.0, y), "5": (1100.0, y), "3": (1550.0, y + 40.0), "9": (2200.0, 1000.0)}
    out.append(Stage("jump-clean", "nine-ball", "legal", start=a,
                     shots=[_shot("jump_clean", pos, "3", 3.0, blocker="5")]))
    out.append(Stage("jump-clipped", "nine-ball", "foul:wrong_ball_first", start=a,
                     shots=[_shot("jump_clipped", pos, "3", 3.0, blocker="5")]))
    # 3.6 / VN 88: a ball away from the play moves by itself (a hand, the cue).
    pos = {"cue": (900.0, y), "3": (1500.0, y), "7": (300.0, 150.0), "9": (2200.0, 1000.0)}
    out.append(Stage("disturbed", "nine-ball", "foul:ball_disturbed", start=a,
                     shots=[_shot("disturbed", pos, "3", 2.5)]))
    # 3.10: ball in hand behind the head string, placed in front of it (eight-ball, after a foul break).
    pos = {"cue": (table.head_string_x + 25.0, 600.0), "3": (1500.0, 600.0), "12": (2000.0, 1000.0),
           "8": (2200.0, 300.0)}
    out.append(Stage("kitchen-placement", "eight-ball", "foul:bad_cue_ball_placement",
                     start={"shooter": "A", "cue_ball": "in_hand_kitchen"}, shots=[_shot("kitchen_placement", pos, "3", 2.5)]))
    # VN 93: from the kitchen, the lowest ball behind the head string hit before crossing.
    pos = {"cue": (200.0, y), "1": (450.0, 900.0), "2": (1500.0, 300.0), "3": (2000.0, 1000.0)}
    pos.update({str(n): (1000.0 + 90 * n, 150.0 + 60 * (n % 5)) for n in range(4, 16)})
    out.append(Stage("kitchen-play", "rotation-61", "foul:bad_play_from_kitchen",
                     start={"shooter": "B", "cue_ball": "in_hand_kitchen"}, shots=[_shot("kitchen_play", pos, "1", 1.5)]))
    # 3.9: the second shot is struck while the first one's balls still roll.
    pos = {"cue": (800.0, y), "3": (1300.0, y + 150.0), "9": (2200.0, 1000.0)}
    out.append(Stage("balls-moving", "nine-ball", "foul:balls_moving", start=a,
                     shots=[_shot("pot", pos, "3", 2.2), (None, Plan("moving", Strike(1.5, 0.0), target="3"))]))
    # 5.4: a push out after the break.
    pos = {"cue": (900.0, y), "3": (1500.0, 400.0), "9": (2200.0, 1000.0)}
    out.append(Stage("push-out", "nine-ball", "push_out", start={"shooter": "B", "push_out_allowed": True},
                     shots=[_shot("push_out", pos, "3", 0.8, aim=100.0, declared={"push_out": True})]))
    for v in LAG_VARIANTS:
        code = {"clean": "winner", "late": "late_strike", "cross": "crossed_long_string", "side": "side_rail",
                "strong": "foot_rail_twice", "close": "too_close", "pocketed": "pocketed", "off": "off_table", "foul": "foul",
                "both": "both_disqualified"}[v]
        out.append(Stage(f"lag-{v}", "nine-ball", f"lag:{code}", lag=v))
    return out


class _RNG:
    """A fixed stand-in for plan_break's generator: staged breaks are the same every time."""

    def uniform(self, a, b):
        return (a + b) / 2

    def normal(self, mu, sigma):
        return mu


@dataclass
class _BreakState:
    game: str

    @property
    def header(self):
        from cueref.records import Header, Rules

        return Header(self.game, ("A", "B"), "A", Table(), Rules())

