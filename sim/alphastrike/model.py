"""The ``heat`` model: Alpha Strike overheat risk curves over many turns (rules reference 6).

Per turn ``t`` (read after that turn's End Phase): the heat-level distribution of surviving
units (``p_heat_0`` .. ``p_heat_4``, 4 = shut down; these five sum to 1 - p_destroyed_by),
``p_shutdown`` (reached S in this End Phase, so it sits out turn t+1), ``p_shutdown_by``,
``mean_heat`` (over surviving units), ``expected_damage`` dealt by the unit's own attack in
turn t and ``expected_cumulative_damage``, and ``p_destroyed_by``. Per run:
``expected_first_shutdown_turn`` (the turn whose End Phase first reaches S, counting T+1 for
a run that never shuts down), ``p_ever_shutdown`` and ``expected_turns_survived`` (End
Phases survived out of T).

The unit's own target (default): a target with TMM 2 that moved on the ground, so the weapon
TN is skill + range + 2 + attacker movement + heat + 2 per Fire Control hit
(params ``target_tmm``, ``target_jumped``, ``target_immobile``, ``attack_mod``).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate
from sim.alphastrike.kernel import simulate
from sim.alphastrike.markov import _CACHE, curves
from sim.alphastrike.scenario import HeatScenario, build_scenario
from sim.model import BenchCase, Metric, Model

#: Parameters of the benchmark case: the generic OV 2 'Mech at full OV for 20 turns under one
#: incoming attacker (TN 8, 1 damage, HT1; it shuts down every other turn and is then hit at
#: -4): structure damage and critical hits from about turn 5, half the units destroyed by
#: turn 12. One trial is one unit playing all 20 turns: unit-turns/s = trials/s x 20.
BENCH_PARAMS: dict[str, Any] = {"ov": 2, "policy": "max", "turns": 20,
                                "incoming": ["tn=8,dmg=1,ht=1"]}


def _metrics() -> tuple[Metric, ...]:
    heat = tuple(Metric(f"p_heat_{k}", f"P(alive at heat level {k} after the End Phase)"
                        + (" (4 = shut down)" if k == 4 else ""), "probability")
                 for k in range(5))
    return heat + (
        Metric("p_shutdown", "P(reached S in this End Phase: sits out the next turn)",
               "probability"),
        Metric("p_shutdown_by", "P(shut down at least once by this turn)", "probability"),
        Metric("mean_heat", "mean heat level of surviving units", "mean", "heat levels"),
        Metric("expected_damage", "expected damage dealt by the unit this turn", "mean",
               "points"),
        Metric("expected_cumulative_damage", "expected damage dealt up to this turn", "mean",
               "points"),
        Metric("p_destroyed_by", "P(destroyed by the end of this turn)", "probability"),
        Metric("expected_first_shutdown_turn",
               "expected turn of first shutdown (T+1 when it never shuts down)", "mean",
               "turn", per_row=False),
        Metric("p_ever_shutdown", "P(shuts down at least once in T turns)", "probability",
               per_row=False),
        Metric("expected_turns_survived", "expected End Phases survived out of T", "mean",
               "turns", per_row=False),
    )


class HeatModel(Model):
    """Alpha Strike heat cycles with attacks, incoming fire and critical hits."""

    def __init__(self) -> None:
        super().__init__(
            name="heat",
            description="Alpha Strike overheat, shutdown, cooling and critical hits per turn.",
            metrics=_metrics(),
            bench_cases=(BenchCase("heat", BENCH_PARAMS, unit="unit-turns",
                                   per_trial=BENCH_PARAMS["turns"]),),
            version="2",   # 2: per-kind sub-streams, event-indexed crit rolls (issue 12)
        )

    def scenario(self, params: Mapping[str, Any]) -> HeatScenario:
        return build_scenario(params)

    def params(self, scenario: HeatScenario) -> dict[str, Any]:
        s = scenario
        return {
            "unit": s.unit_label, "ov": s.ov_card, "policy": s.policy.label, "turns": s.turns,
            "start_heat": s.start_heat, "water": s.water, "water_depth": s.water_depth,
            "range": s.range, "skill": s.skill, "incoming": s.incoming_label(),
            "rules": s.rules_name, "movement": s.movement, "target_tmm": s.target_tmm,
            "target_jumped": s.target_jumped, "target_immobile": s.target_immobile,
            "attack_mod": s.attack_mod, "physical": s.physical, "protection": s.protection,
            "ammo_mode": s.ammo_mode,
            "rule_overrides": ",".join(f"{k}={v}" for k, v in s.overrides),
        }

    def rows(self, scenario: HeatScenario) -> pd.DataFrame:
        return pd.DataFrame({"turn": np.arange(1, scenario.turns + 1)})

    def facts(self, scenario: HeatScenario) -> dict[str, Any]:
        s = scenario
        return {
            "card": s.card_label,
            "usable_ov": s.ov_cap,
            "weapon_tn_base": s.tn_weapon_base + s.amod[0][0],
            "specials_not_simulated": ",".join(s.not_simulated),
            "notes": ("" if s.unit_type in ("BM", "IM") else
                      f"unit type {s.unit_type}: critical hits use the 'Mech table, the only "
                      "one in the rules reference (6.6)"),
        }

    def sample(self, scenario: HeatScenario, rng: np.random.Generator, n: int) -> Aggregate:
        return simulate(scenario, rng, n)

    def exact(self, scenario: HeatScenario) -> dict[str, np.ndarray] | None:
        return curves(scenario)

    def clear_cache(self) -> None:
        """Forget the cached transition matrices (the benchmark times exact from scratch)."""
        _CACHE.clear()


MODEL = HeatModel()
