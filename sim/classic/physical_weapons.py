"""Physical weapons a 'Mech carries in an arm, declared as data (issue 19): the hatchet
(the ``hatchet`` attack of :mod:`sim.classic.attacks`), the sword and the retractable blade.
A module of its own, free of NumPy, so that the unit tools (:mod:`sim.units.usable`) read
it without the attack model; :mod:`sim.classic.attacks` re-exports it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass


@dataclass(frozen=True)
class PhysicalWeapon:
    """A physical weapon a 'Mech carries in an arm (the unit reader's
    ``mech.physical_weapons`` names), declared for the attacks that swing it (issue 19).
    The hatchet is the ``hatchet`` attack of :mod:`sim.classic.attacks`; the compiled
    Classic duel swings a sword in the hatchet's place (``sim/classic/engine/compile.py``);
    the retractable blade is declared only (units carrying it are incomplete). Each needs
    the arm's shoulder and hand working and the weapon itself undamaged, and the arm fires
    no weapon that turn
    (MegaMek ``ClubAttackAction.toHit``); TSM doubles the damage (``getDamageFor``)."""

    name: str
    #: to-hit modifier on top of Piloting (MegaMek ``ClubAttackAction.getHitModFor``)
    base_mod: int
    #: damage from the attacker's tonnage, before TSM (``getDamageFor``)
    damage: Callable[[int], int]
    #: the hit table it rolls on (reference.md 3: club and hatchet on the standard table)
    table: str
    #: what must hold besides the arm (the retractable blade must be extended, a choice made
    #: in the movement phase: MegaMek "Blade is Retracted")
    needs: str
    source: str


PHYSICAL_WEAPONS: dict[str, PhysicalWeapon] = {
    "hatchet": PhysicalWeapon("hatchet", -1, lambda tons: tons // 5, "standard", "",
                              "reference.md 1.1 / 2 (MegaMek ClubAttackAction: S_HATCHET -1, "
                              "floor(W/5))"),
    "sword": PhysicalWeapon("sword", -2, lambda tons: -(-tons // 10) + 1, "standard", "",
                            "reference.md 1.1 (other melee weapons: sword -2); damage MegaMek "
                            "ClubAttackAction.getDamageFor: ceil(W/10) + 1"),
    "retractable_blade": PhysicalWeapon(
        "retractable_blade", -2, lambda tons: -(-tons // 10), "standard",
        "the blade extended (chosen in the movement phase)",
        "reference.md 1.1 (other melee weapons: retractable blade -2); damage MegaMek "
        "ClubAttackAction.getDamageFor: ceil(W/10)"),
    # claws replace the hand actuator and change that arm's punch (not a club swing):
    # +1 to-hit instead of the missing hand's, ceil(W/7) damage with the punch's halvings,
    # on the punch table (:func:`sim.classic.damage.claw_punch`)
    "claws": PhysicalWeapon(
        "claws", 1, lambda tons: -(-tons // 7), "punch",
        "a punch with the claws' arm (its shoulder working; the claws replace the hand)",
        "MegaMek PunchAttackAction.toHit ('Using Claws' +1; no hand-actuator modifier with "
        "claws) and getDamageFor (ceil(W/7), the punch's halvings and TSM)"),
}


def physical_weapon_damage(name: str, tons: int, tsm: bool = False) -> int:
    """Damage of one swing of physical weapon ``name`` by a 'Mech of ``tons`` (x2 with an
    active TSM, :func:`sim.classic.equipment_rules.tsm_damage_factor`)."""
    return PHYSICAL_WEAPONS[name].damage(tons) * (2 if tsm else 1)


