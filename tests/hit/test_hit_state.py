"""``btsim hit --state FILE`` / ``sim.hit(..., state=...)``: damage landing on a damaged
'Mech (reference-classic-combat.md 14), hand-worked on the Hunchback HBK-4G, and bad input."""

from __future__ import annotations

import json
import subprocess
import sys
from fractions import Fraction
from pathlib import Path

import pytest

from sim.classic.hit_api import hit
from sim.errors import UserError

HBK = "Hunchback HBK-4G"


def close(a: float, b: Fraction | float) -> bool:
    return abs(a - float(b)) < 1e-12


def test_bare_ct_with_a_gyro_hit() -> None:
    """CT armor gone, one gyro slot destroyed: 1 point reaches the structure (16 -> 15), one
    determination with 22/36 new criticals expected (1 x 9/36 + 2 x 5/36 + 3 x 1/36), spread
    evenly over the 10 slots still hittable (6 engine, 3 gyro, 1 sink)."""
    state = {"armor": {"CT": 0}, "hit_slots": ["CT:4 Gyro"]}
    r = hit(HBK, damage=1, location="CT", state=state)
    assert close(r["expected_structure_left"]["CT"], 15)
    assert close(r["p_critical"]["CT"], 1)              # the gyro hit was already there
    # the slot hit at the start stays hit; the new hits fall evenly on the 10 slots still
    # whole, the other three gyro slots included
    new = Fraction(22, 36) / 10
    assert close(r["p_slot_hit"]["CT:4 Gyro"], 1)
    for s in ("CT:5 Gyro", "CT:6 Gyro", "CT:7 Gyro", "CT:1 Fusion Engine"):
        assert close(r["p_slot_hit"][s], new)
    assert close(r["expected_engine_hits"], 6 * new)
    assert close(r["p_slot_hit"]["CT:11 Heat Sink"], new)


def test_destroyed_side_torso_takes_its_arm_and_counts_as_destroyed() -> None:
    r = hit(HBK, damage=5, location="RA", state={"structure": {"RT": 0}})
    assert close(r["p_location_destroyed"]["RA"], 1) and close(r["p_location_destroyed"]["RT"], 1)
    # the arm is gone: the 5 points move on to the RT, gone too, then the CT's armor
    assert close(r["expected_armor_left"]["CT"], 26 - 5)


def test_pilot_damage_and_ammo() -> None:
    """Pilot 5 + a head hit = 6: dead. With one LT bin left at 1 shot (20 points) and the
    other empty, an explosion destroys the LT (11 structure left) and puts 9 into the CT's 16:
    never destroyed by ammunition (E11, with 5 + 5 shots, is destroyed 5/12 of the time)."""
    r = hit(HBK, damage=1, location="HD", state={"pilot": 5})
    assert close(r["p_destroyed_by"]["pilot"], 1)
    full = hit(HBK, damage=21, location="LT")
    one = hit(HBK, damage=21, location="LT",
              state={"ammo": {"LT:1 IS Ammo AC/20": 1, "LT:2 IS Ammo AC/20": 0}})
    assert close(full["p_destroyed_by"]["ammunition"], Fraction(5, 12))
    assert 0 < one["p_ammo_explosion"] < full["p_ammo_explosion"]
    assert close(one["p_destroyed_by"]["ammunition"], 0)
    assert one["expected_structure_left"]["CT"] < 16


def test_state_file_json_and_toml_through_the_cli(tmp_path: Path) -> None:
    j = tmp_path / "s.json"
    j.write_text(json.dumps({"armor": {"CT": 0}, "hit_slots": ["CT:4 Gyro"]}))
    t = tmp_path / "s.toml"
    t.write_text('hit_slots = ["CT:4 Gyro"]\n[armor]\nCT = 0\n')
    outs = []
    for f in (j, t):
        p = subprocess.run([sys.executable, "-m", "sim", "hit", HBK, "--damage", "1",
                            "--location", "CT", "--state", str(f), "--json"],
                           capture_output=True, text=True)
        assert p.returncode == 0, p.stderr
        outs.append(json.loads(p.stdout))
    assert outs[0]["p_slot_hit"] == outs[1]["p_slot_hit"]
    assert outs[0]["params"]["state"] == {"armor": {"CT": 0}, "hit_slots": ["CT:4 Gyro"]}


@pytest.mark.parametrize("state, words", [
    ({"armor": {"XX": 1}}, "unknown location"),
    ({"armor": {"CT": 99}}, "0 to 26"),
    ({"structure": {"LA": -1}}, "0 to 8"),
    ({"hit_slots": ["CT:4 Gyr"]}, "did you mean CT:4 Gyro"),
    ({"hit_slots": "CT:4 Gyro"}, "a list"),
    ({"ammo": {"CT:4 Gyro": 1}}, "no ammunition bin"),
    ({"ammo": {"LT:1 IS Ammo AC/20": 9}}, "0 to 5"),
    ({"pilot": 7}, "0 to 6"),
    ({"heat": 3}, "unknown field"),
    ({"armor": [1, 2]}, "expected a table"),
    ({"armor": "CT"}, "expected a table"),
    ({"hit_slots": ["LT:1 IS Ammo AC/20"], "ammo": {"LT:1 IS Ammo AC/20": 5}}, "it is empty"),
])
def test_bad_state(state: dict, words: str) -> None:
    with pytest.raises(UserError, match=words.replace("(", r"\(")):
        hit(HBK, damage=1, location="CT", state=state)


def test_a_state_that_is_not_a_table() -> None:
    with pytest.raises(UserError, match="expected a table"):
        hit(HBK, damage=1, location="CT", state=["armor"])  # type: ignore[arg-type]


def test_the_named_slot_is_the_one_hit_whatever_its_place_in_its_class() -> None:
    """A start hit on the third gyro slot: that slot has P(hit) 1, its class mates get the
    new hits' share, the same from the exact and the Monte Carlo paths."""
    state = {"armor": {"CT": 2}, "structure": {"CT": 10}, "hit_slots": ["CT:6 Gyro"]}
    e = hit(HBK, damage=5, location="CT", state=state)
    m = hit(HBK, damage=5, location="CT", state=state, method="mc", trials=40_000, seed=5)
    new = Fraction(22, 36) / 10             # 3 points reach the structure: one determination
    for r in (e, m):
        assert r["p_slot_hit"]["CT:6 Gyro"] == 1
    for s in ("CT:4 Gyro", "CT:5 Gyro", "CT:7 Gyro"):
        assert close(e["p_slot_hit"][s], new)
        se = (float(new) * (1 - float(new)) / 40_000) ** 0.5
        assert abs(m["p_slot_hit"][s] - float(new)) < 4.5 * se


def test_bad_state_file_exits_2_with_one_line(tmp_path: Path) -> None:
    f = tmp_path / "bad.json"
    f.write_text('{"hit_slots": ["CT:99 Nothing"]}')
    binary = tmp_path / "binary.toml"
    binary.write_bytes(bytes(range(256)))
    for arg in (str(f), str(tmp_path / "missing.json"), str(binary)):
        p = subprocess.run([sys.executable, "-m", "sim", "hit", HBK, "--damage", "1",
                            "--location", "CT", "--state", arg], capture_output=True, text=True)
        assert p.returncode == 2 and p.stdout == ""
        assert len(p.stderr.strip().splitlines()) == 1, p.stderr
