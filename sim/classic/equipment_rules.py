"""Rules of equipment that acts in a Classic duel (issue 19): MASC and superchargers,
triple-strength myomer, coolant pods, plasma weapons' heat on the target, Narc beacons,
stealth armor, hardened armor, the small and torso-mounted cockpits and the heavy-duty gyro.

Each is a small pure function (or a table as data) with its source. The compiled Classic duel
(:mod:`sim.classic.engine`, through the tables of its ``compile.py``) reads MASC and
superchargers (option ``masc``), TSM, the small and torso-mounted cockpits, the heavy-duty
gyro, stealth and hardened armor (its damage, running MP and piloting modifier), plasma heat,
the Narc bonus and coolant pods (issue 19). The
references are silent on most of them; the facts are MegaMek's, cited per function.
"""

from __future__ import annotations

import math
from fractions import Fraction

from sim.dice import PMF_2D6

# --------------------------------------------------------------------------- MASC

#: MASC / supercharger failure target by the number of consecutive turns it was used before
#: (0, 1, 2, ...): the system fails on a 2D6 roll *below* the target (MegaMek
#: ``Entity.MASC_FAILURE`` {3, 5, 7, 11, 13, ...}, ``checkForMASCFailure``: roll < target; 13
#: always fails). The same table serves a supercharger (``nSuperchargerLevel``).
MASC_FAILURE_TARGET: tuple[int, ...] = (3, 5, 7, 11, 13)


def masc_failure_target(level: int) -> int:
    """The failure target after ``level`` consecutive turns of use (the last entry holds)."""
    if level < 0:
        raise ValueError("level must be >= 0")
    return MASC_FAILURE_TARGET[min(level, len(MASC_FAILURE_TARGET) - 1)]


def p_masc_failure(level: int) -> Fraction:
    """Exact P(failure) of using MASC (or a supercharger) at ``level``: P(2D6 < target)."""
    target = masc_failure_target(level)
    return sum((p for t, p in enumerate(PMF_2D6) if 2 <= t < target), Fraction(0))


def next_masc_level(level: int, used: bool) -> int:
    """The level after a turn: one up when the system was used, else one down to 0 (MegaMek
    ``Entity`` turn bookkeeping: ``nMASCLevel`` rises with each use and falls by one in a
    turn without it)."""
    return level + 1 if used else max(level - 1, 0)


def sprint_mp(walk: int, masc: bool, supercharger: bool) -> int:
    """Running MP with the system engaged (MegaMek ``Mek.getRunMP``): MASC or a
    supercharger alone: twice the walking MP; both: walking MP x 2.5, rounded up; neither:
    the ordinary ceil(1.5 x walk)."""
    if masc and supercharger:
        return math.ceil(walk * 2.5)
    if masc or supercharger:
        return 2 * walk
    return math.ceil(1.5 * walk)


# --------------------------------------------------------------------------- TSM

#: Heat at or above which triple-strength myomer works (reference.md 2: "TSM (heat >= 9)";
#: MegaMek ``Mek.hasActiveTSM``: heat >= 9).
TSM_HEAT = 9


def tsm_active(heat: int) -> bool:
    """True when TSM acts at this heat level (the heat window starts at 9)."""
    return heat >= TSM_HEAT


def tsm_walk_bonus(heat: int) -> int:
    """Walking MP TSM adds at this heat (MegaMek ``Mek.getWalkMP``: +2 while active; the
    heat scale's own MP loss, -1 at 5-9 heat, still applies, so a net +1 at heat 9)."""
    return 2 if tsm_active(heat) else 0


def tsm_damage_factor(heat: int) -> int:
    """Punch, kick, club and physical-weapon damage multiplier (reference.md 2: doubled
    while TSM acts; MegaMek ``ClubAttackAction.getDamageFor``)."""
    return 2 if tsm_active(heat) else 1


# --------------------------------------------------------------------------- coolant pods

