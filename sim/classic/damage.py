"""Damage formulas with the reference's exact integer rounding (reference section 2).

W = attacker tonnage, T = target tonnage, h = hexes moved by a charger (target hex excluded).
"""

from __future__ import annotations

from sim.classic.rules import ClassicRules


def ceil_div(a: int, b: int) -> int:
    """ceil(a/b) for positive ints (reference section 0)."""
    return (a + b - 1) // b


def per_5_tons(w: int, rules: ClassicRules) -> int:
    """One point per 5 tons (kick, club, hatchet), D6 rounding (floor default)."""
    return w // 5 if rules.per_5_tons_rounding == "floor" else ceil_div(w, 5)


def punch(w: int, halvings: int, tsm: bool, rules: ClassicRules) -> int:
    """Punch: ceil(W/10), x2 with TSM, x 1/2 per destroyed/missing upper or lower arm actuator,
    one floor at the end, minimum ``punch_min_damage`` (1 rules, 0 MegaMek: D5)."""
    base = ceil_div(w, 10) * (2 if tsm else 1)
    return max(rules.punch_min_damage, base // (1 << halvings))


def claw_punch(w: int, halvings: int, tsm: bool, rules: ClassicRules) -> int:
    """A punch with claws (MegaMek ``PunchAttackAction.getDamageFor``, "tonnage/7 for
    claws"): ceil(W/7), x2 with TSM, x 1/2 per destroyed/missing upper or lower arm
    actuator, one floor at the end, the punch's minimum (D5)."""
    base = ceil_div(w, 7) * (2 if tsm else 1)
    return max(rules.punch_min_damage, base // (1 << halvings))


def kick(w: int, halvings: int, tsm: bool, rules: ClassicRules) -> int:
    """Kick: W/5 (x2 TSM), halved per destroyed upper/lower leg actuator, floor (no minimum)."""
    return per_5_tons(w, rules) * (2 if tsm else 1) // (1 << halvings)


def club(w: int, tsm: bool, rules: ClassicRules) -> int:
    """Club and hatchet: W/5 (x2 with TSM); not reduced by actuator damage (reference 2)."""
    return per_5_tons(w, rules) * (2 if tsm else 1)


def charge(w: int, hexes: int) -> int:
    """Charge damage to the target: ceil(W/10 x h) = (W h + 9) // 10 (seed; JagerMech 33)."""
    return ceil_div(w * hexes, 10)


def charge_self(t: int) -> int:
    """Damage to the charger: ceil(T/10)."""
    return ceil_div(t, 10)


def dfa(w: int, rules: ClassicRules) -> int:
    """DFA damage to the target, D18: ceil(3W/10) (MegaMek, 55 t -> 17), ceil(W/10) x 3 (18)
    or floor(W/10) x 3 (15)."""
    if rules.dfa_rounding == "ceil-product":
        return ceil_div(3 * w, 10)
    if rules.dfa_rounding == "ceil-then-times-3":
        return 3 * ceil_div(w, 10)
    return 3 * (w // 10)


def dfa_self(w: int) -> int:
    """Damage to the DFA attacker on a hit: ceil(W/5)."""
    return ceil_div(w, 5)


def fall(w: int, levels: int) -> int:
    """Falling damage: ceil(W/10) x (levels + 1) (reference 4.3; missed DFA = 2 levels)."""
    return ceil_div(w, 10) * (levels + 1)


def groups(total: int) -> tuple[int, ...]:
    """5-point groups, the last holding the remainder (reference 2.1: 33 -> 5,5,5,5,5,5,3)."""
    return (5,) * (total // 5) + ((total % 5,) if total % 5 else ())
