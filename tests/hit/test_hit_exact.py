"""Hand-worked cases of damage application (reference-classic-combat.md 14, 17: E10, E11,
E17; reference.md 3.2, 5.2-5.5) and the exact path against the Monte Carlo sampler."""

from __future__ import annotations

import json
import subprocess
import sys
from dataclasses import replace
from fractions import Fraction

import numpy as np
import pytest

from sim.classic.damage_rules import DamageRules
from sim.classic.damage_state import (
    DamageModel,
    ExactChooser,
    SampleChooser,
    apply_group,
    build_layout,
    fresh,
)
from sim.classic.damage_state import state as st
from sim.classic.hit_api import hit
from sim.units.catalog import get_classic

HBK = "Hunchback HBK-4G"
LOCUST = "Locust LCT-1V"


def close(a: float, b: Fraction | float) -> bool:
    return abs(a - float(b)) < 1e-12


def test_ac20_on_locust_ct_front_destroys_it() -> None:
    m = get_classic(LOCUST)
    assert m.armor["CT"] + m.internal["CT"] <= 20
    r = hit(LOCUST, damage=20, location="CT")
    # C10 (MegaMek): the group's critical determination still runs, and a hit on the CT's
    # MG bin explodes (11/216, as in tests/hit/test_issue18_c10.py): cause ammunition
    assert close(r["p_destroyed"], 1)
    assert close(r["p_destroyed_by"]["center_torso"], 1 - Fraction(11, 216))
    assert close(r["p_destroyed_by"]["ammunition"], Fraction(11, 216))
    assert r["expected_armor_left"]["CT"] == 0 and r["expected_structure_left"]["CT"] == 0


def test_armor_only_and_then_structure() -> None:
    m = get_classic(HBK)
    a = m.armor["RA"]
    r = hit(HBK, damage=a, location="RA")
    assert r["expected_armor_left"]["RA"] == 0 and r["p_critical"]["RA"] == 0
    assert r["expected_structure_left"]["RA"] == m.internal["RA"]
    r = hit(HBK, damage=a + 1, location="RA")
    # structure 7 left unless the arm is blown off (a 12, 1/36)
    assert close(r["expected_structure_left"]["RA"], (m.internal["RA"] - 1) * Fraction(35, 36))
    assert close(r["p_critical"]["RA"], Fraction(15, 36))


def test_locust_ct_machine_gun_ammo_explodes() -> None:
    """The Locust keeps its MG bin in the CT (12 hittable slots: 6 engine, 4 gyro, bin and
    one more); a bin hit (400 points) destroys it by ammunition."""
    r = hit(LOCUST, damage=get_classic(LOCUST).armor["CT"] + 1, location="CT")
    assert r["p_ammo_explosion"] > 0
    assert close(r["p_ammo_explosion"], r["p_destroyed_by"]["ammunition"])


def test_e17_one_determination_on_hbk_ct() -> None:
    """E17: 11 hittable CT slots; E[engine hits] = 1/3; each gyro slot E = (22/36)/11."""
    r = hit(HBK, damage=27, location="CT")  # armor 26, one point of structure
    assert close(r["expected_engine_hits"], Fraction(1, 3))
    gyro = [v for k, v in r["p_slot_hit"].items() if k.startswith("CT:") and "Gyro" in k]
    assert len(gyro) == 4
    assert all(close(g, Fraction(22, 36) / 11) for g in gyro)
    # P(destroyed by engine) = P(12) * P(3 picks all engine) = 1/36 * C(6,3)/C(11,3)
    assert close(r["p_destroyed_by"]["engine"], Fraction(1, 36) * Fraction(20, 165))


def test_e10_ac20_on_hbk_from_the_front() -> None:
    r = hit(HBK, damage=20, side="front")
    assert close(r["p_critical"]["CT"], Fraction(5, 432))


def test_e11_lt_ammo_explosion_without_case() -> None:
    r = hit(HBK, damage=21, location="LT")  # armor 20, 1 structure
    assert close(r["p_ammo_explosion"], Fraction(5, 12))
    assert close(r["p_destroyed_by"]["ammunition"], Fraction(5, 12))
    assert close(r["p_destroyed"], Fraction(5, 12))
    assert close(r["expected_pilot_damage"], Fraction(5, 12) * 2)


