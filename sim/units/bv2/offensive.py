"""The offensive battle rating (``reference-bv.md`` section 22), one step per function."""

from __future__ import annotations

import math
from fractions import Fraction as F

from sim.units.bv2 import tables as T
from sim.units.bv2.rules import BVRules
from sim.units.bv2.types import AmmoLine, Offensive, WeaponLine
from sim.units.design.reader import ARMS, Design, Inventory, WeaponItem


def offensive_weapons(inv: Inventory) -> list[WeaponItem]:
    """22.1: weapons with BV > 0 that are not AMS."""
    return [w for w in inv.weapons if w.spec.kind != "ams" and w.spec.bv > 0]


def artemis_links(inv: Inventory, ws: list[WeaponItem]) -> set[int]:
    """22.2: indices of LRM/SRM launchers linked to an Artemis IV in the same location,
    one Artemis per launcher, in file order."""
    left: dict[str, int] = {}
    for e in inv.equipment:
        if e.spec.kind == "artemis":
            left[e.location] = left.get(e.location, 0) + 1
    linked = set()
    for i, w in enumerate(ws):
        if w.spec.kind in ("lrm", "srm") and left.get(w.location, 0) > 0:
            left[w.location] -= 1
            linked.add(i)
    return linked


def boosted(w: WeaponItem, rules: BVRules) -> bool:
    """22.2 / B3: the targeting computer boosts direct-fire weapons."""
    return w.spec.tc or (rules.bv_tc_mg_flamer and w.spec.kind in ("mg", "flamer"))


def movement_heat(d: Design, inv: Inventory) -> int:
    """22.5: running heat 2 (XXL 6) or the jumping heat when larger."""
    xxl = d.engine_type == "XXL"
    heat = 6 if xxl else 2
    if d.jump > 0:
        if inv.has("improved_jump_jet"):
            jump = max(6, d.jump) if xxl else max(3, math.ceil(d.jump / 2))
        else:
            jump = max(6, 2 * d.jump) if xxl else max(3, d.jump)
        heat = max(heat, jump)
    return heat


def _is_arm(d: Design, loc: str) -> bool:
    return not d.quad and loc in ARMS


def offensive_rating(d: Design, inv: Inventory, rules: BVRules) -> Offensive:
    """Section 22 from the weapons to the speed factor."""
    ws = offensive_weapons(inv)
    linked = artemis_links(inv, ws)
    tc = inv.has("tc")
    mods: list[tuple[F, list[str]]] = []
    for i, w in enumerate(ws):
        bv, why = w.spec.bv, list[str]()
        if i in linked:
            bv, why = bv * T.ARTEMIS_FACTOR, [*why, "Artemis x1.2"]
        if tc and boosted(w, rules):
            bv, why = bv * T.TC_FACTOR, [*why, "TC x1.25"]
        mods.append((bv, why))
    cmp = [m[0] if rules.bv_front_rear_values == "modified" else w.spec.bv
           for w, m in zip(ws, mods, strict=True)]
    front = sum((c for w, c in zip(ws, cmp, strict=True)
                 if not w.rear and not _is_arm(d, w.location)), F(0))
    rear = sum((c for w, c in zip(ws, cmp, strict=True)
                if w.rear and not _is_arm(d, w.location)), F(0))
    switched = front < rear
    rows = []
    for w, (bv, why) in zip(ws, mods, strict=True):
        if not _is_arm(d, w.location) and w.rear != switched:
            bv, why = bv * T.REAR_FACTOR, [*why, "rear x0.5" if w.rear else "front x0.5"]
        rows.append((w, bv, F(w.spec.bv_heat), why))
    order = sorted(range(len(rows)), key=lambda k: (rows[k][2] > 0, -rows[k][1], rows[k][2]))
    cap = d.heat_sinks * (2 if d.heat_sink_type == "Double" else 1)
    mheat = movement_heat(d, inv)
    eff = 6 + cap - mheat
    lines: list[WeaponLine] = []
    total = heat_sum = F(0)
    for k in order:
        w, bv, heat, why = rows[k]
        before = heat_sum
        heat_sum += heat
        if heat == 0:
            full = True
        elif rules.bv_heat_cutoff == "within":
            full = heat_sum <= eff
        else:
            full = before < eff
        total += bv if full else bv / 2
        lines.append(WeaponLine(w.label, w.location, w.rear, bv, heat, heat_sum, full,
                                total, tuple(why)))
    ammo_lines = ammo_groups(inv, ws, switched, rules)
    ammo_bv = sum((a.added for a in ammo_lines), F(0))
    equip = F(0)
    for e in inv.equipment:
        if e.spec.kind == "hatchet":
            equip += math.ceil(F(d.tons, 5)) * T.HATCHET_FACTOR
        elif e.spec.kind == "sword":
            equip += (math.ceil(F(d.tons, 10)) + 1) * T.SWORD_FACTOR
    weight = d.tons * (T.TSM_WEIGHT_FACTOR if d.tsm else F(1))
    from sim.units.bv2.defensive import run_mp
    mp = run_mp(d, inv, rules) + (d.jump + 1) // 2
    sf = T.speed_factor(mp)
    obr = (total + ammo_bv + equip + weight) * sf
    if rules.bv_rounding == "ratings-2dp":
        obr = F(math.floor(obr * 100 + F(1, 2)), 100)
    return Offensive(cap, mheat, eff, switched, tuple(lines), total, tuple(ammo_lines),
                     ammo_bv, equip, weight, mp, sf, obr)


def ammo_groups(inv: Inventory, ws: list[WeaponItem], switched: bool, rules: BVRules
                ) -> list[AmmoLine]:
    """22.6: per (family, rack), min(ammo BV, table BV of the weapons using it) (B7, B11)."""
    sums: dict[tuple[str, int], F] = {}
    for b in inv.ammo:
        spec = b.read.spec
        if spec.family == "AMS":
            continue
        per = (spec.bv_clan if b.read.clan else spec.bv_is)
        if per is None:
            per = spec.bv_is if spec.bv_is is not None else (spec.bv_clan or F(0))
        if b.read.half:
            per = per / 2
        if rules.bv_artemis_ammo == "boosted" and "artemis" in b.name.lower():
            per = per * T.ARTEMIS_FACTOR
        sums[spec.key] = sums.get(spec.key, F(0)) + per
    out = []
    for key, s in sums.items():
        users = [w for w in ws if w.spec.ammo == key]
        if rules.bv_ammo_cap == "front":
            users = [w for w in users if w.rear == switched]
        cap = sum((w.spec.bv for w in users), F(0))
        out.append(AmmoLine(key, s, cap, min(s, cap)))
    return out
