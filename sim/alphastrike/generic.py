"""The generic 'Mech card that stands in for ``--ov K`` without ``--unit``."""

from __future__ import annotations

from sim.units.types import ASCard

#: One line describing the generic card (shown by ``btsim heat --help``).
GENERIC_DESCRIPTION = ("generic 'Mech: BM, Size 2, Move 10\" (TMM 2), Armor 5, Structure 4, "
                       "damage 3/3/2/0 (S/M/L/E), OV K, no specials, Skill 4")

#: OV of the generic 'Mech when neither a unit nor an OV is given.
DEFAULT_GENERIC_OV = 2


def generic_mech(ov: int = DEFAULT_GENERIC_OV) -> ASCard:
    """The generic 'Mech card with overheat value ``ov`` (see :data:`GENERIC_DESCRIPTION`)."""
    return ASCard(name=f"Generic 'Mech (OV {ov})", type="BM", size=2, move=10, jump=0, tmm=2,
                  armor=5, structure=4, damage=(3, 3, 2, 0),
                  minimal=(False, False, False, False), ov=ov, specials={}, specials_raw="",
                  skill=4, source="btsim generic")
