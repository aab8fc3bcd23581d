"""What makes a physical attack impossible (reference 1.3, "Physical attacks against prone
'Mechs", 1.2.1 prone attacker, dice conventions). Each function returns the reason as a string,
or None when the attack (or that arm) may be made. Never raises."""

from __future__ import annotations

from dataclasses import dataclass

from sim.classic.scenario import Scenario

#: Prone target: allowed attacks by the target's level relative to the attacker (BMM 7th
#: printing, reference 1.3 table).
PRONE_ALLOWED = {0: ("kick", "dfa"), 1: ("punch", "club", "hatchet", "dfa"), -1: ("dfa",)}


def common(s: Scenario) -> str | None:
    """Checks shared by every attack: unit facts, prone attacker, prone/level legality."""
    if s.unit_impossible:
        return s.unit_impossible
    if s.attacker_prone:
        return "attacker is prone: no physical attack from prone (reference 1.2.1)"
    if s.target_prone and s.attack not in PRONE_ALLOWED[s.target_level]:
        where = {0: "at the same level", 1: "one level higher", -1: "one level lower"}
        return (f"a prone target {where[s.target_level]} can only be attacked by "
                + " or ".join(PRONE_ALLOWED[s.target_level]) + " (BMM, reference 1.3)")
    if not s.target_prone:
        if s.attack == "punch" and s.target_level == -1:
            return "a standing target one level lower cannot be punched (reference 2.2)"
        if s.attack == "kick" and s.target_level == 1:
            return "a target standing one level higher cannot be kicked (reference 2.2)"
        if s.attack == "push" and s.target_level != 0:
            return "push needs the target at the same elevation (reference 1.3)"
    return None


@dataclass(frozen=True)
class LimbRule:
    """What an attack needs from the attacker's limbs (reference 1.3 restriction lists).

    ``limbs``: "own" (the punching/swinging arm or kicking leg) or "both" (both arms/legs).
    ``intact``: actuators that must be present and undamaged; ``present``: actuators that must
    exist (a destroyed one only costs to-hit); ``fired``: whether those limbs must not have
    fired a weapon this turn. ``what`` names the attack in the reason.
    """

    part: str
    limbs: str
    intact: tuple[str, ...] = ()
    present: tuple[str, ...] = ()
    fired: bool = True
    what: str = ""


#: Reference 1.3, one row per attack that uses its limbs. Punch is checked per arm.
LIMB_RULES: dict[str, LimbRule] = {
    "punch": LimbRule("arm", "own", intact=("shoulder",), what="punch"),
    "kick": LimbRule("leg", "both", intact=("hip",), what="kick"),
    "club": LimbRule("arm", "both", intact=("shoulder", "hand"), what="club attack"),
    "hatchet": LimbRule("arm", "own", intact=("shoulder", "hand"), what="hatchet swing"),
    "push": LimbRule("arm", "both", present=("shoulder",), what="push"),
}


def limb_reason(s: Scenario, side: str | None = None) -> str | None:
    """The first limb requirement of :data:`LIMB_RULES` the attacker fails, with the reason.
    ``side`` checks one arm (each arm of a two-arm punch is checked on its own)."""
    rule = LIMB_RULES.get(s.attack)
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
    """Attack-specific restrictions (reference 1.3). Punch arms are checked per arm."""
    a = s.attack
    if a == "hatchet" and s.hatchet_damaged:
        return "the hatchet has taken a critical hit (destroyed)"
    if a in LIMB_RULES and a != "punch":
        why = limb_reason(s)
        if why:
            return why
    if a == "push" and s.target_prone:
        return "push is impossible against a prone target"
    if a == "charge":
        if s.moved == "jump":
            return "no jumping during a charge (reference 1.3)"
        if s.moved == "stand":
            return "a charge moves into the target hex: moved must be walk or run"
        if s.fired:
            return "a charging unit fires no weapons this turn"
        if s.target_prone:
            return "target is prone: the charge cannot be made (reference 1.3)"
    elif a == "dfa":
        if s.moved != "jump":
            return "a death from above is a jump: moved must be jump"
        if s.fired:
            return "a DFA attacker fires no weapons this turn"
    return None


def tn_reason(tn: int) -> str | None:
    """TN of 13 or more cannot succeed (reference section 0)."""
    if tn >= 13:
        return f"target number {tn} is 13 or more: the attack cannot hit"
    return None
