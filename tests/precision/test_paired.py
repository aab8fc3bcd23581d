"""Paired comparisons (issue 12): shared streams, differences with their own SE, `btsim
compare`."""

import json

import numpy as np
import pytest

from sim import engine
from sim.api import compare
from sim.cli import main as cli
from sim.demo import MODEL as DEMO
from sim.errors import ConfigError
from sim.experiment import load, run

EXP = {"name": "pair", "model": "punch-demo", "trials": 20_000, "seed": 2,
       "grid": {"tons": [20, 60], "piloting": [3, 4, 5]}, "paired": ["piloting"],
       "baseline": {"piloting": 4}}


def test_streams_drop_the_paired_axes():
    exp = load(EXP)
    streams, pairs = exp.streams()
    # order: tons outer, piloting inner; stream = index of tons
    assert streams == [0, 0, 0, 1, 1, 1]
    assert pairs == {0: 1, 2: 1, 3: 4, 5: 4}
    exp2 = load(EXP | {"paired": ["tons"], "baseline": {}})
    streams, pairs = exp2.streams()
    assert streams == [0, 1, 2, 0, 1, 2]
    assert pairs == {3: 0, 4: 1, 5: 2}
    assert load(EXP | {"paired": [], "baseline": {}}).streams() == ([0, 1, 2, 3, 4, 5], {})


def test_scenarios_sharing_a_stream_share_their_dice():
    """Pairing on tons: the hit roll is the same dice, so p_hit is identical and its
    difference exactly 0 with SE 0; damage differs by the damage per hit only."""
    exp = EXP | {"paired": ["tons"], "baseline": {}, "grid": {"tons": [20, 60]}}
    frame = run(exp, chunk_size=1000, progress=False)
    assert frame["p_hit"][0] == frame["p_hit"][1]
    assert frame["p_hit_diff"][1] == 0 and frame["p_hit_diff_se"][1] == 0
    ratio = frame["damage_points"][1] / frame["damage_points"][0]
    assert frame["expected_damage"][1] == pytest.approx(ratio * frame["expected_damage"][0])


def test_diff_equals_difference_of_means_and_covers_exact():
    frame = run(EXP, chunk_size=1000, progress=False)
    for m in ("p_hit", "expected_damage", "p_head_hit"):
        for s, b in {0: 1, 2: 1, 3: 4, 5: 4}.items():
            assert frame[m + "_diff"][s] == pytest.approx(frame[m][s] - frame[m][b], abs=1e-12)
            exact = frame[m + "_exact"][s] - frame[m + "_exact"][b]
            se = frame[m + "_diff_se"][s]
            assert abs(frame[m + "_diff"][s] - exact) < 4 * se, (m, s)
            lo, hi = frame[m + "_diff_ci_low"][s], frame[m + "_diff_ci_high"][s]
            assert lo < frame[m + "_diff"][s] < hi
        assert (frame[m + "_diff"][[1, 4]] == 0).all()  # baseline rows


def test_paired_se_is_smaller_than_independent_and_honest():
    """Across seeds, the spread of the paired difference matches its reported SE, and that
    SE is well below the independent one."""
    diffs, ses, indep = [], [], []
    for seed in range(40):
        f = compare(DEMO, {"piloting": 4}, {"piloting": 5}, {"tons": 60}, trials=4000,
                    seed=seed, chunk_size=250, metrics=["expected_damage"])
        diffs.append(f["diff"][0])
        ses.append(f["diff_se"][0])
        indep.append(f["independent_se"][0])
    assert np.mean(ses) < 0.75 * np.mean(indep)
    assert 0.6 < np.std(diffs, ddof=1) / np.mean(ses) < 1.5


def test_paired_target_error_stops_groups_together():
    exp = EXP | {"target_error": 0.02, "target_metric": ["p_hit"], "trials": 1}
    frame = run(exp, chunk_size=256, progress=False)
    used = frame["trials_used"].to_numpy()
    assert (used[:3] == used[0]).all() and (used[3:] == used[3]).all()
    assert np.isfinite(frame["p_hit_diff_se"]).all()


@pytest.mark.parametrize(("data", "field"), [
    ({"paired": ["nope"]}, "paired"), ({"baseline": {"tons": 20}}, "baseline"),
    ({"baseline": {"piloting": 9}}, "baseline.piloting")])
def test_bad_paired_keys(data, field):
    with pytest.raises(ConfigError) as err:
        load(EXP | data)
    assert err.value.field == field


def test_pairs_must_share_a_stream():
    scn = [DEMO.scenario({}), DEMO.scenario({"tons": 70})]
    with pytest.raises(ValueError, match="share a stream"):
        engine.sample_run(DEMO, scn, 100, 0, pairs={1: 0})


def test_compare_cli_text_and_json(capsys):
    args = ["compare", "punch-demo", "--set", "tons=70", "--a", "piloting=4", "--b",
            "piloting=5", "--trials", "4000", "--chunk-size", "500", "--seed", "1"]
    assert cli(args) == 0
    out = capsys.readouterr().out
    assert "paired streams" in out and "expected_damage" in out
    assert cli([*args, "--json", "--metric", "p_hit"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["paired"] is True and doc["rows"][0]["metric"] == "p_hit"
    exact = doc["rows"][0]["b_exact"] - doc["rows"][0]["a_exact"]
    assert abs(doc["rows"][0]["diff"] - exact) < 4 * doc["rows"][0]["diff_se"]
    assert cli([*args, "--independent", "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert all(r["diff_se"] == r["independent_se"] for r in doc["rows"])


def test_compare_cli_errors(capsys):
    assert cli(["compare", "punch-demo", "--a", "piloting", "--trials", "10"]) == 2
    assert cli(["compare", "punch-demo", "--a", "piloting=4", "--b", "piloting=5"]) == 2
    assert cli(["compare", "punch-demo", "--a", "tons=73", "--trials", "10"]) == 2
    err = capsys.readouterr().err
    assert err.count("btsim: error:") == 3 and "Traceback" not in err
