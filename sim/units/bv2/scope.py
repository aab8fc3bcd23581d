"""What the Battle Value 2 calculator prices (``reference-bv.md`` section 20). A unit outside
the scope is refused with the reason (:class:`OutOfScope`), never guessed."""

from __future__ import annotations

import re
from functools import cache

from sim.errors import UserError
from sim.units.bv2 import tables as T
from sim.units.design.reader import Design, Inventory
from sim.units.tables import INTERNAL_STRUCTURE

BIPED_ARMOR = ("HD", "CT", "LT", "RT", "LA", "RA", "LL", "RL", "CTR", "LTR", "RTR")
QUAD_ARMOR = ("HD", "CT", "LT", "RT", "FLL", "FRL", "RLL", "RRL", "CTR", "LTR", "RTR")


class OutOfScope(UserError):
    """A unit the reference does not price: ``reasons`` says why (one line each)."""

    def __init__(self, unit: str, reasons: list[str], what: str = "Battle Value 2") -> None:
        self.unit = unit
        self.reasons = tuple(reasons)
        super().__init__(f"{unit}: outside the {what} reference's scope: " + "; ".join(reasons))


@cache
def type_key(text: str) -> str:
    """``Ferro-Fibrous(Inner Sphere)`` -> ``ferro-fibrous``; ``IS Endo Steel`` -> ``endo steel``."""
    t = re.sub(r"\((?:inner sphere|clan|is)\)", "", text.strip().lower()).strip()
    for p in ("is ", "clan ", "cl "):
        t = t.removeprefix(p)
    return " ".join(t.split())


#: engine types of 20 ("standard, XL (IS/Clan), XXL (IS/Clan), light and compact fusion")
_ENGINES = {"Fusion", "XL", "XXL", "Light", "Compact"}
#: weapon kinds of 23.1/23.2 that the BV reference prices
_BV_KINDS = {"energy", "flamer", "mg", "ballistic", "lbx", "ultra", "rotary", "gauss", "lrm",
             "srm", "streak", "mrm", "narc", "tag", "ams", "artillery", "atm"}


def armor_over_maximum(d: Design) -> list[str]:
    """Locations whose armor (front + rear) exceeds the maximum (reference 5.1: head 9,
    elsewhere 2 x internal structure; a quad's legs as legs)."""
    if d.tons not in INTERNAL_STRUCTURE:
        return []
    hd, ct, side, arm, leg = INTERNAL_STRUCTURE[d.tons]
    limit = {"HD": 9, "CT": 2 * ct, "LT": 2 * side, "RT": 2 * side, "LA": 2 * arm,
             "RA": 2 * arm, "LL": 2 * leg, "RL": 2 * leg, "FLL": 2 * leg, "FRL": 2 * leg,
             "RLL": 2 * leg, "RRL": 2 * leg}
    rear = {"CT": "CTR", "LT": "LTR", "RT": "RTR"}
    out = []
    for loc, top in limit.items():
        pts = d.armor.get(loc, 0) + d.armor.get(rear.get(loc, ""), 0)
        if pts > top:
            out.append(f"armor of {loc} {pts} above the maximum {top} for {d.tons} t")
    return out


def bv_scope_problems(d: Design, inv: Inventory) -> list[str]:
    """Every reason section 20 gives for refusing ``d`` (empty: in scope)."""
    out = []
    if d.config not in ("Biped", "Quad"):
        out.append(f"config {d.config!r} (only biped and quad BattleMechs)")
    if d.tons not in INTERNAL_STRUCTURE:
        out.append(f"{d.tons} t (the structure table 24.1 has 20-100 t in steps of 5, MegaMek 10 and 15 t)")
    need = QUAD_ARMOR if d.quad else BIPED_ARMOR
    missing = [loc for loc in need if loc not in d.armor]
    if missing:
        out.append("no armor line for " + ", ".join(missing))
    out += armor_over_maximum(d)
    if d.tons > 100:
        out.append(f"{d.tons} t (superheavy)")
    tb = d.tech_base.strip().lower()
    if tb not in ("inner sphere", "clan"):
        out.append(f"tech base {d.tech_base!r} (mixed tech)")
    if d.engine_type not in _ENGINES:
        out.append(f"{d.engine_type} engine (IndustrialMech engines are not validated)")
    if d.engine_large:
        out.append("large engine")
    if type_key(d.armor_type) not in T.ARMOR_MULTIPLIER:
        out.append(f"armor {d.armor_type!r}")
    if type_key(d.structure) not in T.STRUCTURE_MULTIPLIER:
        out.append(f"structure {d.structure!r}")
    if d.cockpit.strip().lower() not in T.COCKPIT_FACTOR:
        out.append(f"cockpit {d.cockpit!r}")
    if d.gyro.strip().lower() not in T.GYRO_MULTIPLIER:
        out.append(f"gyro {d.gyro!r}")
    if d.heat_sink_type not in ("Single", "Double"):
        out.append(f"{d.heat_sink_type} heat sinks")
    m = d.myomer.strip().lower()
    if m != "standard" and not d.tsm:
        out.append(f"myomer {d.myomer!r}")
    out += [f"{name!r} in {loc} ({why})" for name, loc, why in inv.unknown]
    out += [f"{w.label!r} in {w.location} (weapon kind {w.spec.kind})" for w in inv.weapons
            if w.spec.kind not in _BV_KINDS]
    return out
