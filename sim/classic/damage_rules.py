"""Rule options for Classic damage, critical hits and explosions (reference-classic-combat.md
14 and 16: C9, C10, C11, C15, C28, C29, C30; CASE II from 14.4 / reference.md 5.5).

:class:`DamageRules` is registered for game ``classic`` and the ``hit`` model, so ``--rule
NAME=VALUE`` and ``btsim rules --game classic`` see it like every other Classic option.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sim.classic.rules  # noqa: F401 - ClassicRules registers first: the game's main group
from sim import options
from sim.options import opt


@dataclass(frozen=True)
class DamageRules:
    """One reading of each open question of damage to destruction."""

    tac_with_structure_damage: str = opt(
        "two", allowed=("two", "one"), ref="C9",
        doc="critical determinations when a through-armor-critical group also damages structure",
        readings={"two": "two determinations, one for the TAC and one for the structure damage "
                  "(MegaMek)", "one": "a single determination"})
    crit_on_destroying_group: bool = opt(
        True, allowed=bool, ref="C10",
        doc="roll for critical hits when the same group destroys the location",
        readings={True: "yes, before the location is marked destroyed (MegaMek); an ammunition "
                  "explosion there can then transfer, and goes off even when the group "
                  "destroys the 'Mech (cause ammunition in the head or CT)", False: "no roll"})
    filler_slots_hittable: bool = opt(
        False, allowed=bool, ref="C11",
        doc="Endo Steel and Ferro-Fibrous filler slots can take a critical hit",
        readings={False: "no: unhittable, the slot is rolled again (MegaMekLab)",
                  True: "yes, with no effect"})
    case_slot_hittable: bool = opt(
        False, allowed=bool, ref="C11", doc="an IS CASE slot can take a critical hit",
        readings={False: "no: unhittable, rolled again (MegaMek)",
                  True: "yes, with no effect"})
    location_roll_two: str = opt(
        "tac", allowed=("tac", "floating"), ref="C28",
        doc="what a hit-location roll of 2 does",
        readings={"tac": "through-armor critical chance at the listed location (TW, MegaMek)",
                  "floating": "roll the location again; the critical chance is at the new "
                  "location (TacOps floating criticals)"})
    explosion_transfer: str = opt(
        "structure", allowed=("structure", "armor"), ref="C29",
        doc="where explosion damage that transfers to the next location starts",
        readings={"structure": "on its internal structure, armor skipped (MegaMek, MakaMek)",
                  "armor": "on its armor, like ordinary damage (an earlier wording)"})
    case2_explosion: str = opt(
        "as-case", allowed=("as-case", "one-point"), ref="14.4",
        doc="an explosion in a location with CASE II",
        readings={"as-case": "like CASE: the location's structure absorbs it, nothing "
                  "transfers (exact CASE II numbers unverified)",
                  "one-point": "1 point of structure damage, nothing transfers (the cap "
                  "the Core rules give CASE II, C30)"})

    advanced_criticals: bool = opt(
        False, allowed=bool, ref="C15",
        doc="TacOps advanced determining critical hits",
        readings={False: "off: the plain 2D6 determination roll (TW)",
                  True: "on: + min((damage - 1) // 5, 4) on the determination roll, damage "
                  "being the hit's own points, also where it transferred to (MegaMek's "
                  "original damage); a roll above 12 reads as 12"})
    explosion_size: str = opt(
        "tw", allowed=("tw", "core"), ref="C30",
        doc="size of ammunition and Gauss explosions",
        readings={"tw": "full damage: shots left x damage per shot; a Gauss rifle its fixed "
                  "damage (TW, MegaMek)",
                  "core": "Core rules: ammunition damage to structure capped at 20 (10 with "
                  "CASE, 1 with CASE II), the rest strips the location's armor (rear armor "
                  "of a torso; at most 10 with CASE); a Gauss rifle does 2 per critical "
                  "slot"})

    def as_dict(self) -> dict[str, Any]:
        """Every option by name."""
        return options.effective(self)


options.register_group("classic", DamageRules, models=("hit", "classic-duel"))


def damage_rules(**overrides: Any) -> DamageRules:
    """The default damage rules with ``overrides`` applied (validated)."""
    rules: DamageRules = options.build(DamageRules, "default", overrides)
    return rules
