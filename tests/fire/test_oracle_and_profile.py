"""The scalar oracle against the exact chain (by distribution), and the profile definitions
on a hand-computed case."""

from __future__ import annotations

from fractions import Fraction

import numpy as np
import pytest
from fire_helpers import hbk, hot_missiles, timber_wolf

from sim import engine
from sim.classic.fire import cluster as C
from sim.classic.fire import markov
from sim.classic.fire.profile import MODEL as PROFILE
from sim.classic.fire.profile import profile_frame
from sim.classic.fire.scenario import build_scenario
from sim.classic.fire.synthetic import synthetic_unit
from sim.dice import p_2d6_at_least_exact as P
from sim.oracles.fire import scalar

CASES = [
    {"unit": hbk(), "range": 3, "moved": "run", "policy": "all", "turns": 6},
    {"unit": hot_missiles(), "range": 4, "policy": "max-expected", "turns": 5,
     "start_heat": 12},
    {"unit": timber_wolf(), "ranges": [9, 6], "policy": "below:16", "turns": 4},
]


@pytest.mark.parametrize("params", CASES, ids=range(len(CASES)))
def test_oracle_matches_exact(params: dict) -> None:
    n = 2500
    got = scalar(params, np.random.default_rng(5), n)
    ex = markov.curves(build_scenario(params))
    assert ex is not None
    for name in ("p_shutdown", "p_shutdown_by", "p_ammo_explosion_by"):
        p = np.clip(ex[name], 0, 1)
        assert np.all(np.abs(got[name] - p) <= 4 * np.sqrt(p * (1 - p) / n) + 1e-9), name
    for name in ("heat_hist", "damage_hist"):
        p = np.clip(ex[name], 0, 1)
        assert np.all(np.abs(got[name] - p) <= 4 * np.sqrt(p * (1 - p) / n) + 3 / n), name
    # means: the per-turn SE from the exact distribution of damage / heat
    for name, hist in (("expected_damage", "damage_hist"), ("mean_heat", "heat_hist")):
        v = np.arange(ex[hist].shape[1])
        var = ex[hist] @ v**2 - (ex[hist] @ v) ** 2
        assert np.all(np.abs(got[name] - ex[name]) <= 4 * np.sqrt(var / n) + 1e-9), name


def test_profile_hand_computed() -> None:
    # Medium Laser (3/6/9) and IS LRM 5 (min 6, 7/14/21), gunnery 4, cool enough to never heat
    unit = synthetic_unit([("IS Medium Laser", "RA"), ("IS LRM 5", "LT")],
                          [("IS Ammo LRM-5", "LT", 24)], sinks=10)
    fr = profile_frame({"unit": unit, "turns": 3})
    assert fr["range"].tolist() == list(range(1, 22))
    e5 = sum((k * p for k, p in enumerate(C.distribution(5))), Fraction(0))
    assert e5 == Fraction(19, 6)

    def hw(r: int) -> float:
        ml = 0 if r > 9 else P(4 + (0 if r <= 3 else 2 if r <= 6 else 4)) * 5
        lb = 0 if r <= 7 else 2 if r <= 14 else 4
        lrm = P(4 + lb + (6 - r + 1 if r <= 6 else 0)) * e5
        return float(ml + lrm)

    for r in (1, 3, 4, 6, 7, 9, 10, 15, 21):
        row = fr[fr["range"] == r].iloc[0]
        assert row["max_damage"] == (5 if r <= 9 else 0) + 5
        assert abs(row["hit_weighted"] - hw(r)) < 1e-12
        # 5 heat against 10 sinks: heat never builds, so sustained = hit-weighted
        assert abs(row["sustained"] - hw(r)) < 1e-12


def test_profile_sustained_below_hit_weighted_when_hot() -> None:
    fr = profile_frame({"unit": hbk(), "turns": 10})
    assert (fr["sustained"] <= fr["hit_weighted"] + 1e-12).all()
    assert (fr["sustained"].iloc[:3] < fr["hit_weighted"].iloc[:3]).all()


def test_profile_mc_matches_exact() -> None:
    frame = engine.simulate(PROFILE, [{"unit": hbk(), "turns": 4}], trials=4000, seed=2,
                            backend="sequential")
    z = (frame["sustained"] - frame["sustained_exact"]) / frame["sustained_se"]
    assert (z.abs() <= 4).all()
    assert np.allclose(frame["max_damage"], frame["max_damage_exact"])


def test_bench_links_fire_to_its_oracle_and_products_do_not_import_it() -> None:
    """``btsim bench`` times the fire kernel beside its scalar oracle (linked by name in
    :data:`sim.oracles.SCALAR_BASELINES`), and the fire modules never import the oracle."""
    import subprocess
    import sys
    from pathlib import Path

    from sim.models import get_model
    from sim.oracles import scalar_baseline
    from sim.oracles.fire import scalar

    assert scalar_baseline("fire") is scalar
    case = get_model("fire").bench_cases[0]
    assert case.unit == "unit-turns" and case.scalar is None
    code = ("import sim.classic.fire.model, sim.classic.fire.profile, sim.cli.fire, sys; "
            "bad = [m for m in sys.modules if m.startswith('sim.oracles')]; assert not bad, bad")
    subprocess.run([sys.executable, "-c", code], check=True,
                   cwd=Path(__file__).resolve().parents[2])