def test_lt_ammo_explosion_with_case_stays_in_the_torso() -> None:
    mech = replace(get_classic(HBK), case_locations=("LT",))
    r = hit(mech, damage=21, location="LT")
    assert close(r["p_ammo_explosion"], Fraction(5, 12))
    assert close(r["p_destroyed"], 0)
    assert close(r["p_location_destroyed"]["LT"], Fraction(5, 12))
    assert close(r["p_location_destroyed"]["LA"], Fraction(5, 12))  # the arm goes with it
    assert close(r["p_location_destroyed"]["CT"], 0)


def test_rear_armor() -> None:
    m = get_classic(HBK)
    r = hit(HBK, damage=m.armor["CTR"], location="CT", rear=True)
    assert r["expected_armor_left"]["CTR"] == 0 and r["expected_armor_left"]["CT"] == m.armor["CT"]
    r = hit(HBK, damage=m.armor["CTR"] + 1, location="CT", rear=True)
    assert close(r["expected_structure_left"]["CT"], m.internal["CT"] - 1)


def test_transfer_from_destroyed_arm_starts_on_side_torso_armor() -> None:
    m = get_classic(HBK)
    d = m.armor["LA"] + m.internal["LA"] + 6
    r = hit(HBK, damage=d, location="LA")
    assert close(r["p_location_destroyed"]["LA"], 1)
    assert close(r["expected_armor_left"]["LT"], m.armor["LT"] - 6)


def test_blown_off_arm_and_head_hit_pilot_damage() -> None:
    m = get_classic(HBK)
    r = hit(HBK, damage=m.armor["LA"] + 1, location="LA")
    assert close(r["p_blown_off"]["LA"], Fraction(1, 36))
    assert close(r["p_location_destroyed"]["LA"], Fraction(1, 36))
    r = hit(HBK, damage=1, location="HD")
    assert close(r["expected_pilot_damage"], 1)


def test_tac_per_group_and_c9_option() -> None:
    r = hit(HBK, damage=1, side="front")
    assert close(r["p_critical"]["CT"], Fraction(1, 36) * Fraction(15, 36))
    # a TAC group that also damages structure: two determinations (C9 default) vs one
    two = hit(HBK, groups=[26, 1], location="CT")  # no TAC with --location
    assert close(two["p_critical"]["CT"], Fraction(15, 36))
    rules_one = DamageRules(tac_with_structure_damage="one")
    lay = build_layout(get_classic(HBK))
    S = fresh(lay, 1)
    S[:, st.ARMOR0 + 1] = 0  # CT armor gone: the TAC group damages structure
    out = {}
    for name, rules in (("two", DamageRules()), ("one", rules_one)):
        dm = DamageModel.build(lay, rules)
        S2, w = apply_group(S, np.ones(1), dm, np.array([1]), np.array([False]), np.array([1]),
                            np.array([True]), ExactChooser())
        out[name] = float(w @ (S2[:, st.CRIT] >> 1 & 1))
    assert close(out["one"], Fraction(15, 36))
    assert close(out["two"], 1 - Fraction(21, 36) ** 2)


def test_side_torso_with_is_xl_engine_destroys_the_mech() -> None:
    m = get_classic("Axman AXM-1N")
    assert m.engine_type == "XL" and not m.engine_clan
    r = hit(m, damage=m.armor["RT"] + m.internal["RT"], location="RT")
    assert close(r["p_destroyed"], 1)
    tw = get_classic("Timber Wolf Prime")
    r = hit(tw, damage=tw.armor["RT"] + tw.internal["RT"], location="RT",
            rules={"crit_on_destroying_group": False})
    assert close(r["p_destroyed_by"]["engine"], 0)
    assert close(r["expected_engine_hits"], 2)


def test_probabilities_sum_and_states_are_few() -> None:
    r = hit(HBK, groups=[5, 5], side="front")
    assert close(sum(r["p_destroyed_by"].values()), r["p_destroyed"])
    assert r["states"] < 2000


