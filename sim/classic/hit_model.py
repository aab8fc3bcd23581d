"""The ``hit`` model: what damage groups do to a fresh Classic 'Mech, for experiment grids
(``btsim run``). Exact by enumeration and Monte Carlo with the same damage kernel
(:mod:`sim.classic.damage_state`, reference-classic-combat.md 14).

Parameters: ``unit`` (catalog name or .mtf file), ``damage`` and/or ``groups`` ("5,5,5"),
``location`` (+ ``rear``) or ``side``, ``rules`` (preset) and any :class:`DamageRules` option.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from sim import options
from sim.aggregate import Aggregate
from sim.classic.damage_rules import DamageRules
from sim.classic.damage_state import layout as lay
from sim.classic.damage_state import state as st
from sim.classic.damage_state.apply import DamageModel
from sim.classic.damage_state.choose import SampleChooser
from sim.classic.hit_api import _groups, _target, hit, run_groups
from sim.errors import ConfigError, UserError
from sim.model import BenchCase, Metric, Model
from sim.units.catalog import get_classic
from sim.units.types import ClassicMech

KEYS = ("unit", "damage", "groups", "location", "rear", "side", "rules")
CAUSE_METRICS = tuple(f"p_destroyed_by_{c}" for c in st.CAUSES[1:])
METRICS: tuple[Metric, ...] = (
    Metric("p_destroyed", "P('Mech destroyed)", "probability"),
    Metric("p_ammo_explosion", "P(at least one ammunition or Gauss explosion)", "probability"),
    Metric("p_any_critical", "P(at least one critical hit, in any location)", "probability"),
    *(Metric(m, f"P(destroyed; first cause {m.rsplit('_by_', 1)[1]})", "probability")
      for m in CAUSE_METRICS),
    Metric("expected_pilot_damage", "E[MechWarrior damage] (capped at 6)", "mean", "points"),
    Metric("expected_engine_hits", "E[engine hits] (capped at 3)", "mean", "hits"),
)


@dataclass(frozen=True)
class HitScenario:
    mech: ClassicMech
    groups: tuple[int, ...]
    location: int | None
    rear: bool
    side: str | None
    rules_name: str
    rules: DamageRules


@dataclass
class HitModel(Model):
    """Damage groups on a fresh Classic 'Mech."""

    name: str = "hit"
    description: str = ("Classic BattleTech damage groups on a fresh 'Mech: transfer, "
                        "criticals, explosions, destruction; exact and Monte Carlo")
    metrics: tuple = METRICS
    #: 2: issue 18, C10: a bin hit by the critical of the group that destroys the 'Mech
    #: explodes (cause ammunition, pilot damage)
    #: 3: issue 19: quads; HAG explosions rackSize / 2 (MegaMek CLHAG*)
    #: 4: issue 19: hardened armor kept in half points (each point stops two damage); the
    #: torso-mounted cockpit (no pilot damage from head hits, the head not vital)
    #: 5: issue 19: hardened armor's -2 on the TAC of a group it stops whole
    version: str = "5"
    #: ``btsim bench`` times the exact answer (``exact ms``: what ``btsim hit`` computes;
    #: issue 13 asks for under 50 ms) and the Monte Carlo kernel of each case
    bench_cases: tuple = field(default_factory=lambda: (
        BenchCase("hit-2x5-front", {"unit": "Hunchback HBK-4G", "damage": 10,
                                    "groups": [5, 5], "side": "front"}),
        BenchCase("hit-20-front", {"unit": "Hunchback HBK-4G", "damage": 20,
                                   "groups": [20], "side": "front"}),
        BenchCase("hit-20-CT", {"unit": "Hunchback HBK-4G", "damage": 20,
                                "groups": [20], "location": "CT"})))

    def scenario(self, params: Mapping[str, Any]) -> HitScenario:
        names = set(DamageRules.__dataclass_fields__)
        bad = [k for k in params if k not in KEYS and k not in names]
        if bad:
            raise ConfigError(bad[0], params[bad[0]], "a hit parameter ("
                              + ", ".join(KEYS) + ") or a damage rule option")
        try:
            groups = params.get("groups")
            if isinstance(groups, str):
                groups = [int(g) for g in groups.split(",") if g.strip()]
            gs = _groups(params.get("damage"), groups)
            loc, side = _target(params.get("location"), bool(params.get("rear", False)),
                                params.get("side"))
            mech = get_classic(str(params.get("unit", "")))
        except (UserError, ValueError) as exc:
            raise ConfigError("hit", dict(params), str(exc)) from None
        overrides = {k: v for k, v in params.items() if k in DamageRules.__dataclass_fields__}
        rules_name = str(params.get("rules", "default"))
        rules: DamageRules = options.build(DamageRules, rules_name, overrides)
        return HitScenario(mech, gs, loc, bool(params.get("rear", False)), side,
                           rules_name, rules)

    def params(self, scenario: HitScenario) -> dict[str, Any]:
        return {"unit": scenario.mech.name, "groups": ",".join(map(str, scenario.groups)),
                "location": None if scenario.location is None else lay.LOCS[scenario.location],
                "rear": scenario.rear, "side": scenario.side, "rules": scenario.rules_name}

    def facts(self, scenario: HitScenario) -> dict[str, Any]:
        return {"damage": sum(scenario.groups),
                "rule_options": json.dumps(scenario.rules.as_dict(), sort_keys=True)}

    def sample(self, scenario: HitScenario, rng: np.random.Generator, n: int) -> Aggregate:
        layout = lay.build_layout(scenario.mech, quad=True)
        dm = DamageModel.build(layout, scenario.rules)
        S, _ = run_groups(dm, scenario.groups, scenario.location, scenario.rear,
                          scenario.side, st.fresh(layout, n), np.ones(n), SampleChooser(rng),
                          False)
        agg = Aggregate(n)
        cause = S[:, st.CAUSE]
        agg.add_mean("p_destroyed", cause != st.C_NONE)
        agg.add_mean("p_ammo_explosion", S[:, st.EXPLOSIONS] > 0)
        agg.add_mean("p_any_critical", S[:, st.CRIT] != 0)
        for k, m in enumerate(CAUSE_METRICS, 1):
            agg.add_mean(m, cause == k)
        agg.add_mean("expected_pilot_damage", np.minimum(S[:, st.PILOT], st.PILOT_DEAD))
        agg.add_mean("expected_engine_hits", np.minimum(S[:, st.ENGINE], st.ENGINE_DEAD))
        return agg

    def exact(self, scenario: HitScenario) -> dict[str, np.ndarray] | None:
        r = hit(scenario.mech, groups=scenario.groups,
                location=None if scenario.location is None else lay.LOCS[scenario.location],
                rear=scenario.rear, side=scenario.side, rules=scenario.rules)
        out = {"p_destroyed": r["p_destroyed"], "p_ammo_explosion": r["p_ammo_explosion"],
               "p_any_critical": r["p_any_critical"],
               "expected_pilot_damage": r["expected_pilot_damage"],
               "expected_engine_hits": r["expected_engine_hits"]}
        for c, m in zip(st.CAUSES[1:], CAUSE_METRICS, strict=True):
            out[m] = r["p_destroyed_by"][c]
        return {k: np.array([v]) for k, v in out.items()}


