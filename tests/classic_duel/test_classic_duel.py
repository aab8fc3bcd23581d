"""The classic-duel model: first-turn cross-checks against the fire model's exact damage and
the exact ``hit`` results, rule effects, the engine door and bad input."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from classic_duel_helpers import HBK, LOCUST, WVR, only_weapon, unarmed

from sim.api import fire, run_scenario
from sim.classic.duel import kernel
from sim.classic.duel.api import classic_duel
from sim.classic.duel.scenario import build as _build
from sim.classic.hit_api import hit
from sim.errors import UserError

#: these tests check the duel with imposed movement (issue 22: the default tactic became
#: competent at a fixed range): both sides pinned to stand-and-fire unless a test says
SAF = {"tactic_a": "stand-and-fire", "tactic_b": "stand-and-fire"}


def build(params: dict):  # noqa: ANN201 - the scenario builder, stand-and-fire pinned
    return _build({**SAF, **params})


def _first_turn(params: dict, n: int, seed: int) -> dict:
    scn = build({**params, "turns": 1})
    return kernel.run_block(scn, None, np.random.default_rng(seed), n)


def test_first_turn_damage_matches_the_fire_model_exactly() -> None:
    """Turn 1: both sides fresh, so the damage each deals is the fire model's exact turn-1
    expected damage (same range, movement and target movement)."""
    n = 6000
    out = _first_turn({"unit_a": HBK, "unit_b": WVR, "range": 6, "moved_a": "walk",
                       "moved_b": "run"}, n, 3)
    wvr_run = 8  # WVR-6R: walk 5, run 8 -> TMM 3
    ex_a = fire(HBK, range=6, moved="walk", target_hexes=wvr_run, turns=1)
    ex_b = fire(WVR, range=6, moved="run", target_hexes=4, turns=1)  # HBK walks 4
    for d, ex in ((out["dealt"][0, 0], ex_a), (out["dealt"][1, 0], ex_b)):
        mu = float(ex.frame["expected_damage"].iloc[0])
        se = d.std() / np.sqrt(n)
        assert abs(d.mean() - mu) < 4 * se + 1e-9, (d.mean(), mu, se)


def test_p_destroyed_in_turn_one_matches_hit_for_one_ac20() -> None:
    """One AC/20 against an unarmed Locust: P(Locust destroyed in turn 1) = P(hit) x the
    exact ``hit`` P(destroyed) of a 20-point group from the front (piloting 0 keeps the
    Locust standing, so no fall damage is added)."""
    a = only_weapon(HBK, "IS AC/20")
    b = unarmed(LOCUST)
    n = 8000
    out = _first_turn({"unit_a": a, "unit_b": b, "range": 3, "piloting_b": 0}, n, 5)
    p_hit = 33 / 36          # gunnery 4 + short 0 + TMM 0 -> TN 4
    ref = p_hit * hit(b, damage=20, side="front")["p_destroyed"]
    got = (out["dead_turn"][1] == 1).mean()
    se = np.sqrt(ref * (1 - ref) / n)
    assert abs(got - ref) < 4 * se, (got, ref, se)


def test_unarmed_sides_time_out_and_armed_side_wins() -> None:
    out = _first_turn({"unit_a": unarmed(LOCUST), "unit_b": unarmed(LOCUST), "range": 3},
                      200, 1)
    assert (out["dead_turn"] == 0).all() and (out["dealt"] == 0).all()
    scn = build({"unit_a": HBK, "unit_b": unarmed(LOCUST), "range": 3, "turns": 15})
    o = kernel.run_block(scn, None, np.random.default_rng(2), 400)
    assert (o["dead_turn"][0] == 0).all()          # the Locust cannot hurt it
    assert (o["dead_turn"][1] > 0).mean() > 0.95


def test_physical_attacks_add_damage_at_range_one() -> None:
    """Two unarmed 'Mechs at range 1 only punch and kick: damage with 'best', none without;
    the expected turn-1 damage is the exact best choice for fresh 'Mechs."""
    base = {"unit_a": unarmed(HBK), "unit_b": unarmed(HBK), "range": 1}
    none = _first_turn({**base, "physical_a": "none", "physical_b": "none"}, 300, 1)
    assert (none["dealt"] == 0).all()
    n = 6000
    best = _first_turn(base, n, 4)
    # HBK 50 t, piloting 5, stood still: punch TN 5 per arm (p 30/36) x 5; kick TN 3 (p
    # 35/36) x 10 minus own fall risk: miss 1/36 x failed PSR at TN 5 (10/36) x 5
    e_punch = 2 * (30 / 36) * 5
    e_kick = (35 / 36) * 10 - (1 / 36) * (10 / 36) * 5
    assert e_kick > e_punch
    d = best["dealt"][0, 0]
    assert abs(d.mean() - (35 / 36) * 10) < 4 * d.std() / np.sqrt(n)


def test_closing_ranges_and_moves() -> None:
    scn = build({"unit_a": HBK, "unit_b": WVR, "closing": True, "range": 15, "turns": 4,
                 "moved_a": "walk"})
    # HBK runs 6, WVR runs 8: 15 -> 1 in one turn
    assert scn.ranges == (1, 1, 1, 1)
    assert scn.moves[0] == ("run", "run") and scn.moves[1] == ("walk", "stand")


