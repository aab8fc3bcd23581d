"""Damage-versus-range profile of a 'Mech (issue 11), one row per range 1..longest.

* ``max_damage`` -- the damage if every forward weapon in range at that distance fires and
  everything hits: full racks, Ultra 2 shots, Rotary at its shots (``rotary_shots``),
  Streaks in full; no to-hit roll, no heat limit. (MegaMek unit-viewer "maximum".)
* ``hit_weighted`` -- the sum over those weapons of P(hit) x expected damage given a hit
  (cluster weapons at their expected hits, 11.2), P(hit) at Gunnery + range bracket +
  minimum range + weapon modifier, attacker and target standing still, clear terrain, no heat
  (TN >= 13 contributes 0). (MegaMek unit-viewer "hit-weighted", as btsim reads it: one turn,
  no heat carried.)
* ``sustained`` -- btsim's own: expected damage per turn averaged over ``turns`` turns at that
  fixed range, firing under ``policy`` from heat 0 with heat, shutdowns, jams, ammunition and
  explosions carried from turn to turn (exact chain; Monte Carlo with ``trials``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate
from sim.classic.fire import kernel, markov
from sim.classic.fire.rules import OPTION_NAMES
from sim.classic.fire.scenario import FireScenario, build_scenario
from sim.errors import ConfigError, UserError, check_int
from sim.model import BenchCase, Metric, Model

PARAMS = ("unit", "gunnery", "turns", "policy", "edit")


def longest_range(scn: FireScenario) -> int:
    """Longest long-range bracket among the forward weapons (0 if none)."""
    return max((g.weapon.long for g in scn.guns), default=0)


def _base(params: Mapping[str, Any], rng: int) -> dict[str, Any]:
    p = {k: v for k, v in params.items() if k not in ("ranges",)}
    p["range"] = rng
    return p


def single_turn(scn: FireScenario) -> tuple[float, float]:
    """(max_damage, hit_weighted) at the scenario's first range, heat 0, standing."""
    mx, hw = 0.0, 0.0
    for g in scn.guns:
        tn = int(g.tn[0, 0])
        if g.weapon.long < scn.ranges[0]:
            continue
        mx += g.max_damage()
        if tn <= 12:
            dist = g.damage_pmf_float(tn)
            hw += float(np.dot(np.arange(dist.size), dist))
    return mx, hw


class ProfileScenario:
    """One scenario per range."""

    def __init__(self, params: Mapping[str, Any]) -> None:
        known = PARAMS + OPTION_NAMES
        for k in params:
            if k not in known:
                raise ConfigError("parameter", k, "one of " + ", ".join(known))
        self.params = dict(params)
        self.params.setdefault("policy", "all")
        self.params["gunnery"] = check_int("gunnery", self.params.get("gunnery", 4), 0, 8)
        self.params["turns"] = check_int("turns", self.params.get("turns", 10), 1, 100)
        probe = build_scenario(_base(self.params, 1))
        self.longest = longest_range(probe)
        if self.longest < 1:
            raise UserError(f"{probe.unit_label}: no forward weapon that deals damage")
        self.label = probe.unit_label
        self.rules = probe.rules
        self.notes = probe.notes
        self.scenarios = [probe] + [build_scenario(_base(self.params, r))
                                    for r in range(2, self.longest + 1)]


#: Benchmark: the synthetic 7-weapon 'Mech of the fire bench over its ranges 1..21, 5 turns
#: each (one trial = 21 x 5 unit-turns).
BENCH_TURNS = 5
BENCH_RANGES = 21


def _bench_params() -> dict[str, Any]:
    from sim.classic.fire.synthetic import bench_mech

    return {"unit": bench_mech(), "turns": BENCH_TURNS, "policy": "all"}


class ProfileModel(Model):
    """Damage versus range: maximum, hit-weighted and sustained (heat carried)."""

    def __init__(self) -> None:
        super().__init__(name="profile", description="Classic damage versus range: maximum, "
                         "hit-weighted and sustained over N turns with heat carried.",
                         metrics=(Metric("max_damage", "damage if every weapon in range hits",
                                         "mean", "points"),
                                  Metric("hit_weighted", "expected damage of one turn, no heat",
                                         "mean", "points"),
                                  Metric("sustained", "expected damage per turn over N turns "
                                         "with heat carried", "mean", "points")),
                         # 2: issue 18: ATM +2 on the cluster roll, C8 one bin explodes
                         # 3: issue 19: per-range choice of rounds (MML SRM, ATM ER/HE)
                         # 4: issue 19: Narc launchers valued by the named policies
                         version="4",
                         bench_cases=(BenchCase("profile-7-weapons", _bench_params(),
                                                unit="unit-turns",
                                                per_trial=BENCH_RANGES * BENCH_TURNS),))

    def scenario(self, params: Mapping[str, Any]) -> ProfileScenario:
        return ProfileScenario(params)

    def params(self, scenario: ProfileScenario) -> dict[str, Any]:
        p = scenario.params
        return {"unit": scenario.label, "gunnery": p["gunnery"], "turns": p["turns"],
                "policy": scenario.scenarios[0].policy.label,
                "rule_overrides": ",".join(f"{k}={v}" for k, v in
                                           scenario.scenarios[0].overrides)}

    def facts(self, scenario: ProfileScenario) -> dict[str, Any]:
        return {"longest_range": scenario.longest, "rule_options": scenario.rules.as_json()}

    def notes(self, scenario: ProfileScenario) -> list[str]:
        return list(scenario.notes)

    def rows(self, scenario: ProfileScenario) -> pd.DataFrame:
        return pd.DataFrame({"range": np.arange(1, scenario.longest + 1)})

    def sample(self, scenario: ProfileScenario, rng: np.random.Generator, n: int) -> Aggregate:
        k = scenario.longest
        s, q = np.zeros(k), np.zeros(k)
        fixed = np.array([single_turn(sc) for sc in scenario.scenarios])
        for i, sc in enumerate(scenario.scenarios):
            a = kernel.simulate(sc, rng, n, locations=False)
            st = a.stats["expected_cumulative_damage"][-1]
            s[i], q[i] = st[1] / sc.turns, st[2] / sc.turns ** 2
        agg = Aggregate(n)
        nn = np.full(k, float(n))
        for j, name in enumerate(("max_damage", "hit_weighted")):
            agg.add_counts(name, nn, nn * fixed[:, j], nn * fixed[:, j] ** 2)
        agg.add_counts("sustained", nn, s, q)
        return agg

    def exact(self, scenario: ProfileScenario) -> dict[str, np.ndarray] | None:
        fixed = np.array([single_turn(sc) for sc in scenario.scenarios])
        sus = []
        # ranges where every gun has the same target numbers play the same chain
        done: dict[tuple[bytes, ...], float] = {}
        for sc in scenario.scenarios:
            key = tuple(g.tn.tobytes() for g in sc.guns)
            if key not in done:
                c = markov.curves(sc, ever=False)
                if c is None:
                    return None
                done[key] = float(c["expected_cumulative_damage"][-1]) / sc.turns
            sus.append(done[key])
        return {"max_damage": fixed[:, 0], "hit_weighted": fixed[:, 1],
                "sustained": np.array(sus)}


MODEL = ProfileModel()


def profile_frame(params: Mapping[str, Any]) -> pd.DataFrame:
    """The exact profile as a frame (range, max_damage, hit_weighted, sustained)."""
    scn = MODEL.scenario(params)
    ex = MODEL.exact(scn)
    if ex is None:
        raise UserError("the exact chain is too large for this unit; use trials")
    return pd.DataFrame({"range": np.arange(1, scn.longest + 1), **ex})
