"""The ``classic-duel`` model (issue 13 "Engagements"): two Classic 'Mechs to destruction.

Scalar metrics (one value per scenario): ``p_win_a``, ``p_win_b``, ``p_draw`` (both
destroyed in the same turn), ``p_timeout`` (both standing after ``turns``),
``expected_turns`` (turn the duel ended; ``turns`` on a timeout), ``p_<side>_destroyed_by_
<cause>`` (head, center_torso, engine, pilot, ammunition: 14.5), ``p_<side>_out_by_
<reason>`` (unconscious, immobile_unarmed, crippled: the side lost by being out of the fight
under the ``out_of_fight`` option, C21; always 0 under the default), ``p_fell_a/_b``,
``p_shutdown_by_a/_b``, ``expected_damage_total_a/_b`` (damage dealt by that side over the
whole duel), ``turns_hist``. Per turn: ``p_a_destroyed_by``, ``p_b_destroyed_by``,
``p_a_shutdown_by``, ``p_b_shutdown_by``, ``p_a_fell_by``, ``p_b_fell_by`` (cumulative: by
the end of that turn), ``expected_damage_a`` / ``_b`` (damage dealt by that side in the
turn), ``expected_range`` (mean range of the duels still running in the turn: under
``closing`` with ``closing_mp=current`` each duel has its own). The per-turn row column
``range`` is the scenario's nominal schedule (under closing: from both sides' undamaged
running MP).
Facts: ``bv_a``, ``bv_b`` at the sides' skills (None when unknown, with a note).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd

from sim.aggregate import Aggregate
from sim.classic.damage_state import state as st
from sim.classic.duel import kernel
from sim.classic.duel.rules import OUT_REASONS
from sim.classic.duel.scenario import DuelScenario, build
from sim.classic.engine.compile import engine_only_equipment
from sim.classic.engine.compile import supported as engine_supported
from sim.errors import ConfigError
from sim.model import BenchCase, Metric, Model

#: turns at most of the benchmark's duel; ``btsim bench`` counts the duel-turns played
#: (``expected_turns`` per duel, ~5.5 for its pairing), not ``BENCH_TURNS`` per duel
BENCH_TURNS = 10


def _metrics() -> tuple[Metric, ...]:
    def one(name: str, desc: str, kind: str = "probability", unit: str = "") -> Metric:
        return Metric(name, desc, kind, unit, exact=False, per_row=False)  # type: ignore[arg-type]

    causes = tuple(one(f"p_{s}_destroyed_by_{c}", f"P({s.upper()} destroyed; cause {c})")
                   for s in "ab" for c in st.CAUSES[1:])
    outs = tuple(one(f"p_{s}_out_by_{r}", f"P({s.upper()} lost out of the fight: {r}, C21)")
                 for s in "ab" for r in OUT_REASONS[1:])
    return (
        one("p_win_a", "P(A wins: B destroyed (or out of the fight, C21) first)"),
        one("p_win_b", "P(B wins: A destroyed (or out of the fight, C21) first)"),
        one("p_draw", "P(both destroyed in the same turn)"),
        one("p_timeout", "P(both still standing after the last turn)"),
        one("expected_turns", "expected turn the duel ends (the last turn on a timeout)",
            "mean", "turns"),
        *causes,
        *outs,
        one("p_fell_a", "P(A fell at least once)"),
        one("p_fell_b", "P(B fell at least once)"),
        one("p_shutdown_by_a", "P(A shut down at least once)"),
        one("p_shutdown_by_b", "P(B shut down at least once)"),
        one("expected_damage_total_a", "expected damage dealt by A over the whole duel",
            "mean", "points"),
        one("expected_damage_total_b", "expected damage dealt by B over the whole duel",
            "mean", "points"),
        one("turns_hist", "distribution of the turn the duel ended", "hist", "turns"),
        Metric("p_a_destroyed_by", "P(A destroyed (or out of the fight, C21) by this turn)",
               "probability", exact=False),
        Metric("p_b_destroyed_by", "P(B destroyed (or out of the fight, C21) by this turn)",
               "probability", exact=False),
        Metric("p_a_shutdown_by", "P(A has shut down at least once by this turn)",
               "probability", exact=False),
        Metric("p_b_shutdown_by", "P(B has shut down at least once by this turn)",
               "probability", exact=False),
        Metric("p_a_fell_by", "P(A has fallen at least once by this turn)", "probability",
               exact=False),
        Metric("p_b_fell_by", "P(B has fallen at least once by this turn)", "probability",
               exact=False),
        Metric("expected_damage_a", "expected damage dealt by A this turn", "mean", "points",
               exact=False),
        Metric("expected_damage_b", "expected damage dealt by B this turn", "mean", "points",
               exact=False),
        Metric("expected_range", "mean range of the duels still running this turn (under "
               "closing each duel closes in at the speed its 'Mechs have now)", "mean", "hexes",
               exact=False),
    )


def _bench_params() -> dict[str, Any]:
    """Catalog 'Mechs (built in, no shared data needed) at 6 hexes for 10 turns."""
    return {"unit_a": "Hunchback HBK-4G", "unit_b": "Wolverine WVR-6R", "range": 6,
            "turns": BENCH_TURNS}


