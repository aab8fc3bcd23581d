"""The ``classic-force`` model (issue 21, "N 'Mechs a side"): Classic engagements of 1 to 4
'Mechs a side on the compiled engine, every unit with its own state, each side with its
targeting policy (:mod:`.forces`). The rules are the ``classic-duel`` model's; a side is
*down* when each of its units is destroyed or out of the fight (C21), and the engagement
ends when a side is down.

Scalar metrics (one value per scenario): ``p_win_a`` / ``p_win_b`` (the other side went down
first), ``p_draw`` (both in the same turn), ``p_timeout``, ``expected_turns``,
``turns_hist``, ``expected_survivors_a`` / ``_b`` (units not down at the end),
``expected_bv_surviving_a`` / ``_b`` (their Battle Value at skill; no value when a unit's BV
is unknown). Per unit (one row per unit, columns ``unit``, ``side``, ``name``, ``gunnery``,
``piloting``, ``bv``): ``p_survives``, ``p_destroyed`` (destroyed, not out of the fight),
``p_fell``, ``p_shutdown``, ``expected_damage_dealt`` (the whole engagement).
Facts: ``bv_a``, ``bv_b`` (each side's BV at skill, None when a unit's is unknown).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate
from sim.classic.duel.forces import build_force
from sim.classic.duel.scenario import DuelScenario
from sim.model import BenchCase, Metric, Model

#: turns at most of the benchmark's engagement (``btsim bench`` counts the turns played)
BENCH_TURNS = 10


def _metrics() -> tuple[Metric, ...]:
    def one(name: str, desc: str, kind: str = "probability", unit: str = "") -> Metric:
        return Metric(name, desc, kind, unit, exact=False, per_row=False)  # type: ignore[arg-type]

    def row(name: str, desc: str, kind: str = "probability", unit: str = "") -> Metric:
        return Metric(name, desc, kind, unit, exact=False)  # type: ignore[arg-type]

    return (
        one("p_win_a", "P(A wins: every unit of B down (destroyed or out of the fight) first)"),
        one("p_win_b", "P(B wins: every unit of A down first)"),
        one("p_draw", "P(both sides down in the same turn)"),
        one("p_timeout", "P(both sides still standing after the last turn)"),
        one("expected_turns", "expected turn the engagement ends (the last on a timeout)",
            "mean", "turns"),
        one("turns_hist", "distribution of the turn the engagement ended", "hist", "turns"),
        *(one(f"expected_survivors_{s}", f"expected units of {s.upper()} not down at the end",
              "mean", "units") for s in "ab"),
        *(one(f"expected_bv_surviving_{s}", f"expected Battle Value (at skill) of {s.upper()}'s "
              "units not down at the end", "mean", "BV") for s in "ab"),
        row("p_survives", "P(the unit is not down at the end)"),
        row("p_destroyed", "P(the unit is destroyed; out of the fight not counted)"),
        row("p_fell", "P(the unit fell at least once)"),
        row("p_shutdown", "P(the unit shut down at least once)"),
        row("expected_damage_dealt", "expected damage the unit dealt over the engagement",
            "mean", "points"),
    )


def _bench_params() -> dict[str, Any]:
    """Two against two built-in catalog 'Mechs at 6 hexes for 10 turns."""
    return {"unit_a": "Hunchback HBK-4G,Wolverine WVR-6R",
            "unit_b": "Hatchetman HCT-3F,Catapult CPLT-C1", "range": 6, "turns": BENCH_TURNS}


def summarize(scn: DuelScenario, out: dict[str, Any]) -> Aggregate:
    """The declared metrics from the engine's per-unit outcomes
    (:func:`sim.classic.engine.sampler.run`'s arrays, unit axis first)."""
    T = scn.turns
    dt = out["dead_turn"]
    n = dt.shape[1]
    sides = np.asarray(scn.unit_sides)
    agg = Aggregate(n)
    down_turn = []
    for s in (0, 1):
        d = dt[sides == s]
        down_turn.append(np.where((d > 0).all(axis=0), d.max(axis=0), 0))
    from sim.classic.duel.kernel import outcomes

    win_a, win_b, draw, timeout, end = outcomes(down_turn[0], down_turn[1], T)
    agg.add_mean("p_win_a", win_a)
    agg.add_mean("p_win_b", win_b)
    agg.add_mean("p_draw", draw)
    agg.add_mean("p_timeout", timeout)
    agg.add_mean("expected_turns", end)
    agg.add_hist("turns_hist", end, T + 1)
    standing = dt == 0
    bv = [u.bv["bv_at_skill"] for u in scn.units]
    for s, name in ((0, "a"), (1, "b")):
        mine = sides == s
        agg.add_mean(f"expected_survivors_{name}", standing[mine].sum(axis=0))
        known = all(bv[u] is not None for u in np.flatnonzero(mine))
        w = np.array([float(bv[u] or 0) for u in np.flatnonzero(mine)])
        agg.add_mean(f"expected_bv_surviving_{name}", (w[:, None] * standing[mine]).sum(axis=0),
                     where=np.full(n, known))
    agg.add_mean("p_survives", standing)
    agg.add_mean("p_destroyed", (dt > 0) & (out["out"] == 0))
    agg.add_mean("p_fell", out["fell"])
    agg.add_mean("p_shutdown", out["shut"])
    agg.add_mean("expected_damage_dealt", out["dealt"].sum(axis=1))
    return agg


