"""``punch-demo``: a deliberately small punch model that exercises the engine end to end.

It is the engine's own test fixture and the example in the README's "writing a model" notes.
The full Classic rules live in :mod:`sim.classic` (model ``attack``); this one keeps only
the core of the Grasshopper example (reference 1.4 and 2): TN = Piloting + target movement
modifier + 2 for a destroyed upper arm actuator; damage ceil(W/10), halved (round down,
minimum 1) for that actuator; location from the front column of the punch table (3.3).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np

from sim import dice
from sim.aggregate import Aggregate
from sim.errors import ConfigError, check_bool, check_int
from sim.model import BenchCase, Metric, Model

#: Target movement modifier by hexes moved, reference 1.2.2 (index = hexes, capped at 25).
_TMM = np.array([0, 0, 0, 1, 1, 2, 2, 3, 3, 3] + [4] * 8 + [5] * 7 + [6], dtype=np.int16)
#: Punch table, front column (reference 3.3): 1D6 face -> is it the head?
_HEAD = np.array([False, False, False, False, False, False, True])


@dataclass(frozen=True)
class DemoPunch:
    tons: int
    piloting: int
    target_hexes: int
    upper_arm_damaged: bool

    @property
    def target_number(self) -> int:
        return self.piloting + int(_TMM[min(self.target_hexes, 25)]) + 2 * self.upper_arm_damaged

    @property
    def damage(self) -> int:
        return max(1, ((self.tons + 9) // 10) >> int(self.upper_arm_damaged))


class PunchDemoModel(Model):
    PARAMS = ("tons", "piloting", "target_hexes", "upper_arm_damaged")

    def __init__(self) -> None:
        super().__init__(
            name="punch-demo",
            description="A one-arm punch (engine demo).",
            metrics=(
                Metric("p_hit", "chance the punch hits", "probability"),
                Metric("expected_damage", "mean damage per punch thrown", "mean", "points"),
                Metric("p_head_hit", "chance the punch hits the head", "probability"),
                Metric("damage_dist", "distribution of damage dealt", "hist", "points"),
            ),
            bench_cases=(BenchCase("punch-demo", {"tons": 70, "piloting": 5}),),
        )

    def scenario(self, params: Mapping[str, Any]) -> DemoPunch:
        unknown = set(params) - set(self.PARAMS)
        if unknown:
            raise ConfigError(sorted(unknown)[0], params[sorted(unknown)[0]],
                              "a known parameter of model 'punch-demo': " + ", ".join(self.PARAMS))
        return DemoPunch(
            tons=check_int("tons", params.get("tons", 50), 20, 100, multiple=5),
            piloting=check_int("piloting", params.get("piloting", 5), 0, 8),
            target_hexes=check_int("target_hexes", params.get("target_hexes", 0), 0, 99),
            upper_arm_damaged=check_bool("upper_arm_damaged",
                                         params.get("upper_arm_damaged", False)),
        )

    def params(self, scenario: DemoPunch) -> dict[str, Any]:
        return {k: getattr(scenario, k) for k in self.PARAMS}

    def facts(self, scenario: DemoPunch) -> dict[str, Any]:
        return {"target_number": scenario.target_number, "damage_points": scenario.damage}

    def sample(self, scenario: DemoPunch, rng: np.random.Generator, n: int) -> Aggregate:
        hit = dice.succeeds(dice.two_d6(rng, n), scenario.target_number)
        head = _HEAD[dice.d6(rng, n)] & hit
        dmg = hit.astype(np.uint8) * np.uint8(scenario.damage)
        agg = Aggregate(n)
        agg.add_mean("p_hit", hit)
        agg.add_mean("expected_damage", dmg)
        agg.add_mean("p_head_hit", head)
        agg.add_hist("damage_dist", dmg, bins=scenario.damage + 1)
        return agg

    def exact(self, scenario: DemoPunch) -> dict[str, np.ndarray]:
        p = float(dice.p_2d6_at_least(scenario.target_number))
        dist = np.zeros(scenario.damage + 1)
        dist[0] += 1 - p
        dist[scenario.damage] += p
        return {"p_hit": np.array([p]), "expected_damage": np.array([p * scenario.damage]),
                "p_head_hit": np.array([p / 6]), "damage_dist": dist[None, :]}


MODEL = PunchDemoModel()
