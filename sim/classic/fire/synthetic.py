"""Synthetic firing 'Mechs for tests and the benchmark (no unit files needed)."""

from __future__ import annotations

from collections.abc import Sequence

from sim.classic.fire.unit import FireUnit, Mount, Pool
from sim.classic.weapons import Weapon, lookup_ammo, lookup_weapon


def _weapon(name: str, tech_base: str) -> Weapon:
    w = lookup_weapon(name, tech_base, display=True)
    if w is None:
        raise KeyError(name)
    return w


def synthetic_unit(weapons: Sequence[tuple[str, str] | tuple[str, str, bool]],
                   ammo: Sequence[tuple[str, str, int]] = (), *, sinks: int = 10,
                   double: bool = False, leg_sinks: int = 0, walk: int = 4, jump: int = 0,
                   case: Sequence[str] = (), name: str = "Synthetic",
                   tech_base: str = "Inner Sphere") -> FireUnit:
    """A :class:`FireUnit` from weapon names with locations (optionally a rear flag) and
    ammunition bins ``(ammo name, location, rounds)``.

    Names are looked up in the real weapon table (:func:`sim.classic.weapons.lookup_weapon`
    with ``display=True``): a display name (``"Medium Laser"``) resolves through
    ``tech_base`` (C20), and a table key or slot name (``"CLERLargeLaser"``) as written;
    an unknown name raises ``KeyError``."""
    mounts = tuple(Mount(w[0], _weapon(w[0], tech_base), w[1],
                         bool(w[2]) if len(w) > 2 else False) for w in weapons)
    pools: dict[str, list[tuple[str, int, int, bool]]] = {}
    for key, loc, shots in ammo:
        a = lookup_ammo(key, tech_base)
        if a is None:
            raise KeyError(key)
        pools.setdefault(a.weapon_family_key, []).append(
            (loc, shots, a.damage_per_shot, a.explosive))
    pl = tuple(Pool(k, sum(x[1] for x in v), max(x[2] for x in v), any(x[3] for x in v),
                    tuple(dict.fromkeys(x[0] for x in v)), all(x[0] in case for x in v),
                    tuple(x[1] for x in v))
               for k, v in pools.items())
    return FireUnit(name, tech_base, mounts, pl, sinks, double, leg_sinks, walk, jump,
                    True, ())


def bench_mech() -> FireUnit:
    """Seven forward weapons (2 Medium Laser, Large Laser, AC/10, LRM 15, SRM 4, Ultra AC/5)
    on 18 single sinks (27 heat firing everything): heat climbs under policy ``all``."""
    return synthetic_unit(
        [("Medium Laser", "LA"), ("Medium Laser", "RA"), ("Large Laser", "RA"),
         ("AC/10", "RT"), ("LRM 15", "LT"), ("SRM 4", "LT"), ("Ultra AC/5", "CT")],
        [("IS Ammo AC/10", "RT", 10), ("IS Ammo LRM-15", "LT", 8), ("IS Ammo SRM-4", "LT", 25),
         ("IS Ammo Ultra AC/5", "CT", 20)], sinks=18, name="Bench-7")
