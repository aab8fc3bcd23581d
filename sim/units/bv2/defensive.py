"""The defensive battle rating (``reference-bv.md`` section 21), one step per function."""

from __future__ import annotations

import math
from fractions import Fraction as F

from sim.units.bv2 import tables as T
from sim.units.bv2.rules import BVRules
from sim.units.bv2.scope import type_key
from sim.units.bv2.types import Defensive
from sim.units.design.reader import ARM_TORSO, ARMS, Design, Inventory
from sim.units.tables import INTERNAL_STRUCTURE


def structure_points(d: Design) -> int:
    """Total internal structure by tonnage (24.1); a quad's four legs take the leg value."""
    hd, ct, side, arm, leg = INTERNAL_STRUCTURE[d.tons]
    return hd + ct + 2 * side + (4 * leg if d.quad else 2 * arm + 2 * leg)


def engine_side_slots(d: Design) -> int:
    """Engine slots in each side torso (23.4)."""
    return T.ENGINE[(d.engine_type, d.engine_clan)][1]


def case_locations(d: Design, inv: Inventory, rules: BVRules) -> set[str]:
    """CASE locations: listed ones, plus every Clan location with explosive equipment (B5)."""
    case = {e.location for e in inv.equipment if e.spec.kind == "case"}
    if d.clan and rules.bv_clan_case == "implicit":
        case |= {b.location for b in inv.ammo if b.read.spec.explosive}
        case |= {w.location for w in inv.weapons if w.spec.kind == "gauss"}
    return case


def has_penalty(loc: str, d: Design, case: set[str], case2: set[str], rules: BVRules) -> bool:
    """21.5: whether explosive items in ``loc`` cost BV."""
    if loc in case2:
        return False
    if not d.quad and loc in ARMS:
        return loc not in case and has_penalty(ARM_TORSO[loc], d, case, case2, rules)
    if loc in ("LT", "RT"):
        big_engine = engine_side_slots(d) >= 3 and rules.bv_xl_case == "penalised"
        return loc not in case or big_engine
    return True


def explosive_penalty(d: Design, inv: Inventory, rules: BVRules
                      ) -> tuple[F, tuple[tuple[str, str, F], ...]]:
    """21.5: 15 per explosive ammunition slot, 1 per Gauss slot, where the location has the
    penalty."""
    case = case_locations(d, inv, rules)
    case2 = {e.location for e in inv.equipment if e.spec.kind == "case2"}
    items: list[tuple[str, str, F]] = []
    for b in inv.ammo:
        if b.read.spec.explosive and has_penalty(b.location, d, case, case2, rules):
            items.append((b.name, b.location, T.AMMO_SLOT_PENALTY))
    for w in inv.weapons:
        if w.spec.kind == "gauss" and has_penalty(w.location, d, case, case2, rules):
            items.append((w.label, w.location, T.GAUSS_SLOT_PENALTY * w.spec.slots))
    return sum((p for _, _, p in items), F(0)), tuple(items)


def defensive_equipment(d: Design, inv: Inventory, rules: BVRules) -> tuple[F, F, F]:
    """21.4: (equipment BV including capped AMS ammo, AMS ammo BV, its cap)."""
    ams = sum((w.spec.bv for w in inv.weapons if w.spec.kind == "ams"), F(0))
    eq = sum((e.spec.value for e in inv.equipment), F(0))
    ammo = F(0)
    for b in inv.ammo:
        if b.read.spec.family != "AMS":
            continue
        if b.read.clan:
            ammo += F(21) if rules.bv_clan_ams_ammo == "21" else (b.read.spec.bv_clan or F(0))
        else:
            ammo += b.read.spec.bv_is or F(0)
    return ams + eq + min(ammo, ams), ammo, ams


def run_mp(d: Design, inv: Inventory, rules: BVRules) -> int:
    """21.8: BV running MP (TSM B2, MASC / supercharger B1, hardened armor B9)."""
    walk = d.walk + ((2 if rules.bv_tsm_walk == "plus2" else 1) if d.tsm else 0)
    masc, sc = inv.has("masc"), inv.has("supercharger")
    if rules.bv_masc_run == "ignored":
        masc = sc = False
    if masc and sc:
        run = math.ceil(F(walk) * F(5, 2))
    elif masc or sc:
        run = walk * 2
    else:
        run = math.ceil(F(walk) * F(3, 2))
    if type_key(d.armor_type) == "hardened" and rules.bv_hardened_run == "minus1":
        run -= 1
    return run


def defensive_rating(d: Design, inv: Inventory, rules: BVRules) -> Defensive:
    """Section 21 from armor to the defensive factor."""
    armor = sum(d.armor.values())
    torso = (d.armor.get("CT", 0) + d.armor.get("CTR", 0)
             if d.cockpit.strip().lower() == "torso-mounted cockpit" else 0)
    amult = T.ARMOR_MULTIPLIER[type_key(d.armor_type)]
    armor_bv = (armor + torso) * T.ARMOR_FACTOR * amult
    sp = structure_points(d)
    smult = T.STRUCTURE_MULTIPLIER[type_key(d.structure)]
    emult = T.ENGINE[(d.engine_type, d.engine_clan)][0]
    structure_bv = sp * T.STRUCTURE_FACTOR * smult * emult
    gmult = T.GYRO_MULTIPLIER[d.gyro.strip().lower()]
    gyro_bv = d.tons * gmult
    equip, ams_ammo, ams_cap = defensive_equipment(d, inv, rules)
    expl, items = explosive_penalty(d, inv, rules)
    total = armor_bv + structure_bv + gyro_bv + equip - expl
    floored = total < 1
    total = max(total, F(1))
    run = run_mp(d, inv, rules)
    t_run = T.tmm(run)
    t_jump = T.tmm(d.jump) + 1 if d.jump > 0 else 0
    factor = 1 + F(max(t_run, t_jump), 10)
    dbr = total * factor
    if rules.bv_rounding == "ratings-2dp":
        dbr = F(math.floor(dbr * 100 + F(1, 2)), 100)
    return Defensive(armor, torso, amult, armor_bv, sp, smult, emult, structure_bv, gmult,
                     gyro_bv, equip, ams_ammo, ams_cap, expl, items, floored, run, d.jump,
                     t_run, t_jump, factor, dbr)
