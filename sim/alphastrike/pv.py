"""Point Value at a skill rating and force PV (rules reference ``reference-as-combat.md`` 23).

The card PV is for Skill 4. Each level better adds the *up-step*, each level worse takes the
*down-step*; the result is never below 1 (23.1, MegaMek ``getSkillAdjustedPointValue``):

* up-step: 1 for PV <= 7, else 1 + floor((PV - 3) / 5);
* down-step: 1 for PV <= 14, else 1 + floor((PV - 5) / 10) (A4 ``megamek``); the jdgwf
  table reading (A4 ``jdgwf``) uses 10 + floor((PV - 104) / 10) above PV 104 and no floor.

Force PV = the sum of the skill-adjusted PVs of its units (23.3).
"""

from __future__ import annotations

from collections.abc import Iterable

from sim.errors import ConfigError, check_choice, check_int

#: A4 readings of the worse-skill step above PV 104 and the floor.
PV_STEP_READINGS = ("megamek", "jdgwf")


def pv_step_up(pv: int) -> int:
    """PV added per skill level better than 4 (23.1)."""
    return 1 if pv <= 7 else 1 + (pv - 3) // 5


def pv_step_down(pv: int, reading: str = "megamek") -> int:
    """PV removed per skill level worse than 4 (23.1, A4)."""
    if pv <= 14:
        return 1
    if reading == "jdgwf" and pv > 104:
        return 10 + (pv - 104) // 10
    return 1 + (pv - 5) // 10


def pv_at_skill(pv: int, skill: int, reading: str = "megamek") -> int:
    """Skill-adjusted PV (23.1): ``pv`` is the card (Skill 4) PV, ``skill`` 0..7.

    >>> [pv_at_skill(52, s) for s in range(8)]
    [92, 82, 72, 62, 52, 47, 42, 37]
    """
    pv = check_int("pv", pv, 0, None)
    skill = check_int("skill", skill, 0, 7)
    reading = check_choice("pv_step_reading", reading, PV_STEP_READINGS)
    if skill <= 4:
        out = pv + (4 - skill) * pv_step_up(pv)
    else:
        out = pv - (skill - 4) * pv_step_down(pv, reading)
    if reading == "jdgwf":
        return max(0, out)
    return max(1, out)


def force_pv(units: Iterable[tuple[int, int]], reading: str = "megamek") -> int:
    """Force PV (23.3): the sum of :func:`pv_at_skill` over ``(card PV, skill)`` pairs."""
    total = 0
    for pv, skill in units:
        if pv is None:
            raise ConfigError("pv", pv, "a card PV (the unit's card has none)")
        total += pv_at_skill(pv, skill, reading)
    return total
