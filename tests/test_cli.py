"""`cueref adjudicate` end to end, as a user runs it: rulings out, bad input refused by line and field."""
import json
import subprocess
import sys
from pathlib import Path

import pytest
from helpers import header, hit, pot, rail, shot, stop, strike

ROOT = Path(__file__).resolve().parents[1]
SAMPLES = ROOT / "datasets" / "samples"


def cueref(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "cueref", *map(str, args)], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def write_log(tmp_path, lines, name="game.jsonl"):
    p = tmp_path / name
    p.write_text("".join((ln if isinstance(ln, str) else json.dumps(ln)) + "\n" for ln in lines), encoding="utf-8")
    return p


RACK = {"cue": (300.0, 600.0), "1": (1848.0, 635.0), "2": (1877.0, 606.0), "9": (1905.0, 635.0)}
BREAK = shot(RACK, [strike(), hit(0.3, "1"), pot(0.9, "2"), stop(4.0)], t0=1.0, moved={"cue": (1200.0, 600.0)})
AFTER = {"cue": (1200.0, 600.0), "1": (1848.0, 635.0), "9": (1905.0, 635.0)}
MISS = shot(AFTER, [strike(), hit(0.4, "1"), rail(1.0, "1", "foot"), stop(3.0)], t0=10.0)


def test_the_nine_ball_sample_rules_every_lag_and_shot():
    res = cueref("adjudicate", SAMPLES / "nine-ball.jsonl")
    assert res.returncode == 0, res.stderr
    rulings = [json.loads(ln) for ln in res.stdout.splitlines()]
    entries = [json.loads(ln) for ln in (SAMPLES / "nine-ball.jsonl").read_text().splitlines()[1:]]
    assert len(rulings) == sum(e["kind"] in ("lag", "shot") for e in entries)
    assert rulings[0]["lag"] is True and rulings[0]["winner_player"] == "Anna"
    foul = next(r for r in rulings[1:] if not r["legal"])
    assert foul["shooter"] == "Ben" and foul["fouls"][0]["rule"] == "WPA 3.2"
    assert rulings[-1]["rack_over"]["winner"] == "Anna" and rulings[-1]["score"] == {"Anna": 1, "Ben": 0}


@pytest.mark.parametrize("name", ["nine-ball", "eight-ball", "rotation-61"])
def test_every_sample_explains_one_line_per_ruling(name):
    res = cueref("adjudicate", SAMPLES / f"{name}.jsonl", "--explain")
    assert res.returncode == 0, res.stderr
    entries = [json.loads(ln) for ln in (SAMPLES / f"{name}.jsonl").read_text().splitlines()[1:]]
    lines = res.stdout.splitlines()
    assert len(lines) == sum(e["kind"] in ("lag", "shot") for e in entries)
    assert all(("LEGAL" in ln or "FOUL" in ln or "lag" in ln) for ln in lines)


def test_explain_names_the_shooter_the_call_and_the_article(tmp_path):
    foul = shot(AFTER, [strike(), hit(0.4, "9"), rail(1.0, "9", "foot"), stop(3.0)], t0=10.0)
    res = cueref("adjudicate", write_log(tmp_path, [header(), BREAK, foul]), "--explain")
    last = res.stdout.splitlines()[-1]
    assert "A:" in last and "FOUL wrong ball first (WPA 3.2)" in last and "B to shoot, ball in hand anywhere" in last


def test_reads_standard_input():
    text = "\n".join(json.dumps(x) for x in [header(), BREAK, MISS]) + "\n"
    res = cueref("adjudicate", "-", stdin=text)
    assert res.returncode == 0 and len(res.stdout.splitlines()) == 2


@pytest.mark.parametrize("bad,field", [
    ('{"kind": "shot", "t0": 20.0, "before": {"cue": [1, 2]', None),  # not JSON
    ({**MISS, "t0": 20.0, "events": [{"t": 0.1, "type": "cushion", "ball": "1", "rail": "top"}]}, "events[0].rail"),
    ({**MISS, "t0": 20.0, "before": {**MISS["before"], "14": [100, 100]}}, "before.14"),
    ({"kind": "decision", "choice": "pass"}, "choice"),  # nobody was offered a choice
    ({"kind": "rally"}, "kind"),
])
def test_bad_line_exits_2_naming_line_and_field_and_keeps_what_was_ruled(tmp_path, bad, field):
    log = write_log(tmp_path, [header(), BREAK, MISS, bad, MISS])
    res = cueref("adjudicate", log)
    assert res.returncode == 2
    assert "line 4" in res.stderr
    if field:
        assert f"field '{field}'" in res.stderr
    else:
        assert "not valid JSON" in res.stderr
    rulings = [json.loads(ln) for ln in res.stdout.splitlines()]
    assert [r["shot"] for r in rulings] == [1, 2]  # the two shots before the bad line


def test_bad_header_and_missing_file_exit_2(tmp_path):
    res = cueref("adjudicate", write_log(tmp_path, [{**header(), "game": "snooker"}]))
    assert res.returncode == 2 and "line 1, field 'game'" in res.stderr and res.stdout == ""
    res = cueref("adjudicate", tmp_path / "nope.jsonl")
    assert res.returncode == 2 and "cannot read" in res.stderr
    res = cueref("adjudicate", write_log(tmp_path, []))
    assert res.returncode == 2 and "empty" in res.stderr


def test_not_utf8_exits_2(tmp_path):
    p = tmp_path / "latin1.jsonl"
    p.write_bytes(json.dumps(header(players=["Jörg", "B"], breaker="B"), ensure_ascii=False).encode("latin-1") + b"\n")
    res = cueref("adjudicate", p)
    assert res.returncode == 2 and "UTF-8" in res.stderr


def test_help_describes_the_command():
    res = cueref("adjudicate", "--help")
    assert res.returncode == 0 and "exit status 2" in res.stdout


def test_every_command_has_help_that_says_what_it_does():
    from cueref.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert {"adjudicate", "track", "review", "check", "live"} <= set(sub.choices)
    for name in sub.choices:
        res = cueref(name, "--help")
        assert res.returncode == 0 and "usage: cueref " + name in res.stdout, name
    assert "--format {html,csv,all}" in cueref("review", "--help").stdout
    assert "--token" in cueref("live", "--help").stdout and "--at" in cueref("check", "--help").stdout


def test_live_with_a_camera_that_is_not_there_says_so_and_exits_2(tmp_path):
    res = cueref("live", "--source", "9", "--game", "nine-ball", "--out", tmp_path / "l", "--port", "0",
                 "--reconnect-s", "0.5", "--exit-at-end")
    assert res.returncode == 2 and "9: cannot open; retrying" in res.stderr and "no picture for 0.5 s" in res.stderr
    assert (tmp_path / "l" / "game.jsonl").exists()  # the log is there, with its header