#: When a coolant pod is used (MegaMek heat phase, the pod's mode): at once (``dump``), when
#: the heat after dissipation would exceed 13 (``safe``; 9 with Inferno rounds aboard), or
#: when at least the pod's whole effect can be used (``efficient``). MegaMek
#: (``megamek.server.totalwarfare`` heat phase, "should we use a coolant pod?"): after the
#: turn's build-up is added and ``toSink`` is the dissipation, the first usable pod in the
#: mode's condition adds ``getNumberOfSinks()`` (working heat sinks, single or double
#: alike) to ``toSink`` and is spent; at most one pod a turn; ``toSink`` is then capped at
#: the heat.
COOLANT_MODES = ("dump", "safe", "efficient")
COOLANT_SAFE_HEAT = 13
COOLANT_SAFE_HEAT_INFERNO = 9
#: The Classic duel's option ``coolant_pod`` (how the 'Mech's policy uses its pods): one of
#: MegaMek's modes, or ``never`` (the pods are never used).
COOLANT_USE = ("safe", "efficient", "dump", "never")


def coolant_safe_heat(inferno_aboard: bool) -> int:
    """The heat after dissipation above which ``safe`` uses a pod (MegaMek: 13, 9 with
    Inferno rounds aboard)."""
    return COOLANT_SAFE_HEAT_INFERNO if inferno_aboard else COOLANT_SAFE_HEAT


def coolant_pod_used(heat_sinks: int, heat_after: int, mode: str,
                     safe_heat: int = COOLANT_SAFE_HEAT) -> bool:
    """Whether a pod in ``mode`` is spent this heat phase (``heat_after``: the heat after the
    ordinary dissipation, not floored at 0; ``heat_sinks``: the working heat sinks).

    >>> coolant_pod_used(12, -3, "dump"), coolant_pod_used(12, 14, "safe")
    (True, True)
    >>> coolant_pod_used(12, 13, "safe"), coolant_pod_used(12, 11, "efficient")
    (False, False)
    """
    if mode not in COOLANT_MODES:
        raise ValueError(f"mode must be one of {', '.join(COOLANT_MODES)}")
    return (mode == "dump" or (mode == "safe" and heat_after > safe_heat)
            or (mode == "efficient" and heat_after >= heat_sinks))


def coolant_pod_sinking(heat_sinks: int, heat_after: int, mode: str,
                        safe_heat: int = COOLANT_SAFE_HEAT) -> int:
    """Extra heat a coolant pod dissipates this turn (0 when it is not used now, or used with
    nothing left to sink). One shot per pod: it removes one point per heat sink the 'Mech
    has (its count, single or double alike; MegaMek heat phase: ``possibleSinkage =
    getNumberOfSinks()``), never below 0 heat. ``heat_after``: the heat left after the
    ordinary dissipation."""
    use = coolant_pod_used(heat_sinks, heat_after, mode, safe_heat)
    return min(heat_sinks, max(heat_after, 0)) if use else 0


# --------------------------------------------------------------------------- plasma

#: Heat dice a plasma weapon puts on a 'Mech it hits (MegaMek ``PlasmaRifleHandler``: 1D6
#: with its 10 damage; ``PlasmaCannonHandler``: 2D6 and no damage).
PLASMA_HEAT_DICE: dict[str, int] = {"IS Plasma Rifle": 1, "Clan Plasma Cannon": 2}
#: Most external heat a 'Mech takes in one turn (reference-classic-combat.md, heat effects
#: table: "External heat ... capped at +15 per turn", MegaMek, TW p. 159).
EXTERNAL_HEAT_CAP = 15


def plasma_heat_pmf(weapon_key: str) -> dict[int, Fraction]:
    """Exact distribution of the heat one hit of the plasma weapon puts on a 'Mech target."""
    n = PLASMA_HEAT_DICE[weapon_key]
    out: dict[int, Fraction] = {0: Fraction(1)}
    for _ in range(n):
        nxt: dict[int, Fraction] = {}
        for h, p in out.items():
            for d in range(1, 7):
                nxt[h + d] = nxt.get(h + d, Fraction(0)) + p / 6
        out = nxt
    return out


