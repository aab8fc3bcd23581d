"""To-hit numbers of physical attacks (reference section 1).

Every function returns an ``int`` modifier, or for :func:`target_number` the total and a list of
``(label, modifier)`` terms (the breakdown the CLI prints). Physical attacks never take heat or
sensor modifiers (reference 1.2).
"""

from __future__ import annotations

from sim.classic import tables as T
from sim.classic.rules import ClassicRules


def tmm(hexes: int, jumped: bool, table: str = "tw") -> int:
    """Target movement modifier by hexes moved, +1 if it jumped (reference 1.2.2, D16)."""
    rows, top = (T.TMM_TW, T.TMM_TW_MAX) if table == "tw" else (T.TMM_OLD, T.TMM_OLD_MAX)
    mod = top
    for upper, m in rows:
        if hexes <= upper:
            mod = m
            break
    return mod + (1 if jumped else 0)


def attacker_movement_mod(attack: str, moved: str) -> int:
    """Attacker movement modifier (reference 1.2.1). A DFA's jump +3 is part of its base."""
    if attack == "dfa":
        return 0
    return T.ATTACKER_MOVEMENT[moved]


def terrain_mod(attack: str, terrain: str, partial_cover: bool, rules: ClassicRules) -> int:
    """Target-hex terrain modifier (reference 1.2.3): woods +1/+2; depth-1 water partial cover +1
    (+``partial_cover_push_mod`` for a push, D7); none for a DFA unless ``dfa_terrain`` (D9)."""
    if attack == "dfa" and not rules.dfa_terrain:
        return 0
    mod = T.TERRAIN[terrain]
    if partial_cover:
        mod += rules.partial_cover_push_mod if attack == "push" else 1
    return mod


def punch_arm_mod(bad_upper: bool, bad_lower: bool, bad_hand: bool, lower_and_hand_missing: bool,
                  rules: ClassicRules) -> int:
    """Punch actuator modifier for one arm (reference 1.3 "Punch", D4): upper +2, lower +2,
    hand +1; with hand **and** lower arm missing by design the pair counts
    ``hand_and_lower_arm_missing_mod`` (3 current rules, 2 seed)."""
    mod = 2 * bad_upper
    if lower_and_hand_missing:
        return mod + rules.hand_and_lower_arm_missing_mod
    return mod + 2 * bad_lower + 1 * bad_hand


def kick_leg_mod(bad_upper: bool, bad_lower: bool, bad_foot: bool) -> int:
    """Kick actuator modifier for the kicking leg: upper/lower leg +2 each, foot +1 (1.3)."""
    return 2 * bad_upper + 2 * bad_lower + 1 * bad_foot


def club_mod(bad_upper_lower_count: int) -> int:
    """Club (both arms) or hatchet (its arm): +2 per destroyed upper/lower arm actuator (1.3)."""
    return 2 * bad_upper_lower_count


def push_mod(bad_shoulders: int) -> int:
    """Push: +2 per destroyed shoulder actuator (reference 1.3 "Push")."""
    return 2 * bad_shoulders


def base_number(attack: str, piloting: int, target_piloting: int) -> tuple[int, list]:
    """Base TN (reference 1.1): Piloting + attack modifier; charge/DFA add the piloting
    difference (attacker - target), DFA +3 for the jump."""
    terms = [("piloting", piloting)]
    if attack in ("charge", "dfa"):
        terms.append(("piloting difference", piloting - target_piloting))
    if T.BASE_MOD[attack]:
        terms.append((attack if attack != "dfa" else "dfa (jumped)", T.BASE_MOD[attack]))
    return sum(m for _, m in terms), terms


def target_number(attack: str, *, piloting: int, target_piloting: int, actuator_mod: int,
                  moved: str, target_hexes: int, target_jumped: bool, terrain: str,
                  partial_cover: bool, target_prone: bool, target_immobile: bool,
                  rules: ClassicRules, extra: tuple[tuple[str, int], ...] = ()
                  ) -> tuple[int, list[tuple[str, int]]]:
    """Total TN of one physical attack roll and its breakdown (reference 1.1-1.3).

    TN <= 2 always hits; TN >= 13 cannot hit (checked by the eligibility step)."""
    _, terms = base_number(attack, piloting, target_piloting)
    terms = list(terms)
    for label, m in (
        ("actuators", actuator_mod),
        ("attacker movement", attacker_movement_mod(attack, moved)),
        ("target movement", tmm(target_hexes, target_jumped, rules.tmm_table)),
        ("terrain", terrain_mod(attack, terrain, partial_cover, rules)),
        ("target prone", -2 if target_prone else 0),
        ("target immobile", -4 if target_immobile else 0),
        *extra,
    ):
        if m:
            terms.append((label, m))
    return sum(m for _, m in terms), terms
