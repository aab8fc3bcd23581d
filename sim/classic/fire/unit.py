"""A firing 'Mech (reference part 2, 10.1-10.3) built from a :class:`ClassicMech` through the
weapon table.

Mounts are read from ``mech.weapon_mounts`` / ``mech.ammo_bins`` (CONTRACTS 1) when present;
otherwise from the critical slots of an ``.mtf`` file (a run of identical slot strings is
``ceil(run / slots)`` mounts); otherwise (catalog entry without slots) from the ``Weapons:``
list, with a note that rear mounting and ammunition bins are unknown. Rear-mounted weapons
never fire at a target in the front arc and add no heat (10.1).
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass, field

from sim.classic.weapons import WEAPONS, Weapon, lookup_ammo, lookup_weapon
from sim.errors import UserError
from sim.units.types import LOCATIONS, ClassicMech


@dataclass(frozen=True)
class Mount:
    """One weapon mount: the name as written, the weapon (None if unknown), location, rear."""

    name: str
    weapon: Weapon | None
    location: str
    rear: bool
    line: int | None = None


@dataclass(frozen=True)
class Pool:
    """All ammunition of one type (bins fed in slot order, 10.3 "Ammo feed")."""

    key: str                  # AmmoType.weapon_family_key (matched by Weapon.ammo)
    shots: int                # total rounds in all bins
    damage_per_shot: int      # explosion damage per round (14.4)
    explosive: bool
    locations: tuple[str, ...]
    contained: bool           # every bin sits in a CASE / CASE II location


@dataclass(frozen=True)
class FireUnit:
    """What the fire model needs of a 'Mech."""

    name: str
    tech_base: str
    mounts: tuple[Mount, ...]
    pools: tuple[Pool, ...]
    heat_sinks: int
    double_sinks: bool
    leg_sinks: int
    walk_mp: int
    jump_mp: int
    ammo_known: bool
    notes: tuple[str, ...] = field(default_factory=tuple)

    def pool_index(self, w: Weapon) -> int:
        """Index of the pool feeding ``w``; -1 for energy weapons or unknown ammunition."""
        if w.ammo is None:
            return -1
        for i, p in enumerate(self.pools):
            if p.key == w.ammo:
                return i
        return -1


_SUFFIX = re.compile(r"\s*\((R|OMNIPOD|T)\)", re.I)


def _clean(name: str) -> tuple[str, bool]:
    rear = bool(re.search(r"\(R\)", name, re.I))
    return _SUFFIX.sub("", name).strip(), rear


def _mounts_from_slots(mech: ClassicMech) -> list[Mount]:
    """Mounts from slot runs: a run of ``k`` identical weapon slots in one location is
    ``k // slots`` mounts there; the partial runs of a weapon (a split weapon, e.g. an AC/20
    across RT and RA) make ``ceil(sum / slots)`` more mounts, placed where most of it sits."""
    out: list[Mount] = []
    partial: dict[tuple[str, bool], list[tuple[str, int, Weapon]]] = {}
    for loc in LOCATIONS:
        entries = list(mech.slots.get(loc, ()))
        i = 0
        while i < len(entries):
            e = entries[i]
            if e is None or lookup_ammo(e, mech.tech_base) is not None:
                i += 1
                continue
            clean, rear = _clean(e)
            w = lookup_weapon(clean, mech.tech_base)
            if w is None:
                i += 1
                continue
            j = i
            while j < len(entries) and entries[j] == e:
                j += 1
            full, rest = divmod(j - i, max(1, getattr(w, "slots", 1)))
            out.extend(Mount(clean, w, loc, rear) for _ in range(full))
            if rest:
                partial.setdefault((w.key, rear), []).append((loc, rest, w))
            i = j
    for (_, rear), parts in partial.items():
        w = parts[0][2]
        loc = max(parts, key=lambda x: x[1])[0]
        n = math.ceil(sum(x[1] for x in parts) / max(1, getattr(w, "slots", 1)))
        out.extend(Mount(w.name, w, loc, rear) for _ in range(n))
    return out


def _sinks_in_legs(mech: ClassicMech) -> int:
    n = 0
    for loc in ("LL", "RL"):
        n += sum(1 for e in mech.slots.get(loc, ()) if e and "heatsink" in
                 re.sub(r"[^a-z]", "", e.lower()))
    return n


def fire_unit(mech: ClassicMech) -> FireUnit:
    """Build the firing view of ``mech``. A weapon the table lacks is an error naming it
    (issue 11: only when the unit is asked to fire)."""
    notes: list[str] = []
    mounts: list[Mount]
    wm = getattr(mech, "weapon_mounts", ())
    if wm:
        mounts = [Mount(m.name, WEAPONS.get(m.weapon) if m.weapon else
                        lookup_weapon(m.name, mech.tech_base), m.location, m.rear, m.line)
                  for m in wm]
    elif mech.slots:
        mounts = _mounts_from_slots(mech)
    else:
        mounts = [Mount(n, lookup_weapon(n, mech.tech_base), loc, False)
                  for n, loc in mech.weapons]
        notes.append("weapon mounts from the unit's Weapons: list (no critical slots): rear "
                     "mounting unknown, every weapon assumed forward")
    unknown = [m for m in mounts if m.weapon is None]
    if unknown:
        m = unknown[0]
        where = f"{m.location}" + (f", line {m.line}" if m.line else "")
        raise UserError(f"{mech.name}: weapon {m.name!r} ({where}) is not in the weapon "
                        "table; it cannot fire")
    bins: list[tuple[str, str, int]] = []   # (ammo key, location, shots)
    ab = getattr(mech, "ammo_bins", ())
    ammo_known = True
    if ab:
        bins = [(b.ammo or b.name, b.location, int(b.shots)) for b in ab]
    elif mech.slots:
        for loc in LOCATIONS:
            for e in mech.slots.get(loc, ()):
                a = lookup_ammo(e, mech.tech_base) if e else None
                if a is not None:
                    half = "half" in e.lower()
                    bins.append((a.key, loc, a.shots_per_ton // 2 if half else a.shots_per_ton))
    else:
        ammo_known = False
        notes.append("ammunition bins unknown (no critical slots): ammunition is not limited "
                     "and cannot explode; read the .mtf file for bins")
    protected = set(mech.case_locations) | set(mech.case2_locations)
    pools: dict[str, list[tuple[str, int, int, bool]]] = {}
    for key, loc, shots in bins:
        a = lookup_ammo(key, mech.tech_base)
        if a is None:
            notes.append(f"ammunition {key!r} ({loc}) not in the ammunition table: ignored")
            continue
        pools.setdefault(a.weapon_family_key, []).append(
            (loc, shots, a.damage_per_shot, a.explosive))
    pool_list = tuple(
        Pool(k, sum(s for _, s, _, _ in v), max(d for _, _, d, _ in v),
             any(x for _, _, _, x in v), tuple(dict.fromkeys(loc for loc, _, _, _ in v)),
             all(loc in protected for loc, _, _, _ in v))
        for k, v in pools.items())
    leg = _sinks_in_legs(mech) if mech.slots else 0
    eng = getattr(mech, "engine_heat_sinks", None)
    return FireUnit(mech.name, mech.tech_base, tuple(mounts), pool_list, mech.heat_sinks,
                    mech.heat_sink_type.lower().startswith("double"), leg, mech.walk_mp,
                    mech.jump_mp, ammo_known, tuple(notes) + (
                        () if mech.slots or eng else
                        ("leg-mounted heat sinks unknown (no critical slots): depth-1 water "
                         "cooling counts none under C17 'legs'",)))