def external_heat(total: int) -> int:
    """External heat a 'Mech keeps from one turn's hits (capped at :data:`EXTERNAL_HEAT_CAP`)."""
    return min(max(total, 0), EXTERNAL_HEAT_CAP)


# --------------------------------------------------------------------------- Narc

#: Cluster-roll bonus of Narc-capable missiles against a target carrying an attached beacon
#: (reference-classic-combat.md 11: "Narc +2 (Narc-capable ammo vs a Narced target)"; C23: no
#: stacking with Artemis or the ATM's own +2).
NARC_BONUS = 2


def narc_cluster_bonus(attached: bool, narc_capable: bool, other_bonus: int = 0) -> int:
    """The Narc bonus on a launcher's cluster roll: +2 for Narc-capable rounds once a beacon
    sticks to the target (a Narc launcher hit), 0 otherwise, and none when the launcher
    already has a bonus (Artemis, ATM: C23 default, MegaMek's branch order)."""
    return NARC_BONUS if attached and narc_capable and other_bonus == 0 else 0


# --------------------------------------------------------------------------- hardened armor

#: Damage points one point of hardened armor stops (MegaMek ``TWDamageManager``: against
#: hardened armor the threshold is twice the armor, less one for a location whose armor
#: already took half a point; the armor left is that threshold halved, rounded up). The
#: damage state keeps such armor in these half-point units (``Layout.armor_per_point``).
HARDENED_PER_POINT = 2


def has_hardened(armor_type: str) -> bool:
    """Whether the unit file's ``armor:`` type is hardened armor."""
    return "hardened" in armor_type.lower()


def armor_per_point(armor_type: str) -> int:
    """Damage points one armor point stops: 2 for hardened armor, else 1.

    >>> armor_per_point("Hardened(Inner Sphere)"), armor_per_point("Standard(Inner Sphere)")
    (2, 1)
    """
    return HARDENED_PER_POINT if has_hardened(armor_type) else 1


def hardened_absorb(armor_half_points: int, damage: int) -> tuple[int, int]:
    """One damage group against hardened armor kept in half points (MegaMek
    ``TWDamageManager``): (half points left, damage that goes on to the structure).
    Each damage point removes half an armor point.

    >>> hardened_absorb(2 * 10, 5)    # 10 points take a 5: 7.5 left (shown as 8), none through
    (15, 0)
    >>> hardened_absorb(15, 20)       # 7.5 points stop 15 of 20
    (0, 5)
    """
    take = min(armor_half_points, damage)
    return armor_half_points - take, damage - take


#: Running (and MASC / supercharger sprint) MP hardened armor costs (MegaMek
#: ``Mek.getRunMP``: ``max(0, mp - hardenedArmorMPReduction())``; reference-bv.md B9: running
#: MP - 1, "Great Turtle GTR-1 matches only with (a)").
HARDENED_RUN_MP_LOSS = 1


def run_mp_loss(armor_type: str) -> int:
    """Running MP the unit's armor costs: 1 for hardened armor, else 0 (the running MP is
    ``max(0, run - loss)``).

    >>> run_mp_loss("Hardened(Inner Sphere)"), max(0, 8 - run_mp_loss("Hardened"))
    (1, 7)
    """
    return HARDENED_RUN_MP_LOSS if has_hardened(armor_type) else 0


#: Piloting-roll modifier of hardened armor (MegaMek ``megamek.common.units.Mek``
#: ``addEntityBonuses``: ``if (hasHardenedArmor()) roll.addModifier(1, "Hardened Armor")``,
#: on every piloting roll of a 'Mek, as it does for QuadVees and LAMs; the references are
#: silent: MegaMek is the only source read).
HARDENED_PSR_MOD = 1


