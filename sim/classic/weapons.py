"""TEMPORARY weapon table for the fire model (replaced by the ``units`` helper's data-backed
module at merge; same public API, CONTRACTS section 1).

Numbers from rules reference part 2, section 10.2 (all rows agree across [MM] and [TWT]).
Keys are the tech prefix ``"IS "`` / ``"Clan "`` plus the display name. ``slots`` (critical
slots per mount) is an extra field used only to count mounts from ``.mtf`` slot runs.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass

SOURCE = "reference-classic-combat.md 10.2 [MM][TWT]"


@dataclass(frozen=True)
class Weapon:
    """One weapon (CONTRACTS 1). Cluster weapons: ``damage`` per missile/pellet."""

    key: str
    name: str
    tech: str
    family: str
    damage: int
    heat: int
    min_range: int
    short: int
    medium: int
    long: int
    to_hit_mod: int
    cluster: int
    group: int
    rate: int
    ammo: str | None
    explosive: bool
    source: str
    slots: int = 1


@dataclass(frozen=True)
class AmmoType:
    """One ammunition type (CONTRACTS 1)."""

    key: str
    weapon_family_key: str
    shots_per_ton: int
    damage_per_shot: int
    explosive: bool
    source: str


# name, family, damage, heat, min, S, M, L, to-hit, cluster, group, rate, ammo, slots
_IS = [
    ("Small Laser", "laser", 3, 1, 0, 1, 2, 3, 0, 0, 0, 1, None, 1),
    ("Medium Laser", "laser", 5, 3, 0, 3, 6, 9, 0, 0, 0, 1, None, 1),
    ("Large Laser", "laser", 8, 8, 0, 5, 10, 15, 0, 0, 0, 1, None, 2),
    ("ER Small Laser", "laser", 3, 2, 0, 2, 4, 5, 0, 0, 0, 1, None, 1),
    ("ER Medium Laser", "laser", 5, 5, 0, 4, 8, 12, 0, 0, 0, 1, None, 1),
    ("ER Large Laser", "laser", 8, 12, 0, 7, 14, 19, 0, 0, 0, 1, None, 2),
    ("Small Pulse Laser", "pulse", 3, 2, 0, 1, 2, 3, -2, 0, 0, 1, None, 1),
    ("Medium Pulse Laser", "pulse", 6, 4, 0, 2, 4, 6, -2, 0, 0, 1, None, 1),
    ("Large Pulse Laser", "pulse", 9, 10, 0, 3, 7, 10, -2, 0, 0, 1, None, 2),
    ("PPC", "ppc", 10, 10, 3, 6, 12, 18, 0, 0, 0, 1, None, 3),
    ("ER PPC", "ppc", 10, 15, 0, 7, 14, 23, 0, 0, 0, 1, None, 3),
    ("Flamer", "flamer", 2, 3, 0, 1, 2, 3, 0, 0, 0, 1, None, 1),
    ("Machine Gun", "mg", 2, 0, 0, 1, 2, 3, 0, 0, 0, 1, "MG", 1),
    ("AC/2", "ac", 2, 1, 4, 8, 16, 24, 0, 0, 0, 1, "AC/2", 1),
    ("AC/5", "ac", 5, 1, 3, 6, 12, 18, 0, 0, 0, 1, "AC/5", 4),
    ("AC/10", "ac", 10, 3, 0, 5, 10, 15, 0, 0, 0, 1, "AC/10", 7),
    ("AC/20", "ac", 20, 7, 0, 3, 6, 9, 0, 0, 0, 1, "AC/20", 10),
    ("LB 10-X AC", "lbx", 10, 2, 0, 6, 12, 18, 0, 10, 1, 1, "LB 10-X", 6),
    ("Ultra AC/5", "ultra", 5, 1, 2, 6, 13, 20, 0, 0, 0, 2, "Ultra AC/5", 5),
    ("Ultra AC/10", "ultra", 10, 4, 0, 6, 12, 18, 0, 0, 0, 2, "Ultra AC/10", 7),
    ("Rotary AC/5", "rotary", 5, 1, 0, 5, 10, 15, 0, 0, 0, 6, "Rotary AC/5", 6),
    ("Gauss Rifle", "gauss", 15, 1, 2, 7, 15, 22, 0, 0, 0, 1, "Gauss", 7),
    ("LRM 5", "lrm", 1, 2, 6, 7, 14, 21, 0, 5, 5, 1, "LRM-5", 1),
    ("LRM 10", "lrm", 1, 4, 6, 7, 14, 21, 0, 10, 5, 1, "LRM-10", 2),
    ("LRM 15", "lrm", 1, 5, 6, 7, 14, 21, 0, 15, 5, 1, "LRM-15", 3),
    ("LRM 20", "lrm", 1, 6, 6, 7, 14, 21, 0, 20, 5, 1, "LRM-20", 5),
    ("SRM 2", "srm", 2, 2, 0, 3, 6, 9, 0, 2, 2, 1, "SRM-2", 1),
    ("SRM 4", "srm", 2, 3, 0, 3, 6, 9, 0, 4, 2, 1, "SRM-4", 1),
    ("SRM 6", "srm", 2, 4, 0, 3, 6, 9, 0, 6, 2, 1, "SRM-6", 2),
    ("Streak SRM 2", "streak", 2, 2, 0, 3, 6, 9, 0, 2, 2, 1, "Streak SRM-2", 1),
    ("Streak SRM 4", "streak", 2, 3, 0, 3, 6, 9, 0, 4, 2, 1, "Streak SRM-4", 1),
    ("Streak SRM 6", "streak", 2, 4, 0, 3, 6, 9, 0, 6, 2, 1, "Streak SRM-6", 2),
    ("MRM 10", "mrm", 1, 4, 0, 3, 8, 15, 1, 10, 5, 1, "MRM-10", 2),
    ("MRM 20", "mrm", 1, 6, 0, 3, 8, 15, 1, 20, 5, 1, "MRM-20", 3),
    ("Anti-Missile System", "equipment", 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, "AMS", 1),
    ("Narc", "equipment", 0, 0, 0, 3, 6, 9, 0, 0, 0, 1, "Narc", 2),
    ("TAG", "equipment", 0, 0, 0, 5, 9, 15, 0, 0, 0, 1, None, 1),
]
_CLAN = [
    ("ER Small Laser", "laser", 5, 2, 0, 2, 4, 6, 0, 0, 0, 1, None, 1),
    ("ER Medium Laser", "laser", 7, 5, 0, 5, 10, 15, 0, 0, 0, 1, None, 1),
    ("ER Large Laser", "laser", 10, 12, 0, 8, 15, 25, 0, 0, 0, 1, None, 1),
    ("Small Pulse Laser", "pulse", 3, 2, 0, 2, 4, 6, -2, 0, 0, 1, None, 1),
    ("Medium Pulse Laser", "pulse", 7, 4, 0, 4, 8, 12, -2, 0, 0, 1, None, 1),
    ("Large Pulse Laser", "pulse", 10, 10, 0, 6, 14, 20, -2, 0, 0, 1, None, 2),
    ("ER PPC", "ppc", 15, 15, 0, 7, 14, 23, 0, 0, 0, 1, None, 2),
    ("Flamer", "flamer", 2, 3, 0, 1, 2, 3, 0, 0, 0, 1, None, 1),
    ("Machine Gun", "mg", 2, 0, 0, 1, 2, 3, 0, 0, 0, 1, "MG", 1),
    ("LB 10-X AC", "lbx", 10, 2, 0, 6, 12, 18, 0, 10, 1, 1, "LB 10-X", 5),
    ("Ultra AC/5", "ultra", 5, 1, 0, 7, 14, 21, 0, 0, 0, 2, "Ultra AC/5", 3),
    ("Ultra AC/10", "ultra", 10, 3, 0, 6, 12, 18, 0, 0, 0, 2, "Ultra AC/10", 4),
    ("Gauss Rifle", "gauss", 15, 1, 2, 7, 15, 22, 0, 0, 0, 1, "Gauss", 6),
    ("LRM 5", "lrm", 1, 2, 0, 7, 14, 21, 0, 5, 5, 1, "LRM-5", 1),
    ("LRM 10", "lrm", 1, 4, 0, 7, 14, 21, 0, 10, 5, 1, "LRM-10", 1),
    ("LRM 15", "lrm", 1, 5, 0, 7, 14, 21, 0, 15, 5, 1, "LRM-15", 2),
    ("LRM 20", "lrm", 1, 6, 0, 7, 14, 21, 0, 20, 5, 1, "LRM-20", 4),
    ("SRM 2", "srm", 2, 2, 0, 3, 6, 9, 0, 2, 2, 1, "SRM-2", 1),
    ("SRM 4", "srm", 2, 3, 0, 3, 6, 9, 0, 4, 2, 1, "SRM-4", 1),
    ("SRM 6", "srm", 2, 4, 0, 3, 6, 9, 0, 6, 2, 1, "SRM-6", 1),
    ("Streak SRM 2", "streak", 2, 2, 0, 4, 8, 12, 0, 2, 2, 1, "Streak SRM-2", 1),
    ("Streak SRM 4", "streak", 2, 3, 0, 4, 8, 12, 0, 4, 2, 1, "Streak SRM-4", 1),
    ("Streak SRM 6", "streak", 2, 4, 0, 4, 8, 12, 0, 6, 2, 1, "Streak SRM-6", 2),
    ("Anti-Missile System", "equipment", 0, 1, 0, 0, 0, 0, 0, 0, 0, 1, "AMS", 1),
]
# ammo family suffix -> (shots per ton, damage per shot incl. rack size)
_AMMO = {
    "MG": (200, 2), "AC/2": (45, 2), "AC/5": (20, 5), "AC/10": (10, 10), "AC/20": (5, 20),
    "LB 10-X": (10, 10), "Ultra AC/5": (20, 5), "Ultra AC/10": (10, 10),
    "Rotary AC/5": (20, 5), "Gauss": (8, 15), "LRM-5": (24, 5), "LRM-10": (12, 10),
    "LRM-15": (8, 15), "LRM-20": (6, 20), "SRM-2": (50, 4), "SRM-4": (25, 8),
    "SRM-6": (15, 12), "Streak SRM-2": (50, 4), "Streak SRM-4": (25, 8),
    "Streak SRM-6": (15, 12), "MRM-10": (24, 10), "MRM-20": (12, 20), "AMS": (12, 2),
    "Narc": (6, 0),
}


def _build() -> tuple[dict[str, Weapon], dict[str, AmmoType]]:
    weapons: dict[str, Weapon] = {}
    ammo: dict[str, AmmoType] = {}
    for tech, rows in (("IS", _IS), ("Clan", _CLAN)):
        for (name, fam, dmg, heat, mn, s, m, lo, thm, cl, grp, rate, am, slots) in rows:
            akey = None if am is None else f"{tech} Ammo {am}"
            key = f"{tech} {name}"
            weapons[key] = Weapon(key, name, tech, fam, dmg, heat, mn, s, m, lo, thm, cl, grp,
                                  rate, akey, fam == "gauss", SOURCE, slots)
            if akey is not None and akey not in ammo:
                spt, dps = _AMMO[am]
                if tech == "Clan" and am == "AMS":
                    spt = 24
                ammo[akey] = AmmoType(akey, akey, spt, dps, am != "Gauss", SOURCE)
                if fam == "lbx":
                    ck = f"{tech} Ammo {am} Cluster"
                    ammo[ck] = AmmoType(ck, akey, spt, dps, True, SOURCE)
    return weapons, ammo


WEAPONS: Mapping[str, Weapon]
AMMO: Mapping[str, AmmoType]
WEAPONS, AMMO = _build()


def _norm(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def _splits(n: str) -> list[tuple[str | None, str]]:
    """Every reading of a normalized name as (tech prefix, rest); "clantimissilesystem" is
    both "clan"+"timissile..." and "cl"+"antimissile...", so callers try them all."""
    out: list[tuple[str | None, str]] = []
    for prefix, tech in (("clan", "Clan"), ("cl", "Clan"), ("is", "IS")):
        if n.startswith(prefix):
            out.append((tech, n[len(prefix):]))
    return out + [(None, n)]


_SUFFIXES = re.compile(r"\s*\((R|OMNIPOD|T)\)", re.I)


_WALIAS: dict[tuple[str, str], str] = {}
for _w in WEAPONS.values():
    base = _norm(_w.name)
    forms = {base}
    if _w.family == "ac":
        forms |= {"autocannon" + base[2:], "ac" + base[2:]}
    if _w.family == "lbx":
        forms |= {"lbxac" + re.sub(r"\D", "", base)}
    if _w.family == "ultra":
        forms |= {"ultraac" + base[7:], "uac" + base[7:]}
    if _w.family == "rotary":
        forms |= {"rac" + base[9:]}
    if _w.family == "mg":
        forms |= {"mg"}
    if _w.family == "pulse":
        size = base.replace("pulselaser", "")
        forms |= {"pulse" + {"medium": "med"}.get(size, size) + "laser"}
    if _w.name == "PPC":
        forms |= {"particlecannon"}
    if _w.name == "Anti-Missile System":
        forms |= {"ams", "antimissilesys", "antimissilesystem"}
    if _w.name == "Narc":
        forms |= {"narcbeacon", "narcmissilebeacon"}
    for f in forms:
        _WALIAS[(_w.tech, f)] = _w.key


def lookup_weapon(name: str, tech_base: str = "Inner Sphere") -> Weapon | None:
    """The weapon for a slot string, key or display name; ``None`` if unknown.

    An explicit prefix (``IS``, ``CL``, ``Clan``) picks the tech; otherwise ``tech_base``
    (``"Clan"`` or anything else for Inner Sphere), then the other tech (C20; one MegaMek
    class serves both techs for e.g. the Small Laser)."""
    text = _SUFFIXES.sub("", name).strip()
    if text in WEAPONS:
        return WEAPONS[text]
    base = "Clan" if tech_base.strip().lower() == "clan" else "IS"
    for tech, rest in _splits(_norm(text)):
        first = tech or base
        for t in (first, "IS" if first == "Clan" else "Clan"):
            key = _WALIAS.get((t, rest))
            if key:
                return WEAPONS[key]
    return None


def lookup_ammo(name: str, tech_base: str = "Inner Sphere") -> AmmoType | None:
    """The ammunition type of an ammo slot string (``IS Ammo AC/20``, ``Clan Streak SRM 6
    Ammo``, ``IS Ammo MG - Full``...); ``None`` if not ammunition or unknown."""
    text = _SUFFIXES.sub("", name).strip()
    if text in AMMO:
        return AMMO[text]
    n = _norm(text)
    if "ammo" not in n:
        return None
    cluster = "cluster" in n
    n = n.replace("ammo", "").replace("full", "").replace("half", "").replace("cluster", "")
    base = "Clan" if tech_base.strip().lower() == "clan" else "IS"
    for tech, rest in _splits(n):
        tech = tech or base
        rest = rest.replace("machinegun", "mg").replace("autocannon", "ac")
        for a in AMMO.values():
            if not a.key.startswith(tech + " ") or a.key.endswith("Cluster") != cluster:
                continue
            fam = _norm(a.key.split(" Ammo ", 1)[1].replace(" Cluster", ""))
            if rest in (fam, fam + "ac", fam.replace("lb10x", "lb10xac")):
                return a
    return None