@pytest.mark.parametrize("unit,kw", [
    (HBK, {"damage": 21, "location": "LT"}),
    (LOCUST, {"damage": 12, "side": "front"}),
    (HBK, {"groups": [10, 10], "side": "left"}),
])
def test_monte_carlo_agrees_with_exact(unit: str, kw: dict) -> None:
    ex = hit(unit, **kw)
    mc = hit(unit, method="mc", trials=20_000, seed=7, **kw)
    n = 20_000

    def check(a: float, b: float) -> None:
        se = max(np.sqrt(max(a * (1 - a), 1e-12) / n), 1e-9)
        assert abs(a - b) <= 4 * se + 1e-9, (a, b)

    check(ex["p_destroyed"], mc["p_destroyed"])
    check(ex["p_ammo_explosion"], mc["p_ammo_explosion"])
    for loc in ex["p_critical"]:
        check(ex["p_critical"][loc], mc["p_critical"][loc])
        check(ex["p_location_destroyed"][loc], mc["p_location_destroyed"][loc])


def test_sampler_uses_the_generator_only() -> None:
    lay = build_layout(get_classic(HBK))
    dm = DamageModel.build(lay)
    outs = []
    for _ in range(2):
        S, _w = apply_group(fresh(lay, 500), np.ones(500), dm, np.full(500, 2),
                            np.zeros(500, bool), np.full(500, 21), np.zeros(500, bool),
                            SampleChooser(np.random.default_rng(3)))
        outs.append(S)
    assert np.array_equal(outs[0], outs[1])


def _cli(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "sim", "hit", *args], capture_output=True,
                          text=True, check=False)


def test_cli_json_and_bad_input() -> None:
    p = _cli(LOCUST, "--damage", "20", "--location", "CT", "--json")
    assert p.returncode == 0, p.stderr
    data = json.loads(p.stdout)
    for key in ("p_location_destroyed", "expected_armor_left", "expected_structure_left",
                "p_critical", "p_slot_hit", "p_ammo_explosion", "p_destroyed",
                "p_destroyed_by", "params", "notes"):
        assert key in data
    for bad in (["Nope", "--damage", "5", "--location", "CT"],
                [LOCUST, "--damage", "0", "--location", "CT"],
                [LOCUST, "--damage", "5"],
                [LOCUST, "--damage", "5", "--location", "CT", "--side", "front"],
                [LOCUST, "--damage", "5", "--location", "XX"]):
        p = _cli(*bad)
        assert p.returncode == 2 and len(p.stderr.strip().splitlines()) == 1, (bad, p.stderr)


def test_e17_at_least_one_engine_slot() -> None:
    """E17: one determination on the HBK-4G CT: P(>= 1 engine slot hit) = 82/297."""
    lay = build_layout(get_classic(HBK))
    dm = DamageModel.build(lay)
    S = fresh(lay, 1)
    S[:, st.ARMOR0 + 1] = 0
    S2, w = apply_group(S, np.ones(1), dm, np.array([1]), np.array([False]), np.array([1]),
                        np.array([False]), ExactChooser(lambda s: st.canonical(s, lay)))
    assert close(float(w @ (S2[:, st.ENGINE] >= 1)), Fraction(82, 297))
    assert close(float(w @ (S2[:, st.GYRO] >= 1)), Fraction(59, 297))


def test_loki_ams_bin_in_the_ct() -> None:
    """14.4: the Loki's CT bin (AMS, 24 x 2 = 48 > CT structure 21) is hit with chance 1/18
    per CT determination and then destroys the 'Mech, CASE or not."""
    loki = get_classic("Loki Prime")
    r = hit(loki, damage=loki.armor["CT"] + 1, location="CT")
    assert close(r["p_destroyed_by"]["ammunition"], Fraction(1, 18))


def test_heat_style_explosion_of_one_bin() -> None:
    from sim.classic.damage_state import explode
    lay = build_layout(get_classic(HBK))
    dm = DamageModel.build(lay)
    S, w = explode(fresh(lay, 1), np.ones(1), dm, 0, np.array([True]),
                   ExactChooser(lambda s: st.canonical(s, lay)))
    assert close(float(w @ (S[:, st.CAUSE] == st.C_AMMO)), 1)
    assert (S[:, st.PILOT] >= 2).all()