@dataclass
class HitSummaryModel(HitModel):
    """The ``hit`` model with every field of the ``btsim hit`` document as a metric
    (:func:`sim.classic.damage_state.outcome.per_row`, flattened names), for one unit layout
    and start state: ``sim.hit``/``btsim hit`` run their Monte Carlo through the engine with
    it (issue 21), so they draw the same chunk streams as ``sim.run`` on the ``hit`` model and
    give its metrics (``p_destroyed``, ...) the same bits for the same seed and trials."""

    layout: lay.Layout | None = None
    start: np.ndarray | None = None

    @classmethod
    def for_layout(cls, layout: lay.Layout, start: np.ndarray) -> HitSummaryModel:
        from sim.classic.damage_state.outcome import PROBABILITY_FIELDS, SEP, per_row

        names = per_row(start, layout, start[0])
        metrics = tuple(Metric(k, k.replace(SEP, " "), "probability"
                               if k.partition(SEP)[0] in PROBABILITY_FIELDS else "mean")
                        for k in names)
        return cls(metrics=metrics, layout=layout, start=start)

    def sample(self, scenario: HitScenario, rng: np.random.Generator, n: int) -> Aggregate:
        from sim.classic.damage_state.outcome import per_row

        assert self.layout is not None and self.start is not None
        dm = DamageModel.build(self.layout, scenario.rules)
        S, _ = run_groups(dm, scenario.groups, scenario.location, scenario.rear,
                          scenario.side, np.repeat(self.start, n, axis=0), np.ones(n),
                          SampleChooser(rng), False)
        agg = Aggregate(n)
        for k, v in per_row(S, self.layout, self.start[0]).items():
            agg.add_mean(k, v)
        return agg

    def exact(self, scenario: HitScenario) -> dict[str, np.ndarray] | None:
        return None


MODEL = HitModel()
