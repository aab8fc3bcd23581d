"""The conversion of a 'Mech design to an Alpha Strike card (``reference-as-conversion.md``
section 2), one step per function, with the derivation kept for printing."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

from sim.units.as_conversion import tables as T
from sim.units.as_conversion.rules import ConversionRules
from sim.units.bv2.scope import (
    BIPED_ARMOR,
    QUAD_ARMOR,
    OutOfScope,
    armor_over_maximum,
    type_key,
)
from sim.units.design.reader import Design, Inventory, WeaponItem
from sim.units.tables import tmm_from_move

EPS = 1e-6
Dmg = tuple[int, bool]  # (value, minimal 0*)


def tenths(x: float) -> int:
    """T(x) in tenths: round up to the next 0.1, with a 1e-6 tolerance (2, heat errata v1.2)."""
    return max(math.ceil(x * 10 - EPS), 0)


def ru(x: float) -> Dmg:
    """Standard damage rounding RU (2): tenth-up, then any tenth rounds up; 0* below 0.5."""
    t = tenths(x)
    if t < 5:
        return (0, t > 0)
    return ((t + 9) // 10, False)


def rn(x: float, minimal: bool = False) -> Dmg:
    """Normal rounding RN (RN0* with ``minimal``): floor(T(x) + 0.5)."""
    t = tenths(x)
    if minimal and 0 < t < 5:
        return (0, True)
    return ((t + 5) // 10, False)


def dmg_text(v: Dmg) -> str:
    return "0*" if v[1] else str(v[0])


def dmg_value(v: Dmg) -> float:
    """PV value of a card damage: 0* counts 0.5 (2.9)."""
    return 0.5 if v[1] else float(v[0])


def round_half(x: float) -> float:
    """To the nearest 0.5 (Java Math.round on 2x)."""
    return math.floor(2 * x + 0.5 + EPS) / 2


@dataclass
class WeaponRow:
    name: str
    location: str
    rear: bool
    heat: int
    #: after every multiplier of 2.5 step 5
    values: tuple[float, float, float, float]
    #: the same without Artemis (2.7)
    plain: tuple[float, float, float, float]
    #: steps 2.5.1-4 only (table 3.2)
    base: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)
    factors: list[str] = field(default_factory=list)


@dataclass
class Derivation:
    """Every step of section 2 for one unit."""

    size: int = 0
    walk: float = 0
    move: int = 0
    jump: int = 0
    tmm: int = 0
    armor_points: float = 0
    armor: int = 0
    structure_row: str = ""
    structure: int = 0
    weapons: list[WeaponRow] = field(default_factory=list)
    shots: dict[str, int] = field(default_factory=dict)
    low_ammo: list[str] = field(default_factory=list)
    raw: tuple[float, float, float, float] = (0, 0, 0, 0)
    capacity: int = 0
    move_heat: int = 0
    m_heat: int = 0
    l_heat: int = 0
    factor: float = 1.0
    ov: int = 0
    ovl: bool = False
    adjusted: tuple[float, float, float, float] = (0, 0, 0, 0)
    damage: tuple[Dmg, Dmg, Dmg, Dmg] = ((0, False),) * 4
    specials: dict[str, str] = field(default_factory=dict)
    pv_lines: list[str] = field(default_factory=list)
    pv: int = 0
    notes: list[str] = field(default_factory=list)


_AS_KINDS = {"energy", "flamer", "mg", "ballistic", "lbx", "ultra", "rotary", "gauss", "lrm",
             "srm", "streak", "mrm", "narc", "tag", "ams", "artillery"}
_ARMOR_OK = {"standard", "ferro-fibrous", "light ferro-fibrous", "heavy ferro-fibrous",
             "commercial", "ferro-lamellor", "hardened", "industrial", "heavy industrial",
             "primitive"}
_STRUCT_OK = {"standard", "endo steel", "endo-steel", "endo-composite", "endo composite",
              "composite", "reinforced"}
_DIRECT = {"energy", "ballistic", "gauss", "ultra", "rotary", "mg"}


def scope_problems(d: Design, inv: Inventory) -> list[str]:
    """Reasons of section 1 to refuse ``d`` (empty: in scope)."""
    out = []
    if d.config not in ("Biped", "Quad"):
        out.append(f"config {d.config!r}")
    if d.tons > 100:
        out.append(f"{d.tons} t (superheavy)")
    elif d.tons < 10 or d.tons % 5:
        out.append(f"{d.tons} t (the structure table 3.1 has 10-100 t in steps of 5)")
    need = QUAD_ARMOR if d.quad else BIPED_ARMOR
    missing = [loc for loc in need if loc not in d.armor]
    if missing:
        out.append("no armor line for " + ", ".join(missing))
    out += armor_over_maximum(d)
    if d.tech_base.strip().lower() not in ("inner sphere", "clan"):
        out.append(f"tech base {d.tech_base!r} (mixed tech)")
    if (d.engine_type in ("ICE", "Fuel Cell") or type_key(d.structure) == "industrial"
            or "industrial" in d.cockpit.lower()):
        out.append("IndustrialMech (IM conversion is out of scope)")
    elif (d.engine_type, d.engine_clan, d.engine_large) not in T.ENGINE_ROW:
        out.append(f"{'large ' if d.engine_large else ''}{d.engine_type} engine")
    if type_key(d.armor_type) not in _ARMOR_OK:
        out.append(f"armor {d.armor_type!r}")
    if type_key(d.structure) not in _STRUCT_OK and type_key(d.structure) != "industrial":
        out.append(f"structure {d.structure!r}")
    if d.heat_sink_type not in ("Single", "Double"):
        out.append(f"{d.heat_sink_type} heat sinks")
    out += [f"{n!r} in {loc} ({why})" for n, loc, why in inv.unknown]
    out += [f"{w.label!r} (weapon kind {w.spec.kind})" for w in inv.weapons
            if w.spec.kind not in _AS_KINDS]
    out += [f"{e.spec.slot!r} (C3 networks)" for e in inv.equipment if e.spec.kind == "c3"]
    return out


def size_of(tons: int) -> int:
    """2.1."""
    return 1 + sum(tons > b for b in T.SIZE_BANDS)


def movement(d: Design, inv: Inventory) -> tuple[float, int, int]:
    """2.2 steps 1-5: (MP after MASC / supercharger, ground inches, jump inches)."""
    masc, sc = inv.has("masc"), inv.has("supercharger")
    mp: float = d.walk * (1.5 if masc and sc else 1.25 if masc or sc else 1.0)
    mpi = math.floor(mp + 0.5)
    if type_key(d.armor_type) == "hardened":
        mpi -= 1
    inches = 2 * mpi
    inches += inches % 2
    return mp, inches, 2 * d.jump


def structure_value(d: Design) -> tuple[str, int]:
    """2.4: table 3.1 by engine row and tonnage; composite x0.5 up, reinforced x2."""
    row = T.ENGINE_ROW.get((d.engine_type, d.engine_clan, d.engine_large), "standard")
    v = T.STRUCTURE_ROWS[row][d.tons // 5 - 2]
    st = type_key(d.structure)
    if st == "composite":
        v = math.ceil(v / 2)
    elif st == "reinforced":
        v *= 2
    return row, v


def base_damage(w: WeaponItem, artemis: bool) -> float:
    """2.5 step 2: the per-bracket base value before /10."""
    s, kind = w.spec, w.spec.kind
    if kind in ("ams", "tag", "narc", "artillery"):
        return 0.0
    if kind == "lrm":
        return float((T.CLUSTER_9 if artemis else T.CLUSTER_7)[s.rack])
    if kind == "srm":
        return 2.0 * (T.CLUSTER_9 if artemis else T.CLUSTER_7)[s.rack]
    if kind == "streak":
        return 2.0 * s.rack
    if kind == "mrm":
        return T.CLUSTER_7[s.rack] * 0.95
    if kind == "lbx":
        return T.CLUSTER_7[s.rack] * 1.05
    if kind == "ultra":
        return s.damage * 1.5
    if kind == "rotary":
        return s.damage * 6.0
    return float(s.damage)


def contribution(w: WeaponItem, artemis: bool, rules: ConversionRules
                 ) -> tuple[float, float, float, float]:
    """2.5 steps 1-4 (table 3.2): reach, base /10, minimum range (S), built-in to-hit."""
    if rules.asc_weapon_values == "override" and w.spec.slot in T.WEAPON_OVERRIDES \
            and not artemis:
        return T.WEAPON_OVERRIDES[w.spec.slot]
    base = base_damage(w, artemis) / 10
    if w.spec.kind == "energy" and w.spec.to_hit:
        base *= 1 - 0.05 * w.spec.to_hit
    vals = [base if w.spec.long_range >= r else 0.0 for r in T.REACH]
    if w.spec.min_range > 0:
        vals[0] *= (12 - w.spec.min_range) / 12
    return (vals[0], vals[1], vals[2], vals[3])


def weapon_heat(w: WeaponItem) -> int:
    """2.6 step 2: table heat, Ultra x2, Rotary x6."""
    return w.spec.heat * (2 if w.spec.kind == "ultra" else 6 if w.spec.kind == "rotary" else 1)


def artemis_linked(inv: Inventory) -> set[int]:
    left: dict[str, int] = {}
    for e in inv.equipment:
        if e.spec.kind == "artemis":
            left[e.location] = left.get(e.location, 0) + 1
    out = set()
    for i, w in enumerate(inv.weapons):
        if w.spec.kind in ("lrm", "srm") and left.get(w.location, 0) > 0:
            left[w.location] -= 1
            out.add(i)
    return out


def weapon_rows(d: Design, inv: Inventory, rules: ConversionRules, der: Derivation
                ) -> list[WeaponRow]:
    """2.5 steps 1-5 for every weapon (front and rear)."""
    linked = artemis_linked(inv)
    tc = inv.has("tc")
    shots: dict[tuple[str, int], int] = {}
    for b in inv.ammo:
        n = b.read.spec.shots
        if b.read.spec.family == "AMS" and b.read.clan:
            n = 24
        shots[b.read.spec.key] = shots.get(b.read.spec.key, 0) + (n // 2 if b.read.half else n)
    der.shots = {f"{k[0]}{k[1] or ''}": v for k, v in shots.items()}
    counts: dict[str, int] = {}
    for w in inv.weapons:
        counts[w.spec.slot] = counts.get(w.spec.slot, 0) + 1
    rows = []
    for i, w in enumerate(inv.weapons):
        vals = contribution(w, i in linked, rules)
        plain = contribution(w, False, rules)
        mult, why = 1.0, []
        if w.spec.ammo is not None and w.spec.kind not in ("ams",):
            per = shots.get(w.spec.ammo, 0) // counts[w.spec.slot]
            if per < T.LOW_AMMO.get(w.spec.kind, T.LOW_AMMO_DEFAULT):
                mult *= 0.75
                why.append("low ammo x0.75")
                if w.spec.slot not in der.low_ammo:
                    der.low_ammo.append(w.spec.slot)
        if tc and w.spec.kind in _DIRECT:
            mult *= 1.1
            why.append("TC x1.1")
        rows.append(WeaponRow(w.label, w.location, w.rear, weapon_heat(w),
                              tuple(v * mult for v in vals),  # type: ignore[arg-type]
                              tuple(v * mult for v in plain),  # type: ignore[arg-type]
                              vals, why))
    return rows


def move_heat(d: Design, inv: Inventory) -> int:
    """2.6 step 2: jump heat when the unit jumps, else the engine's running heat."""
    xxl = d.engine_type == "XXL"
    if d.jump > 0:
        if inv.has("improved_jump_jet"):
            return max(3, math.ceil(d.jump / 2))
        return max(6, 2 * d.jump) if xxl else max(3, d.jump)
    return 6 if xxl else 0 if d.engine_type in ("ICE", "Fuel Cell") else 2


