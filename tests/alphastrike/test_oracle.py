"""The scalar oracle (plain Python, one unit at a time, written from reference 6) against the
exact chain, and the bench case wiring."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from as_helpers import LOKI, card

from sim.alphastrike.markov import curves
from sim.alphastrike.model import BENCH_PARAMS, MODEL
from sim.alphastrike.scenario import build_scenario
from sim.oracles import scalar_baseline
from sim.oracles.alphastrike import attack_bases, run_oracle

CASES: list[dict[str, Any]] = [
    dict(BENCH_PARAMS),
    {"unit": LOKI, "policy": "below:2", "turns": 6, "water": True, "rules": "seed",
     "incoming": ["tn=6,dmg=2,ht=2", "skill=4,dmg=1"]},
    {"unit": card(specials="CASE,MEL", armor=1, structure=5, damage=(2, 1, 0, 0),
                  minimal=(False, False, True, False)), "policy": "hold",
     "physical": "melee", "turns": 5, "incoming": ["tn=3,dmg=1,ht=1"]},
]


@pytest.mark.parametrize("params", CASES, ids=range(len(CASES)))
def test_oracle_matches_exact(params: dict[str, Any]) -> None:
    n = 3000
    got = run_oracle(params, np.random.default_rng(11), n)
    ex = curves(build_scenario(params))
    for name in ("p_heat_0", "p_heat_1", "p_heat_2", "p_heat_3", "p_heat_4",
                 "p_shutdown_by", "p_destroyed_by"):
        p = np.clip(ex[name], 0.0, 1.0)
        se = np.sqrt(p * (1 - p) / n)
        assert np.all(np.abs(got[name] - p) <= 4 * se + 1e-9), name
    # damage per turn is bounded by 10 here: Var <= E * 10
    e = ex["expected_damage"]
    assert np.all(np.abs(got["expected_damage"] - e) <= 4 * np.sqrt(e * 10 / n) + 1e-12)


@pytest.mark.parametrize("params", CASES, ids=range(len(CASES)))
def test_oracle_derives_target_numbers_itself(params: dict[str, Any]) -> None:
    """The oracle's own reading of 6.1/6.7 gives the scenario's target numbers and damage."""
    s = build_scenario(params)
    assert attack_bases(s) == (s.tn_weapon_base, s.tn_phys_base, s.phys_dmg)
    for extra in ({"target_immobile": True}, {"physical": "standard", "range": "long"},
                  {"target_tmm": 3, "target_jumped": True, "attack_mod": 2}):
        s = build_scenario({**params, **extra})
        assert attack_bases(s) == (s.tn_weapon_base, s.tn_phys_base, s.phys_dmg), extra


def test_bench_case_is_exposed() -> None:
    """The benchmark links the heat model to its oracle; the model does not import it."""
    (case,) = MODEL.bench_cases
    assert case.label == "heat" and case.unit == "unit-turns"
    scalar = scalar_baseline(MODEL.name)
    assert case.params["incoming"] and scalar is run_oracle
    out = scalar(case.params, np.random.default_rng(0), 50)
    assert set(out) >= {"p_heat_4", "expected_damage"}
    # the bench case can produce critical hits (its attacker reaches structure)
    scn = build_scenario(case.params)
    assert scn.incoming[0].hit_dmg * scn.turns > scn.armor