def test_engine_door_metrics_and_bv() -> None:
    res = classic_duel(HBK, WVR, range=6, turns=5, trials=300, seed=1)
    f = res.frame
    assert list(f["turn"]) == [1, 2, 3, 4, 5]
    row = f.iloc[0]
    total = row["p_win_a"] + row["p_win_b"] + row["p_draw"] + row["p_timeout"]
    assert abs(total - 1) < 1e-9
    assert (np.diff(f["p_b_destroyed_by"]) >= 0).all()
    causes = sum(row[f"p_b_destroyed_by_{c}"] for c in
                 ("head", "center_torso", "engine", "pilot", "ammunition"))
    assert abs(causes - f["p_b_destroyed_by"].iloc[-1]) < 1e-9
    assert res.metadata["facts"]["bv_a"] == 1041
    same = run_scenario("classic-duel", {"unit_a": HBK, "unit_b": WVR, "range": 6,
                                         "turns": 5}, trials=300, seed=1)
    assert same.frame.equals(f)


def test_bv_override_and_unknown_note() -> None:
    scn = build({"unit_a": HBK, "unit_b": WVR, "bv_a": 1000, "gunnery_a": 4,
                 "piloting_a": 5})
    assert scn.a.bv["bv_at_skill"] == 1000


@pytest.mark.parametrize("params, needle", [
    ({"unit_a": HBK}, "unit_b"),
    ({"unit_a": HBK, "unit_b": "No Such Mech"}, "unit_b"),
    ({"unit_a": HBK, "unit_b": WVR, "range": 0}, "range"),
    ({"unit_a": HBK, "unit_b": WVR, "moved_b": "fly"}, "moved_b"),
    ({"unit_a": HBK, "unit_b": WVR, "physical_a": "bite"}, "physical_a"),
    ({"unit_a": HBK, "unit_b": WVR, "moved_a": "jump"}, "moved_a"),
])
def test_bad_params(params: dict, needle: str) -> None:
    with pytest.raises(UserError, match=needle):
        build(params)


@pytest.mark.parametrize("argv", [
    [HBK],
    [HBK, "No Such Mech"],
    [HBK, WVR, "--range", "0"],
    [HBK, WVR, "--rule", "nope=1"],
])
def test_cli_bad_input_exits_2_with_one_line(argv: list[str]) -> None:
    p = subprocess.run([sys.executable, "-m", "sim", "classic-duel", *argv, "--trials", "10"],
                       capture_output=True, text=True)
    assert p.returncode == 2, p.stderr
    assert len(p.stderr.strip().splitlines()) == 1 and "Traceback" not in p.stderr


def test_cli_json_runs() -> None:
    import json

    p = subprocess.run([sys.executable, "-m", "sim", "classic-duel", HBK, WVR, "--ranges",
                        "9,6,3", "--turns", "3", "--trials", "200", "--json"],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    doc = json.loads(p.stdout)
    assert [t["range"] for t in doc["turns"]] == [9, 6, 3]
    assert doc["bv_b"] == 1101 and 0 <= doc["p_win_a"] <= 1


def test_callable_physical_policy_only_kicks() -> None:
    """A callable physical policy (2 = kick) is obeyed: only kicks, so damage is a multiple
    of the kick damage (10 for 50 t)."""
    seen = {}

    def kick(info: dict) -> np.ndarray:
        seen.update(info)
        return np.full(len(info["e_kick"]), 2)

    out = _first_turn({"unit_a": unarmed(HBK), "unit_b": unarmed(HBK), "range": 1,
                       "physical_a": kick, "physical_b": "none"}, 500, 7)
    d = out["dealt"][0, 0]
    assert set(np.unique(d)) <= {0, 10} and (d == 10).mean() > 0.9
    assert {"e_punch", "e_kick", "punch_tn", "kick_tn"} <= set(seen)


def test_classic_arguments_extend_another_duel_parser(capsys: pytest.CaptureFixture[str]) -> None:
    """``btsim duel --game classic``: the Classic options join a parser that already has its
    own positionals and shared flags (--range, --turns, --trials, --seed, --json)."""
    import argparse
    import json

    from sim.cli.classic_duel import add_classic_arguments, run_classic

    p = argparse.ArgumentParser()
    p.add_argument("units", nargs="*")
    p.add_argument("--game", default="as")
    for flag in ("--range", "--turns", "--trials", "--seed"):
        p.add_argument(flag, default=None)
    p.add_argument("--json", action="store_true")
    add_classic_arguments(p, units=False)
    args = p.parse_args([HBK, WVR, "--game", "classic", "--turns", "2", "--trials", "50",
                         "--gunnery-a", "3", "--json"])
    assert run_classic(args) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["params"]["gunnery_a"] == 3 and len(doc["turns"]) == 2


MTF_DIR = __import__("pathlib").Path(__file__).resolve().parents[2].parent / "shared" / \
    "data" / "units" / "mtf"


@pytest.mark.skipif(not (MTF_DIR / "Hunchback HBK-4G.mtf").is_file(),
                    reason=f"shared unit files not found at {MTF_DIR}")
def test_mtf_side_bv_from_the_catalog_record_or_given(tmp_path: Path) -> None:
    scn = build({"unit_a": str(MTF_DIR / "Hunchback HBK-4G.mtf"), "unit_b": WVR, "turns": 2})
    assert scn.a.bv["bv_at_skill"] == 1041  # the BV catalog's, by the file's MUL id
    path = tmp_path / "renamed.mtf"  # a unit the BV catalog does not know
    text = (MTF_DIR / "Hunchback HBK-4G.mtf").read_text("utf-8")
    path.write_text(text.replace("model:HBK-4G", "model:HBK-9Q").replace("mul id:1552", ""))
    scn = build({"unit_a": path, "unit_b": WVR, "turns": 2})
    assert scn.a.bv["bv_at_skill"] is None
    assert any("no Battle Value known" in n for n in scn.notes)
    scn = build({"unit_a": path, "unit_b": WVR, "turns": 2, "bv_a": 1041})
    assert scn.a.bv["bv_at_skill"] == 1041
    out = kernel.run_block(scn, None, np.random.default_rng(0), 200)
    assert out["dealt"].sum() > 0
