"""The ``fire`` model (one 'Mech firing at a target for N turns) and the ``profile`` model
(damage versus range), registered in :mod:`sim.models`.

``fire`` metrics, one row per turn, read after that turn's heat phase: ``expected_damage``
(dealt this turn), ``expected_damage_<LOC>`` (by front-column location, 12.2),
``damage_hist`` (distribution of this turn's damage), ``heat_hist`` (heat level
distribution), ``mean_heat``, ``p_shutdown`` (shut down after this heat phase),
``p_shutdown_by``, ``p_ammo_explosion_by``, ``p_out_by`` (an uncontained ammunition
explosion has put it out), ``expected_ammo_left`` (rounds, all pools) and
``expected_cumulative_damage``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate
from sim.classic import tables as CT
from sim.classic.fire import kernel, markov
from sim.classic.fire.scenario import FireScenario, build_scenario
from sim.model import BenchCase, Metric, Model

#: Benchmark: a built-in synthetic 'Mech with 7 forward weapons (no shared data needed;
#: see :func:`sim.classic.fire.synthetic.bench_mech`), 10 turns: one trial = 10 unit-turns.
BENCH_TURNS = 10


def _metrics() -> tuple[Metric, ...]:
    locs = tuple(Metric(f"expected_damage_{loc}", f"expected damage to the target's {loc} "
                        "this turn (front column)", "mean", "points")
                 for loc in CT.LOCATIONS[:8])
    return (
        Metric("expected_damage", "expected damage dealt this turn", "mean", "points"),
        Metric("expected_cumulative_damage", "expected damage dealt up to this turn", "mean",
               "points"),
        Metric("mean_heat", "mean heat after this turn's heat phase", "mean", "heat"),
        Metric("p_shutdown", "P(shut down after this heat phase)", "probability"),
        Metric("p_shutdown_by", "P(shut down at least once by this turn)", "probability"),
        Metric("p_ammo_explosion_by", "P(an ammunition explosion by this turn)",
               "probability"),
        Metric("p_out_by", "P(out after an uncontained ammunition explosion by this turn)",
               "probability"),
        Metric("expected_ammo_left", "expected rounds of ammunition left (all pools)", "mean",
               "rounds"),
        *locs,
        Metric("damage_hist", "distribution of this turn's damage", "hist", "points"),
        Metric("heat_hist", "distribution of the heat level after the heat phase", "hist",
               "heat"),
    )


def _bench_params() -> dict[str, Any]:
    from sim.classic.fire.synthetic import bench_mech

    return {"unit": bench_mech(), "range": 6, "policy": "all", "turns": BENCH_TURNS}


class FireModel(Model):
    """Classic weapon fire over N turns with the heat scale (issue 11)."""

    def __init__(self) -> None:
        super().__init__(name="fire", description="Classic weapon fire and heat per turn: "
                         "damage, heat, shutdown and ammunition explosion curves.",
                         metrics=_metrics(),
                         # 2: issue 18: ATM +2 on the cluster roll, C8 one bin explodes,
                         #    the target's AMS (target_ams)
                         # 3: issue 19: per-range choice of rounds (MML SRM, ATM ER/HE)
                         # 4: issue 19: Narc launchers valued by the named policies
                         version="4",
                         bench_cases=(BenchCase("fire-7-weapons", _bench_params(),
                                                unit="unit-turns",
                                                per_trial=BENCH_TURNS),))

    def scenario(self, params: Mapping[str, Any]) -> FireScenario:
        return build_scenario(params)

    def params(self, scenario: FireScenario) -> dict[str, Any]:
        s = scenario
        rng = s.ranges[0] if len(set(s.ranges)) == 1 else ",".join(map(str, s.ranges))
        return {"unit": s.unit_label, "gunnery": s.gunnery, "range": rng, "moved": s.moved,
                "target_hexes": s.target_hexes, "target_jumped": s.target_jumped,
                "terrain": s.terrain, "policy": s.policy.label, "turns": s.turns,
                "start_heat": s.start_heat, "water": s.water, "target_ams": s.target_ams,
                "rule_overrides": ",".join(f"{k}={v}" for k, v in s.overrides)}

    def notes(self, scenario: FireScenario) -> list[str]:
        return list(scenario.notes)

    def rows(self, scenario: FireScenario) -> pd.DataFrame:
        return pd.DataFrame({"turn": np.arange(1, scenario.turns + 1)})

    def facts(self, scenario: FireScenario) -> dict[str, Any]:
        return {"dissipation": scenario.dissipation, "weapons_firing": len(scenario.guns),
                "notes": "; ".join(scenario.notes), "rule_options": scenario.rules.as_json()}

    def sample(self, scenario: FireScenario, rng: np.random.Generator, n: int) -> Aggregate:
        return kernel.simulate(scenario, rng, n)

    def exact(self, scenario: FireScenario) -> dict[str, np.ndarray] | None:
        return markov.curves(scenario)


MODEL = FireModel()