#: Modifier on the determination of a through-armor critical when hardened armor stopped the
#: whole damage group (MegaMek ``TWDamageManager``: "if the armor is hardened, any
#: penetrating crits are rolled at -2", in the branch where the armor absorbs all of it;
#: the references are silent).
HARDENED_TAC_MOD = -2


def hardened_tac_mod(armor_type: str, tac: bool, absorbed: bool) -> int:
    """What hardened armor adds to a determination: -2 for the through-armor critical of a
    group the armor stopped whole (``absorbed``), else 0.

    >>> hardened_tac_mod("Hardened", True, True), hardened_tac_mod("Hardened", True, False)
    (-2, 0)
    """
    return HARDENED_TAC_MOD if has_hardened(armor_type) and tac and absorbed else 0


def armor_psr_mod(armor_type: str) -> int:
    """The PSR modifier of the unit file's ``armor:`` type (hardened +1; others 0).

    >>> armor_psr_mod("Hardened(Inner Sphere)"), armor_psr_mod("Standard(Inner Sphere)")
    (1, 0)
    """
    return HARDENED_PSR_MOD if has_hardened(armor_type) else 0


def armor_points_left(half_points: int, per_point: int) -> int:
    """Armor points shown for a location kept in ``per_point`` units (rounded up: MegaMek
    shows hardened armor with half a point lost as the whole point).

    >>> armor_points_left(15, 2), armor_points_left(14, 2), armor_points_left(7, 1)
    (8, 7, 7)
    """
    return -(-half_points // per_point)


# --------------------------------------------------------------------------- stealth armor

#: To-hit modifier against a 'Mech whose stealth armor is on, by range bracket (MegaMek
#: ``Mek.getStealthModifier``: minimum and short 0, medium +1, long +2), and the heat it
#: makes each turn it is on; it needs a working ECM suite (off without one).
STEALTH_MOD: dict[str, int] = {"short": 0, "medium": 1, "long": 2, "extreme": 2}
STEALTH_HEAT = 10


def has_stealth(armor_type: str) -> bool:
    """Whether the unit file's ``armor:`` type is stealth armor."""
    return "stealth" in armor_type.lower()


def stealth_to_hit(bracket: str, on: bool, ecm_working: bool) -> int:
    """What stealth armor adds to an attacker's target number at ``bracket``."""
    return STEALTH_MOD[bracket] if on and ecm_working else 0


def stealth_heat(on: bool, ecm_working: bool) -> int:
    """Heat the stealth system adds to its own 'Mech this turn."""
    return STEALTH_HEAT if on and ecm_working else 0


# --------------------------------------------------------------------------- cockpit, gyro

#: Piloting-roll modifier of a cockpit type (MegaMek ``Mek.addEntityBonuses``: small cockpit
#: +1 to every PSR).
COCKPIT_PSR_MOD: dict[str, int] = {"standard": 0, "small": 1}
#: Gyro hits that destroy a gyro by type (MegaMek ``Mek.isGyroDestroyed``: a standard gyro at
#: 2 hits, a heavy-duty one at 3; MegaMek's test ``aStandardGyroFailsAtTwoHitsAndAHeavy
#: DutyGyroAtThree``).
GYRO_HITS_TO_DESTROY: dict[str, int] = {"standard": 2, "heavy": 3}
#: Gyro hits that call for no PSR of their own and do not make running a PSR (a heavy-duty
#: gyro's first: MegaMek test ``testHeavyDutyGyroFirstHitNoPSR``; ``TWRulesPSR
#: .checkRunningWithDamage``: "HD gyro ignores 1st damage").
GYRO_QUIET_HITS: dict[str, int] = {"standard": 0, "heavy": 1}


def cockpit_psr_mod(cockpit: str) -> int:
    """The PSR modifier of the unit file's ``cockpit:`` type (small +1; others 0)."""
    return COCKPIT_PSR_MOD["small"] if "small" in cockpit.lower() else 0


def unit_psr_mod(cockpit: str, armor_type: str) -> int:
    """The unit's own modifier on every piloting roll (MegaMek ``Mek.addEntityBonuses``): its
    cockpit's (:func:`cockpit_psr_mod`) plus its armor's (:func:`armor_psr_mod`).

    >>> unit_psr_mod("Small Cockpit", "Hardened"), unit_psr_mod("Standard Cockpit", "Standard")
    (2, 0)
    """
    return cockpit_psr_mod(cockpit) + armor_psr_mod(armor_type)


# --------------------------------------------------------------------------- torso cockpit

#: Sensor hits that blind a 'Mech (it cannot fire): 2 (head sensors), 3 with a torso-mounted
#: cockpit, whose third sensor sits in the center torso (MegaMek ``ComputeToHit`` /
#: ``WeaponAttackAction``: "sensors are destroyed after 2 hits, unless they have a
#: torso-mounted cockpit": head + CT sensor hits > 2).
SENSORS_BLIND_AT: dict[bool, int] = {False: 2, True: 3}


def torso_cockpit(cockpit: str) -> bool:
    """Whether the unit file's ``cockpit:`` type is a torso-mounted cockpit."""
    return "torso" in cockpit.lower()


def head_hit_pilot_damage(torso: bool) -> int:
    """MechWarrior damage of a head hit that damages the head: 1, none with a
    torso-mounted cockpit (MegaMek ``MekDamageManager``: ``isHeadHit`` needs a cockpit
    other than torso-mounted)."""
    return 0 if torso else 1


def head_destruction_kills(torso: bool) -> bool:
    """Whether a destroyed head destroys the 'Mech (14.5): not with a torso-mounted cockpit,
    whose MechWarrior sits in the center torso (MegaMek Princess ``FireControl``: a head
    destroyed is a kill only for a cockpit other than torso-mounted; its cockpit slot, in
    the center torso, kills when hit)."""
    return not torso


def sensor_to_hit(hits: int, torso: bool) -> int:
    """Attacker to-hit modifier of sensor hits (the blind case, :data:`SENSORS_BLIND_AT`,
    aside): +2 for one; with a torso-mounted cockpit +4 for two (MegaMek
    ``ComputeAttackerToHitMods``: head + CT hits > 1: +4, > 0: +2).

    >>> sensor_to_hit(1, False), sensor_to_hit(1, True), sensor_to_hit(2, True)
    (2, 2, 4)
    """
    if torso and hits >= 2:
        return 4
    return 2 if hits >= 1 else 0


def life_support_pilot_damage(heat: int, one: int, two: int, torso: bool) -> int:
    """MechWarrior damage at the end of the heat phase with life support hit (C1: ``one``
    and ``two`` the heat steps of option ``life_support_heat``); a torso-mounted cockpit
    takes one more at any heat above 0 (MegaMek's heat phase for 'Meks: life support hit and
    heat >= 15, or a torso-mounted cockpit and heat > 0; then +1).

    >>> life_support_pilot_damage(16, 15, 25, False), life_support_pilot_damage(16, 15, 25, True)
    (1, 2)
    >>> life_support_pilot_damage(3, 15, 25, True), life_support_pilot_damage(0, 15, 25, True)
    (1, 0)
    """
    base = int(heat >= one) + int(heat >= two)
    return base + 1 if torso and heat > 0 else base


def gyro_kind(gyro: str) -> str:
    """``heavy`` for a heavy-duty gyro (the unit file's ``gyro:`` line), else ``standard``."""
    return "heavy" if "heavy" in gyro.lower() else "standard"


def gyro_quiet_hits(gyro: str) -> int:
    """Hits of the unit file's ``gyro:`` type that trigger no PSR (:data:`GYRO_QUIET_HITS`):
    a hit beyond them is a PSR trigger (reference.md 4.2 "gyro hit"), and running with more
    is a PSR (reference-classic-combat.md 15)."""
    return GYRO_QUIET_HITS[gyro_kind(gyro)]


def gyro_psr_mod(gyro: str, hits: int) -> int | None:
    """PSR modifier of a damaged gyro (None: destroyed). A standard gyro: +3 after one hit
    (reference-classic-combat.md, critical effects table), destroyed at two. A heavy-duty gyro (MegaMek
    ``Mek.addEntityBonuses`` and errata, MegaMek test ``testHeavyDutyGyroFirstHitNoPSR``):
    +1 after the first hit, which calls for no PSR of its own, +3 after the second,
    destroyed at the third."""
    kind = gyro_kind(gyro)
    if hits >= GYRO_HITS_TO_DESTROY[kind]:
        return None
    if kind == "heavy":
        return (0, 1, 3)[hits]
    return (0, 3)[hits]


# --- ferro-lamellor armor, composite and reinforced structure (issue 19) -------------------
# Not in reference-classic-combat.md; facts from MegaMek megamek/server/totalwarfare/
# TWDamageManager.java (damageEntity), read for issue 19.

#: Internal structure kinds whose damage rule differs from the standard one (index 0):
#: the number the layout and the compiled engine carry (:func:`structure_kind`).
STRUCTURE_KINDS = ("standard", "composite", "reinforced")


def structure_kind(structure_type: str) -> int:
    """Index in :data:`STRUCTURE_KINDS` of the unit file's ``structure:`` type: composite or
    reinforced structure (MegaMek ``Mek.hasCompositeStructure`` / ``hasReinforcedStructure``);
    endo-composite is standard structure points (``T_STRUCTURE_ENDO_COMPOSITE``).

    >>> structure_kind("IS Composite"), structure_kind("IS Reinforced")
    (1, 2)
    >>> structure_kind("Clan Endo-Composite"), structure_kind("IS Endo Steel")
    (0, 0)
    """
    low = structure_type.lower().replace("endo-composite", "").replace("endocomposite", "")
    return 1 if "composite" in low else 2 if "reinforced" in low else 0


def structure_take(kind: int, structure: int, damage: int) -> tuple[int, int]:
    """(structure points lost, damage that goes on) when ``damage`` reaches a location with
    ``structure`` points (MegaMek ``TWDamageManager``): composite structure takes twice the
    damage, reinforced structure half of it rounded up; what is left over after the location
    is gone is converted back (composite: halved, rounded down; reinforced: doubled, less
    the odd point of the damage). Explosions follow the same rule. Standard: min(s, d).

    >>> structure_take(0, 5, 7), structure_take(1, 5, 2), structure_take(1, 5, 4)
    ((5, 2), (4, 0), (5, 1))
    >>> structure_take(2, 5, 9), structure_take(2, 5, 13), structure_take(2, 3, 1)
    ((5, 0), (5, 3), (1, 0))
    """
    if structure <= 0 or damage <= 0:
        return 0, damage
    eff = 2 * damage if kind == 1 else (damage + 1) // 2 if kind == 2 else damage
    if structure > eff:
        return eff, 0
    rest = eff - structure
    if kind == 1:
        rest //= 2
    elif kind == 2:
        rest = max(0, 2 * rest - damage % 2)
    return structure, rest


def has_ferro_lamellor(armor_type: str) -> bool:
    """Whether the unit file's ``armor:`` type is ferro-lamellor armor."""
    return "lamellor" in armor_type.lower()


def lamellor_damage(damage: int, armor: int) -> int:
    """A damage group's damage against ferro-lamellor armor (MegaMek ``TWDamageManager``):
    floor(4/5) of it when the location struck still has armor (``armor`` > 0), else all of
    it; a group cut to 0 deals nothing (no MechWarrior hit on the head, no through-armor
    critical). Not for explosions (they skip the armor).

    >>> lamellor_damage(5, 3), lamellor_damage(1, 3), lamellor_damage(12, 1), lamellor_damage(7, 0)
    (4, 0, 9, 7)
    """
    return (4 * damage) // 5 if armor > 0 else damage