def with_edits(params: Mapping[str, Any]) -> dict[str, Any]:
    """``params`` with ``edit_a`` / ``edit_b`` (issue 20, :mod:`sim.units.edited`) applied to
    ``unit_a`` / ``unit_b`` before the scenario builder sees them: the side plays the edited
    'Mech, named ``NAME [edit]``, at its recomputed Battle Value."""
    out = {k: v for k, v in params.items() if k not in ("edit_a", "edit_b")}
    for s in "ab":
        value = params.get(f"edit_{s}")
        if value is None or value == "" or value == []:
            continue
        from sim.units.edited import edit_unit

        unit = params.get(f"unit_{s}")
        if unit is None or (isinstance(unit, str) and not unit.strip()):
            raise ConfigError(f"unit_{s}", unit, f"a unit to edit (edit_{s} is given)")
        out[f"unit_{s}"] = edit_unit(unit, value, f"edit_{s}")
    return out


class ClassicDuelModel(Model):
    """Two Classic 'Mechs fight to destruction (issue 13)."""

    def __init__(self) -> None:
        super().__init__(name="classic-duel",
                         description="Classic BattleTech duel of two 'Mechs to destruction: "
                         "weapons, physical attacks, criticals, PSRs, falls, heat.",
                         metrics=_metrics(),
                         # the default duel (competent, issue 22) and the same pairing
                         # standing and firing everything: the tactics' cost per turn
                         bench_cases=(BenchCase("classic-duel", _bench_params(),
                                                unit="duel-turns", per_trial=BENCH_TURNS,
                                                per_trial_metric="expected_turns"),
                                      BenchCase("classic-duel-stand-and-fire",
                                                {**_bench_params(),
                                                 "tactic_a": "stand-and-fire",
                                                 "tactic_b": "stand-and-fire"},
                                                unit="duel-turns", per_trial=BENCH_TURNS,
                                                per_trial_metric="expected_turns")),
                         # 2: duel rule options; consciousness rolled per point per phase
                         # 3: charge hexes, DFA targets, failed stands, wake-up rolls
                         # 4: per-turn shutdown and fall curves
                         # 5: a prone 'Mech fires from one arm (prone_fire)
                         # 6: closing with a range per duel (closing_mp); expected_range
                         # 7: `all` fires by each trial's own to-hit numbers
                         # 8: whole-duel damage dealt (expected_damage_total_a/_b)
                         # 9: 1D6 and 2D6 from btsim's byte dice (sim.dice): new streams
                         # 10: issue 18: the target's AMS, ATM +2, C27 while shut down,
                         #     C10 explosions of the destroying group
                         # 11: issue 21: the compiled engine (sim.classic.engine), dice
                         #     keyed per duel and roll kind; the NumPy kernel only for
                         #     what the engine does not compile (engine_fallback)
                         # 12: named firing policies compiled (decided on the weapons
                         #     really available); MASC/TSM, sword, small cockpit simulated
                         # 13: issue 19: quads, the heavy-duty gyro, the retractable blade
                         #     and stealth armor on the engine (bipeds' bits unchanged)
                         # 14: issue 22: initiative and movement chosen per turn by
                         #     each side's tactic (default competent at a fixed range)
                         # 15: issue 19: hardened armor (half points) on every door; the
                         #     torso-mounted cockpit on the engine
                         # 16: issue 19: hardened armor's +1 PSR and -2 TAC, the small
                         #     cockpit's +1 on every door, coolant pods (coolant_pod), Narc
                         #     launchers valued by the named firing policies
                         # 17: issue 22: the tactics' payoff values the physical attack
                         #     'best' makes at distance 1 and its falls; the turn limit's
                         #     rate floor (0.25 / turns)
                         version="17",
                         # one kernel block per chunk: 100,000 duels make 7 chunks for
                         # the workers and the intervals (1 at the engine's 2^18)
                         default_chunk=kernel.BLOCK)

    def scenario(self, params: Mapping[str, Any]) -> DuelScenario:
        scn = build(with_edits(params))
        ok, why = engine_supported(scn)
        if scn.free and not ok:
            # the NumPy duel kernel (the fallback for callable policies) does not play tactics
            s = "a" if scn.tactics[0].name != "stand-and-fire" else "b"
            raise ConfigError(f"tactic_{s}", scn.tactics[0 if s == "a" else 1].name,
                              f"stand-and-fire with {why} (the NumPy duel kernel that runs "
                              "it does not play tactics)")
        return scn

    def params(self, scenario: DuelScenario) -> dict[str, Any]:
        s = scenario
        out: dict[str, Any] = {"range": s.range_label, "turns": s.turns}
        for k, side in (("a", s.a), ("b", s.b)):
            out.update({f"unit_{k}": side.label, f"gunnery_{k}": side.gunnery,
                        f"piloting_{k}": side.piloting, f"moved_{k}": side.moved,
                        f"policy_{k}": side.policy.label,
                        f"tactic_{k}": s.tactics[0 if k == "a" else 1].name,
                        f"physical_{k}": side.physical if isinstance(side.physical, str)
                        else "callable"})
        out["movement"] = "tactics" if s.free else "imposed"
        out["rule_overrides"] = ",".join(f"{k}={v}" for k, v in s.fire_overrides)
        return out

    def notes(self, scenario: DuelScenario) -> list[str]:
        ok, why = engine_supported(scenario)
        extra = [] if ok else [f"classic-duel: {why}: sampled by the NumPy duel kernel, not "
                               "the compiled engine (issue 21)"]
        if not ok:
            extra += [f"classic-duel: {s.label}: {what} is simulated by the compiled engine "
                      "only; the NumPy duel kernel ignores it" for s in scenario.sides
                      for what in engine_only_equipment(s.mech)]
        return list(scenario.notes) + extra

    def rows(self, scenario: DuelScenario) -> pd.DataFrame:
        return pd.DataFrame({"turn": np.arange(1, scenario.turns + 1),
                             "range": list(scenario.ranges)})

    def facts(self, scenario: DuelScenario) -> dict[str, Any]:
        return {"bv_a": scenario.a.bv["bv_at_skill"], "bv_b": scenario.b.bv["bv_at_skill"],
                "notes": "; ".join(scenario.notes),
                "rule_options": {**next(iter(scenario.a.fire.values())).rules.as_dict(),
                                 **scenario.damage_rules.as_dict(),
                                 **scenario.classic_rules.as_dict(),
                                 **scenario.physical_rules.as_dict(),
                                 **scenario.duel_rules.as_dict()}}

    def sample(self, scenario: DuelScenario, rng: np.random.Generator, n: int) -> Aggregate:
        """The compiled engine (:mod:`sim.classic.engine`), or the NumPy duel kernel for
        what the engine does not compile (:func:`engine_supported`, stated in the notes)."""
        if engine_supported(scenario)[0]:
            from sim.classic.engine import sampler

            return sampler.simulate(scenario, rng, n)
        return kernel.simulate(scenario, rng, n)

    def exact(self, scenario: DuelScenario) -> dict[str, np.ndarray] | None:
        return None


MODEL = ClassicDuelModel()
