"""The ``attack`` model's metrics, each defined once (names shared by exact and Monte Carlo)."""

from __future__ import annotations

from sim.classic.attacks import ATTACK_LIST
from sim.classic.tables import LOCATIONS
from sim.model import Metric

#: Attacks that damage the attacker on a hit (from the declarations): "charge, DFA".
_SELF = ", ".join(a.label for a in ATTACK_LIST if a.self_damage is not None)

LOC_METRICS: tuple[str, ...] = tuple(f"expected_damage_{x}" for x in LOCATIONS)


def fall_loc_metric(unit: str, loc: str) -> str:
    """Name of the expected fall damage of ``unit`` (target/attacker) at ``loc``."""
    return f"expected_fall_damage_{unit}_{loc}"


FALL_LOC_METRICS: dict[str, tuple[str, ...]] = {
    u: tuple(fall_loc_metric(u, x) for x in LOCATIONS) for u in ("target", "attacker")}

METRICS: tuple[Metric, ...] = (
    Metric("p_hit", "chance that the attack hits (two-arm punch: at least one arm)",
           "probability"),
    Metric("expected_hits", "expected number of successful to-hit rolls (0-2)", "mean"),
    Metric("damage", "damage to the target given a hit (conditional mean)", "mean", "points"),
    Metric("expected_damage", "expected damage to the target per attack", "mean", "points"),
    *(Metric(m, f"expected damage to the target's {m.rsplit('_', 1)[1]}", "mean", "points")
      for m in LOC_METRICS),
    Metric("p_head_hit", "chance that at least one damage group strikes the head",
           "probability"),
    Metric("p_head_destroyed", "chance that the attack destroys a fresh head (9 armor + 3 "
           "structure): 12+ points to the head", "probability"),
    Metric("p_tac", "chance of at least one through-armor critical roll (a 2 on the 2D6 table)",
           "probability"),
    Metric("self_damage", f"damage to the attacker given a hit ({_SELF})", "mean", "points"),
    Metric("expected_self_damage", "expected damage to the attacker per attack", "mean",
           "points"),
    Metric("p_target_falls", "chance that the target falls (fails a PSR; a prone target cannot "
           "fall)", "probability"),
    Metric("p_attacker_falls", "chance that the attacker falls (failed PSR or missed DFA)",
           "probability"),
    Metric("expected_fall_damage_target", "expected falling damage to the target", "mean",
           "points"),
    Metric("expected_fall_damage_attacker", "expected falling damage to the attacker", "mean",
           "points"),
    *(Metric(m, f"expected falling damage to the {u}'s {m.rsplit('_', 1)[1]}", "mean",
             "points") for u, ms in FALL_LOC_METRICS.items() for m in ms),
    Metric("p_target_displaced", "chance that the target is moved one hex out of its hex "
           "(reference 4.6): push hit (unless countered by a mutual push), charge or DFA hit, "
           "missed DFA; never when the destination is prohibited (except a missed DFA)",
           "probability"),
    Metric("p_attacker_displaced", "chance that the attacker is moved to a hex it did not "
           "choose (reference 4.6): pushed back by the target's mutual push, or placed in the "
           "left/right front hex after a missed charge; advancing into the target's former hex "
           "after a push/charge/DFA hit is not counted", "probability"),
    Metric("expected_pilot_damage_target", "expected damage to the target's MechWarrior (head "
           "hits, falls)", "mean", "points"),
    Metric("expected_pilot_damage_attacker", "expected damage to the attacker's MechWarrior",
           "mean", "points"),
    Metric("damage_dist", "distribution of the total damage dealt to the target (0..max)",
           "hist", "points"),
)
METRIC_NAMES: tuple[str, ...] = tuple(m.name for m in METRICS if m.kind != "hist")
