"""What makes a physical attack impossible (reference 1.3, "Physical attacks against prone
'Mechs", 1.2.1 prone attacker, dice conventions). Each function returns the reason as a string,
or None when the attack (or that arm) may be made. Never raises."""

from __future__ import annotations

from sim.classic import attacks as A
from sim.classic.attacks import ATTACK_LIST, LimbRule, spec
from sim.classic.scenario import Scenario

_WHERE = {0: "at the same level", 1: "one level higher", -1: "one level lower"}

#: Prone target: allowed attacks by the target's level relative to the attacker (BMM 7th
#: printing, reference 1.3 table), derived from the declarations' ``prone_levels``.
PRONE_ALLOWED: dict[int, tuple[str, ...]] = {
    lv: tuple(a.name for a in ATTACK_LIST if lv in a.prone_levels) for lv in (0, 1, -1)}

#: Reference 1.3 limb requirements by attack (a view of the declarations' ``limb_rule``).
LIMB_RULES: dict[str, LimbRule] = {
    a.name: a.limb_rule for a in ATTACK_LIST if a.limb_rule is not None}

__all__ = ["LIMB_RULES", "PRONE_ALLOWED", "LimbRule", "attack_reason", "common", "limb_reason",
           "tn_reason"]


def common(s: Scenario) -> str | None:
    """Checks shared by every attack: unit facts, prone attacker, prone/level legality."""
    if s.unit_impossible:
        return s.unit_impossible
    if s.attacker_prone:
        return "attacker is prone: no physical attack from prone (reference 1.2.1)"
    a = spec(s.attack)
    if s.target_prone and s.target_level not in a.prone_levels:
        allowed = [x.name for x in A.ATTACK_SPECS.values() if s.target_level in x.prone_levels]
        return (f"a prone target {_WHERE[s.target_level]} can only be attacked by "
                + " or ".join(allowed) + " (BMM, reference 1.3)")
    if not s.target_prone and s.target_level not in a.standing_levels:
        return a.standing_reason or (f"a standing target {_WHERE[s.target_level]} cannot be "
                                     f"attacked by a {a.name} (reference 1.3)")
    return None


def limb_reason(s: Scenario, side: str | None = None) -> str | None:
    """The first limb requirement of the attack's ``limb_rule`` the attacker fails, with the
    reason. ``side`` checks one arm (each arm of a two-arm punch is checked on its own)."""
    rule = spec(s.attack).limb_rule
    if rule is None:
        return None
    own = side or s.arm
    sides = ("left", "right") if rule.limbs == "both" else (own,)
    for sd in sides:
        for act in rule.present:
            if (sd, act) in s.missing:
                return (f"{sd} {rule.part} has no {act} actuator: "
                        f"a {rule.what} needs both {rule.part}s")
        for act in rule.intact:
            if (sd, act) in s.missing:
                return f"{sd} {rule.part} has no {act} actuator: no {rule.what} with it"
            if (sd, act) in s.damaged:
                return f"{sd} {act} actuator destroyed: no {rule.what} with that {rule.part}"
    fired_sides = sides if rule.limbs == "both" and rule.part == "arm" else (own,)
    for sd in fired_sides:
        if rule.fired and f"{sd}-{rule.part}" in s.fired:
            return f"{sd} {rule.part} fired a weapon this turn: no {rule.what} with it"
    return None


def attack_reason(s: Scenario) -> str | None:
    """Attack-specific restrictions (reference 1.3) from the declaration: a destroyed
    physical weapon, limbs (per-arm attacks are checked per arm when the strikes are built),
    the attacker's movement, weapons fired this turn."""
    a = spec(s.attack)
    if a.weapon is not None and getattr(s, f"{a.weapon}_damaged"):
        return f"the {a.weapon} has taken a critical hit (destroyed)"
    if not a.per_arm:
        why = limb_reason(s)
        if why:
            return why
    for moved, why in a.move_rules:
        if s.moved == moved:
            return why
    if a.no_fire is not None and s.fired:
        return a.no_fire
    return None


def tn_reason(tn: int) -> str | None:
    """TN of 13 or more cannot succeed (reference section 0)."""
    if tn >= 13:
        return f"target number {tn} is 13 or more: the attack cannot hit"
    return None
