"""Whether btsim's models can use a unit: the one check that ``btsim units import`` (skip the
file) and the models (refuse the unit) share.

What the models refuse today is a weapon that btsim's weapon table lacks: the fire model, and
the duel built on it, cannot fire it (issue 11: the reader keeps such a mount with
``weapon=None``; it becomes an error when the unit is asked to fire). Everything else the
reader accepts is usable: unknown non-weapon equipment and unknown ammunition are carried as
"not simulated" notes, and the ``hit`` model treats unknown slots as plain slots. A unit the
reader cannot read at all (quads, malformed files) never gets this far.
"""

from __future__ import annotations

from sim.classic.weapons import WEAPONS, lookup_weapon
from sim.errors import UserError
from sim.units.types import ClassicMech


def unusable_reason(mech: ClassicMech) -> str | None:
    """Why the models cannot use ``mech`` (one line, without the unit's name), or None.

    Checks the mounts the fire model would build (:func:`sim.classic.fire.unit.fire_unit`):
    ``mech.weapon_mounts``, or for a hand-built 'Mech without them its ``Weapons:`` list
    resolved as display names through the tech base."""
    if mech.weapon_mounts:
        for m in mech.weapon_mounts:
            if m.weapon is None or m.weapon not in WEAPONS:
                where = m.location + (f", line {m.line}" if m.line else "")
                return missing_weapon(m.name, where)
        return None
    for name, loc in mech.weapons:
        if lookup_weapon(name, mech.tech_base, display=True) is None:
            return missing_weapon(name, loc)
    return None


def missing_weapon(name: str, where: str) -> str:
    """Reason text for a weapon the table lacks (also :func:`sim.classic.weapons.require`)."""
    return (f"weapon {name!r} ({where}) is not in btsim's weapon table "
            "(sim/classic/data/weapons.csv); it cannot fire")


def require_usable(mech: ClassicMech) -> None:
    """Raise :class:`UserError` ``"<name>: <reason>"`` when :func:`unusable_reason` has one."""
    reason = unusable_reason(mech)
    if reason is not None:
        raise UserError(f"{mech.name}: {reason}")
