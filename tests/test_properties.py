"""Properties over random valid game logs (hypothesis): the referee never crashes, conserves balls,
keeps each game's arithmetic, and refuses any malformed line with exit status 2."""
import contextlib
import io
import json
import math
import os

from helpers import header
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from adjudicate.engine import new_game, step
from adjudicate.games.base import apply_effect
from cueref.cli import main
from cueref.records import OBJECT_BALLS, POCKETS, RAILS, parse_entry, parse_header
from cueref.table import Table, rack_positions

T = Table()
D = T.ball_diameter_mm
GAMES = ["eight-ball", "nine-ball", "ten-ball", "straight-pool", "rotation-61"]
FAST = settings(max_examples=int(os.environ.get("CUEREF_EXAMPLES", 80)), deadline=None, suppress_health_check=[HealthCheck.too_slow])


def full_rack(game):
    n = OBJECT_BALLS[game]
    pts = [p for row in rack_positions(T, [1, 2, 3, 4, 5]) for p in row]
    return {str(i + 1): pts[i] for i in range(n)}


def free_point(draw, occupied, kitchen):
    for _ in range(50):
        x = draw(st.floats(T.R + 1, (T.head_string_x - 1) if kitchen else T.length_mm - T.R - 1))
        y = draw(st.floats(T.R + 1, T.width_mm - T.R - 1))
        if all(math.dist((x, y), p) >= D for p in occupied.values()):
            return (x, y)
    return (T.R + 2, T.R + 2)


@st.composite
def shot_for(draw, state, t0):
    """A physically loose but contract-valid shot from the position the referee holds."""
    game = state.header.game
    table = dict(state.table) if state.table else full_rack(game)
    if state.phase == "break" and not state.table:
        table = full_rack(game)
    if "cue" not in table or state.cue_ball != "in_place":
        table.pop("cue", None)
        table["cue"] = free_point(draw, table, kitchen=state.cue_ball == "in_hand_kitchen")
    balls = sorted(table)
    objects = [b for b in balls if b != "cue"]
    events = [{"t": 0.0, "type": "strike", "ball": "cue"}]
    t = 0.05
    if draw(st.integers(0, 30)) == 0:
        events.append({"t": 0.02, "type": "strike", "ball": "cue"})
    if objects and draw(st.integers(0, 9)) > 0:
        first = draw(st.sampled_from(objects))
        events.append({"t": t + 0.2, "type": "collision", "balls": ["cue", first],
                       "t_err": draw(st.sampled_from([0.0, 0.004, 0.01]))})
        t += 0.3
        for other in draw(st.lists(st.sampled_from(objects), max_size=3)):
            if other != first:
                events.append({"t": t, "type": "collision", "balls": [first, other]})
                t += 0.1
    for b in draw(st.lists(st.sampled_from(balls), max_size=6)):
        events.append({"t": t, "type": "cushion", "ball": b, "rail": draw(st.sampled_from(RAILS))})
        t += 0.1
    if draw(st.booleans()):
        events.append({"t": t, "type": "cross", "ball": "cue", "line": "head_string"})
        t += 0.05
    gone = draw(st.lists(st.sampled_from(balls), unique=True, max_size=3))
    for b in gone:
        if draw(st.integers(0, 12)) == 0:
            events.append({"t": t, "type": "off_table", "ball": b})
        else:
            events.append({"t": t, "type": "pocket", "ball": b, "pocket": draw(st.sampled_from(POCKETS))})
        t += 0.2
    stay = [b for b in balls if b not in gone]
    if stay and draw(st.integers(0, 20)) == 0:
        events.append({"t": t, "type": "disturbed", "ball": draw(st.sampled_from(stay))})
    events.append({"t": t + 1.0, "type": "stop"})
    after = {}
    for b in stay:
        x, y = table[b]
        if draw(st.booleans()):
            x = min(max(x + draw(st.floats(-300, 300)), T.R), T.length_mm - T.R)
            y = min(max(y + draw(st.floats(-300, 300)), T.R), T.width_mm - T.R)
        after[b] = [x, y]
    declared = {}
    if state.push_out_allowed and draw(st.integers(0, 3)) == 0:
        declared["push_out"] = True
    if game in ("eight-ball", "straight-pool") and draw(st.integers(0, 5)) == 0:
        declared["safety"] = True
    return {"kind": "shot", "t0": t0, "before": {k: list(v) for k, v in table.items()}, "after": after,
            "events": events, "declared": declared}


@st.composite
def game_logs(draw, max_shots=14):
    game = draw(st.sampled_from(GAMES))
    h = header(game, target_score=draw(st.integers(5, 40)) if game == "straight-pool" else None)
    h["rules"] = {k: v for k, v in h["rules"].items() if v is not None}
    hdr = parse_header(h)
    state = new_game(hdr)
    entries, rulings = [], []
    t0 = 0.0
    for _ in range(draw(st.integers(1, max_shots))):
        view = state  # the position the next shot starts from
        if state.pending is not None:
            if draw(st.booleans()):
                d = {"kind": "decision", "choice": draw(st.sampled_from(list(state.pending.options)))}
                _, state = step(state, parse_entry(d, hdr))
                entries.append(d)
                view = state
            else:  # no decision logged: the default will be carried out
                view = apply_effect(state, state.pending.effects[state.pending.default])
        s = draw(shot_for(view, t0))
        t0 = s["t0"] + s["events"][-1]["t"] + 2.0
        ruling, new = step(state, parse_entry(s, hdr))
        entries.append(s)
        rulings.append((state, s, ruling.to_dict(), new))
        state = new
    return h, entries, rulings