def _sum(rows: list[WeaponRow], attr: str = "values") -> list[float]:
    out = [0.0, 0.0, 0.0, 0.0]
    for r in rows:
        for k in range(4):
            out[k] += getattr(r, attr)[k]
    return out


def _band_text(vals: list[Dmg], bands: int) -> str:
    return "/".join("-" if v == (0, False) else dmg_text(v) for v in vals[:bands])


def convert(d: Design, inv: Inventory, rules: ConversionRules) -> Derivation:
    """Section 2: the card and its derivation (raises OutOfScope outside section 1)."""
    problems = scope_problems(d, inv)
    if problems:
        raise OutOfScope(d.name, problems, "Alpha Strike conversion")
    der = Derivation()
    der.size = size_of(d.tons)
    der.walk, der.move, der.jump = movement(d, inv)
    der.tmm = tmm_from_move(der.move)
    aw = T.ARMOR_WEIGHT.get(type_key(d.armor_type), 1.0)
    der.armor_points = sum(d.armor.values()) * aw
    der.armor = math.floor(der.armor_points / 30 + 0.5)
    der.structure_row, der.structure = structure_value(d)
    rows = weapon_rows(d, inv, rules, der)
    der.weapons = rows
    front = [r for r in rows if not r.rear]
    rear = [r for r in rows if r.rear]
    raw = _sum(front)
    der.raw = (raw[0], raw[1], raw[2], raw[3])
    cap = d.heat_sinks * (2 if d.heat_sink_type == "Double" else 1)
    der.capacity = cap
    der.move_heat = move_heat(d, inv)
    der.m_heat = der.move_heat + sum(r.heat for r in front)
    der.l_heat = der.move_heat + sum(r.heat for r in front if r.values[2] > 0)
    adj = list(raw)
    f = 1.0
    if der.m_heat - 4 > cap:
        f = cap / (der.m_heat - 4)
        adj[0], adj[1] = raw[0] * f, raw[1] * f
        der.ov = min(ru(raw[1])[0] - ru(f * raw[1])[0], 4)
    der.factor = f
    lf = 1.0
    if der.l_heat - 4 > cap:
        if der.ov > 0:
            if ru(raw[2] * cap / (der.l_heat - 4))[0] < ru(raw[2])[0]:
                der.ovl = True
                lf = f
        else:
            lf = cap / (der.l_heat - 4)
    adj[2] = raw[2] * lf
    der.adjusted = (adj[0], adj[1], adj[2], adj[3])
    dmg = [ru(x) for x in adj]
    if rules.asc_extreme == "zero":
        dmg[3] = (0, False)
    der.damage = (dmg[0], dmg[1], dmg[2], dmg[3])
    der.specials = specials(d, inv, rules, der, rows, front, rear, f, lf)
    der.pv = point_value(der)
    return der


