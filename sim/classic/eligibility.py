"""What makes a physical attack impossible (reference 1.3, "Physical attacks against prone
'Mechs", 1.2.1 prone attacker, dice conventions). Each function returns the reason as a string,
or None when the attack (or that arm) may be made. Never raises."""

from __future__ import annotations

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


def arm_reason(s: Scenario, side: str) -> str | None:
    """Punch with one arm: shoulder present and undamaged, the arm fired no weapon."""
    if (side, "shoulder") in s.missing:
        return f"{side} arm has no shoulder actuator (no arm): cannot punch"
    if (side, "shoulder") in s.damaged:
        return f"{side} shoulder actuator destroyed: cannot punch with that arm"
    if f"{side}-arm" in s.fired:
        return f"{side} arm fired a weapon this turn: cannot punch with it"
    return None


def attack_reason(s: Scenario) -> str | None:
    """Attack-specific restrictions (reference 1.3). Punch arms are checked per arm."""
    a = s.attack
    if a == "kick":
        for side in ("left", "right"):
            if s.bad(side, "hip"):
                return f"{side} hip actuator destroyed: a kick needs both hips undamaged"
        if f"{s.arm}-leg" in s.fired:
            return f"{s.arm} leg fired a weapon this turn: cannot kick with it"
    elif a == "club":
        for side in ("left", "right"):
            if s.bad(side, "shoulder"):
                return f"{side} shoulder actuator destroyed or missing: a club needs both"
            if s.bad(side, "hand"):
                return (f"{side} hand actuator destroyed or missing: a club needs both hands")
            if f"{side}-arm" in s.fired:
                return f"{side} arm fired a weapon this turn: no club attack"
    elif a == "hatchet":
        side = s.arm
        if s.hatchet_damaged:
            return "the hatchet has taken a critical hit (destroyed)"
        if s.bad(side, "shoulder"):
            return f"{side} shoulder actuator destroyed or missing: cannot swing the hatchet"
        if s.bad(side, "hand"):
            return f"{side} hand actuator destroyed or missing: cannot swing the hatchet"
        if f"{side}-arm" in s.fired:
            return f"{side} arm fired a weapon this turn: cannot swing the hatchet"
    elif a == "push":
        for side in ("left", "right"):
            if (side, "shoulder") in s.missing:
                return f"push needs both arms; the {side} arm is missing"
            if f"{side}-arm" in s.fired:
                return f"{side} arm fired a weapon this turn: no push"
        if s.target_prone:
            return "push is impossible against a prone target"
    elif a == "charge":
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