@FAST
@given(game_logs())
def test_never_crashes_and_every_foul_list_has_one_penalty(log):
    _, _, rulings = log
    for _, _, r, _ in rulings:
        assert r["legal"] == (r["fouls"] == [])
        if r["fouls"]:
            assert sum(f["penalised"] for f in r["fouls"]) == 1
            assert all(f["rule"].startswith(("WPA ", "VN ")) for f in r["fouls"])
        if r["next"]["options"]:
            assert r["next"]["default"] in r["next"]["options"]


@FAST
@given(game_logs())
def test_balls_are_conserved(log):
    _, _, rulings = log
    for before_state, s, r, new in rulings:
        before = {b for b in s["before"] if b != "cue"}
        after = {b for b in s["after"] if b != "cue"}
        pocketed, off, spotted = set(r["pocketed"]), set(r["off_table"]), set(r["spotted"])
        assert before == after | pocketed | off and not (after & (pocketed | off))
        assert spotted <= pocketed | off
        if r["rack_over"] is None and not r.get("reracked") and not r["next"].get("break"):
            on_table = {b for b in new.table if b != "cue"}
            assert on_table == after | spotted  # on the table + pocketed + spotted back = before
        if r.get("reracked"):
            assert len({b for b in new.table if b != "cue"}) == 15
        for b, p in r["spotted_at"].items():
            assert T.on_bed(tuple(p), slack=0.01)
            others = {k: v for k, v in s["after"].items()} | {k: v for k, v in r["spotted_at"].items() if k != b}
            assert all(math.dist(p, q) >= D - 0.2 for k, q in others.items() if k != b)


@FAST
@given(game_logs())
def test_scores_follow_each_games_arithmetic(log):
    h, _, rulings = log
    game = h["game"]
    for before_state, s, r, new in rulings:
        shooter = r["shooter"]
        old = dict(before_state.score)
        if game in ("eight-ball", "nine-ball", "ten-ball"):
            won = sum(r["score"].values()) - sum(before_state.racks.values())
            assert won == (1 if r["rack_over"] and r["rack_over"]["winner"] else 0)
            assert r["points"] == 0
        elif game == "straight-pool":
            assert r["score"][shooter] - old[shooter] == r["points"]
            other = next(p for p in r["score"] if p != shooter)
            assert r["score"][other] == old[other]
            if r["legal"]:
                assert r["points"] in (0, len(r["pocketed"]))
            else:
                assert r["points"] in (-1, -2, -16)
        else:
            assert r["score"][shooter] - old[shooter] == r["points"]
            assert r["points"] == (sum(int(b) for b in r["pocketed"]) if r["legal"] else 0)
            assert all(v >= 0 for v in r["score"].values()) and sum(r["score"].values()) <= 120
            if r["rack_over"] is None:
                assert max(r["score"].values()) < 61  # VN 79: 61 ends the rack at once
            if max(r["score"].values()) >= 61:
                assert r["rack_over"]["winner"] == max(r["score"], key=r["score"].get)


def run_cli(lines, tmp):
    path = tmp / "g.jsonl"
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(["adjudicate", str(path)])
    return code, out.getvalue(), err.getvalue()


CORRUPTIONS = {
    "truncated": lambda text, obj: text[: max(1, len(text) // 2)],
    "t0 as text": lambda text, obj: json.dumps({**obj, "t0": "late"}) if obj["kind"] == "shot" else None,
    "unknown ball": lambda text, obj: json.dumps({**obj, "before": {**obj["before"], "99": [1, 1]}}) if obj["kind"] == "shot" else None,
    "unknown event": lambda text, obj: json.dumps({**obj, "events": obj.get("events", []) + [{"t": 0.1, "type": "zzz"}]}) if obj["kind"] == "shot" else None,
    "no events": lambda text, obj: json.dumps({k: v for k, v in obj.items() if k != "events"}) if obj["kind"] == "shot" else None,
    "unknown choice": lambda text, obj: json.dumps({**obj, "choice": "coin_toss"}) if obj["kind"] == "decision" else None,
    "a list": lambda text, obj: "[1, 2, 3]",
}


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture])
@given(log=game_logs(max_shots=6), which=st.sampled_from(sorted(CORRUPTIONS)), data=st.data())
def test_a_malformed_line_always_gives_exit_2(tmp_path, log, which, data):
    h, entries, _ = log
    k = data.draw(st.integers(0, len(entries) - 1))
    text = json.dumps(entries[k])
    bad = CORRUPTIONS[which](text, entries[k]) or CORRUPTIONS["truncated"](text, entries[k])
    lines = [json.dumps(h)] + [json.dumps(e) for e in entries[:k]] + [bad] + [json.dumps(e) for e in entries[k + 1:]]
    code, out, err = run_cli(lines, tmp_path)
    assert code == 2
    assert f"line {k + 2}" in err
    printed = [json.loads(x) for x in out.splitlines()]
    assert len(printed) == sum(e["kind"] == "shot" for e in entries[:k])


@FAST
@given(game_logs())
def test_logs_that_follow_the_referee_raise_no_continuity_warnings(log):
    _, _, rulings = log
    assert all("warnings" not in r for _, _, r, _ in rulings)
