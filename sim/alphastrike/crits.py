"""Damage and critical hits (rules reference 6.6), pure functions over the turn's arrays.

Damage is recorded when dealt and takes effect in the End Phase: during the turn a unit
collects *pending* damage. An attack whose damage reaches structure (total damage beyond the
armor) calls for one roll on the 'Mech Determining Critical Hits table; the result applies
(counters updated, ``killed`` set) and takes effect in the End Phase with the damage.
"""

from __future__ import annotations

import numpy as np

from sim.alphastrike import tables as T


def apply_crit(code: np.ndarray, need: np.ndarray, tu: dict[str, np.ndarray],
               ammo_mode: str, case_damage: int, armor: int, total: int,
               caps: tuple[int, int, int]) -> np.ndarray:
    """Apply crit results ``code`` where ``need`` is set (ref 6.6 'Mech effects), with masks
    and arithmetic only.

    ``tu`` holds the turn arrays (``eng``, ``fc``, ``wh``, ``mp``, ``dmg``, ``pend``,
    ``killed``); updated arrays are stored back into it. Returns the mask of rows that must
    roll again: an Ammo Hit on a CASE unit adds ``case_damage`` and rolls again if that
    damage reaches structure without destroying the unit.

    * Ammo Hit: destroyed; CASE: +1 damage (re-roll if on structure); CASEII/ENE: nothing.
    * Engine Hit: +1 engine hit (+1 heat when firing); the second destroys.
    * Fire Control Hit: +2 to weapon attack TNs. * Weapon Hit: -1 damage level.
    * MP Hit: Move halved / TMM per D17. * Unit Destroyed.
    Counters saturate at ``caps`` (fc, wh, mp), beyond which more hits change nothing.
    """
    fc_cap, wh_cap, mp_cap = caps
    c = code * need                          # CRIT_NONE == 0 where no roll is due
    killed = tu["killed"] | (c == T.CRIT_DESTROYED)
    ammo = c == T.CRIT_AMMO
    again = np.zeros_like(need)
    if ammo_mode == "destroy":
        killed |= ammo
    elif ammo_mode == "case" and case_damage > 0:
        tu["pend"] = tu["pend"] + ammo * tu["pend"].dtype.type(case_damage)
        after = tu["dmg"] + tu["pend"]
        again = ammo & (after > armor) & (after < total)
    tu["eng"] = tu["eng"] + (c == T.CRIT_ENGINE)
    killed |= tu["eng"] >= 2
    tu["fc"] = tu["fc"] + ((c == T.CRIT_FC) & (tu["fc"] < fc_cap))
    tu["wh"] = tu["wh"] + ((c == T.CRIT_WEAPON) & (tu["wh"] < wh_cap))
    tu["mp"] = tu["mp"] + ((c == T.CRIT_MP) & (tu["mp"] < mp_cap))
    tu["killed"] = killed
    return again & ~killed
