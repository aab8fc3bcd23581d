"""The ``attack`` model: Classic BattleTech physical attacks, exact and Monte Carlo.

``MODEL.scenario(params)`` validates grid parameters (see :mod:`sim.classic.scenario`) and
resolves the deterministic part of the attack into a :class:`~sim.classic.plan.Plan`;
``MODEL.exact`` enumerates it (:mod:`sim.classic.exact`), ``MODEL.sample`` runs the vectorized
kernel (:mod:`sim.classic.kernel`). Facts: ``target_number`` (the right arm's for a two-arm
punch, else the left's if the right cannot punch), ``target_number_left`` /
``target_number_right`` (punches), ``impossible`` (None or the reason), ``notes`` (arms
dropped from a two-arm punch, unit design quirks not simulated), ``damage_on_hit`` (None when
impossible), ``rules`` and ``rule_options`` (JSON).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim.aggregate import Aggregate
from sim.classic.exact import exact_metrics
from sim.classic.kernel import sample as kernel_sample
from sim.classic.metrics import METRICS
from sim.classic.plan import Plan, make_plan
from sim.classic.scenario import build
from sim.model import BenchCase, Model


@dataclass
class AttackModel(Model):
    """Classic physical attacks (punch, kick, club, hatchet, push, charge, DFA)."""

    name: str = "attack"
    description: str = ("Classic BattleTech physical attacks: to-hit, damage, hit location, "
                        "PSRs and falls; exact and Monte Carlo")
    metrics: tuple = METRICS
    bench_cases: tuple = field(default_factory=tuple)
    version: str = "2"   # 2: sub-streams per roll kind in the one-strike path (issue 12)

    def scenario(self, params: Mapping[str, Any]) -> Plan:
        return make_plan(build(params))

    def params(self, scenario: Plan) -> dict[str, Any]:
        return scenario.scenario.params()

    def facts(self, scenario: Plan) -> dict[str, Any]:
        p = scenario
        att = [st for st in p.strikes if st.who == "attacker"]
        return {
            "target_number": p.target_number,
            "target_number_left": p.target_number_left,
            "target_number_right": p.target_number_right,
            "impossible": p.impossible,
            "notes": "; ".join(p.notes) or None,
            "damage_on_hit": (None if p.impossible is not None
                              else sum(st.damage for st in att)),
            "rules": p.scenario.rules_name,
            "rule_options": p.scenario.rules.as_json(),
        }

    def sample(self, scenario: Plan, rng: np.random.Generator, n: int) -> Aggregate:
        return kernel_sample(scenario, rng, n)

    def exact(self, scenario: Plan) -> dict[str, np.ndarray]:
        return exact_metrics(scenario)


def _bench_cases() -> tuple[BenchCase, ...]:
    """Kernels ``btsim bench`` times; their scalar baseline is linked by the benchmark
    (:data:`sim.oracles.SCALAR_BASELINES`): the product never imports its test oracle."""
    return (
        BenchCase("punch", {"attack": "punch", "tons": 70, "piloting": 4}, unit="attacks"),
        BenchCase("kick", {"attack": "kick", "tons": 70, "piloting": 4}, unit="attacks"),
        BenchCase("charge", {"attack": "charge", "tons": 65, "hexes": 5, "target_tons": 70},
                  unit="attacks"),
        BenchCase("dfa", {"attack": "dfa", "tons": 55, "target_tons": 50}, unit="attacks"),
    )


MODEL = AttackModel()
MODEL.bench_cases = _bench_cases()