def specials(d: Design, inv: Inventory, rules: ConversionRules, der: Derivation,
             rows: list[WeaponRow], front: list[WeaponRow], rear: list[WeaponRow],
             f: float, lf: float) -> dict[str, str]:
    """2.7 damage specials and 2.8 unit specials: code -> printed token."""
    sp: dict[str, str] = {}
    ws = inv.weapons
    by_row = dict(zip(map(id, rows), ws, strict=True))

    def cls(names: set[str]) -> list[WeaponRow]:
        return [r for r in front if by_row[id(r)].spec.kind in names]

    def scaled(sel: list[WeaponRow], fs: float, fl: float) -> list[float]:
        v = _sum(sel, "plain")
        return [v[0] * fs, v[1] * fs, v[2] * fl, v[3]]

    def m_ok(m: float) -> bool:
        return (m >= 1 - EPS) if rules.asc_special_threshold == "raw" else tenths(m) >= 10

    for code, kinds, bands in (("AC", {"ballistic"}, 3), ("LRM", {"lrm"}, 3),
                               ("SRM", {"srm", "streak"}, 2)):
        sel = cls(kinds)
        if sel:
            v = scaled(sel, f, lf)
            if m_ok(v[1]):
                sp[code] = code + _band_text([rn(x) for x in v], bands)
    flk = cls({"lbx"})
    if flk:
        v = scaled(flk, f, lf)
        if any(x > 0 for x in v[:3]):
            sp["FLK"] = "FLK" + _band_text([rn(x, True) for x in v], 3)
    ind = cls({"lrm"})
    if ind:
        lv = _sum(ind, "plain")[2] * lf
        if lv > 0:
            sp["IF"] = "IF" + dmg_text(rn(lv, True))
    if rear:
        v = _sum(rear)
        if rules.asc_rear_heat == "own":
            rh = der.move_heat + sum(r.heat for r in rear)
            rf = der.capacity / (rh - 4) if rh - 4 > der.capacity else 1.0
            v = [v[0] * rf, v[1] * rf, v[2] * rf, v[3]]
        else:
            v = [v[0] * f, v[1] * f, v[2] * lf, v[3]]
        if any(x > 0 for x in v[:3]):
            sp["REAR"] = "REAR" + _band_text([rn(x, True) for x in v], 3)
    flamers = [r for r in front if by_row[id(r)].spec.kind == "flamer"]
    if flamers:
        heat_s = 2 * len(flamers)
        ht = 2 if heat_s > 10 else 1 if heat_s > 4 else 0
        if ht:
            sp["HT"] = f"HT{ht}/-/-"
    explosive = any(b.read.spec.explosive for b in inv.ammo) or any(
        w.spec.kind == "gauss" for w in ws)
    if not explosive:
        sp["ENE"] = "ENE"
    else:
        if inv.has("case2"):
            sp["CASEII"] = "CASEII"
        elif inv.has("case") or (d.clan and rules.asc_clan_case == "megamek"):
            sp["CASE"] = "CASE"
    if inv.has("ecm"):
        sp["ECM"] = "ECM"
    if inv.has("angel_ecm"):
        sp.pop("ECM", None)
        sp["AECM"] = "AECM"
    if inv.has("probe"):
        sp["PRB"] = "PRB"
    if inv.has("bloodhound"):
        sp["BH"] = "BH"
    if inv.has("light_probe"):
        sp["LPRB"] = "LPRB"
    if any(k in sp for k in ("PRB", "BH", "LPRB")):
        sp["RCN"] = "RCN"
    if any(w.spec.kind == "ams" for w in ws):
        sp["AMS"] = "AMS"
    if any(w.spec.kind == "tag" for w in ws):
        sp["TAG"] = "TAG"
    narcs = sum(1 for w in ws if w.spec.kind == "narc")
    if narcs:
        sp["SNARC"] = "SNARC" + (str(narcs) if narcs >= 2 or rules.asc_snarc_count == "always"
                                 else "")
    arrows = sum(1 for w in ws if w.spec.kind == "artillery")
    if arrows:
        sp["ARTAIS"] = f"ARTAIS-{arrows}"
    if inv.has("hatchet") or inv.has("sword"):
        sp["MEL"] = "MEL"
    if d.tsm:
        sp["TSM"] = "TSM"
    if d.omni:
        sp["OMNI"] = "OMNI"
    if d.cockpit.strip().lower() == "command console":
        sp["MHQ"] = "MHQ1"
    at = type_key(d.armor_type)
    if at in ("ferro-lamellor", "hardened"):
        sp["CR"] = "CR"
    if at == "commercial":
        sp["BAR"] = "BAR"
    if der.ovl:
        sp["OVL"] = "OVL"
    if der.jump > 0 and der.jump != der.move:
        diff = tmm_from_move(der.jump) - der.tmm
        if diff > 0:
            sp["JMPS"] = f"JMPS{diff}"
        elif diff < 0:
            sp["JMPW"] = f"JMPW{-diff}"
    sp["SRCH"] = "SRCH"
    sp["SOA"] = "SOA"
    return sp