def force_label(scn: DuelScenario, side: int) -> str:
    """A side as ``UNIT@G/P,UNIT@G/P``."""
    return ",".join(f"{u.label}@{u.gunnery}/{u.piloting}"
                    for u, s in zip(scn.units, scn.unit_sides, strict=True) if s == side)


def side_bv(scn: DuelScenario, side: int) -> int | None:
    """The side's Battle Value at skill (None when a unit's is unknown)."""
    vals = [u.bv["bv_at_skill"] for u, s in zip(scn.units, scn.unit_sides, strict=True)
            if s == side]
    return None if any(v is None for v in vals) else int(sum(vals))


class ClassicForceModel(Model):
    """Classic engagements of up to 4 'Mechs a side (issue 21)."""

    def __init__(self) -> None:
        super().__init__(name="classic-force",
                         description="Classic BattleTech engagement of 1 to 4 'Mechs a side "
                         "to destruction (the classic-duel rules; targeting per side).",
                         metrics=_metrics(),
                         bench_cases=(BenchCase("2v2", _bench_params(),
                                                unit="engagement-turns", per_trial=BENCH_TURNS,
                                                per_trial_metric="expected_turns"),),
                         # 2: issue 19: hardened armor (half points), torso cockpit
                         # 3: issue 19: hardened armor's PSR and TAC rules, coolant
                         #    pods, Narc launchers valued by the named firing policies
                         version="3", default_chunk=16384)

    def scenario(self, params: Mapping[str, Any]) -> DuelScenario:
        return build_force(params)

    def params(self, scenario: DuelScenario) -> dict[str, Any]:
        s = scenario
        out: dict[str, Any] = {"range": s.range_label, "turns": s.turns}
        for k, side, u in (("a", 0, s.a), ("b", 1, s.b)):
            out.update({f"unit_{k}": force_label(s, side), f"moved_{k}": u.moved,
                        f"policy_{k}": u.policy.label, f"physical_{k}": u.physical,
                        f"targeting_{k}": s.targeting[side]})
        out["rule_overrides"] = ",".join(f"{k}={v}" for k, v in s.fire_overrides)
        return out

    def notes(self, scenario: DuelScenario) -> list[str]:
        return list(scenario.notes) + list(FORCE_NOTES)

    def rows(self, scenario: DuelScenario) -> pd.DataFrame:
        us = scenario.units
        return pd.DataFrame({
            "unit": np.arange(1, len(us) + 1),
            "side": ["AB"[s] for s in scenario.unit_sides],
            "name": [u.label for u in us],
            "gunnery": [u.gunnery for u in us],
            "piloting": [u.piloting for u in us],
            "bv": [u.bv["bv_at_skill"] for u in us]})

    def facts(self, scenario: DuelScenario) -> dict[str, Any]:
        return {"bv_a": side_bv(scenario, 0), "bv_b": side_bv(scenario, 1),
                "notes": "; ".join(scenario.notes),
                "rule_options": {**next(iter(scenario.a.fire.values())).rules.as_dict(),
                                 **scenario.damage_rules.as_dict(),
                                 **scenario.classic_rules.as_dict(),
                                 **scenario.physical_rules.as_dict(),
                                 **scenario.duel_rules.as_dict()}}

    def sample(self, scenario: DuelScenario, rng: np.random.Generator, n: int) -> Aggregate:
        """The compiled engine (:mod:`sim.classic.engine`); :func:`build_force` refuses what
        it does not compile."""
        from sim.classic.engine import sampler

        return sampler.simulate(scenario, rng, n, summarize)

    def exact(self, scenario: DuelScenario) -> dict[str, np.ndarray] | None:
        return None


#: what the force engagement assumes beyond the duel's simplifications (every run's notes,
#: docs/rules.md "N 'Mechs a side")
FORCE_NOTES: tuple[str, ...] = (
    "classic-force: map-free: one range for every unit, one movement mode per side; at "
    "range 1 every unit is adjacent to every enemy, and each unit's physical attack goes to "
    "its target",
    "classic-force: each unit picks its target at the start of every weapon attack phase "
    "by its side's targeting policy (a unit whose target went down retargets); a unit "
    "destroyed or out of the fight takes no further part",
    "classic-force: a unit's named firing policy decides with the fire model's numbers "
    "against the other side's first 'Mech; its to-hit numbers use its real target's "
    "movement",
)


MODEL = ClassicForceModel()
