"""Classic Battle Value at a pilot's skills (reference-as-combat.md 24.2).

The catalog carries each 'Mech's BV (BV 2.0 at gunnery 4 / piloting 5) with the record it
came from (:attr:`ClassicMech.bv`, ``bv_source``, ``bv_record``). :func:`bv_at_skill` scales it
by the gunnery x piloting multiplier table (as data, :data:`SKILL_MULTIPLIER`) and rounds
half up on the exact product (24.2: MegaMek's and MekBay's binary floating point can land
exact halves 1 lower).
"""

from __future__ import annotations

from decimal import ROUND_HALF_UP, Decimal
from typing import Any

from sim.errors import check_int
from sim.units.types import ClassicMech

#: 24.2: rows gunnery 0-8, columns piloting 0-8 (:func:`check_skill` refuses others).
SKILL_MULTIPLIER: tuple[tuple[str, ...], ...] = (
    ("2.42", "2.31", "2.21", "2.10", "1.93", "1.75", "1.68", "1.59", "1.50"),
    ("2.21", "2.11", "2.02", "1.92", "1.76", "1.60", "1.54", "1.46", "1.38"),
    ("1.93", "1.85", "1.76", "1.68", "1.54", "1.40", "1.35", "1.28", "1.21"),
    ("1.66", "1.58", "1.51", "1.44", "1.32", "1.20", "1.16", "1.10", "1.04"),
    ("1.38", "1.32", "1.26", "1.20", "1.10", "1.00", "0.95", "0.90", "0.85"),
    ("1.31", "1.19", "1.13", "1.08", "0.99", "0.90", "0.86", "0.81", "0.77"),
    ("1.24", "1.12", "1.07", "1.02", "0.94", "0.85", "0.81", "0.77", "0.72"),
    ("1.17", "1.06", "1.01", "0.96", "0.88", "0.80", "0.76", "0.72", "0.68"),
    ("1.10", "0.99", "0.95", "0.90", "0.83", "0.75", "0.71", "0.68", "0.64"),
)


#: Highest gunnery / piloting skill btsim accepts (24.2's table ends at 8).
MAX_SKILL = 8


def check_skill(field: str, value: Any) -> int:
    """The one validator of a Classic gunnery or piloting skill (0..8; the duel, ``units show``
    and :func:`bv_facts` use it): the skill as ``int``, else :class:`ConfigError` naming
    ``field``."""
    return check_int(field, value, lo=0, hi=MAX_SKILL)


def multiplier(gunnery: int, piloting: int) -> Decimal:
    """The 24.2 multiplier. UserError for a skill outside 0-8 (:func:`check_skill`)."""
    return Decimal(SKILL_MULTIPLIER[check_skill("gunnery", gunnery)]
                   [check_skill("piloting", piloting)])


def bv_at_skill(bv: int, gunnery: int = 4, piloting: int = 5) -> int:
    """round(BV x multiplier), exact product, halves up (24.2)."""
    return int((Decimal(bv) * multiplier(gunnery, piloting)).quantize(Decimal(1),
                                                                       ROUND_HALF_UP))


#: how :func:`sim.units.catalog.with_catalog_bv` begins the note on a unit file that names a
#: catalog record whose build differs (:func:`bv_facts` gives that reason for the unknown BV)
NOT_THE_CATALOG_BUILD = "no Battle Value taken from btsim's catalog: "


def bv_facts(mech: ClassicMech, gunnery: int = 4, piloting: int = 5,
             bv: int | None = None) -> dict[str, Any]:
    """BV, its source and record id, and the skill-adjusted BV of ``mech``; ``bv`` overrides
    the catalog value. ``bv`` None when unknown (no BV in btsim's BV catalog), with a note.
    Skills are checked by :func:`check_skill`."""
    gunnery = check_skill("gunnery", gunnery)
    piloting = check_skill("piloting", piloting)
    base = bv if bv is not None else mech.bv
    out: dict[str, Any] = {"bv": base, "gunnery": gunnery, "piloting": piloting,
                           "bv_source": "given" if bv is not None else (mech.bv_source or None),
                           "bv_record": None if bv is not None else mech.bv_record,
                           "bv_at_skill": None, "notes": []}
    if base is None:
        why = next((n[len(NOT_THE_CATALOG_BUILD):] for n in mech.notes
                    if n.startswith(NOT_THE_CATALOG_BUILD)),
                   "neither its MUL id nor its name is in btsim's BV catalog")
        out["notes"].append(f"{mech.name}: no Battle Value known: {why}; a duel takes it as "
                            "--bv-a/--bv-b N, the BV at gunnery 4 / piloting 5")
        return out
    out["bv_at_skill"] = bv_at_skill(base, gunnery, piloting)
    return out