def _special_value(tok: str, code: str) -> float:
    rest = tok[len(code):]
    return 0.5 if rest == "0*" else float(rest or 0)


def point_value(der: Derivation) -> int:
    """2.9: base PV at skill 4, keeping each step's text in ``der.pv_lines``."""
    s, m, l_ = (dmg_value(v) for v in der.damage[:3])
    sp = der.specials
    off = s + 2 * m + l_
    ovb = 0.0
    if der.ov >= 1:
        ovb = 1 + 0.5 * (der.ov - 1)
        if m + l_ == 0:
            ovb /= 2
    size = 0.5 * der.size
    sua = 0.0
    if "IF" in sp:
        sua += _special_value(sp["IF"], "IF")
    if "HT" in sp:
        ht = [0.0 if x == "-" else float(x) for x in sp["HT"][2:].split("/")]
        sua += max(ht) + (0.5 if ht[1] > 0 else 0)
    if "OVL" in sp:
        sua += 0.25 * der.ov
    for code, val in T.OFFENSE_SPECIAL.items():
        if code in sp:
            sua += val
    if "SNARC" in sp:
        sua += _special_value(sp["SNARC"], "SNARC") or 1.0
    if "ARTAIS" in sp:
        sua += 12 * int(sp["ARTAIS"].split("-")[1])
    offense = off + ovb + size + sua
    der.pv_lines.append(f"PV offence: S+2M+L = {s:g} + {2 * m:g} + {l_:g} = {off:g}; OV bonus "
                        f"{ovb:g}; size/2 = {size:g}; SUA mods {sua:g} -> {offense:.3f}")
    highest = max(der.move, der.jump)
    jmps = int(sp["JMPS"][4:]) if "JMPS" in sp else 0
    dmove = highest / 8 + (0.5 if der.jump > 0 else 0)
    dspec = (1.0 if "AMS" in sp else 0.0) + (0.25 if "CR" in sp and der.structure >= 3 else 0)
    r = der.tmm + 0.5 * jmps
    mult = 0.1 if r <= 2 else 0.25
    dir_raw = (der.armor * 2 + der.structure) * (1 + mult * r)
    dir_ = round_half(dir_raw)
    defense = dmove + dspec + dir_
    der.pv_lines.append(f"PV defence: move {highest}/8 = {highest / 8:g}"
                        + ("; jump +0.5" if der.jump > 0 else "")
                        + (f"; specials +{dspec:g}" if dspec else "")
                        + f"; DIR = ({der.armor} x 2 + {der.structure}) x (1 + {mult:g} x "
                        f"{r:g}) = {dir_raw:.3f} -> {dir_:.1f} (to half); total {defense:.3f}")
    sub = offense + defense
    t = der.tmm + 0.5 * jmps
    agile = 0.0
    if t > 1:
        if m > 0:
            agile = round_half((t - 1) * m)
        elif der.tmm >= 3:
            agile = round_half((t - 2) * s)
    brawl = 0.0
    if highest >= 2 and not any(k in sp for k in ("ECM", "AECM", "ARTAIS")):
        only_s = s > 0 and m == 0 and l_ == 0
        if only_s and 6 <= highest <= 10:
            brawl = round_half(0.25 * sub)
        elif only_s and highest < 6:
            brawl = round_half(0.5 * sub)
        elif m > 0 and l_ == 0 and highest < 6:
            brawl = round_half(0.25 * sub)
    force = sum(v for k, v in T.FORCE_BONUS.items() if k in sp)
    if "MHQ" in sp:
        force += min(int(sp["MHQ"][3:]), 4)
    total = sub + agile - brawl + force
    pv = max(math.floor(total + 0.5 + EPS), 1)
    der.pv_lines.append(f"Subtotal {sub:.3f}; agile +{agile:g}; brawler -{brawl:g}; force "
                        f"bonus +{force:g} -> {total:.3f} -> PV {pv}")
    return pv


def pv_at_skill(pv: int, skill: int) -> int:
    """2.9 step 5 (MegaMek; reference-as-combat.md 23.1): PV at skill ``skill``."""
    if skill < 4:
        step = (1 + (pv - 3) // 5) if pv > 7 else 1
        return pv + (4 - skill) * step
    if skill > 4:
        step = (1 + (pv - 5) // 10) if pv > 14 else 1
        return max(pv - (skill - 4) * step, 1)
    return pv


def card_fields(der: Derivation, rules: ConversionRules) -> dict[str, Any]:
    hidden = ("SRCH", "SOA") if rules.asc_hidden_specials == "hide" else ()
    return {
        "size": der.size, "move": der.move, "jump": der.jump, "tmm": der.tmm,
        "armor": der.armor, "structure": der.structure,
        "dmg_s": dmg_text(der.damage[0]), "dmg_m": dmg_text(der.damage[1]),
        "dmg_l": dmg_text(der.damage[2]), "ov": der.ov,
        "specials": sorted(v for k, v in der.specials.items() if k not in hidden),
        "pv": der.pv,
    }
