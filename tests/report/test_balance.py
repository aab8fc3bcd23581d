"""Derived balance metrics belong to the models (issue 9): :mod:`sim.classic.balance` (self-risk,
net damage, damage per self-risk) and :mod:`sim.alphastrike.balance` (survival, turns gained,
Ammo Hit odds, policy and protection order), computed from summary frames."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pandas as pd
import pytest

from sim import engine
from sim.alphastrike import balance as AB
from sim.alphastrike.scenario import PROTECTION_MODES
from sim.classic import balance as CB
from sim.dice import P2D6
from sim.models import get_model


def test_self_risk_prefers_exact_values_and_counts_missing_metrics_as_zero():
    f = pd.DataFrame({"expected_self_damage": [1.0, 0.0],
                      "expected_self_damage_exact": [1.5, np.nan],
                      "expected_fall_damage_attacker": [2.0, 0.5]})
    assert CB.self_risk(f).tolist() == [3.5, 0.5]
    assert CB.self_risk(pd.DataFrame({"expected_damage": [4.0]})).tolist() == [0.0]


def test_net_damage_and_damage_per_risk():
    f = pd.DataFrame({"expected_damage": [20.0, 20.0, 30.0],
                      "expected_self_damage": [0.0, 0.2, 4.0],
                      "expected_fall_damage_attacker": [0.0, 0.1, 2.0]})
    assert CB.net_damage(f).tolist() == pytest.approx([20.0, 19.7, 24.0])
    # risk floored at 0.5 points: 20 / 0.5, 20 / 0.5 (0.3 < floor), 30 / 6
    assert CB.damage_per_risk(f).tolist() == pytest.approx([40.0, 40.0, 5.0])
    out = CB.balance_frame(f)
    assert list(out.columns[-4:]) == ["ev", "risk", "net", "ratio"]
    assert out["net"].tolist() == pytest.approx(CB.net_damage(f).tolist())
    assert "ev" not in f.columns  # the caller's frame is left alone


def test_risk_ratio_floor_keeps_riskless_attacks_finite():
    got = CB.risk_ratio(pd.Series([20.0, 20.0, 20.0, 30.0]), pd.Series([0.0, 0.0095, 0.5, 6.0]))
    assert CB.RISK_FLOOR == 0.5
    assert got.tolist() == pytest.approx([40.0, 40.0, 40.0, 5.0])
    assert CB.risk_ratio(3.0, 0.0) == pytest.approx(6.0)
    assert f"max(self-risk, {CB.RISK_FLOOR:g})" in CB.RATIO_DEFINITION


def test_self_risk_of_model_results_matches_the_reference_formulas():
    """From the model's exact frame: a punch carries no self-risk; a 55 t DFA (piloting 5)
    risks ceil(55/5) = 11 self-damage on a hit, a 2-level fall of 6 x 3 = 18 on a miss, and a
    fall in place of ceil(55/10) = 6 when the PSR after the hit (TN 5 + 4 = 9) fails
    (reference sections 2, 4.2 and 4.3)."""
    f = engine.exact_frame(get_model("attack"),
                           [{"attack": "punch", "tons": 50, "piloting": 5},
                            {"attack": "dfa", "tons": 55, "piloting": 5}])
    risk = CB.self_risk(f)
    assert risk.iloc[0] == 0.0
    assert CB.net_damage(f).iloc[0] == pytest.approx(f["expected_damage"].iloc[0])
    p = float(f["p_hit"].iloc[1])
    p_fail = float(P2D6[2:9].sum())  # 2D6 <= 8
    assert risk.iloc[1] == pytest.approx(p * 11 + (1 - p) * 18 + p * p_fail * 6)


def test_survival_and_turns_gained():
    f = pd.DataFrame({"p_destroyed_by": [0.2, 0.5], "p_destroyed_by_exact": [0.25, np.nan]})
    assert AB.survival(f).tolist() == pytest.approx([0.75, 0.5])
    turns = pd.Series({"none": 7.5, "CASE": 8.0, "ENE": 8.25})
    assert AB.turns_gained(turns, "none").tolist() == pytest.approx([0.0, 0.5, 0.75])


def test_ammo_hit_odds_from_the_crit_table():
    """Reference 6.6: only a 2 on the 'Mech critical-hit table is an Ammo Hit (1 in 36)."""
    assert AB.ammo_hit_odds() == (Fraction(1, 36), (2,))


def test_policy_order_from_least_to_most_overheat():
    mixed = ["max", "fixed:2", "below:1", "never", "hold", "below:3", "fixed:1", "below:2",
             "my_policy", "max"]
    assert AB.ordered_policies(mixed) == ["hold", "never", "below:1", "below:2", "below:3",
                                          "fixed:1", "fixed:2", "max", "my_policy"]


def test_protection_order_is_the_model_table():
    assert AB.PROTECTIONS == tuple(PROTECTION_MODES)
    assert AB.ordered_protections(["ENE", "as on card", "none", "CASE"]) == \
        ["none", "CASE", "ENE", "as on card"]
